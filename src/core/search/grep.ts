import * as z from 'zod/mini';
import { parseArguments } from '../args';
import { concatAll } from '../arrays';
import { showControlPictures, UNSAFE_CHARACTERS } from '../controlCharacters';
import { quoteValue } from '../errors';
import { grepArgv, type RegexEngine } from '../ripgrep/argv';
import { interpretExit, RegexRejectedError, type RipgrepOutcome } from '../ripgrep/exit';
import { matchesPath } from '../ripgrep/globs';
import { RgJsonReader, type RgData, type RgSubmatch } from '../ripgrep/jsonStream';
import { PathListReader } from '../ripgrep/pathList';
import { countOf, saveCompleteResult } from '../spill';
import type { ScoutTool, ToolEnv, ToolOutput } from '../tool';
import { argumentDescription } from '../toolDeclarations';
import type { ResolvedTarget } from '../workspace/folders';
import { includeSchema, pathSchema, patternSchema } from './arguments';
import { DEFAULT_EXPLAIN_BUDGET, explainEmptyGrep, type ExplainBudget } from './explain';
import { callGuard, includeFilter, isHiddenForRipgrep, pathKey, walkedHiddenArgv, type IncludeFilter } from './include';
import { rawOutputCutNote } from './overflow';
import { count, displayNonUtf8Path, displayPath, joinPieces, layoutEmpty, layoutPieces, layoutTail, NO_MATCHES } from './page';
import { readingNotes, resolveSearchCall, type ReadGlob } from './patterns';
import { firstReading, literalReading, otherNormalization, triedReadingsNote, type RegexReading } from './regexReadings';
import { includeRereading } from './rereadings';
import { previewLine } from './preview';
import { SearchProgress } from './progress';
import { outputPrefixLength, runSearch, workdirNote } from './target';
import { unreadableNotes, unreadablePaths, type UnreadablePath } from './unreadable';

/** grep's arguments (seed 000): `pattern`, optional file-or-directory `path`, optional single `include` glob. */
export const grepInputSchema = z.strictObject({
  pattern: patternSchema('regex', argumentDescription('grep', 'pattern')),
  path: pathSchema(argumentDescription('grep', 'path')),
  include: includeSchema(argumentDescription('grep', 'include')),
});

export type GrepArgs = z.infer<typeof grepInputSchema>;

/** One matched line of grep's canonical value (seed 000 `{ path, lineNumber, line }`). */
export interface GrepMatch {
  /** File path relative to the workdir, `/`-separated (lossy UTF-8 when the name is not UTF-8). */
  readonly path: string;
  /** 1-based line number. */
  readonly lineNumber: number;
  /** The whole line without its terminator (lossy UTF-8 when the line is not UTF-8); no preview cap. */
  readonly line: string;
  /**
   * Byte offsets `[start, end)` of each match within the line's bytes, as rg reports them. Shared between matches
   * with the same offsets, and frozen (see `oneSubmatch` in jsonStream.ts).
   */
  readonly submatches: readonly RgSubmatch[];
  /** The exact bytes of a non-UTF-8 file name, base64. */
  readonly pathBase64?: string;
  /** The exact bytes of a non-UTF-8 line, base64, terminator included (the offsets refer to these). */
  readonly lineBase64?: string;
}

/** grep's canonical value: every match, grouped by file (files in path order, lines in file order). */
export interface GrepValue {
  /** Absolute workdir; every path is relative to it. */
  readonly workdir: string;
  /** The search path as passed to rg, relative to `workdir`. */
  readonly root: string;
  readonly matches: GrepMatch[];
  /** The glob `include` was read as, when it differs from `include` (an absolute path or a directory, see patterns.ts). */
  readonly readAs?: string;
  /** How rg read `pattern`, when not as sent with its default engine (PCRE2, literal text, NFC/NFD: regexReadings.ts). */
  readonly patternReadAs?: { readonly pattern: string; readonly engine: RegexEngine };
  /** Paths rg could not read and left out; absent when there were none. */
  readonly unreadable?: UnreadablePath[];
  /**
   * True when rg's output reached `rawOutputMaxBytes` and Scout stopped it: `matches` holds what it printed by
   * then (see overflow.ts). Absent otherwise.
   */
  readonly incomplete?: true;
  /**
   * With `incomplete`: the file rg was printing when it was stopped, whose matches may be only some of its own
   * (every other file's are all there), as its matches name it. Absent when no listed file may miss matches.
   */
  readonly partialFile?: { readonly path: string; readonly pathBase64?: string };
}

