import { quoteValue, ToolError } from '../errors';
import { globArgv, grepArgv, type RegexEngine, type WalkFilter } from '../ripgrep/argv';
import { interpretExit } from '../ripgrep/exit';
import { escapeGlobLiteral, keepTrailingWhiteSpace } from '../ripgrep/globs';
import { decodePath, type ListedPath } from '../ripgrep/pathList';
import { RecordSplitter } from '../ripgrep/records';
import { countOf } from '../spill';
import type { ToolEnv } from '../tool';
import { folderSpellings, type ResolvedTarget } from '../workspace/folders';
import { keepsWalked, pathKey, walkedHiddenArgv, type IncludeFilter } from './include';
import { outputPrefixLength, runSearch } from './target';

/**
 * Why a glob or grep call found nothing, measured only once a result is empty, and within a
 * budget. grep says whether `include` matched any file at all; whether hidden or ignored files that it
 * skipped hold matches: how many, under which folders, and the exact `path` that reaches them (each one
 * checked by running that search); and whether binary files, which it does not search while walking, do.
 * glob, which lists hidden and ignored files already, says how many files match elsewhere in the workspace
 * folder when `path` narrowed it. In a multi-root workspace, a call without `path` (which searches the first
 * folder) also says which other folders hold matches. Each count stops at the budget and says so.
 *
 * Counts that stop at `maxFiles` list files in path order (`--sort=path`), so the same files, folders and
 * numbers come back on every run; only the time limit can cut one differently.
 */

/** The budget of one explanation. Tests set it; the tools use {@link DEFAULT_EXPLAIN_BUDGET}. */
export interface ExplainBudget {
  /** Most files one count collects before it stops; the count then reads "at least". */
  readonly maxFiles: number;
  /** ms all the rg runs of one explanation may take together (0 skips them). */
  readonly timeMs: number;
  /** Most rg runs spent checking which `path` reaches the skipped matches. */
  readonly maxRetryChecks: number;
  /**
   * Most rg runs listing skipped files with matches. A listing stopped at `maxFiles` is followed by one that
   * leaves out the folders already seen, so one huge folder (node_modules) cannot hide the others (dist).
   */
  readonly maxListings: number;
}

/**
 * 1 s, 1,000 files, 8 checks and 4 listings: enough for the usual `node_modules`, `dist` or `.cache` of a large
 * repository, and small next to the search it follows.
 */
export const DEFAULT_EXPLAIN_BUDGET: ExplainBudget = { maxFiles: 1000, timeMs: 1000, maxRetryChecks: 8, maxListings: 4 };

/** Files that ignore files (and git's exclude files) keep out of grep's walk, as the notes name them. */
const IGNORE_RULES = '.gitignore, .ignore or .rgignore rules';

/** What an empty grep call searched for. */
export interface EmptyGrep {
  readonly pattern: string;
  /** How rg reads `pattern` (see `regexReadings.ts`); rg's default engine when absent. */
  readonly engine?: RegexEngine;
  readonly target: ResolvedTarget;
  /** The model's include value and how it is applied; absent without include (or when path is a file). */
  readonly include?: { readonly value: string; readonly filter: IncludeFilter };
  /** True when the call gave no `path`: in a multi-root workspace, the other folders are looked at too. */
  readonly pathOmitted?: boolean;
}

