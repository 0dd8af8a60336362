import * as z from 'zod/mini';
import { quoteValue } from '../errors';

/**
 * `zod/mini` pieces shared by the glob and grep argument schemas. Refinement messages name the argument and say
 * what to do, because `parseArguments` passes them to the model verbatim.
 */

const hasNul = (s: string): boolean => s.includes('\0');

/**
 * Longest pattern, path or include accepted, in UTF-16 code units. Linux refuses a single argv string over
 * 128 KiB (MAX_ARG_STRLEN) at spawn; well below that, a longer value is a mistake rather than a search.
 */
export const MAX_ARGUMENT_CHARS = 10_000;
const tooLong = (name: string, advice: string) => `${name} is longer than ${MAX_ARGUMENT_CHARS} characters. ${advice}`;

/** What the model should do instead of sending an over-long value, per kind of argument. */
const SHORTER = {
  glob: 'Use a shorter glob: match a name or extension ("*.test.ts") or a directory ("src/**/*.md"), not a list of files.',
  regex: 'Use a shorter regular expression: search for a distinctive part of the text, not all of it.',
  path: 'Give the directory or file to search, relative to the workspace folder.',
};

/**
 * A required pattern, not blank (seed 000), no NUL (no argv can carry one), at most {@link MAX_ARGUMENT_CHARS}.
 * `glob`'s pattern is also held to grep `include`'s one-positive-glob rule ({@link oneGlobProblem}): rg's
 * `--glob` reads a leading `!` as "every file except", and a comma list as one glob containing a comma.
 */
export function patternSchema(kind: 'glob' | 'regex', description: string) {
  const noun = kind === 'glob' ? 'glob' : 'regular expression';
  return z
    .string(kind === 'glob' ? { error: globListError('Give one glob, such as "*.ts".') } : undefined)
    .check(
      z.refine((s) => s.trim() !== '', { message: `pattern must not be blank. Give the ${noun} to search for.` }),
      z.refine((s) => !hasNul(s), { message: 'pattern must not contain a NUL character.' }),
      z.refine((s) => s.length <= MAX_ARGUMENT_CHARS, { message: tooLong('pattern', SHORTER[kind]) }),
      ...(kind === 'glob' ? [issueFrom((s) => oneGlobProblem('pattern', s, 'Name the files to list instead.'))] : []),
    )
    .register(z.globalRegistry, { description });
}