/**
 * A `grep` tool: searches file contents with `rg --json` (argv in `argv.ts`) and lists the matched lines
 * grouped by file as `Line N: <preview>`, previews capped at `grepMaxLineBytes`. Files are sorted by path so
 * the result is the same on every run (rg searches in parallel). Over `grepMaxMatches` it shows the first
 * matches and saves the complete list through the host's spill writer. `include` never brings back a hidden
 * or ignored file (see include.ts). An empty result explains itself within `explainBudget` (see explain.ts).
 */
export function createGrepTool(explainBudget: ExplainBudget = DEFAULT_EXPLAIN_BUDGET): ScoutTool<GrepArgs, GrepValue> {
  return {
    name: 'grep',
    parse: (input) => parseArguments(grepInputSchema, input),
    run: (args, env) => runGrep(args, env, explainBudget),
  };
}

/** The `grep` tool with the default explanation budget. */
export const grepTool = createGrepTool();

/**
 * The matches of one file, and its lines of the result once formatted. A class whose fields all exist from
 * the constructor on, with one type each, so every group has one shape and code optimized for it stays valid.
 */
class FileGroup {
  readonly matches: GrepMatch[] = [];
  /**
   * The file's lines of the complete result: its listed path, then a `Line N: preview` row per match, joined by
   * line feeds. Made as soon as rg has moved on to another file, so most of the formatting happens while rg
   * still runs; empty while the file may still get matches.
   */
  block = '';
  /** The lengths of the block's lines, when its rows went into it unchanged; undefined otherwise. */
  lineLengths: number[] | undefined;

  constructor(
    readonly path: string,
    /** The exact bytes of a non-UTF-8 name, base64; empty for a UTF-8 name. */
    readonly pathBase64: string,
    /** False for a file `include` leaves out: its matches are read and dropped. */
    readonly kept: boolean,
  ) {}
}

