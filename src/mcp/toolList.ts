import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS } from '../core/registry';
import type { ToolName } from '../core/tool';
import { toolDeclaration } from '../core/toolDeclarations';

/** The tools that reach the open web; the others read only the workspace. */
export const WEB_TOOLS: readonly ToolName[] = ['web_search', 'web_fetch'];

/**
 * The MCP `tools/list` entries: every tool of the core registry, in its order, with exactly the name,
 * description (`modelDescription`) and JSON Schema input (`inputSchema`) that package.json
 * `contributes.languageModelTools` gives the VS Code tools (bundled from the manifest, never copied), and its
 * `displayName` as the title.
 *
 * Annotations: glob, grep and workspace_search only read the workspace (`readOnlyHint`, closed world). The web
 * tools are not marked read-only although they change nothing locally: a URL or query the model writes leaves
 * the machine, and can carry what it read to any site (a page that injects instructions could ask for that).
 * Some clients skip their confirmation for read-only tools; this keeps the question for web_fetch and
 * web_search (`openWorldHint`; `destructiveHint` is left to its default).
 *
 * @throws Error when a registered tool has no declaration in package.json (a build mistake, caught by tests).
 */
export function mcpToolList(): Tool[] {
  return (Object.keys(TOOLS) as ToolName[]).map((name) => {
    const declared = toolDeclaration(name);
    return {
      name,
      title: declared.displayName,
      description: declared.modelDescription,
      inputSchema: declared.inputSchema as Tool['inputSchema'],
      annotations: WEB_TOOLS.includes(name)
        ? { title: declared.displayName, readOnlyHint: false, openWorldHint: true }
        : { title: declared.displayName, readOnlyHint: true, openWorldHint: false },
    };
  });
}
