import { quoteValue, ToolError } from '../errors';
import { globArgv, grepArgv } from '../ripgrep/argv';
import { interpretExit } from '../ripgrep/exit';
import { decodePath, type ListedPath } from '../ripgrep/pathList';
import { RecordSplitter } from '../ripgrep/records';
import type { ToolEnv } from '../tool';
import type { ResolvedTarget } from '../workspace/folders';
import type { IncludeFilter } from './include';
import { count } from './page';
import { outputPrefixLength, runSearch } from './target';

/**
 * Why a glob or grep call found nothing (issue 12), measured only once a result is empty, and within a
 * budget. grep says whether `include` matched any file at all, and whether hidden or ignored files that it
 * skipped hold matches: how many, under which folders, and the exact `path` that reaches them (each one
 * checked by running that search). glob, which lists hidden and ignored files already, says how many files
 * match elsewhere in the workspace folder when `path` narrowed it. Each count stops at the budget and says so.
 */

/** The budget of one explanation. Tests set it; the tools use {@link DEFAULT_EXPLAIN_BUDGET}. */
export interface ExplainBudget {
  /** Most files one count collects before it stops; the count then reads "at least". */
  readonly maxFiles: number;
  /** ms all the rg runs of one explanation may take together (0 skips them). */
  readonly timeMs: number;
  /** Most rg runs spent checking which `path` reaches the skipped matches. */
  readonly maxRetryChecks: number;
}

/**
 * 1 s, 1,000 files and 8 checks: enough for the usual `node_modules`, `dist` or `.cache` of a large repository,
 * and small next to the search it follows.
 */
export const DEFAULT_EXPLAIN_BUDGET: ExplainBudget = { maxFiles: 1000, timeMs: 1000, maxRetryChecks: 8 };

/** What an empty grep call searched for. */
export interface EmptyGrep {
  readonly pattern: string;
  readonly target: ResolvedTarget;
  /** The model's include value and how it is applied; absent without include (or when path is a file). */
  readonly include?: { readonly value: string; readonly filter: IncludeFilter };
}

/** Notes explaining an empty grep result (empty when there is nothing to say). */
export async function explainEmptyGrep(call: EmptyGrep, env: ToolEnv, budget: ExplainBudget): Promise<string[]> {
  const { target, include } = call;
  if (target.kind === 'file') return [];
  const counter = new Counter('grep', env, target, budget);
  const walk = include?.filter.walk ?? {};
  const keeps = include?.filter.keeps ?? (() => true);
  const notes: string[] = [];
  const under = target.relPath === '.' ? 'the workspace folder' : quoteValue(target.relPath);

  if (include) {
    const searched = await counter.paths(grepArgv(call.pattern, target.relPath, walk, { output: 'files' }), target.relPath, keeps);
    if (searched.ran && !(searched.cut && searched.paths.length === 0)) {
      notes.push(
        searched.paths.length === 0
          ? `[No file under ${under} matches include ${quoteValue(include.value)} (hidden and git-ignored files are not searched), so nothing was searched.]`
          : `[grep searched ${counter.amount(searched, 'file')} under ${under} matching include ${quoteValue(include.value)}; none has a line matching the pattern.]`,
      );
    }
  }

  const skipped = await counter.paths(grepArgv(call.pattern, target.relPath, walk, { output: 'files-with-matches', includeSkipped: true }), target.relPath, keeps);
  if (skipped.paths.length > 0) {
    const reach = await reachSkipped(
      skipped.paths.map((p) => p.path),
      target,
      counter,
      budget,
      (dir) => counter.paths(grepArgv(call.pattern, dir, walk, { output: 'files-with-matches' }), dir, keeps),
    );
    const same = include ? 'the same pattern and include' : 'the same pattern';
    const one = skipped.paths.length === 1 && !skipped.cut;
    const ways = reach.folders.map((f) => `path ${quoteValue(pathArgument(f.path, target, env))} (${count(f.files, 'file')}, ${f.hidden ? 'hidden' : 'ignored'})`);
    const sentences = [`${counter.amount(skipped, 'hidden or git-ignored file')} that grep skipped ${one ? 'has' : 'have'} matching lines.`];
    if (ways.length) sentences.push(`To search ${one ? 'it' : 'them'}, call grep again with ${same}, and ${ways.join(', or ')}.`);
    if (reach.rest.length) {
      const those = ways.length ? `For the other ${reach.rest.length}` : `To search ${one ? 'it' : 'them'}`;
      sentences.push(`${those}, give the file itself as path (with ${same}), e.g. ${quoteValue(pathArgument(reach.rest[0]!, target, env))}.`);
    }
    notes.push(`[${sentences.join(' ')}]`);
  }
  if (counter.cut && notes.length) notes.push(`[These counts stopped at Scout's limit (${counter.limits()}), so there may be more.]`);
  return notes;
}

