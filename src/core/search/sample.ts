/** An over-cap glob page picked round-robin across the entries directly under the search root (seed 000). */
export interface TopLevelSample {
  /** Indices into the input list, ascending, so the page keeps the input (modification-time) order. */
  readonly indices: number[];
  /** Distinct entries directly under the root that the whole list touches. */
  readonly groupsTotal: number;
  /** How many of them the page reaches. */
  readonly groupsReached: number;
  /**
   * True when the page is exactly the head of the list (a flat result: one group, or groups of one path),
   * in which case seed 000 keeps the plain capped-result footer.
   */
  readonly equalsHead: boolean;
}

/** rg prints `\` separators on Windows only; elsewhere a backslash is an ordinary file-name character. */
const BACKSLASH_SEPARATES = process.platform === 'win32';

/**
 * The top-level entry a path belongs to: its first segment below `root`. Paths are workdir-relative as rg
 * prints them (`/`-separated, and also `\` on Windows), and `root` is the search path they all start with
 * (`.` when the paths carry no prefix).
 */
export function topLevelEntry(path: string, root: string): string {
  const next = path[root.length];
  const under = root !== '.' && path.startsWith(root) && (next === '/' || (BACKSLASH_SEPARATES && next === '\\'));
  const rest = under ? path.slice(root.length + 1) : path;
  let cut = rest.indexOf('/');
  if (BACKSLASH_SEPARATES) {
    const back = rest.indexOf('\\');
    if (back >= 0 && (cut < 0 || back < cut)) cut = back;
  }
  return cut < 0 ? rest : rest.slice(0, cut);
}

/**
 * Picks up to `cap` paths round-robin across top-level entries (seed 000, `sampleOverCapGlobResults`): the
 * first path of each entry, then the second of each, and so on, entries taken in the order they first
 * appear in `paths`. Within each entry paths keep their order, so every entry shows its oldest files first.
 * Runs in O(paths + cap), and remembers at most `cap` paths per entry (no round reaches further).
 *
 * @param paths the complete list in modification-time order.
 * @param root the search path, as passed to rg (see {@link topLevelEntry}).
 */
export function sampleAcrossTopLevel(paths: readonly string[], root: string, cap: number): TopLevelSample {
  const groups = groupByEntry(paths, root, cap);
  const picked: number[] = [];
  let reached = 0;
  let active = [...groups.values()];
  // Each round picks at least one path, so no round reaches past the first `cap` paths of an entry.
  for (let round = 0; picked.length < cap && active.length; round++) {
    const next: number[][] = [];
    for (const group of active) {
      if (picked.length === cap) break;
      picked.push(group[round]!);
      if (round === 0) reached++;
      if (group.length > round + 1) next.push(group);
    }
    active = next;
  }
  picked.sort((a, b) => a - b);
  return {
    indices: picked,
    groupsTotal: groups.size,
    groupsReached: reached,
    equalsHead: picked.length === 0 || picked[picked.length - 1] === picked.length - 1,
  };
}

/** How many entry folders {@link groupByEntry} tries before it works out a path's entry the full way. */
const RECENT_FOLDERS = 8;

/**
 * The first `cap` indices of each top-level entry's paths (see {@link topLevelEntry}), entries in the order they
 * first appear. Kept apart from the rounds so the engine compiles this loop, which runs once per path, on its own
 * and soon: a list of 50,000 paths otherwise spent most of its time in the interpreter waiting for it.
 */
