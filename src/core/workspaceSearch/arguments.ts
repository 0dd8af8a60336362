import * as z from 'zod/mini';
import { parseArguments } from '../args';
import { WORKSPACE_SEARCH_LIMITS as LIMITS } from './limits';

/** Validated `workspace_search` arguments, ready to run. */
export interface WorkspaceSearchArgs {
  /** The query with surrounding whitespace removed: 1–256 UTF-16 code units. */
  readonly query: string;
  /** `true`: exact code-unit comparison; `false` (default): both sides Unicode-lowercased. */
  readonly caseSensitive: boolean;
  /** Matching lines to report, an integer in 1–100 (default 100). */
  readonly maxResults: number;
  /** The requested file or directory as given, or undefined for the first workspace folder. */
  readonly path: string | undefined;
}

const schema = z.strictObject({
  query: z.string().check(
    z.refine((q) => q.length <= LIMITS.maxQueryLength, {
      message: `query is longer than ${LIMITS.maxQueryLength} characters. Search for a shorter, distinctive part of the text.`,
      abort: true,
    }),
    z.refine((q) => q.trim().length > 0, { message: 'query is empty. Give the literal text to look for.' }),
    // Files holding a NUL byte are never searched (seed 003), so a query with one could never match.
    z.refine((q) => !q.includes('\0'), { message: 'query must not contain a NUL character: files with NUL bytes are binary and never searched.' }),
  ),
  caseSensitive: z.optional(z.boolean()),
  maxResults: z.optional(
    z.custom<number>((v) => typeof v === 'number' && Number.isFinite(v), {
      message: `maxResults must be a finite number (values outside 1–${LIMITS.maxResults} are clamped).`,
    }),
  ),
  path: z.optional(
    z.string().check(
      z.refine((p) => p.length > 0, { message: 'path is empty. Omit path to search the whole workspace folder.', abort: true }),
      z.refine((p) => p.length <= LIMITS.maxPathLength, {
        message: `path is longer than ${LIMITS.maxPathLength} characters. Give a shorter workspace-relative path.`,
        abort: true,
      }),
      z.refine((p) => !p.includes('\\'), { message: 'path must use "/" separators, not "\\". Write it as a workspace-relative POSIX path.', abort: true }),
      z.refine((p) => !p.includes('\0'), { message: 'path must not contain a NUL character.' }),
    ),
  ),
});

/**
 * Validates untrusted `workspace_search` input (seed 003 argument rules).
 *
 * - `query`: string of at most 256 UTF-16 code units as given, 1–256 after trimming, without NUL; the
 *   trimmed text is what is searched.
 * - `caseSensitive`: optional boolean, default false.
 * - `maxResults`: optional finite number, truncated to an integer and clamped to 1–100 (out-of-range values
 *   are clamped, not rejected); NaN and ±Infinity are rejected.
 * - `path`: optional string of 1–512 code units without `\` or NUL; containment is checked when resolved.
 * Unknown keys, wrong types and accessor properties are rejected (see {@link parseArguments}).
 *
 * @throws ToolError INVALID_ARGUMENT
 */
export function parseWorkspaceSearchArguments(input: unknown): WorkspaceSearchArgs {
  const parsed = parseArguments(schema, input);
  const requested = parsed.maxResults ?? LIMITS.maxResults;
  return {
    query: parsed.query.trim(),
    caseSensitive: parsed.caseSensitive ?? false,
    maxResults: Math.min(LIMITS.maxResults, Math.max(1, Math.trunc(requested))),
    path: parsed.path,
  };
}
