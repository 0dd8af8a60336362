import * as z from 'zod/mini';
import { parseArguments } from '../args';
import { quoteValue, ToolError } from '../errors';
import { globArgv } from '../ripgrep/argv';
import { interpretExit, type RipgrepOutcome } from '../ripgrep/exit';
import { rawOutputOverflowError } from '../ripgrep/process';
import { PathListReader, type PathList } from '../ripgrep/pathList';
import { countOf, saveCompleteResult } from '../spill';
import type { ScoutTool, ToolEnv, ToolOutput } from '../tool';
import { argumentDescription } from '../toolDeclarations';
import type { ResolvedTarget } from '../workspace/folders';
import { pathSchema, patternSchema } from './arguments';
import { DEFAULT_EXPLAIN_BUDGET, explainEmptyGlob, type ExplainBudget } from './explain';
import { count, displayNonUtf8Path, displayPath, layoutEmpty, layoutPieces, layoutResult, layoutTail, listedAsIs, NO_FILES } from './page';
import { rawOutputCutNote } from './overflow';
import { readingNotes, resolveSearchCall } from './patterns';
import { rereadings, vainNotes } from './rereadings';
import { sampleAcrossBranches } from './sample';
import { SearchProgress } from './progress';
import { outputPrefixLength, runSearch, workdirNote } from './target';
import { unreadableNotes, unreadablePaths, type UnreadablePath } from './unreadable';
import { hostAdvice } from '../hostAdvice';

/** glob's arguments (seed 000): `pattern`, optional directory `path`. */
export const globInputSchema = z.strictObject({
  pattern: patternSchema('glob', argumentDescription('glob', 'pattern')),
  path: pathSchema(argumentDescription('glob', 'path')),
});

export type GlobArgs = z.infer<typeof globInputSchema>;

/** glob's canonical value (seed 000 `{ root, paths }`), plus the workdir the paths are relative to. */
export interface GlobValue {
  /** Absolute workdir (a workspace folder's realpath); every path is relative to it. */
  readonly workdir: string;
  /** The search root as passed to rg, relative to `workdir` (`.` for the workdir itself). */
  readonly root: string;
  /** Every file found, oldest modification first (rg `--sort=modified`), `/`-separated, relative to `workdir`. */
  readonly paths: string[];
  /**
   * Paths whose names are not valid UTF-8: their index in `paths` (which holds them decoded lossily, with
   * U+FFFD) and their exact bytes in base64. Absent when every name is UTF-8.
   */
  readonly nonUtf8Paths?: { index: number; base64: string }[];
  /** The glob rg was given, when it differs from `pattern` (an absolute path or a directory, see patterns.ts). */
  readonly readAs?: string;
  /** Paths rg could not read and left out; absent when there were none. */
  readonly unreadable?: UnreadablePath[];
  /**
   * True when rg's output reached `rawOutputMaxBytes` and Scout stopped it: `paths` holds the files listed by
   * then (see overflow.ts). Absent otherwise.
   */
  readonly incomplete?: true;
  /**
   * Over `globMaxResults` only: the paths the text's page lists, in `paths` order (the head of `paths`, or
   * the round-robin sample of `sampleOverCapGlobResults`), so a viewer can show exactly what the model got.
   */
  readonly page?: string[];
}

/**
 * A `glob` tool: lists files matching a ripgrep glob with `rg --files` (argv in `argv.ts`), oldest modified
 * first. Over `globMaxResults` it shows one page, either the head or, with `sampleOverCapGlobResults`, a
 * round-robin sample across the entries directly under the search root, and saves the complete list through
 * the host's spill writer. An empty result explains itself within `explainBudget` (see explain.ts).
 */
export function createGlobTool(explainBudget: ExplainBudget = DEFAULT_EXPLAIN_BUDGET): ScoutTool<GlobArgs, GlobValue> {
  return {
    name: 'glob',
    parse: (input) => parseArguments(globInputSchema, input),
    run: (args, env) => runGlob(args, env, explainBudget),
  };
}

/** The `glob` tool with the default explanation budget. */
export const globTool = createGlobTool();

