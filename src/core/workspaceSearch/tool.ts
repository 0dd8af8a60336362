import type { ScoutTool } from '../tool';
import { parseWorkspaceSearchArguments, type WorkspaceSearchArgs } from './arguments';
import type { WorkspaceSearchReport } from './report';
import { searchWorkspace } from './search';

/**
 * `workspace_search` (seed 003): bounded literal search of UTF-8 lines in one workspace folder, done in
 * process (no ripgrep, no shell). The model's text and the canonical value are the same JSON report.
 */
export const workspaceSearchTool: ScoutTool<WorkspaceSearchArgs, WorkspaceSearchReport> = {
  name: 'workspace_search',
  parse: (input) => parseWorkspaceSearchArguments(input),
  async run(args, env) {
    const { value, text } = await searchWorkspace(args, env);
    return {
      text,
      value,
      summary: { matches: value.matchCount, files: value.scannedFiles, skipped: value.skippedFiles, truncated: value.truncated },
    };
  },
};