async function runGrep(args: GrepArgs, env: ToolEnv, explainBudget: ExplainBudget): Promise<ToolOutput<GrepValue>> {
  const config = env.config.search;
  const resolved = await resolveSearchCall(env, args.path, 'file-or-directory', args.include === undefined ? undefined : { name: 'include', value: args.include });
  const { target } = resolved;
  let glob = resolved.glob;
  // rg searches a file given as its path whatever the globs say, so include is applied to that file here: one
  // it leaves out (in every reading) is not searched, and the result says so.
  if (glob && target.kind === 'file' && !matchesPath(glob.parsed, target.relPath)) {
    const other = await includeRereading({ name: 'include', value: args.include! }, glob, target, env);
    if (!other.found) {
      const left = `[include ${quoteValue(args.include!)} does not match the file given as path, ${quoteValue(target.relPath)}, so it was not searched. Call grep again without include to search that file.]`;
      const value: GrepValue = { workdir: target.workdir, root: target.relPath, matches: [], ...(glob.glob !== args.include ? { readAs: glob.glob } : {}) };
      const notes = [...readingNotes(resolved), ...(glob.emptyNote ? [glob.emptyNote] : []), ...other.vainNotes, left];
      return { text: layoutEmpty(NO_MATCHES, notes, workdirNote(target, env)), value, summary: { matches: 0, files: 0, truncated: false } };
    }
    glob = other.found;
  }
  let regex = await firstReading(args.pattern, env.ripgrepPath);
  const tried: RegexReading[] = [];
  let found: Search;
  try {
    found = await searchMatches(args, regex, target, glob, env);
  } catch (e) {
    // A regex rg rejects may be literal text the model meant (`foo(`); else the error stands.
    const literal = e instanceof RegexRejectedError ? literalReading(regex, true) : undefined;
    if (!literal || !(e instanceof RegexRejectedError)) throw e;
    found = await searchMatches(args, literal, target, glob, env);
    if (found.files.length === 0) throw new RegexRejectedError(`${e.message} (Searched as literal text, it matches nothing either.)`);
    regex = literal;
  }
  let vainIncludes: string[] = [];
  if (found.files.length === 0 && found.include && glob) {
    const other = await includeRereading({ name: 'include', value: args.include! }, glob, target, env);
    if (other.found) [glob, found] = [other.found, await searchMatches(args, regex, target, other.found, env)];
    vainIncludes = other.vainNotes;
  }
  // A pattern that finds nothing as read: as literal text, then in its other normalization form.
  if (found.files.length === 0 && !found.cut) {
    const literal = literalReading(regex, false);
    const others = [literal, otherNormalization(regex), literal && otherNormalization(literal)].filter((r): r is RegexReading => r !== undefined);
    for (const other of others) {
      tried.push(other);
      const again = await searchMatches(args, other, target, glob, env);
      if (again.files.length === 0) continue;
      [regex, found] = [other, again];
      break;
    }
  }
  const { files, outcome, cut, include, partial } = found;
  const matches = concatAll(files.map((f) => f.matches));
  const unreadable = unreadablePaths(outcome, target);
  const value: GrepValue = {
    workdir: target.workdir,
    root: target.relPath,
    matches,
    ...(glob && glob.glob !== args.include ? { readAs: glob.glob } : {}),
    ...(regex.note ? { patternReadAs: { pattern: regex.pattern, engine: regex.engine } } : {}),
    ...(unreadable.length ? { unreadable } : {}),
    ...(cut ? { incomplete: true as const } : {}),
    ...(partial ? { partialFile: { path: partial.path, ...(partial.pathBase64 === '' ? {} : { pathBase64: partial.pathBase64 }) } } : {}),
  };
  const notes = [...readingNotes({ ...resolved, glob }), ...(regex.note ? [regex.note] : []), ...unreadableNotes(unreadable, outcome.problemsCut)];
  if (cut) {
    // Files are listed by path, so the one rg was printing when stopped is named: it may sit anywhere in the list.
    const whole = partial ? `${listedPath(partial, quoteValue)}, the file it was printing then, may miss some of its matches; the others hold all of theirs` : 'each holds all of its matches';
    const held = `the ${countOf(matches.length, 'match', 'matches')} in ${countOf(files.length, 'file')} ripgrep printed by then (${whole})`;
    notes.push(rawOutputCutNote(config.rawOutputMaxBytes, matches.length, held, 'a smaller path, an include glob such as "*.ts", or a more specific pattern'));
  }
  const skipped = unreadable.length ? { skipped: unreadable.length } : {};
  const note = workdirNote(target, env);
  if (matches.length === 0) {
    const explained = await explainEmptyGrep({ pattern: regex.pattern, engine: regex.engine, target, ...(include ? { include: { value: args.include!, filter: include } } : {}), pathOmitted: args.path === undefined }, env, explainBudget);
    const vain = triedReadingsNote(args.pattern, tried);
    const empty = [...(glob?.emptyNote ? [glob.emptyNote] : []), ...vainIncludes, ...(vain ? [vain] : [])];
    return { text: layoutEmpty(NO_MATCHES, [...notes, ...empty, ...explained], note), value, summary: { matches: 0, files: 0, ...skipped, truncated: false } };
  }

  const cap = config.grepMaxMatches;
  const summary = { matches: matches.length, files: files.length, ...skipped, truncated: matches.length > cap || cut };
  if (matches.length <= cap) return { text: joinPieces(layoutPieces(resultBody(files), notes, undefined, note)), value, summary };

  const call = `${quoteValue(args.pattern)}${args.path ? ` in ${quoteValue(args.path)}` : ''}${args.include ? ` include ${quoteValue(args.include)}` : ''}`;
  const size = `${countOf(matches.length, 'match', 'matches')} in ${countOf(files.length, 'file')}`;
  const saved = await saveCompleteResult(
    env,
    { tool: 'grep', call, size, incomplete: cut },
    () => layoutPieces(resultBody(files), notes, undefined, note),
    (lengths) => {
      // The lines of resultBody: each file's block, a blank line between two files.
      for (let i = 0; i < files.length; i++) {
        const file = files[i]!;
        if (i > 0) {
          lengths.addLineBreak();
          lengths.addLineBreak();
        }
        if (file.lineLengths) lengths.addLineLengths(file.lineLengths);
        else lengths.addText(file.block);
      }
      lengths.addText(layoutTail(notes, undefined, note));
    },
  );
  const footer = `[${count(matches.length - cap, 'more match', 'more matches')} not shown: these are the first ${cap} of ${matches.length} matches in ${count(files.length, 'file')}. ${saved.sentence}]`;
  return {
    text: joinPieces(layoutPieces(pageBody(files, cap, config.grepMaxLineBytes), notes, footer, note)),
    value,
    summary,
    ...(saved.spill ? { spill: saved.spill } : {}),
  };
}

