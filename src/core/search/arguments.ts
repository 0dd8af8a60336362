import * as z from 'zod/mini';

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
const tooLong = (name: string) => `${name} is longer than ${MAX_ARGUMENT_CHARS} characters. Search for a shorter, more specific pattern.`;

/** A required pattern (`glob`'s glob, `grep`'s regex): not blank (seed 000), no NUL (no argv can carry one). */
export function patternSchema(description: string) {
  return z
    .string()
    .check(
      z.refine((s) => s.trim() !== '', { message: 'pattern must not be blank. Give the glob or regular expression to search for.' }),
      z.refine((s) => !hasNul(s), { message: 'pattern must not contain a NUL character.' }),
      z.refine((s) => s.length <= MAX_ARGUMENT_CHARS, { message: tooLong('pattern') }),
    )
    .register(z.globalRegistry, { description });
}

/** The optional `path`: omitted means the workdir; when given it must not be blank or hold a NUL. */
export function pathSchema(description: string) {
  return z
    .optional(
      z.string().check(
        z.refine((s) => s.trim() !== '', { message: 'path must not be blank. Omit path to search the whole workspace folder.' }),
        z.refine((s) => !hasNul(s), { message: 'path must not contain a NUL character.' }),
        z.refine((s) => s.length <= MAX_ARGUMENT_CHARS, { message: tooLong('path') }),
      ),
    )
    .register(z.globalRegistry, { description });
}

/** grep's optional `include`: ONE positive glob (seed 000), see {@link includeProblem}. */
export function includeSchema(description: string) {
  return z
    .optional(
      z.string().check(
        z.superRefine((s, ctx) => {
          const problem = includeProblem(s);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      ),
    )
    .register(z.globalRegistry, { description });
}

/**
 * Why `glob` is not ONE positive ripgrep glob, or undefined when it is (seed 000: "a comma-separated list or a
 * negated (`!…`) value is rejected up front (brace alternation like `*.{ts,tsx}` is fine)").
 *
 * A comma counts as a list separator only outside `{…}` alternations and `[…]` classes, and not after a
 * backslash escape, so `*.{ts,tsx}` and `[,]x` stay valid.
 */
export function includeProblem(glob: string): string | undefined {
  if (glob.trim() === '') return 'include must not be blank. Omit include to search every file.';
  if (hasNul(glob)) return 'include must not contain a NUL character.';
  if (glob.length > MAX_ARGUMENT_CHARS) return tooLong('include');
  if (glob.startsWith('!')) {
    return `include must be one positive glob; "${glob}" is an exclusion ("!…"), which is not supported. Name the files to search instead, or omit include.`;
  }
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      i = classEnd(glob, i);
    } else if (c === '{') {
      braces++;
    } else if (c === '}') {
      if (braces > 0) braces--;
    } else if (c === ',' && braces === 0) {
      return `include must be ONE glob, not a comma-separated list ("${glob}"). Use brace alternation instead, e.g. "*.{ts,tsx}".`;
    }
  }
  return undefined;
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