async function runGlob(args: GlobArgs, env: ToolEnv, explainBudget: ExplainBudget): Promise<ToolOutput<GlobValue>> {
  const config = env.config.search;
  const resolved = await resolveSearchCall(env, args.path, 'directory', { name: 'pattern', value: args.pattern });
  const { target } = resolved;
  let glob = resolved.glob!;
  let listing = await listFiles(glob.glob, target, env, args.pattern);
  const vain: string[] = [];
  if (listing.list.paths.length === 0) {
    const others = await rereadings({ name: 'pattern', value: args.pattern }, glob, target, env.folders.length);
    for (const other of others) {
      const again = await listFiles(other.glob, target, env, args.pattern);
      if (again.list.paths.length === 0) continue;
      [glob, listing] = [other, again];
      break;
    }
    if (listing.list.paths.length === 0) vain.push(...vainNotes(others));
  }
  const pattern = glob.glob;
  const { list, outcome, cut } = listing;
  const { paths, nonUtf8Paths } = list;
  const unreadable = unreadablePaths(outcome, target);

  const value: GlobValue = {
    workdir: target.workdir,
    root: target.relPath,
    paths,
    ...(nonUtf8Paths.length ? { nonUtf8Paths } : {}),
    ...(pattern === args.pattern ? {} : { readAs: pattern }),
    ...(unreadable.length ? { unreadable } : {}),
    ...(cut ? { incomplete: true as const } : {}),
  };
  const summary = { files: paths.length, ...(unreadable.length ? { skipped: unreadable.length } : {}) };
  const notes = [...readingNotes({ ...resolved, glob }), ...unreadableNotes(unreadable, outcome.problemsCut)];
  if (cut) notes.push(rawOutputCutNote(config.rawOutputMaxBytes, paths.length, `the ${countOf(paths.length, 'file')} ripgrep listed by then, the least recently modified`, 'a path, or a more specific pattern such as "src/**/*.js"'));
  const note = workdirNote(target, env);
  if (paths.length === 0) {
    const explained = [...notes, ...(glob.emptyNote ? [glob.emptyNote] : []), ...vain, ...(await explainEmptyGlob(pattern, target, env, explainBudget, args.path === undefined))];
    return { text: layoutEmpty(NO_FILES, explained, note), value, summary: { ...summary, truncated: false } };
  }

  const cap = config.globMaxResults;
  const listed = listPaths(list);
  if (paths.length <= cap) return { text: layoutResult(listed.lines, notes, undefined, note), value, summary: { ...summary, truncated: cut } };

  const sample = config.sampleOverCapGlobResults ? sampleAcrossBranches(paths, target.relPath, cap) : undefined;
  const sampled = sample && !sample.equalsHead ? sample.indices : undefined;
  const page = sampled ? sampled.map((i) => listed.lines[i]!) : listed.lines.slice(0, cap);
  const call = `${quoteValue(args.pattern)}${args.path ? ` in ${quoteValue(args.path)}` : ''}`;
  const saved = await saveCompleteResult(
    env,
    { tool: 'glob', call, size: countOf(paths.length, 'file'), incomplete: cut },
    () => layoutPieces(listed.pieces, notes, undefined, note),
    (lengths) => {
      lengths.addLines(listed.lines);
      lengths.addText(layoutTail(notes, undefined, note));
    },
  );
  const omitted = `${count(paths.length - page.length, 'more file')} not shown`;
  let footer: string;
  if (sample && !sample.equalsHead) {
    const under = sample.root === '.' ? 'the workspace folder' : quoteValue(sample.root);
    const reach =
      sample.groupsReached < sample.groupsTotal
        ? `and reaches ${sample.groupsReached} of those ${sample.groupsTotal} entries; set path to one entry to list all of its files.`
        : `and reaches all ${count(sample.groupsTotal, 'entry', 'entries')}.`;
    footer = `[${omitted}. This page samples ${page.length} of the ${paths.length} files round-robin across the entries directly under ${under} (oldest first within each) ${reach} ${saved.sentence}]`;
  } else {
    footer = `[${omitted}: these are the ${page.length} least recently modified of ${paths.length}. ${saved.sentence}]`;
  }
  return {
    text: layoutResult(page, notes, footer, note),
    value: { ...value, page: sampled ? sampled.map((i) => paths[i]!) : paths.slice(0, cap) },
    summary: { ...summary, truncated: true },
    ...(saved.spill ? { spill: saved.spill } : {}),
  };
}