/** A zod check that adds `problem(s)` as a custom issue when it returns a message. */
function issueFrom(problem: (s: string) => string | undefined) {
  return z.superRefine<string>((s, ctx) => {
    const message = problem(s);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}

/**
 * The zod error map of a glob argument given as a list (`["*.ts","*.md"]`, where the schema says string): the
 * one glob the list means when there is one ({@link listGlob}), else why not and what to do; for an empty
 * list or one holding a non-string, what to send instead (`noGlob`). Undefined for any other wrong type,
 * which keeps the generic message (`parseArguments` puts the argument's name first).
 *
 * @param noGlob the next step when the list holds no glob, one sentence.
 */
function globListError(noGlob: string) {
  return (issue: { readonly input?: unknown }): string | undefined => {
    const items = issue.input;
    if (!Array.isArray(items)) return undefined;
    if (items.length === 0) return `must be a string, not an empty list. ${noGlob}`;
    if (!items.every((item): item is string => typeof item === 'string')) {
      return 'must be ONE glob as a string, not a list. Give one glob; brace alternation puts several in one ("{a,b}").';
    }
    if (items.length === 1) return items[0]!.trim() === '' ? `must be a string, not a list. ${noGlob}` : `must be a string, not a list. Give the glob itself: ${quoteValue(items[0]!)}.`;
    const one = listGlob(items, false);
    const list = `must be ONE glob as a string, not a list of ${items.length}.`;
    return 'glob' in one ? `${list} Put them in one glob with brace alternation: ${quoteValue(one.glob)}.${one.caveat ? ` ${one.caveat}` : ''}` : `${list} No one glob means the same: ${one.problem}`;
  };
}

/** The optional `path`: omitted means the workdir; when given it must not be blank or hold a NUL. */
export function pathSchema(description: string) {
  return z
    .optional(
      z.string().check(
        z.refine((s) => s.trim() !== '', { message: 'path must not be blank. Omit path to search the whole workspace folder.' }),
        z.refine((s) => !hasNul(s), { message: 'path must not contain a NUL character.' }),
        z.refine((s) => s.length <= MAX_ARGUMENT_CHARS, { message: tooLong('path', SHORTER.path) }),
      ),
    )
    .register(z.globalRegistry, { description });
}

/** grep's optional `include`: ONE positive glob (seed 000), see {@link includeProblem}. */
export function includeSchema(description: string) {
  return z
    .optional(
      z.string({ error: globListError('Leave include out to search every file, or give one glob, such as "*.ts".') }).check(issueFrom(includeProblem)),
    )
    .register(z.globalRegistry, { description });
}

/** Why `glob` is not a valid grep `include` (blank, NUL, too long, or not {@link oneGlobProblem}), or undefined. */
export function includeProblem(glob: string): string | undefined {
  if (glob.trim() === '') return 'include must not be blank. Omit include to search every file.';
  if (hasNul(glob)) return 'include must not contain a NUL character.';
  if (glob.length > MAX_ARGUMENT_CHARS) return tooLong('include', SHORTER.glob);
  return oneGlobProblem('include', glob, 'Name the files to search instead, or omit include.');
}

/**
 * Deepest nesting of `{…}` alternations a glob may have. ripgrep turns each level into a regex group and
 * gives up near 250 (its regex parser's nesting limit, shared with the groups of the rest of the glob); no
 * real glob needs more than two or three levels, and a bound keeps every later step shallow.
 */
export const MAX_BRACE_DEPTH = 32;

/**
 * Why `glob`, the value of argument `name`, is not ONE positive ripgrep glob, or undefined when it is (seed 000
 * `include`: "a comma-separated list or a negated (`!…`) value is rejected up front (brace alternation like
 * `*.{ts,tsx}` is fine)"). Scout applies the same rule to glob's `pattern`.
 *
 * A comma counts as a list separator only outside `{…}` alternations and `[…]` classes, and not after a
 * backslash escape, so `*.{ts,tsx}` and `[,]x` stay valid; a list is refused with the one glob it means
 * ({@link listGlob}). Alternations nested more than {@link MAX_BRACE_DEPTH} levels deep are refused too. The
 * message quotes `glob` with {@link quoteValue}.
 *
 * @param instead what to do instead of an exclusion, one sentence.
 */
export function oneGlobProblem(name: string, glob: string, instead: string): string | undefined {
  if (glob.startsWith('!')) {
    return `${name} must be one positive glob; ${quoteValue(glob)} is an exclusion ("!…"), which is not supported. ${instead}`;
  }
  const braces = braceStructure(glob);
  if (braces.depth > MAX_BRACE_DEPTH) {
    return `${name} nests { } alternations more than ${MAX_BRACE_DEPTH} levels deep, the most Scout accepts. ${FLATTER}`;
  }
  if (braces.parts.length < 2) return undefined;
  const one = listGlob([glob], true);
  const list = `${name} must be ONE glob, not a comma-separated list (${quoteValue(glob)}).`;
  const literal = `A comma that is part of a file name is escaped: ${quoteValue(braces.parts.join('\\,'))}.`;
  return 'glob' in one ? `${list} Use brace alternation instead: ${quoteValue(one.glob)}.${one.caveat ? ` ${one.caveat}` : ''} ${literal}` : `${list} No one glob means the same: ${one.problem} ${literal}`;
}

const FLATTER = 'Use a flatter glob: one level of alternation such as "*.{ts,tsx}" is enough for a list of names or extensions.';

/**
 * Most globs {@link listGlob} puts in one alternation, counted after braces are expanded: enough for any
 * list a model means, and a bound on the work (`{a,b}{c,d}…` doubles with each group).
 */
const MAX_LIST_GLOBS = 64;

/**
 * The one glob a list of globs means, or why there is none, as a sentence that ends with the next step.
 * With `splitCommas` (a comma list, `*.ts,*.md`) each item is split at its top-level commas; otherwise (items
 * of a JSON list) such a comma is part of a name, as rg reads it, and is kept escaped (`\,`). Each item's
 * `{…}` alternations are expanded (`["*.{ts,md}","*.py"]` is `*.ts`, `*.md`, `*.py`), empty alternatives
 * dropped as rg drops them. A value ending in "/" (`docs/`: folders only) stands for the files under them,
 * `docs/**`, as Scout reads it alone; a name without a wildcard gets a `caveat`: inside braces it matches only
 * files of that name, where Scout alone would read a folder of that name as its files. The values become one
 * flat alternation, `*.{ts,md,py}` when each is an extension glob, else `{a,b}` where a value without "/"
 * among values with one gets `**\/`, since rg matches an alternation holding "/" against the whole path, so
 * it keeps matching at any depth. Every value is kept as given and nothing else is added.
 *
 * There is no such glob when a split part matches every file (`*,ts`: a comma typed for a dot, most likely),
 * when an item is an exclusion (`!…`: no glob excludes), when a value starts with "/" or holds a `.`, `..` or
 * empty (`//`) segment (Scout reads those in a glob of its own, see patterns.ts; inside braces they would
 * match nothing), when an item has an unclosed `{` or nests braces more than {@link MAX_BRACE_DEPTH} levels,
 * or when there are more than {@link MAX_LIST_GLOBS} values or {@link MAX_ARGUMENT_CHARS} characters.
 */
export function listGlob(items: readonly string[], splitCommas: boolean): { readonly glob: string; readonly caveat?: string } | { readonly problem: string } {
  const perCall = 'Make one call per glob.';
  if (items.reduce((n, item) => n + item.length, 0) > MAX_ARGUMENT_CHARS) {
    return { problem: `together they are longer than ${MAX_ARGUMENT_CHARS} characters, the most for one glob. ${perCall}` };
  }
  const given = items
    .flatMap((item) => (splitCommas ? braceStructure(item).parts : [braceStructure(item).parts.join('\\,')]))
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const everything = splitCommas && given.length > 1 ? given.find((part) => /^(?:\*\*?\/?)+$/.test(part)) : undefined;
  if (everything !== undefined) {
    return { problem: `split at its commas it holds ${quoteValue(everything)}, which matches every file. Give the globs you meant (".ts" files are "*.ts").` };
  }
  const values: string[] = [];
  for (const part of given) {
    if (part.startsWith('!')) {
      return { problem: `${quoteValue(part)} is an exclusion ("!…"), and a glob cannot exclude. Give only the globs of the files you want.` };
    }
    const braces = braceStructure(part);
    if (braces.depth > MAX_BRACE_DEPTH) return { problem: `${quoteValue(part)} nests { } alternations more than ${MAX_BRACE_DEPTH} levels deep. ${FLATTER}` };
    if (!braces.closed) return { problem: `${quoteValue(part)} has a "{" that is never closed. Close it, or escape it as "\\{".` };
    const expanded = expandBraces(part, MAX_LIST_GLOBS - values.length);
    if (expanded === undefined) {
      return { problem: `with their braces expanded they are more than ${MAX_LIST_GLOBS} globs, the most Scout puts in one alternation. ${perCall}` };
    }
    for (const value of expanded) {
      // A value ending in "/" matches only folders, so it stands for the files under them, as Scout reads it.
      const v = value.endsWith('/') ? `${value}**` : value;
      if (v !== '' && !values.includes(v)) values.push(v);
    }
  }
  if (values.length === 0) return { problem: 'they hold no glob. Give one glob, such as "*.ts".' };
  const placed = values.find((v) => v.startsWith('/') || /(?:^|\/)\.{0,2}\/|(?:^|\/)\.\.?$/.test(v));
  if (placed !== undefined) {
    const what = placed.startsWith('/') ? 'starts with "/"' : 'holds a ".", ".." or empty ("//") segment';
    return { problem: `${quoteValue(placed)} ${what}, which Scout reads only in a glob of its own: inside braces it would match nothing. ${perCall} Or give paths relative to the workspace folder.` };
  }
  // A name without a wildcard may be a folder's, which Scout alone reads as the files under it; inside braces
  // it matches only a file of that name. Scout cannot tell which here, so the suggestion says so.
  const names = values.filter((v) => !/[*?[\]{}\\]/.test(v.slice(v.lastIndexOf('/') + 1)));
  const caveat =
    names.length === 0
      ? undefined
      : `Inside braces ${names.map(quoteValue).join(', ')} ${names.length === 1 ? 'matches' : 'match'} only files of that name, not the files in a folder of that name: for those, write ${quoteValue(`${names[0]}/**`)}.`;
  const extensions = values.map((v) => /^\*\.([\w.-]+)$/.exec(v)?.[1]);
  if (extensions.every((e) => e !== undefined)) return { glob: values.length === 1 ? values[0]! : `*.{${extensions.join(',')}}` };
  const anchored = values.some((v) => v.replace(/\/$/, '').includes('/'));
  const glob = values.length === 1 ? values[0]! : `{${values.map((v) => (anchored && !v.replace(/\/$/, '').includes('/') ? `**/${v}` : v)).join(',')}}`;
  if (glob.length > MAX_ARGUMENT_CHARS) return { problem: `as one glob they are longer than ${MAX_ARGUMENT_CHARS} characters, the most for one glob. ${perCall}` };
  return caveat === undefined ? { glob } : { glob, caveat };
}

/**
 * `glob`'s `{…}` structure, outside `[…]` classes and `\` escapes: the deepest nesting, whether every `{` is
 * closed (a `}` with no `{` open is left to rg), and the text between its top-level commas (one part when it
 * has none).
 */
function braceStructure(glob: string): { depth: number; closed: boolean; parts: string[] } {
  let braces = 0;
  let depth = 0;
  let from = 0;
  const parts: string[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      i = classEnd(glob, i);
    } else if (c === '{') {
      depth = Math.max(depth, ++braces);
    } else if (c === '}') {
      if (braces > 0) braces--;
    } else if (c === ',' && braces === 0) {
      parts.push(glob.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(glob.slice(from));
  return { depth, closed: braces === 0, parts };
}

/**
 * The globs `glob` (every `{` closed) stands for with its `{…}` alternations expanded, `src/{a,b}/*.ts` →
 * `src/a/*.ts`, `src/b/*.ts`, dropping empty alternatives as rg does (`*.{ts,}` is `*.ts`); undefined when
 * there are more than `max`. Classes and escapes are kept as written.
 */
function expandBraces(glob: string, max: number): string[] | undefined {
  let i = 0;
  // A sequence of characters and alternations, up to a "," or "}" of the alternation it is a branch of.
  const sequence = (nested: boolean): string[] | undefined => {
    let out = [''];
    while (i < glob.length) {
      const c = glob[i]!;
      if (nested && (c === ',' || c === '}')) break;
      let next: string[] = [];
      if (c === '{') {
        i++;
        for (let more = true; more; more = glob[i++] === ',') {
          const branch = sequence(true);
          if (branch === undefined) return undefined;
          next.push(...branch.filter((b) => b !== ''));
          if (next.length > max) return undefined;
        }
        if (next.length === 0) next = [''];
      } else {
        const end = c === '\\' ? i + 2 : c === '[' ? classEnd(glob, i) + 1 : i + 1;
        next = [glob.slice(i, end)];
        i = end;
      }
      out = out.flatMap((head) => next.map((tail) => head + tail));
      if (out.length > max) return undefined;
    }
    return out;
  };
  return sequence(false);
}

/** Index of the `]` closing the character class opened at `open` (glob syntax: `[!…]`, `[^…]`, and a `]` right
 * after the opening is literal); `open` itself when the class is never closed (then `[` is literal). */
function classEnd(glob: string, open: number): number {
  let i = open + 1;
  if (glob[i] === '!' || glob[i] === '^') i++;
  if (glob[i] === ']') i++;
  for (; i < glob.length; i++) if (glob[i] === ']') return i;
  return open;
}
