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
    .string(kind === 'glob' ? { error: globListError() } : undefined)
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
 * The zod error map of a glob argument: the message of one given as a list of strings (`["*.ts","*.md"]`, where
 * the schema says string), with the one glob that means the same ({@link alternation}); undefined for any
 * other wrong type, which keeps the generic message (`parseArguments` puts the argument's name first).
 */
function globListError() {
  return (issue: { readonly input?: unknown }): string | undefined => {
    const items = issue.input;
    if (!Array.isArray(items) || items.length === 0 || !items.every((item): item is string => typeof item === 'string')) return undefined;
    if (items.length === 1) return `must be a string, not a list. Give the glob itself: ${quoteValue(items[0]!)}.`;
    return `must be ONE glob as a string, not a list of ${items.length}. Put them in one glob with brace alternation: ${quoteValue(alternation(items))}.`;
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
      z.string({ error: globListError() }).check(issueFrom(includeProblem)),
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
 * backslash escape, so `*.{ts,tsx}` and `[,]x` stay valid. Alternations nested more than
 * {@link MAX_BRACE_DEPTH} levels deep are refused too. The message quotes `glob` with {@link quoteValue}.
 *
 * @param instead what to do instead of an exclusion, one sentence.
 */
export function oneGlobProblem(name: string, glob: string, instead: string): string | undefined {
  if (glob.startsWith('!')) {
    return `${name} must be one positive glob; ${quoteValue(glob)} is an exclusion ("!…"), which is not supported. ${instead}`;
  }
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      i = classEnd(glob, i);
    } else if (c === '{') {
      if (++braces > MAX_BRACE_DEPTH) {
        return `${name} nests { } alternations more than ${MAX_BRACE_DEPTH} levels deep, the most Scout accepts. Use a flatter glob: one level of alternation such as "*.{ts,tsx}" is enough for a list of names or extensions.`;
      }
    } else if (c === '}') {
      if (braces > 0) braces--;
    } else if (c === ',' && braces === 0) {
      return `${name} must be ONE glob, not a comma-separated list (${quoteValue(glob)}). Use brace alternation instead, e.g. ${quoteValue(alternation(glob.split(',').map((part) => part.trim())))}.`;
    }
  }
  return undefined;
}

/**
 * The brace alternation a list of globs means: `*.{ts,txt}` for extension globs (`*.ts`, `*.txt`), else
 * {@link braceList}'s; a generic example when a part holds braces or a comma.
 */
function alternation(parts: readonly string[]): string {
  const extensions = parts.map((part) => /^\*\.([\w.-]+)$/.exec(part)?.[1]);
  return extensions.every((e) => e !== undefined) ? `*.{${extensions.join(',')}}` : (braceList(parts) ?? '*.{ts,txt}');
}

/**
 * `parts` (globs) as one brace alternation, `{a,b}`: a part without "/" among parts with one gets `**\/`, since
 * rg matches an alternation holding "/" against the whole path, so it keeps matching at any depth. Undefined
 * when a part holds braces or a comma, which the braces would split.
 */
export function braceList(parts: readonly string[]): string | undefined {
  if (parts.some((p) => /[{},]/.test(p))) return undefined;
  const anchored = parts.some((p) => p.replace(/\/$/, '').includes('/'));
  return `{${parts.map((p) => (anchored && !p.replace(/\/$/, '').includes('/') ? `**/${p}` : p)).join(',')}}`;
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
