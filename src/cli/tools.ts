import type { ScoutTool, ToolName } from '../core/tool';

/**
 * The tools the CLI runs, each loaded only when it is called: a one-shot `glob` must not pay for
 * loading web_fetch's HTTP stack, web_search's providers and their locale tables, workspace_search's worker
 * client, or the argument schemas of tools it does not run. esbuild keeps each `require` below lazy in the
 * bundle (the module's code runs on the first call). The same tools as `TOOLS` in core/registry.ts, which the
 * CLI's tests check.
 */
const LOADERS: Record<ToolName, () => ScoutTool<any, any>> = {
  glob: () => (require('../core/search/glob') as typeof import('../core/search/glob')).globTool,
  grep: () => (require('../core/search/grep') as typeof import('../core/search/grep')).grepTool,
  workspace_search: () => (require('../core/workspaceSearch/tool') as typeof import('../core/workspaceSearch/tool')).workspaceSearchTool,
  web_search: () => (require('../core/web/search/tool') as typeof import('../core/web/search/tool')).webSearchTool,
  web_fetch: () => (require('../core/web/fetch/tool') as typeof import('../core/web/fetch/tool')).webFetchTool,
};

/** Every tool name the CLI accepts, in the order the usage text lists them. */
export const CLI_TOOL_NAMES = Object.keys(LOADERS) as ToolName[];

/** True when `name` is one of {@link CLI_TOOL_NAMES}. */
export function isCliTool(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(LOADERS, name);
}

/** Loads the tool `name` (its module runs once, on the first call). */
export function loadTool(name: ToolName): ScoutTool<any, any> {
  return LOADERS[name]();
}