/** Notes explaining an empty grep result (empty when there is nothing to say). */
export async function explainEmptyGrep(call: EmptyGrep, env: ToolEnv, budget: ExplainBudget): Promise<string[]> {
  const { target, include } = call;
  const engine = call.engine ?? 'rust';
  if (target.kind === 'file') return [];
  const counter = new Counter('grep', env, target, budget);
  const walk = include?.filter.walk ?? {};
  const keeps = include ? await includeKeeps(include.filter, counter, target) : () => true;
  const notes: string[] = [];
  const under = target.relPath === '.' ? 'the workspace folder' : quoteValue(target.relPath);

  if (include) {
    const searched = await counter.paths(grepArgv(call.pattern, target.relPath, walk, { output: 'files', sortByPath: true, engine }), target.relPath, keeps);
    if (searched.ran && !(searched.cut && searched.paths.length === 0)) {
      notes.push(
        searched.paths.length === 0
          ? `[No file under ${under} matches include ${quoteValue(include.value)} (hidden files, and files ignored by ${IGNORE_RULES}, are not searched), so nothing was searched.]`
          : `[grep searched ${counter.amount(searched, 'file')} under ${under} matching include ${quoteValue(include.value)}; none has a line matching the pattern.]`,
      );
    }
  }

  // With hidden and ignore rules off, the glob alone decides.
  const skipped = await listSkipped(call.pattern, engine, target, walk, include?.filter.matches ?? (() => true), counter);
  if (skipped.files.length > 0) {
    const reach = await reachSkipped(skipped.files, target, counter, (dir) =>
      counter.paths(grepArgv(call.pattern, dir, walk, { output: 'files-with-matches', sortByPath: true, engine }), dir, keeps),
    );
    const same = include ? 'the same pattern and include' : 'the same pattern';
    const one = skipped.files.length === 1 && !skipped.cut;
    const amount = `${skipped.cut ? 'at least ' : ''}${countOf(skipped.files.length, 'file')}`;
    const ways = reach.folders.map((f) => `path ${quoteValue(pathArgument(f.path, target, env))} (${f.atLeast ? 'at least ' : ''}${countOf(f.files, 'file')}, ${f.hidden ? 'hidden' : 'ignored'})`);
    const sentences = [`${amount} that grep skipped (hidden, or ignored by ${IGNORE_RULES}) ${one ? 'has' : 'have'} matching lines.`];
    if (ways.length) sentences.push(`To search ${one ? 'it' : 'them'}, call grep again with ${same}, and ${ways.join(', or ')}.`);
    if (reach.rest.length) {
      const those = ways.length ? `For the other ${reach.rest.length}` : `To search ${one ? 'it' : 'them'}`;
      sentences.push(`${those}, give the file itself as path (with ${same}), e.g. ${quoteValue(pathArgument(reach.rest[0]!, target, env))}.`);
    }
    notes.push(`[${sentences.join(' ')}]`);
  }

  const binary = await counter.paths(grepArgv(call.pattern, target.relPath, walk, { output: 'files-with-matches', binary: true, sortByPath: true, engine }), target.relPath, keeps);
  if (binary.paths.length > 0) {
    const one = binary.paths.length === 1 && !binary.cut;
    notes.push(
      `[${counter.amount(binary, 'binary file')} under ${under} (holding a NUL byte) ${one ? 'has' : 'have'} matching text; grep does not search binary files while walking a folder. To search one, give it as path, e.g. ${quoteValue(pathArgument(binary.paths[0]!.path, target, env))}.]`,
    );
  }

  if (call.pathOmitted) {
    const elsewhere = await matchesInOtherFolders(counter, env, target, (dir) => grepArgv(call.pattern, dir, walk, { output: 'files-with-matches', sortByPath: true, engine }), keeps);
    if (elsewhere) notes.push(otherFoldersNote(elsewhere, target, `search one, call grep again with ${include ? 'the same pattern and include' : 'the same pattern'}`));
  }
  if (counter.cut && notes.length) notes.push(`[These counts stopped at Scout's limits (${counter.limits()}), so there may be more.]`);
  return notes;
}

/** `filter.keeps`, accepting the hidden names rg's walk reaches (see `walkedHiddenArgv`) when the filter needs it. */
async function includeKeeps(filter: IncludeFilter, counter: Counter, target: ResolvedTarget): Promise<(path: string, rawBytes?: Buffer) => boolean> {
  if (!filter.admitsHidden) return filter.keeps;
  const hidden = await counter.paths(walkedHiddenArgv(filter, target.relPath), target.relPath, () => true);
  return keepsWalked(filter, new Set(hidden.paths.map((p) => pathKey(p.path, p.base64 === undefined ? undefined : Buffer.from(p.base64, 'base64')))));
}

