import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { jsonQuote } from '../controlCharacters';
import { quoteValue, ToolError } from '../errors';
import { withNoRequireGit, VCS_DIRECTORIES } from '../ripgrep/argv';
import { runRipgrep, type RipgrepExit } from '../ripgrep/process';
import type { ToolEnv } from '../tool';
import { MissingPathError, resolveTarget, type ResolvedTarget } from '../workspace/folders';
import { displayPath } from './page';
import type { SearchProgress } from './progress';

/** A search tool's resolved `path`, and a note when it was read otherwise than written. */
export interface SearchTarget {
  readonly target: ResolvedTarget;
  readonly note?: string;
}

/**
 * Resolves a search tool's `path` (see `resolveTarget`: multi-root names, realpath, containment unless
 * `scout.search.allowPathsOutsideWorkspace`, one answer for every outside path) and checks its kind: glob
 * needs a directory (seed 000), grep a file or a directory. A path that is or lies inside version-control
 * metadata (`.git`, `.svn`, `.hg`, `.bzr`, `.jj`, `.sl`) is refused, also through a symlink: seed 000 keeps it
 * out of glob "even when root is .git", and grep would read it (`.git/config` can hold a token).
 *
 * A path that does not exist is read without the white space around it when that exists (as rg drops a
 * glob's trailing white space), with a note; one holding wildcards is answered with the advice to put the
 * glob in `pattern` or `include`, since `path` is never a glob.
 *
 * @throws ToolError NO_WORKSPACE | PATH_OUTSIDE_WORKSPACE | INVALID_ARGUMENT
 */
export async function resolveSearchTarget(pathArg: string | undefined, env: ToolEnv, accepts: 'directory' | 'file-or-directory'): Promise<SearchTarget> {
  const resolve = (p: string | undefined) =>
    resolveTarget(p, env.folders, {
      allowOutside: env.config.search.allowPathsOutsideWorkspace,
      refuseInside: { names: VCS_DIRECTORIES, refuse: (segment) => insideVcsMetadata('path', pathArg ?? '.', segment) },
    });
  let target: ResolvedTarget;
  let note: string | undefined;
  try {
    target = await resolve(pathArg);
  } catch (e) {
    if (!(e instanceof MissingPathError) || e.permissionDenied || pathArg === undefined) throw e;
    const trimmed = pathArg.trim();
    if (trimmed === pathArg || trimmed === '') throw notAGlob(e, pathArg, accepts);
    target = await resolve(trimmed).catch((again: unknown) => {
      throw again instanceof MissingPathError ? notAGlob(e, pathArg, accepts) : again;
    });
    note = `[path ${quoteValue(pathArg)} was read as ${quoteValue(trimmed)}: no entry has the white space around it in its name.]`;
  }
  if (accepts === 'directory' && target.kind !== 'directory') {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `path ${quoteValue(pathArg ?? '.')} is ${target.kind === 'file' ? 'a file' : 'not a directory'}; glob lists files under a directory. Pass a directory (or omit path), or use grep to search inside this file.`,
    );
  }
  if (target.kind === 'other') {
    throw new ToolError('INVALID_ARGUMENT', `path ${quoteValue(pathArg ?? '.')} is neither a regular file nor a directory. Pass a file or a directory.`);
  }
  return { target, ...(note ? { note } : {}) };
}

/**
 * `missing` as it is, or, when the missing `pathArg` holds glob syntax (`src/*`, `**\/*.ts`), with the advice
 * to give the folder as `path` and the glob as glob's `pattern` or grep's `include`.
 */
function notAGlob(missing: MissingPathError, pathArg: string, accepts: 'directory' | 'file-or-directory'): ToolError {
  if (!/[*?[\]{}]/.test(pathArg)) return missing;
  const segments = pathArg.split('/');
  const literal = segments.slice(0, segments.findIndex((s) => /[*?[\]{}]/.test(s))).join('/');
  const glob = pathArg.slice(literal === '' ? 0 : literal.length + 1);
  const argument = accepts === 'directory' ? 'pattern' : 'include';
  const example = `${literal === '' ? '' : `path ${quoteValue(literal)} and `}${argument} ${quoteValue(glob)}`;
  return new MissingPathError(pathArg, false, `path names one file or folder and is never a glob: put the glob in ${argument} instead, e.g. ${example}.`);
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
 * The line that closes every glob and grep result, stating the workdir the listed paths are relative to.
 * In a multi-root workspace it names the folder too, since a later `path` may start with it. The
 * folder's path is shown by the rule for listed names (`displayPath`: quoted when it holds a line break, a
 * control or invisible character, or ends in white space) and its name is always quoted, so neither can
 * break the line or add one.
 */