/**
 * The listed lines of every path (`displayPath`, or `displayNonUtf8Path` for a name that is not UTF-8), and the
 * same lines in pieces for the complete result: a run
 * of paths that all list as they are (the usual case, checked with one scan of the run) is its decoder's
 * joined text as is, so the complete list is never joined or checked path by path.
 */
function listPaths(list: PathList): { lines: readonly string[]; pieces: string[] } {
  const pieces: string[] = [];
  let lines: string[] | undefined;
  const nonUtf8 = new Map(list.nonUtf8Paths.map(({ index, base64 }) => [index, base64]));
  let at = 0;
  for (const run of list.runs) {
    if (run.joined !== undefined && listedAsIs(run.joined, run.ascii)) {
      pieces.push(run.joined);
    } else {
      lines ??= list.paths.slice();
      for (let i = at; i < at + run.count; i++) {
        const base64 = nonUtf8.get(i);
        lines[i] = base64 === undefined ? displayPath(list.paths[i]!) : displayNonUtf8Path(Buffer.from(base64, 'base64'));
      }
      pieces.push(lines.slice(at, at + run.count).join('\n'));
    }
    at += run.count;
  }
  return { lines: lines ?? list.paths, pieces: pieces.flatMap((piece, i) => (i === 0 ? [piece] : ['\n', piece])) };
}

/** One `rg --files` run of a glob call: the paths it listed, decoded, and how rg ended. */
interface Listing {
  readonly list: PathList;
  readonly outcome: RipgrepOutcome;
  /** True when rg was stopped at `rawOutputMaxBytes`: `list` holds the whole paths it printed by then. */
  readonly cut: boolean;
}

/**
 * Lists the files under `target` matching `pattern` (argv in `argv.ts`), oldest modified first.
 *
 * @param value the model's pattern, named in an error.
 * @throws ToolError as `runSearch` and `interpretExit`; SEARCH_FAILED when rg printed something else than a
 *   list; SEARCH_RAW_OUTPUT_OVERFLOW when it was cut before one whole path.
 */
async function listFiles(pattern: string, target: ResolvedTarget, env: ToolEnv, value: string): Promise<Listing> {
  // rg --sort=modified prints the whole list at once when it is done; each chunk is decoded as it arrives.
  const reader = new PathListReader(outputPrefixLength(target.relPath));
  // No count until rg is done walking (it prints the sorted list then): the messages say how long it has walked.
  const started = Date.now();
  const progress = new SearchProgress(env.progress, () => `Listing files under ${displayPath(target.workdir)}${Date.now() - started >= 1000 ? ` (${Math.floor((Date.now() - started) / 1000)} s)` : ''}`);
  const exit = await runSearch('glob', globArgv(pattern, target.relPath), target, env, (chunk) => reader.push(chunk), undefined, progress);
  const outcome = interpretExit(exit, { glob: { name: 'pattern', value } });
  if (outcome.warnings.length) env.log.warn(`glob: ripgrep said: ${outcome.warnings.join('\n')}`);
  const cut = exit.stdoutCut === true;
  // A cut list loses the path it was cut in the middle of.
  const list = reader.end(cut);
  if (cut && list.paths.length === 0) throw rawOutputOverflowError(env.config.search.rawOutputMaxBytes);
  // `--null` ends every path with a NUL byte, so anything else is not rg's list (a broken or foreign binary).
  if (!cut && !list.endsWithNul) {
    throw new ToolError('SEARCH_FAILED', `${env.ripgrepPath} printed something other than a list of files. Check that it is a real ripgrep, or ${hostAdvice().ripgrepPath('a real one')}.`);
  }
  return { list, outcome, cut };
}
