import { pruneToDirectory, type WalkFilter } from '../ripgrep/argv';
import { matchesPath, type RipgrepGlob } from '../ripgrep/globs';

/**
 * How grep applies `include` so that it never overrides ignore or hidden rules (issue 12).
 *
 * rg's `--glob` would: a file or directory it matches is searched even when it is git-ignored or hidden
 * (`include: "foo/**"` reached the ignored `foo/bar/`; `include: "*.ts"` reached a top-level `.hidden.ts`).
 * So rg walks with all its rules and `include` only ever removes files:
 * - rg selects files by name with a file type built from the glob's last segment (rg checks types after its
 *   ignore rules; `--glob=!.*` keeps dot-files out, see `WalkFilter`);
 * - ignore-only overrides keep the walk inside the glob's literal leading directories (`src/lib/**` walks only
 *   `src/lib`, see `pruneToDirectory`);
 * - Scout matches each file that holds a match against the whole glob, with rg's glob semantics
 *   (`ripgrep/globs.ts`), unless the type alone decides (a glob without `/`, such as `*.{ts,tsx}`).
 */
export interface IncludeFilter {
  /** What rg is told. */
  readonly walk: WalkFilter;
  /** Tells whether a workdir-relative file path rg printed is included; `rawBytes` for a non-UTF-8 name. */
  readonly keeps: (path: string, rawBytes?: Buffer) => boolean;
  /** True when rg's output needs no filtering (`keeps` always answers true). */
  readonly exact: boolean;
}

/** The {@link IncludeFilter} of a parsed include glob. */
export function includeFilter(glob: RipgrepGlob): IncludeFilter {
  const walk: WalkFilter = {
    ...(glob.fileName ? { fileNameGlob: glob.fileName.glob } : {}),
    pruneGlobs: pruneToDirectory(glob.literalDirectories),
  };
  const exact = glob.matchesEverything || (glob.fileName?.exact === true && !glob.onlyDirectories);
  return { walk, exact, keeps: exact ? () => true : (path, rawBytes) => matchesPath(glob, path, rawBytes) };
}