export function workdirNote(target: ResolvedTarget, env: ToolEnv): string {
  return env.folders.length > 1
    ? `Paths are relative to ${displayPath(target.workdir)} (workspace folder ${jsonQuote(target.folderName)}).`
    : `Paths are relative to ${displayPath(target.workdir)}.`;
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
 * (timeoutMs, graceMs, rawOutputMaxBytes, stderrMaxBytes), handing stdout to `onStdout` chunk by chunk. The
 * output of a `--json` argv is read in batches, whose chunks are valid only during the call (see
 * `RipgrepRunOptions.onStdout`). Logs the argv at trace level.
 *
 * @param timeoutMs ms before rg is stopped; omitted, `scout.search.timeoutMs`, which the timeout error then
 *   names (the counts behind an explanation pass what is left of their own budget).
 * @param progress started with rg, told of each chunk of output, stopped when rg has exited.
 * Output past `rawOutputMaxBytes` is not a failure: rg is stopped and the exit has `stdoutCut` set (see
 * `overflow.ts`).
 *
 * @throws ToolError SEARCH_ABORTED | SEARCH_FAILED (see `runRipgrep`; for a workspace folder this user cannot
 *   read, an error that says so)
 */
export async function runSearch(
  tool: 'glob' | 'grep',
  argv: readonly string[],
  target: ResolvedTarget,
  env: ToolEnv,
  onStdout: (chunk: Buffer) => void,
  timeoutMs?: number,
  progress?: SearchProgress,
): Promise<RipgrepExit> {
  const config = env.config.search;
  const args = tool === 'grep' && !argv.includes('--no-ignore') && (await outsideGitRepository(target.workdir)) ? withNoRequireGit(argv) : argv;
  env.log.trace(`${tool}: ${env.ripgrepPath} ${JSON.stringify(args)} in ${target.workdir}`);
  progress?.start();
  return runRipgrep({
    rgPath: env.ripgrepPath,
    args,
    cwd: target.workdir,
    signal: env.signal,
    timeoutMs: timeoutMs ?? config.timeoutMs,
    ...(timeoutMs === undefined ? { timeoutSetting: 'search.timeoutMs' } : {}),
    graceMs: config.graceMs,
    rawOutputMaxBytes: config.rawOutputMaxBytes,
    rawOutputOverflow: 'truncate',
    stderrMaxBytes: config.stderrMaxBytes,
    // A search's matches come from rg's parallel threads in one small write per file; a list (`--files`) comes
    // from one thread in a long burst, which a reader pausing between reads would only slow down.
    stdoutReading: args.includes('--json') ? 'batched' : 'stream',
    onStdout: progress
      ? (chunk) => {
          onStdout(chunk);
          progress.changed();
        }
      : onStdout,
  })
    .catch(async (e: unknown) => {
      throw (e instanceof ToolError && e.code === 'SEARCH_FAILED' && (await unreadableFolder(target.workdir))) || e;
    })
    .finally(() => progress?.stop());
}

/**
 * True when neither `dir` nor any folder above it holds a `.git` (a folder, or the file of a linked worktree
 * or submodule): rg's own test for being inside a git repository.
 */
export async function outsideGitRepository(dir: string): Promise<boolean> {
  for (let at = dir; ; ) {
    if (await fs.stat(path.join(at, '.git')).then(() => true, () => false)) return false;
    const parent = path.dirname(at);
    if (parent === at) return true;
    at = parent;
  }
}

/**
 * The error for a workspace folder this user cannot enter or list, or undefined when it can. rg runs in the
 * folder, so the OS refuses to start it there (EACCES), which would otherwise read as a broken ripgrep.
 */
async function unreadableFolder(workdir: string): Promise<ToolError | undefined> {
  const problem = await fs.access(workdir, fsConstants.R_OK | fsConstants.X_OK).then(
    () => undefined,
    (e: NodeJS.ErrnoException) => e.code ?? 'error',
  );
  if (problem === undefined) return undefined;
  return new ToolError(
    'SEARCH_FAILED',
    `The workspace folder ${displayPath(workdir)} cannot be read by the user Scout runs as (${problem === 'EACCES' ? 'permission denied' : problem}), so it cannot be searched. Ask the user to fix the folder's permissions or to open another folder.`,
  );
}