function groupByEntry(paths: readonly string[], root: string, cap: number): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  // In modification order, a path mostly lies in one of a few folders met just before it (one large folder
  // dominates most trees, a few others interleave with it). A `startsWith` of each recent entry's folder, as rg
  // prints it, tells such a path without making the entry's name (which allocates): in a tree of 50,000 files
  // this took 1.4 tests a path (without the tests of filled entries below), and 356 paths the full way (the
  // last path's folder alone left 12,828). A folder that is found moves one place forward, so the common ones
  // are tried first. A file right under the root, or a `\` separator, never matches a folder and always takes
  // the full way.
  const under = root === '.' ? '' : `${root}/`;
  const folders: string[] = [];
  const recent: number[][] = [];
  let fullWays = 0;
  // The folders of the first three entries to get their `cap` paths, in that order: a path in one of them needs
  // nothing more, and these tests tell it before the recent folders are tried. The first entries to fill up are
  // mostly the largest: in the bench's tree these three hold 47,379 of its 49,980 paths. The first folder is
  // tried for every path; the other two for the first 64 paths it misses, and then only as long as they hold at
  // least one in four of those (once they fall below, they are not tried again), so a tree of many entries in
  // turn, where they seldom do, pays one test a path. The whole sample of the bench's tree, in a fresh process
  // after one small list (so before the engine has compiled this loop), took 2.7–3.0 ms this way and 4.0–4.3 ms
  // with only the first recent folder tried once its entry was full.
  let first: string | undefined;
  let second: string | undefined;
  let third: string | undefined;
  let moreTests = 0;
  let moreFound = 0;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    if (first !== undefined) {
      if (path.startsWith(first)) continue;
      if (second !== undefined && (moreTests < 64 || moreFound * 4 >= moreTests)) {
        moreTests++;
        if (path.startsWith(second) || (third !== undefined && path.startsWith(third))) {
          moreFound++;
          continue;
        }
      }
    }
    // Where more than a path in four takes the full way (many entries in turn, as under a deep sample root),
    // the recent folders do not pay for their tests: only the last path's folder is tried then.
    const few = fullWays * 4 > i;
    const tried = few ? Math.min(folders.length, 1) : folders.length;
    let group: number[] | undefined;
    for (let r = 0; r < tried; r++) {
      if (!path.startsWith(folders[r]!)) continue;
      group = recent[r]!;
      if (r > 0) {
        // Swapped through locals: a destructuring swap makes two arrays a path in code not compiled yet.
        const before = folders[r - 1]!;
        folders[r - 1] = folders[r]!;
        folders[r] = before;
        recent[r] = recent[r - 1]!;
        recent[r - 1] = group;
      }
      break;
    }
    if (group === undefined) {
      fullWays++;
      const key = topLevelEntry(path, root);
      group = groups.get(key);
      if (!group) groups.set(key, (group = []));
      const folder = `${under}${key}/`;
      // A folder no path can start with (a file's, right under the root) would only take a place in the list.
      if (few || path.startsWith(folder)) {
        const slot = few ? 0 : Math.min(folders.length, RECENT_FOLDERS - 1);
        folders[slot] = folder;
        recent[slot] = group;
      }
    }
    if (group.length >= cap) continue;
    group.push(i);
    if (group.length === cap && third === undefined) {
      const folder = `${under}${topLevelEntry(path, root)}/`;
      // A file right under the root (or a `\` separator) has no folder its entry's paths start with.
      if (!path.startsWith(folder)) continue;
      if (first === undefined) first = folder;
      else if (second === undefined) second = folder;
      else third = folder;
    }
  }
  return groups;
}


/** A {@link TopLevelSample} taken under `root`, the folder where the list branches. */
export interface BranchSample extends TopLevelSample {
  /** The folder the sample is taken under: the search root, or the deepest folder below it holding every path. */
  readonly root: string;
}

/**
 * {@link sampleAcrossTopLevel} under the first folder where the list branches: when every path lies under one
 * entry of the search root (all of `src/`, or all of `packages/app/src/`), a round-robin across that single
 * entry would be the head of the list, so the sample is taken across the entries of the deepest folder that
 * holds every path instead.
 *
 * @param paths the complete list in modification-time order, `/`-separated (see {@link topLevelEntry}).
 * @param root the search path, as passed to rg.
 */
export function sampleAcrossBranches(paths: readonly string[], root: string, cap: number): BranchSample {
  const branch = commonFolder(paths, root);
  return { ...sampleAcrossTopLevel(paths, branch, cap), root: branch };
}

/** The deepest folder at or below `root` that holds every path (`root` when they branch right under it). */
function commonFolder(paths: readonly string[], root: string): string {
  // A list whose first path is not under `root` has no folder below it to move to.
  if (paths.length === 0 || (root !== '.' && !paths[0]!.startsWith(`${root}/`))) return root;
  const first = paths[0]!.split('/');
  let common = first.length - 1;
  for (const p of paths) {
    let i = 0;
    for (let at = 0; i < common; i++) {
      const segment = first[i]!;
      if (!p.startsWith(segment, at) || p[at + segment.length] !== '/') break;
      at += segment.length + 1;
    }
    common = i;
    if (common === 0) break;
  }
  const depth = root === '.' ? 0 : root.split('/').length;
  return common > depth ? first.slice(0, common).join('/') : root;
}
