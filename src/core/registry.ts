import type { ScoutTool, ToolName } from './tool';
import { globTool } from './search/glob';
import { grepTool } from './search/grep';
import { workspaceSearchTool } from './workspaceSearch/tool';
import { webFetchTool } from './web/fetch/tool';
import { webSearchTool } from './web/search/tool';

/** Every Scout tool by name: the one list the VS Code layer and the CLI both serve. */
export const TOOLS: Partial<Record<ToolName, ScoutTool<any, any>>> = {
  glob: globTool,
  grep: grepTool,
  workspace_search: workspaceSearchTool,
  web_search: webSearchTool,
  web_fetch: webFetchTool,
};

/** Looks a tool up by name; undefined for an unknown name. */
export function findTool(name: string): ScoutTool<any, any> | undefined {
  return Object.prototype.hasOwnProperty.call(TOOLS, name) ? TOOLS[name as ToolName] : undefined;
}