/** The matches of one grep run, and how rg ended. */
interface Search {
  /** Files with kept matches, sorted by path. */
  readonly files: FileGroup[];
  readonly outcome: RipgrepOutcome;
  /** True when rg was stopped at `rawOutputMaxBytes` (see overflow.ts): `files` holds what it printed by then. */
  readonly cut: boolean;
  /** How `glob` was applied; absent without include, or when path is a file. */
  readonly include?: IncludeFilter;
  /** With `cut`: the kept file rg was printing when it was stopped (its matches may be some of its own). */
  readonly partial?: FileGroup;
}

/**
 * Runs `rg --json` for a grep call (argv in `argv.ts`), with the pattern and the include glob as read (`regex`,
 * `glob`).
 *
 * @throws ToolError as `runSearch` and `interpretExit` (`RegexRejectedError` for a regex rg rejects).
 */
async function searchMatches(args: GrepArgs, regex: RegexReading, target: ResolvedTarget, glob: ReadGlob | undefined, env: ToolEnv): Promise<Search> {
  // rg searches a file given as its path whatever the globs say: runGrep applied include to it already.
  const include = glob && target.kind === 'directory' ? includeFilter(glob.parsed, callGuard(env.signal, env.config.search.timeoutMs)) : undefined;
  // Hidden names the file type let through are kept for now and confirmed below.
  const groups = collectMatches(outputPrefixLength(target.relPath), env.config.search.grepMaxLineBytes, include?.exact === false ? include.matches : undefined);
  const reader = new RgJsonReader(groups.add);
  const progress = new SearchProgress(env.progress, () => {
    const { files, matches } = groups.counts();
    return matches === 0 ? `Searching ${displayPath(target.workdir)}` : `${countOf(matches, 'match', 'matches')} in ${countOf(files, 'file')} so far`;
  });
  const argv = grepArgv(regex.pattern, target.relPath, include?.walk, { engine: regex.engine });
  const exit = await runSearch('grep', argv, target, env, (chunk) => reader.push(chunk), undefined, progress);
  // A cut output ends inside a message, which is dropped with the rest.
  if (!exit.stdoutCut) reader.end();
  const outcome = interpretExit(exit, { regex: { name: 'pattern', value: args.pattern }, ...(args.include === undefined ? {} : { glob: { name: 'include', value: args.include } }) });
  if (outcome.warnings.length) env.log.warn(`grep: ripgrep said: ${outcome.warnings.join('\n')}`);
  let files = groups.sorted();
  if (include?.admitsHidden && files.some((f) => isHiddenForRipgrep(f.path))) {
    const walked = await walkedHidden(include, target, env);
    files = files.filter((f) => !isHiddenForRipgrep(f.path) || walked.has(pathKey(f.path, f.pathBase64 === '' ? undefined : Buffer.from(f.pathBase64, 'base64'))));
  }
  // A cut inside rg's closing summary lost no match: the result is complete.
  const cut = exit.stdoutCut === true && !reader.cutInSummary();
  const printing = cut && !reader.lastFileWhole() ? groups.lastPrinted() : undefined;
  const partial = printing && files.find((f) => f.path === printing.path && f.pathBase64 === printing.pathBase64);
  return { files, outcome, cut, ...(include ? { include } : {}), ...(partial ? { partial } : {}) };
}

/**
 * The keys ({@link pathKey}) of the hidden-named files rg's walk under the target reaches without include
 * (whitelisted by an ignore file), from one `rg --files` run.
 *
 * @throws ToolError as `runSearch`.
 */
async function walkedHidden(include: IncludeFilter, target: ResolvedTarget, env: ToolEnv): Promise<Set<string>> {
  const reader = new PathListReader(outputPrefixLength(target.relPath));
  const exit = await runSearch('grep', walkedHiddenArgv(include, target.relPath), target, env, (chunk) => reader.push(chunk));
  const list = reader.end(exit.stdoutCut === true);
  const raw = new Map(list.nonUtf8Paths.map((p) => [p.index, Buffer.from(p.base64, 'base64')]));
  return new Set(list.paths.map((p, i) => pathKey(p, raw.get(i))));
}