/**
 * Notes explaining an empty glob result: files matching elsewhere in the workspace folder when `path` narrowed
 * it, and, in a multi-root workspace when `path` was omitted, files matching in the other folders.
 */
export async function explainEmptyGlob(glob: string, target: ResolvedTarget, env: ToolEnv, budget: ExplainBudget, pathOmitted = false): Promise<string[]> {
  const counter = new Counter('glob', env, target, budget);
  const notes: string[] = [];
  if (target.relPath !== '.') {
    const elsewhere = await counter.paths(globArgv(glob, '.', false), '.', () => true);
    if (elsewhere.paths.length > 0) {
      // Omitting path searches the first folder; another folder is named.
      const retry = env.folders.length <= 1 || env.folders[0]!.name === target.folderName ? 'omit path' : `set path to ${quoteValue(pathArgument('', target, env))}`;
      notes.push(
        `[No file under ${quoteValue(target.relPath)} matches, but ${counter.amount(elsewhere, 'file')} elsewhere in the workspace folder ${elsewhere.paths.length === 1 && !elsewhere.cut ? 'does' : 'do'}, e.g. ${quoteValue(elsewhere.paths[0]!.path)}: ${retry} to list them.]`,
      );
    }
  }
  if (pathOmitted) {
    const elsewhere = await matchesInOtherFolders(counter, env, target, (dir) => globArgv(glob, dir, false), () => true);
    if (elsewhere) notes.push(otherFoldersNote(elsewhere, target, 'list the files of one, call glob again with the same pattern'));
  }
  return notes;
}

/** Other workspace folders with matches: each as `"api" (3 files)`, and the `path` argument of each. */
interface OtherFolders {
  readonly found: { readonly shown: string; readonly path: string }[];
}

/**
 * The other workspace folders (than `target`'s, the one a call without `path` searched) in which `argv(".")`
 * finds files, with their counts; undefined when none does or the workspace has one folder.
 */
async function matchesInOtherFolders(
  counter: Counter,
  env: ToolEnv,
  target: ResolvedTarget,
  argv: (searchPath: string) => string[],
  keeps: (path: string, rawBytes?: Buffer) => boolean,
): Promise<OtherFolders | undefined> {
  if (env.folders.length < 2) return undefined;
  const found: OtherFolders['found'][number][] = [];
  for (const folder of await folderSpellings(env.folders)) {
    if (folder.real === target.workdir) continue;
    const other: ResolvedTarget = { workdir: folder.real, folderName: folder.name, absPath: folder.real, relPath: '.', kind: 'directory' };
    const listing = await counter.paths(argv('.'), '.', keeps, other);
    if (listing.paths.length) found.push({ shown: `${quoteValue(folder.name)} (${counter.amount(listing, 'file')})`, path: pathArgument('', other, env) });
  }
  return found.length ? { found } : undefined;
}

/** The note about {@link OtherFolders}; `retry` says what to do, e.g. `search one, call grep again with the same pattern`. */
function otherFoldersNote({ found }: OtherFolders, target: ResolvedTarget, retry: string): string {
  const one = found.length === 1;
  const where = `${one ? 'Workspace folder' : 'Other workspace folders'} ${found.map((f) => f.shown).join(', ')} ${one ? 'has' : 'have'} matches`;
  return `[path was omitted, so only workspace folder ${quoteValue(target.folderName)} was searched. ${where}: to ${retry} and path ${quoteValue(found[0]!.path)}${one ? '' : ' (or another folder\'s name)'}.]`;
}

/** Files rg listed for one count, and whether the count stopped early. */
interface Listing {
  readonly paths: ListedPath[];
  /** True when the count stopped at a limit (files, time) or could not run. */
  readonly cut: boolean;
  /** False when there was no time left to start it. */
  readonly ran: boolean;
}

/** The skipped files with matches, workdir-relative, in path order; `cut` when there may be more. */
interface Skipped {
  readonly files: string[];
  readonly cut: boolean;
}

