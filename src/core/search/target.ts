import { quoteValue, ToolError } from '../errors';
import { VCS_DIRECTORIES } from '../ripgrep/argv';
import { runRipgrep, type RipgrepExit } from '../ripgrep/process';
import type { ToolEnv } from '../tool';
import { resolveTarget, type ResolvedTarget } from '../workspace/folders';

/**
 * Resolves a search tool's `path` (see `resolveTarget`: multi-root names, realpath, containment unless
 * `scout.search.allowPathsOutsideWorkspace`, one answer for every outside path) and checks its kind: glob
 * needs a directory (seed 000), grep a file or a directory. A path that is or lies inside version-control
 * metadata (`.git`, `.svn`, `.hg`, `.bzr`, `.jj`, `.sl`) is refused, also through a symlink: seed 000 keeps it
 * out of glob "even when root is .git", and grep would read it (`.git/config` can hold a token).
 *
 * @throws ToolError NO_WORKSPACE | PATH_OUTSIDE_WORKSPACE | INVALID_ARGUMENT
 */
export async function resolveSearchTarget(
  pathArg: string | undefined,
  env: ToolEnv,
  accepts: 'directory' | 'file-or-directory',
): Promise<ResolvedTarget> {
  const target = await resolveTarget(pathArg, env.folders, {
    allowOutside: env.config.search.allowPathsOutsideWorkspace,
    refuseInside: { names: VCS_DIRECTORIES, refuse: (segment) => insideVcsMetadata('path', pathArg ?? '.', segment) },
  });
  if (accepts === 'directory' && target.kind !== 'directory') {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `path ${quoteValue(pathArg ?? '.')} is ${target.kind === 'file' ? 'a file' : 'not a directory'}; glob lists files under a directory. Pass a directory (or omit path), or use grep to search inside this file.`,
    );
  }
  if (target.kind === 'other') {
    throw new ToolError('INVALID_ARGUMENT', `path ${quoteValue(pathArg ?? '.')} is neither a regular file nor a directory. Pass a file or a directory.`);
  }
  return target;
}

/**
 * The refusal of an argument (`path`, `pattern`, `include`) that reaches into version-control metadata, whose
 * directory `segment` names.
 */
export function insideVcsMetadata(argument: string, value: string, segment: string): ToolError {
  return new ToolError(
    'INVALID_ARGUMENT',
    `${argument} ${quoteValue(value)} reaches into ${quoteValue(segment)}, version-control metadata that glob and grep never list or search: it can hold credentials, such as a remote URL with a token. Search the working files instead.`,
  );
}

/**
 * The line that closes every glob and grep result, stating the workdir the listed paths are relative to
 * (issue 2). In a multi-root workspace it names the folder too, since a later `path` may start with it.
 */
export function workdirNote(target: ResolvedTarget, env: ToolEnv): string {
  return env.folders.length > 1
    ? `Paths are relative to ${target.workdir} (workspace folder "${target.folderName}").`
    : `Paths are relative to ${target.workdir}.`;
}

/**
 * rg prints paths under the search path exactly as given, so searching `.` yields `./a/b`; this is the
 * number of leading bytes to drop from each output path so paths read `a/b` (0 for any other search path).
 */
export function outputPrefixLength(searchPath: string): number {
  return searchPath === '.' ? 2 : 0;
}

/**
 * Runs rg for a glob or grep call in `target.workdir`, with the call's signal and the `scout.search` budgets
 * (timeoutMs, graceMs, rawOutputMaxBytes, stderrMaxBytes), handing stdout to `onStdout` chunk by chunk.
 * Logs the argv at trace level.
 *
 * @param timeoutMs ms before rg is stopped; defaults to `scout.search.timeoutMs` (the counts behind an
 *   explanation pass what is left of their own budget).
 * @throws ToolError SEARCH_ABORTED | SEARCH_RAW_OUTPUT_OVERFLOW | SEARCH_FAILED (see `runRipgrep`)
 */
export function runSearch(
  tool: 'glob' | 'grep',
  argv: readonly string[],
  target: ResolvedTarget,
  env: ToolEnv,
  onStdout: (chunk: Buffer) => void,
  timeoutMs = env.config.search.timeoutMs,
): Promise<RipgrepExit> {
  const config = env.config.search;
  env.log.trace(`${tool}: ${env.ripgrepPath} ${JSON.stringify(argv)} in ${target.workdir}`);
  return runRipgrep({
    rgPath: env.ripgrepPath,
    args: argv,
    cwd: target.workdir,
    signal: env.signal,
    timeoutMs,
    graceMs: config.graceMs,
    rawOutputMaxBytes: config.rawOutputMaxBytes,
    stderrMaxBytes: config.stderrMaxBytes,
    onStdout,
  });
}
