import { isUtf8 } from 'node:buffer';
import * as z from 'zod/mini';
import { parseArguments } from '../args';
import { quoteValue, ToolError } from '../errors';
import { globArgv } from '../ripgrep/argv';
import { interpretExit } from '../ripgrep/exit';
import type { ScoutTool, ToolEnv, ToolOutput } from '../tool';
import { pathSchema, patternSchema } from './arguments';
import { countOf, saveCompleteResult } from '../spill';
import { count, displayPaths, layoutResult } from './page';
import { sampleAcrossTopLevel } from './sample';
import { outputPrefixLength, resolveSearchTarget, runSearch, workdirNote } from './target';

/** glob's arguments (seed 000): `pattern`, optional directory `path`. */
export const globInputSchema = z.strictObject({
  pattern: patternSchema(
    'glob',
    'A ripgrep glob selecting files by path. Without a "/" it matches file names at any depth ("*.md", "package.json", "*.{ts,tsx}"), so "*" lists every file. With a "/" it matches the whole path relative to the workspace folder, even when path is set ("src/**/*.test.ts"). ONE glob: for several, use brace alternation ("*.{ts,txt}"), not a comma-separated list; no "!" exclusions. Lists hidden and git-ignored files too; never lists .git, .svn, .hg, .bzr, .jj or .sl contents.',
  ),
  path: pathSchema(
    'Directory to list files under: relative to the workspace folder, or absolute. Omit it for the whole folder. In a multi-root workspace, start it with a folder name to pick that folder ("api/src"). Characters such as ( ) [ ] in it are taken literally.',
  ),
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
  /**
   * Over `globMaxResults` only: the paths the text's page lists, in `paths` order (the head of `paths`, or
   * the round-robin sample of `sampleOverCapGlobResults`), so a viewer can show exactly what the model got.
   */
  readonly page?: string[];
}

/**
 * The `glob` tool: lists files matching a ripgrep glob with `rg --files` (argv in `argv.ts`), oldest modified
 * first. Over `globMaxResults` it shows one page, either the head or, with `sampleOverCapGlobResults`, a
 * round-robin sample across the entries directly under the search root, and saves the complete list through
 * the host's spill writer.
 */
export const globTool: ScoutTool<GlobArgs, GlobValue> = {
  name: 'glob',
  parse: (input) => parseArguments(globInputSchema, input),
  run: runGlob,
};

async function runGlob(args: GlobArgs, env: ToolEnv): Promise<ToolOutput<GlobValue>> {
  const config = env.config.search;
  const target = await resolveSearchTarget(args.path, env, 'directory');
  // rg --sort=modified prints the whole list at once when it is done, so nothing is gained by parsing as
  // chunks arrive: they are kept (within rawOutputMaxBytes) and decoded in one pass at the end.
  const chunks: Buffer[] = [];
  const exit = await runSearch('glob', globArgv(args.pattern, target.relPath), target, env, (chunk) => chunks.push(chunk));
  interpretExit(exit, { glob: { name: 'pattern', value: args.pattern } });
  const stdout = Buffer.concat(chunks);
  // `--null` ends every path with a NUL byte, so anything else is not rg's list (a broken or foreign binary).
  if (stdout.length > 0 && stdout[stdout.length - 1] !== 0) {
    throw new ToolError('SEARCH_FAILED', `${env.ripgrepPath} printed something other than a list of files. Check that scout.ripgrepPath names a real ripgrep, or clear it to use the editor's own.`);
  }
  const { paths, nonUtf8Paths } = decodePathList(stdout, outputPrefixLength(target));

  const value: GlobValue = { workdir: target.workdir, root: target.relPath, paths, ...(nonUtf8Paths.length ? { nonUtf8Paths } : {}) };
  if (paths.length === 0) return { text: 'No files found', value, summary: { files: 0, truncated: false } };

  const note = workdirNote(target, env);
  const cap = config.globMaxResults;
  const listed = displayPaths(paths);
  if (paths.length <= cap) return { text: layoutResult(listed, undefined, note), value, summary: { files: paths.length, truncated: false } };

  const sample = config.sampleOverCapGlobResults ? sampleAcrossTopLevel(paths, target.relPath, cap) : undefined;
  const sampled = sample && !sample.equalsHead ? sample.indices : undefined;
  const page = sampled ? sampled.map((i) => listed[i]!) : listed.slice(0, cap);
  const call = `${quoteValue(args.pattern)}${args.path ? ` in ${quoteValue(args.path)}` : ''}`;
  const saved = await saveCompleteResult(env, { tool: 'glob', call, size: countOf(paths.length, 'file') }, () => layoutResult(listed, undefined, note));
  const omitted = `${count(paths.length - page.length, 'more file')} not shown`;
  let footer: string;
  if (sample && !sample.equalsHead) {
    const under = target.relPath === '.' ? 'the workspace folder' : `"${target.relPath}"`;
    const reach =
      sample.groupsReached < sample.groupsTotal
        ? `and reaches ${sample.groupsReached} of those ${sample.groupsTotal} entries; set path to one entry to list all of its files.`
        : `and reaches all ${count(sample.groupsTotal, 'entry', 'entries')}.`;
    footer = `[${omitted}. This page samples ${page.length} of the ${paths.length} files round-robin across the entries directly under ${under} (oldest first within each) ${reach} ${saved.sentence}]`;
  } else {
    footer = `[${omitted}: these are the ${page.length} least recently modified of ${paths.length}. ${saved.sentence}]`;
  }
  return {
    text: layoutResult(page, footer, note),
    value: { ...value, page: sampled ? sampled.map((i) => paths[i]!) : paths.slice(0, cap) },
    summary: { files: paths.length, truncated: true },
    ...(saved.spill ? { spill: saved.spill } : {}),
  };
}

/**
 * Decodes `rg --files --null` output: paths each ended by a NUL byte, `strip` leading bytes dropped from
 * each (see `outputPrefixLength`). Names that are not valid UTF-8 are decoded lossily (U+FFFD) and also
 * listed with their exact bytes. All-UTF-8 output (the common case) is decoded in one pass and split;
 * otherwise each name is decoded on its own, which keeps the UTF-8 names in compact one-byte strings.
 */
export function decodePathList(out: Buffer, strip: number): { paths: string[]; nonUtf8Paths: { index: number; base64: string }[] } {
  const nonUtf8Paths: { index: number; base64: string }[] = [];
  if (out.length === 0) return { paths: [], nonUtf8Paths };
  if (isUtf8(out)) {
    const records = out.toString('utf8', 0, out[out.length - 1] === 0 ? out.length - 1 : out.length).split('\0');
    return { paths: strip ? records.map((p) => p.slice(strip)) : records, nonUtf8Paths };
  }
  const paths: string[] = [];
  for (let cursor = 0; cursor < out.length; ) {
    let stop = out.indexOf(0, cursor);
    if (stop < 0) stop = out.length;
    const start = Math.min(cursor + strip, stop);
    const name = out.toString('utf8', start, stop);
    if (name.includes('\uFFFD') && !isUtf8(out.subarray(start, stop))) nonUtf8Paths.push({ index: paths.length, base64: out.toString('base64', start, stop) });
    paths.push(name);
    cursor = stop + 1;
  }
  return { paths, nonUtf8Paths };
}