/** Notes explaining an empty glob result: files matching elsewhere in the workspace folder when `path` narrowed it. */
export async function explainEmptyGlob(glob: string, target: ResolvedTarget, env: ToolEnv, budget: ExplainBudget): Promise<string[]> {
  if (target.relPath === '.') return [];
  const counter = new Counter('glob', env, target, budget);
  const elsewhere = await counter.paths(globArgv(glob, '.', false), '.', () => true);
  if (elsewhere.paths.length === 0) return [];
  // Omitting path searches the first folder; another folder is named.
  const retry = env.folders.length <= 1 || env.folders[0]!.name === target.folderName ? 'omit path' : `set path to ${quoteValue(pathArgument('', target, env))}`;
  return [
    `[No file under ${quoteValue(target.relPath)} matches, but ${counter.amount(elsewhere, 'file')} elsewhere in the workspace folder ${elsewhere.paths.length === 1 && !elsewhere.cut ? 'does' : 'do'}, e.g. ${quoteValue(elsewhere.paths[0]!.path)}: ${retry} to list them.]`,
  ];
}

/** Files rg listed for one count, and whether the count stopped early. */
interface Listing {
  readonly paths: ListedPath[];
  /** True when the count stopped at a limit (files, time) or could not run. */
  readonly cut: boolean;
  /** False when there was no time left to start it. */
  readonly ran: boolean;
}

/** Where the skipped files can be searched from: folders whose `path` was checked to reach them, and the rest. */
interface Reach {
  readonly folders: { readonly path: string; readonly files: number; readonly hidden: boolean }[];
  /** Files no checked folder reached: each is reachable by naming it. */
  readonly rest: string[];
}

/**
 * Finds, for skipped files (workdir-relative), the shallowest folders below the target whose search reaches
 * them. Folders are tried a level at a level, largest group first; each try runs the search a model would run
 * with that `path` (`search(dir)`), at most `budget.maxRetryChecks` of them. A group's file names itself.
 */
async function reachSkipped(files: readonly string[], target: ResolvedTarget, counter: Counter, budget: ExplainBudget, search: (dir: string) => Promise<Listing>): Promise<Reach> {
  const folders: Reach['folders'] = [];
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
        groups.set(dir, [...(groups.get(dir) ?? []), file]);
      }
    }
    pending = [];
    for (const [dir, members] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
      if (checks >= budget.maxRetryChecks || counter.timeLeft() <= 0) {
        rest.push(...members);
        continue;
      }
      checks++;
      const reached = new Set((await search(dir)).paths.map((p) => p.path));
      const covered = members.filter((m) => reached.has(m));
      if (covered.length) folders.push({ path: dir, files: covered.length, hidden: dir.split('/').slice(baseDepth).some((s) => s.startsWith('.')) });
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

/** Runs the counts of one explanation within its budget. */
class Counter {
  private readonly deadline: number;
  /** True once any count stopped early. */
  cut = false;

  constructor(
    private readonly tool: 'glob' | 'grep',
    private readonly env: ToolEnv,
    private readonly target: ResolvedTarget,
    private readonly budget: ExplainBudget,
  ) {
    this.deadline = Date.now() + budget.timeMs;
  }

  timeLeft(): number {
    return this.deadline - Date.now();
  }

  /** The budget, for a note: `1,000 files or 1,000 ms`. */
  limits(): string {
    return `${this.budget.maxFiles.toLocaleString('en-US')} files or ${this.budget.timeMs.toLocaleString('en-US')} ms`;
  }

  /** `n files`, or `at least n files` when the listing stopped early. */
  amount(listing: Listing, noun: string): string {
    return `${listing.cut ? 'at least ' : ''}${count(listing.paths.length, noun)}`;
  }

  /**
   * Runs rg with NUL-separated path output (`argv`, searching `searchPath`) and collects the paths `keeps`
   * accepts, up to `maxFiles`, within the time left. Cancellation of the call is rethrown; any other failure
   * (time out, rg error) ends the listing early with what it has. Unreadable paths are ignored.
   */
  async paths(argv: readonly string[], searchPath: string, keeps: (path: string, rawBytes?: Buffer) => boolean): Promise<Listing> {
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
      const exit = await runSearch(this.tool, argv, this.target, this.env, (chunk) => splitter.push(chunk), timeLeft);
      splitter.end();
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