/**
 * Lists the files under the target that hold matches once hidden and ignore rules are off (`files-with-matches
 * --no-ignore --hidden`, in path order). The search found nothing, so every one of them was skipped. A
 * listing that stops at `maxFiles` is followed by another that leaves out the entries directly under the
 * target it already reached (`--glob=!/<entry>`), up to `maxListings` listings, so a folder with thousands of
 * matches cannot hide a smaller one. `cut` when a listing stopped early: there may be more.
 */
async function listSkipped(pattern: string, engine: RegexEngine, target: ResolvedTarget, walk: WalkFilter, keeps: (path: string, rawBytes?: Buffer) => boolean, counter: Counter): Promise<Skipped> {
  const files: string[] = [];
  const seen = new Set<string>();
  const prefix = target.relPath === '.' ? '' : `${target.relPath}/`;
  // Once a listing stopped early, an entry it reached may hold more than it listed.
  let cut = false;
  for (let run = 0; ; run++) {
    if (run >= counter.budget.maxListings) return { files, cut: true };
    const excluded = [...seen].map((entry) => `--glob=${keepTrailingWhiteSpace(`!/${escapeGlobLiteral(`${prefix}${entry}`)}`)}`);
    const argv = grepArgv(pattern, target.relPath, { ...walk, pruneGlobs: [...(walk.pruneGlobs ?? []), ...excluded] }, { output: 'files-with-matches', includeSkipped: true, sortByPath: true, engine });
    const listing = await counter.paths(argv, target.relPath, keeps);
    for (const { path } of listing.paths) {
      files.push(path);
      seen.add(path.slice(prefix.length).split('/')[0]!);
    }
    cut ||= listing.cut;
    if (!listing.cut || listing.paths.length === 0) return { files, cut };
  }
}

/** Where the skipped files can be searched from: folders whose `path` was checked to reach them, and the rest. */
interface Reach {
  readonly folders: { readonly path: string; readonly files: number; readonly atLeast: boolean; readonly hidden: boolean }[];
  /** Files no checked folder reached: each is reachable by naming it. */
  readonly rest: string[];
}

/**
 * Finds, for skipped files (workdir-relative), the shallowest folders below the target whose search reaches
 * them. Folders are tried a level at a time, largest group first (then by name); each try runs the search a
 * model would run with that `path` (`search(dir)`), at most `maxRetryChecks` of them. A folder whose search
 * reaches every file of its group, or stops at a limit, is suggested with the number of files it reached
 * ("at least" when it stopped); the files it did not reach are grouped one level deeper. A file no folder
 * reaches (a hidden file in a folder that is searched, say) names itself, as do the files left when the
 * checks run out.
 */
async function reachSkipped(files: readonly string[], target: ResolvedTarget, counter: Counter, search: (dir: string) => Promise<Listing>): Promise<Reach> {
  const folders: Reach['folders'][number][] = [];
  const rest: string[] = [];
  const baseDepth = target.relPath === '.' ? 0 : target.relPath.split('/').length;
  let pending = [...files];
  let checks = 0;
  for (let depth = baseDepth + 1; pending.length > 0; depth++) {
    const groups = new Map<string, string[]>();
    for (const file of pending) {
      const segments = file.split('/');
      if (segments.length <= depth) rest.push(file);
      else {
        const dir = segments.slice(0, depth).join('/');
        const group = groups.get(dir);
        if (group) group.push(file);
        else groups.set(dir, [file]);
      }
    }
    pending = [];
    for (const [dir, members] of [...groups].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))) {
      if (checks >= counter.budget.maxRetryChecks || counter.timeLeft() <= 0) {
        counter.cut = true;
        counter.checksRanOut ||= checks >= counter.budget.maxRetryChecks;
        rest.push(...members);
        continue;
      }
      checks++;
      const result = await search(dir);
      const reached = new Set(result.paths.map((p) => p.path));
      const hidden = dir.split('/').slice(baseDepth).some((s) => s.startsWith('.'));
      // A check that stopped at a limit reached at least that many files: the folder is a way in, and what it
      // did not list is not known to be out of its reach, so nothing below it is tried.
      if (result.cut) {
        if (result.paths.length) folders.push({ path: dir, files: result.paths.length, atLeast: true, hidden });
        else rest.push(...members);
        continue;
      }
      if (members.some((m) => reached.has(m))) folders.push({ path: dir, files: reached.size, atLeast: false, hidden });
      pending.push(...members.filter((m) => !reached.has(m)));
    }
  }
  return { folders, rest };
}

