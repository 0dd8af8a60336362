import type { ToolEnv } from '../tool';
import type { WorkspaceSearchArgs } from './arguments';
import { searchCancelled } from './cancellation';
import { buildReport, type WorkspaceSearchReport } from './report';
import { excludedNameTest, resolveSearchRoot } from './target';
import { runScanInWorker } from './workerClient';

/**
 * Runs one `workspace_search` (seed 003): resolves `path` to a canonical root inside the workspace (on the
 * calling thread), scans it on the search worker, and builds the capped report.
 *
 * @returns the report and its text (`reportText(value)`: JSON that parses back to `value`)
 * @throws ToolError NO_WORKSPACE | PATH_OUTSIDE_WORKSPACE | INVALID_ARGUMENT | WORKSPACE_SEARCH_FAILED | WORKSPACE_SEARCH_ABORTED
 */
export async function searchWorkspace(
  args: WorkspaceSearchArgs,
  env: Pick<ToolEnv, 'folders' | 'config' | 'signal' | 'progress'>,
): Promise<{ value: WorkspaceSearchReport; text: string }> {
  if (env.signal.aborted) throw searchCancelled();
  const { excludedDirectories } = env.config.workspaceSearch;
  const root = await resolveSearchRoot(args.path, env.folders, excludedNameTest(excludedDirectories));
  const outcome = await runScanInWorker(
    {
      rootPath: root.absPath,
      rootRelPath: root.relPath,
      rootKind: root.kind,
      excludedDirectories,
      platform: process.platform,
      query: args.query,
      caseSensitive: args.caseSensitive,
      maxResults: args.maxResults,
    },
    env.signal,
    env.progress && ((done, total) => env.progress!(`Searched ${done} of ${total} files`, { done, total })),
  );
  return buildReport(
    { query: args.query, caseSensitive: args.caseSensitive, maxResults: args.maxResults, workspaceFolder: root.folderName, path: root.relPath },
    outcome,
  );
}