/**
 * Collects rg `match` messages into per-file groups. `strip` leading bytes are dropped from each path (see
 * `outputPrefixLength`). A file's matches come together in rg's output, so a new file starts a new group; a
 * name that is not UTF-8 keeps its exact bytes, so two such names that decode to the same lossy text stay apart.
 * `keeps`, when given, decides once per file whether its matches are kept. A file's lines of the result are
 * formatted (previews cut at `maxLineBytes`) when rg moves on to another file.
 *
 * The kept files are also sorted by path while rg runs, {@link SORTED_RUN} at a time: the final sort then only
 * merges these runs (Array#sort finds them), which is about a third of the work that remains once rg has exited.
 */
function collectMatches(strip: number, maxLineBytes: number, keeps?: (path: string, rawBytes?: Buffer) => boolean) {
  /** Runs of kept files, each sorted by path, in rg's order. */
  const runs: FileGroup[][] = [];
  /** The kept files since the last run was sorted, in rg's order. */
  let run: FileGroup[] = [];
  /**
   * True once two kept files with the same path were compared. A sort compares every two files that end up
   * side by side, so while false no two files share a path and the join in `sorted` can be skipped.
   */
  let samePath = false;
  /**
   * `files` sorted by path in UTF-16 code unit order (the order of `<`); files with equal paths (names that are
   * not UTF-8 and decode to the same lossy text) by their exact bytes, so the order never depends on which file
   * rg finished first.
   */
  const sortByPath = (files: FileGroup[]): FileGroup[] =>
    files.sort((a, b) => {
      // One ordering comparison per pair: equality (a length check for most paths) is far cheaper than `<` on
      // long paths that share their folders.
      if (a.path !== b.path) return a.path < b.path ? -1 : 1;
      samePath = true;
      return Buffer.compare(Buffer.from(a.pathBase64, 'base64'), Buffer.from(b.pathBase64, 'base64'));
    });
  let lastPath: RgData | undefined;
  let last: FileGroup | undefined;
  let keptFiles = 0;
  let keptMatches = 0;

  const newGroup = (path: RgData): FileGroup => {
    let group: FileGroup;
    if (path.text !== undefined) {
      const text = strip ? path.text.slice(strip) : path.text;
      group = new FileGroup(text, '', keeps === undefined || keeps(text));
    } else {
      const bytes = Buffer.from(path.bytes, 'base64').subarray(strip);
      const text = bytes.toString('utf8');
      group = new FileGroup(text, bytes.toString('base64'), keeps === undefined || keeps(text, bytes));
    }
    if (group.kept) {
      run.push(group);
      if (run.length === SORTED_RUN) {
        runs.push(sortByPath(run));
        run = [];
      }
    }
    return group;
  };
  const finish = (group: FileGroup): void => {
    if (group.kept && group.block === '') ({ block: group.block, lineLengths: group.lineLengths } = formatFile(group, group.matches.length, maxLineBytes, true));
  };

  return {
    /** The files and matches kept so far (progress while rg runs). */
    counts: () => ({ files: keptFiles, matches: keptMatches }),
    /** The file of the last match read, when it was kept. */
    lastPrinted: (): FileGroup | undefined => (last?.kept ? last : undefined),
    add: (path: RgData, line: string, lineNumber: number, submatches: readonly RgSubmatch[], lineBase64: string | undefined): void => {
      // The reader hands consecutive matches of one file the same path object.
      if (path !== lastPath || !last) {
        if (last) finish(last);
        lastPath = path;
        last = newGroup(path);
        if (last.kept) keptFiles += 1;
      }
      if (!last.kept) return;
      keptMatches += 1;
      const match: GrepMatch =
        last.pathBase64 === '' && lineBase64 === undefined
          ? { path: last.path, lineNumber, line, submatches }
          : {
              path: last.path,
              lineNumber,
              line,
              submatches,
              ...(last.pathBase64 === '' ? {} : { pathBase64: last.pathBase64 }),
              ...(lineBase64 === undefined ? {} : { lineBase64 }),
            };
      last.matches.push(match);
    },
    /**
     * The kept files in path order (UTF-16 code unit order, as `<` compares), every one formatted. Should rg
     * ever print one file's matches in two parts, the parts end up side by side and are joined here.
     */
    sorted: (): FileGroup[] => {
      if (last) finish(last);
      // A stable sort of runs in rg's order keeps equal paths (one file printed in two parts) in rg's order.
      const sorted = sortByPath(concatAll([...runs, run]));
      // A loop over every file after rg has exited costs about 0.2 µs a file (this code is not compiled yet then).
      if (!samePath) return sorted;
      const files: FileGroup[] = [];
      for (const group of sorted) {
        const previous = files[files.length - 1];
        if (previous && previous.path === group.path && previous.pathBase64 === group.pathBase64) {
          previous.matches.push(...group.matches);
          ({ block: previous.block, lineLengths: previous.lineLengths } = formatFile(previous, previous.matches.length, maxLineBytes));
        } else files.push(group);
      }
      return files;
    },
  };
}