/**
 * `rel` (workdir-relative; empty for the folder itself) as a `path` argument that resolves to the same place:
 * as is in a single-folder workspace, else prefixed with the folder's name (or absolute, when two folders
 * share that name).
 */
function pathArgument(rel: string, target: ResolvedTarget, env: ToolEnv): string {
  if (env.folders.length <= 1) return rel;
  const unique = env.folders.filter((f) => f.name === target.folderName).length === 1;
  const base = unique ? target.folderName : target.workdir;
  return rel === '' ? base : `${base}/${rel}`;
}

/** Runs the counts of one explanation (or another bounded look at the tree) within its budget. */
export class Counter {
  private readonly deadline: number;
  /** True once any count stopped early. */
  cut = false;
  /** True once a folder was left unchecked because `maxRetryChecks` were spent. */
  checksRanOut = false;

  constructor(
    private readonly tool: 'glob' | 'grep',
    private readonly env: ToolEnv,
    private readonly target: ResolvedTarget,
    readonly budget: ExplainBudget,
  ) {
    this.deadline = Date.now() + budget.timeMs;
  }

  timeLeft(): number {
    return this.deadline - Date.now();
  }

  /** The budget, for a note: `1,000 files per count or 1,000 ms in all`, and the checks when they ran out. */
  limits(): string {
    const checks = this.checksRanOut ? `, ${countOf(this.budget.maxRetryChecks, 'folder check')}` : '';
    return `${countOf(this.budget.maxFiles, 'file')} per count or ${this.budget.timeMs.toLocaleString('en-US')} ms in all${checks}`;
  }

  /** `n files`, or `at least n files` when the listing stopped early. */
  amount(listing: Listing, noun: string): string {
    return `${listing.cut ? 'at least ' : ''}${countOf(listing.paths.length, noun)}`;
  }

  /**
   * Runs rg with NUL-separated path output (`argv`, searching `searchPath`) and collects the paths `keeps`
   * accepts, up to `maxFiles`, within the time left. Cancellation of the call is rethrown; any other failure
   * (time out, rg error) ends the listing early with what it has. Unreadable paths are ignored.
   *
   * @param target where rg runs (its workdir); the counter's own target unless another folder is looked at.
   */
  async paths(argv: readonly string[], searchPath: string, keeps: (path: string, rawBytes?: Buffer) => boolean, target = this.target): Promise<Listing> {
    const timeLeft = this.timeLeft();
    if (timeLeft <= 0) {
      this.cut = true;
      return { paths: [], cut: true, ran: false };
    }
    const strip = outputPrefixLength(searchPath);
    const paths: ListedPath[] = [];
    const enough = new ToolError('SEARCH_ABORTED', 'The count reached its limit.');
    const splitter = new RecordSplitter(0, (buf, start, end) => {
      const listed = decodePath(buf, start, end, strip);
      if (!keeps(listed.path, listed.base64 === undefined ? undefined : Buffer.from(listed.base64, 'base64'))) return;
      paths.push(listed);
      if (paths.length >= this.budget.maxFiles) throw enough;
    });
    let cut = false;
    try {
      const exit = await runSearch(this.tool, argv, target, this.env, (chunk) => splitter.push(chunk), timeLeft);
      // A cut output ends inside a path, which is dropped.
      if (exit.stdoutCut) cut = true;
      else splitter.end();
      interpretExit(exit, {});
    } catch (e) {
      if (this.env.signal.aborted) throw e;
      if (e !== enough) this.env.log.info(`explaining an empty result: a count stopped early (${e instanceof Error ? e.message : String(e)})`);
      cut = true;
    }
    this.cut ||= cut;
    return { paths, cut, ran: true };
  }
}
