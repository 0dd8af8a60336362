import * as z from 'zod/mini';
import { parseArguments } from '../args';
import { quoteValue } from '../errors';
import { grepArgv } from '../ripgrep/argv';
import { interpretExit } from '../ripgrep/exit';
import { RgJsonReader, type RgData, type RgSubmatch } from '../ripgrep/jsonStream';
import type { ScoutTool, ToolEnv, ToolOutput } from '../tool';
import { includeSchema, pathSchema, patternSchema } from './arguments';
import { countOf, saveCompleteResult } from '../spill';
import { count, displayPath, layoutResult } from './page';
import { previewLine } from './preview';
import { outputPrefixLength, resolveSearchTarget, runSearch, workdirNote } from './target';

/** grep's arguments (seed 000): `pattern`, optional file-or-directory `path`, optional single `include` glob. */
export const grepInputSchema = z.strictObject({
  pattern: patternSchema(
    'regex',
    'Regular expression in ripgrep (Rust regex) syntax, matched against each line; case-sensitive unless it starts with (?i). Escape literal special characters: "interface\\s+User", "foo\\(", "\\[id\\]". No look-around or backreferences.',
  ),
  path: pathSchema(
    'File or directory to search: relative to the workspace folder, or absolute. Omit it for the whole folder. In a multi-root workspace, start it with a folder name to pick that folder. Hidden files, git-ignored files and binary files are skipped while walking a directory; name such a file or directory here to search it anyway.',
  ),
  include: includeSchema(
    'ONE glob limiting which files are searched, e.g. "*.ts", "*.{ts,tsx}" or "src/**/*.test.ts" (a glob with "/" is matched against the path relative to the workspace folder). No comma-separated lists and no "!" exclusions.',
  ),
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
  /** Byte offsets `[start, end)` of each match within the line's bytes, as rg reports them. */
  readonly submatches: RgSubmatch[];
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
}

/**
 * The `grep` tool: searches file contents with `rg --json` (argv in `argv.ts`) and lists the matched lines
 * grouped by file as `Line N: <preview>`, previews capped at `grepMaxLineBytes`. Files are sorted by path so
 * the result is the same on every run (rg searches in parallel). Over `grepMaxMatches` it shows the first
 * matches and saves the complete list through the host's spill writer.
 */
export const grepTool: ScoutTool<GrepArgs, GrepValue> = {
  name: 'grep',
  parse: (input) => parseArguments(grepInputSchema, input),
  run: runGrep,
};

interface FileGroup {
  readonly path: string;
  readonly pathBase64: string | undefined;
  readonly matches: GrepMatch[];
}

async function runGrep(args: GrepArgs, env: ToolEnv): Promise<ToolOutput<GrepValue>> {
  const config = env.config.search;
  const target = await resolveSearchTarget(args.path, env, 'file-or-directory');
  const groups = collectMatches(outputPrefixLength(target));
  const reader = new RgJsonReader(groups.add);
  const exit = await runSearch('grep', grepArgv(args.pattern, args.include, target.relPath), target, env, (chunk) => reader.push(chunk));
  reader.end();
  interpretExit(exit, {
    regex: { name: 'pattern', value: args.pattern },
    ...(args.include === undefined ? {} : { glob: { name: 'include', value: args.include } }),
  });

  const files = groups.sorted();
  const matches: GrepMatch[] = [];
  for (const file of files) for (const m of file.matches) matches.push(m);
  const value: GrepValue = { workdir: target.workdir, root: target.relPath, matches };
  if (matches.length === 0) return { text: 'No matches found', value, summary: { matches: 0, files: 0, truncated: false } };

  const note = workdirNote(target, env);
  const cap = config.grepMaxMatches;
  const summary = { matches: matches.length, files: files.length, truncated: matches.length > cap };
  if (matches.length <= cap) return { text: layoutResult(formatGroups(files, Infinity, config.grepMaxLineBytes), undefined, note), value, summary };

  const call = `${quoteValue(args.pattern)}${args.path ? ` in ${quoteValue(args.path)}` : ''}${args.include ? ` include ${quoteValue(args.include)}` : ''}`;
  const size = `${countOf(matches.length, 'match', 'matches')} in ${countOf(files.length, 'file')}`;
  const saved = await saveCompleteResult(env, { tool: 'grep', call, size }, () => layoutResult(formatGroups(files, Infinity, config.grepMaxLineBytes), undefined, note));
  const footer = `[${count(matches.length - cap, 'more match', 'more matches')} not shown: these are the first ${cap} of ${matches.length} matches in ${count(files.length, 'file')}. ${saved.sentence}]`;
  return {
    text: layoutResult(formatGroups(files, cap, config.grepMaxLineBytes), footer, note),
    value,
    summary,
    ...(saved.spill ? { spill: saved.spill } : {}),
  };
}

/**
 * Collects rg `match` messages into per-file groups. `strip` leading bytes are dropped from each path (see
 * `outputPrefixLength`). Files are keyed by their exact name bytes, so two non-UTF-8 names that decode to the
 * same lossy text stay apart.
 */
function collectMatches(strip: number) {
  const byKey = new Map<string, FileGroup>();
  let lastPath: RgData | undefined;
  let last: FileGroup | undefined;

  const groupFor = (path: RgData): FileGroup => {
    if (path.text !== undefined) {
      const text = strip ? path.text.slice(strip) : path.text;
      return byKey.get(text) ?? newGroup(text, text);
    }
    const bytes = Buffer.from(path.bytes, 'base64').subarray(strip);
    const pathBase64 = bytes.toString('base64');
    const key = `\0${pathBase64}`;
    return byKey.get(key) ?? newGroup(key, bytes.toString('utf8'), pathBase64);
  };
  const newGroup = (key: string, path: string, pathBase64?: string): FileGroup => {
    const group = { path, pathBase64, matches: [] };
    byKey.set(key, group);
    return group;
  };

  return {
    add: (path: RgData, line: string, lineNumber: number, submatches: RgSubmatch[], lineBase64: string | undefined): void => {
      // The reader hands consecutive matches of one file the same path object.
      if (path !== lastPath || !last) {
        lastPath = path;
        last = groupFor(path);
      }
      const match: GrepMatch =
        last.pathBase64 === undefined && lineBase64 === undefined
          ? { path: last.path, lineNumber, line, submatches }
          : {
              path: last.path,
              lineNumber,
              line,
              submatches,
              ...(last.pathBase64 === undefined ? {} : { pathBase64: last.pathBase64 }),
              ...(lineBase64 === undefined ? {} : { lineBase64 }),
            };
      last.matches.push(match);
    },
    sorted: (): FileGroup[] => [...byKey.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}

/** Formats up to `limit` matches as `path` lines each followed by its `Line N: preview` rows, files apart. */
function formatGroups(files: readonly FileGroup[], limit: number, maxLineBytes: number): string[] {
  const out: string[] = [];
  let left = limit;
  for (const file of files) {
    if (left <= 0) break;
    if (out.length) out.push('');
    out.push(displayPath(file.path));
    for (const m of file.matches) {
      if (left-- <= 0) break;
      const raw = m.lineBase64 === undefined ? undefined : Buffer.from(m.lineBase64, 'base64');
      out.push(`Line ${m.lineNumber}: ${previewLine(m.line, m.submatches, maxLineBytes, raw)}`);
    }
  }
  return out;
}