/** Kept files sorted together while rg runs (see `collectMatches`); beyond about 1,000 the final merge gains little. */
const SORTED_RUN = 1024;

/** {@link UNSAFE_CHARACTERS} without its global flag, for `test` (line feeds are not in it). */
const UNSAFE = new RegExp(UNSAFE_CHARACTERS.source);

/**
 * A file's listed path, then `Line N: preview` rows for its first `limit` matches, joined by line feeds.
 * Control characters are made visible in the block as a whole (`showControlPictures`, one scan per file rather
 * than one per line), which shows them exactly as in each preview on its own, since no preview holds a line feed.
 *
 * With `share`, each match whose row shows its whole line as it is (the usual case: a line that fits and has
 * no control character) then takes its `line` from the block, as a slice of it: the value's lines and the
 * complete result then hold that text once instead of twice (memory of a large grep).
 */
function formatFile(file: FileGroup, limit: number, maxLineBytes: number, share = false): { block: string; lineLengths?: number[] } {
  const rows = [listedPath(file)];
  const previews: string[] = [];
  let lineFeed = false;
  for (let i = 0; i < limit; i++) {
    const m = file.matches[i]!;
    const raw = m.lineBase64 === undefined ? undefined : Buffer.from(m.lineBase64, 'base64');
    const preview = previewLine(m.line, m.submatches, maxLineBytes, raw, false);
    lineFeed ||= preview.includes('\n');
    previews.push(preview);
    rows.push(`Line ${m.lineNumber}: ${preview}`);
  }
  if (lineFeed) return { block: rows.map((row, i) => (i === 0 ? row : showControlPictures(row))).join('\n') };
  const block = rows.join('\n');
  if (UNSAFE.test(block)) return { block: showControlPictures(block, true) };
  if (share) {
    let at = rows[0]!.length + 1;
    for (let i = 0; i < limit; i++) {
      const m = file.matches[i]! as { line: string };
      const start = at + rows[i + 1]!.length - previews[i]!.length;
      if (previews[i] === m.line) m.line = block.slice(start, start + m.line.length);
      at += rows[i + 1]!.length + 1;
    }
  }
  return { block, lineLengths: rows.map((row) => row.length) };
}

/**
 * A file's path as the result lists it (`displayPath`), or as a note names it with `quote` = `quoteValue`:
 * always quoted, so no name can pass for the note's words. A name that is not UTF-8 is always quoted
 * (`displayNonUtf8Path`).
 */
function listedPath(file: FileGroup, quote: (path: string) => string = displayPath): string {
  return file.pathBase64 === '' ? quote(file.path) : displayNonUtf8Path(Buffer.from(file.pathBase64, 'base64'));
}

/** Formatted files joined into one piece of the complete result. */
const PIECE_FILES = 256;

/**
 * The body of the complete result in pieces (files apart by a blank line), each piece {@link PIECE_FILES}
 * formatted files joined, so a host writing it makes few calls and never holds it whole. The pieces are made by
 * the engine's own array and string operations: on a host's first large result this code has not been compiled
 * yet, and a loop of a few statements per file took about 0.7 µs a file there. The blank line between two
 * pieces is a piece of its own: put before a joined piece, it would make a two-part string that encoding has to
 * copy flat first (about 6 ms for the 4.3 MB of the bench's broad search).
 */
function* resultBody(files: readonly FileGroup[]): Generator<string> {
  const blocks = files.map((file) => file.block);
  for (let at = 0; at < blocks.length; at += PIECE_FILES) {
    if (at > 0) yield '\n\n';
    yield blocks.slice(at, at + PIECE_FILES).join('\n\n');
  }
}

/** The body of a page: the files holding the first `cap` matches, the last one cut to the matches that fit. */
function* pageBody(files: readonly FileGroup[], cap: number, maxLineBytes: number): Generator<string> {
  let left = cap;
  for (const file of files) {
    if (left <= 0) break;
    if (left !== cap) yield '\n\n';
    const shown = Math.min(left, file.matches.length);
    yield shown === file.matches.length ? file.block : formatFile(file, shown, maxLineBytes).block;
    left -= shown;
  }
}
