import { grepArgv, pruneToDirectory, type WalkFilter } from '../ripgrep/argv';
import { matchesPath, type RipgrepGlob } from '../ripgrep/globs';
import type { MatchGuard } from '../ripgrep/globMatcher';
import { searchCancelledError, searchTimeoutError } from '../ripgrep/process';

/**
 * How grep applies `include`. Its definition: exactly the files grep searches without include, filtered by the
 * glob (rg's glob semantics). rg's own `--glob` would do more: a file or directory it matches is searched even
 * when it is git-ignored or hidden (`include: "foo/**"` reached the ignored `foo/bar/`). So rg walks with all
 * its rules and `include` only ever removes files:
 * - rg selects files by name with a file type built from the glob's last segment, which rg checks after its
 *   ignore rules (see `WalkFilter`). A file a type selects skips rg's hidden check, so a name rg calls hidden
 *   that comes back is kept only once a listing of the hidden names rg's walk reaches (those an ignore file
 *   whitelists) holds it;
 * - ignore-only overrides keep the walk inside the glob's literal leading directories (`src/lib/**` walks only
 *   `src/lib`, see `pruneToDirectory`);
 * - Scout matches each file against the whole glob (`ripgrep/globs.ts`, in time linear in the path), unless the
 *   type alone decides (a glob without `/`, such as `*.{ts,tsx}`).
 */
export interface IncludeFilter {
  /** What rg is told. */
  readonly walk: WalkFilter;
  /**
   * Tells whether a workdir-relative file path rg printed is included; `rawBytes` for a non-UTF-8 name. A name
   * rg calls hidden is refused when {@link admitsHidden} (use {@link keepsWalked} to accept the confirmed ones).
   */
  readonly keeps: (path: string, rawBytes?: Buffer) => boolean;
  /** The glob test alone, without the hidden rule. */
  readonly matches: (path: string, rawBytes?: Buffer) => boolean;
  /** True when rg's output needs no filtering (`keeps` always answers true). */
  readonly exact: boolean;
  /** True when rg may print hidden files its walk without include skips (the file type lets them through). */
  readonly admitsHidden: boolean;
}

/**
 * The {@link IncludeFilter} of a parsed include glob. `guard` runs during long glob matches and throws to stop
 * them (see {@link callGuard}).
 */
export function includeFilter(glob: RipgrepGlob, guard?: MatchGuard): IncludeFilter {
  const walk: WalkFilter = {
    ...(glob.fileName ? { fileNameGlob: glob.fileName.glob } : {}),
    pruneGlobs: pruneToDirectory(glob.literalDirectories),
  };
  const admitsHidden = walk.fileNameGlob !== undefined;
  const typeDecides = glob.matchesEverything || (glob.fileName?.exact === true && !glob.onlyDirectories);
  const matches = typeDecides ? () => true : (path: string, rawBytes?: Buffer) => matchesPath(glob, path, rawBytes, guard);
  const keeps = admitsHidden ? (path: string, rawBytes?: Buffer) => !isHiddenForRipgrep(path) && matches(path, rawBytes) : matches;
  return { walk, keeps, matches, exact: typeDecides && !admitsHidden, admitsHidden };
}

/**
 * True when rg's walk treats the file `path` as hidden: its name starts with `.`, and the path does not end with
 * `.` (rg then sees no file name at all, as for `..`, so `.x.` is not hidden for rg).
 */
export function isHiddenForRipgrep(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.startsWith('.') && !path.endsWith('.');
}

/**
 * The rg argv (NUL-separated `--files` output) that lists the files with hidden names that rg's walk of
 * `searchPath`, narrowed as `filter` narrows it, reaches without include: those an ignore file whitelists.
 */
export function walkedHiddenArgv(filter: IncludeFilter, searchPath: string): string[] {
  return grepArgv('', searchPath, { ...(filter.walk.pruneGlobs ? { pruneGlobs: filter.walk.pruneGlobs } : {}), hiddenNamesOnly: true }, { output: 'files' });
}

/** The key {@link keepsWalked} compares listed paths by: the exact bytes of a non-UTF-8 name, else the text. */
export function pathKey(path: string, rawBytes?: Buffer): string {
  return rawBytes === undefined ? `t${path}` : `b${rawBytes.toString('base64')}`;
}

/**
 * `filter.keeps`, but accepting a hidden name when `walked` (keys of {@link pathKey}, from a
 * {@link walkedHiddenArgv} listing) holds it.
 */
export function keepsWalked(filter: IncludeFilter, walked: ReadonlySet<string>): (path: string, rawBytes?: Buffer) => boolean {
  if (!filter.admitsHidden) return filter.keeps;
  return (path, rawBytes) => filter.matches(path, rawBytes) && (!isHiddenForRipgrep(path) || walked.has(pathKey(path, rawBytes)));
}

/**
 * A {@link MatchGuard} for one call: it throws SEARCH_ABORTED once `signal` is aborted or `timeoutMs` have
 * passed since it was made (the call's own search timeout, `search.timeoutMs`), with the errors of rg's runs.
 */
export function callGuard(signal: AbortSignal, timeoutMs: number, now: () => number = Date.now): MatchGuard {
  const deadline = now() + timeoutMs;
  return () => {
    if (signal.aborted) throw searchCancelledError();
    if (now() > deadline) throw searchTimeoutError(timeoutMs, 'search.timeoutMs');
  };
}
