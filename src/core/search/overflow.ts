import { rawOutputOverflowError } from '../ripgrep/process';
import { countOf } from '../spill';
import { hostAdvice } from '../hostAdvice';

/**
 * Searches whose raw rg output reaches `scout.search.rawOutputMaxBytes`: a deliberate deviation from seed 000,
 * which fails them with `SEARCH_RAW_OUTPUT_OVERFLOW` and so loses everything. Ordinary searches get there
 * (grep "import" over a large monorepo, glob "**\/*.js" over a pnpm node_modules, which glob lists by
 * contract), so Scout stops rg at the cap (see `runSearch`) and returns what it read as a truncated result,
 * with a note saying how much was read, that the result is incomplete and how to narrow the search. The
 * result is paged and saved like any other. The error stays only when the output held nothing usable (a
 * single match line longer than the cap).
 */

/**
 * The note of a result cut at the raw-output cap. `found` says what the result holds, e.g. `the 81,234
 * matches in 1,602 files ripgrep printed by then`; `narrow` lists what to narrow, e.g. `path, include or a
 * more specific pattern`.
 *
 * @throws ToolError SEARCH_RAW_OUTPUT_OVERFLOW when `items` is 0: nothing usable was read.
 */
export function rawOutputCutNote(maxBytes: number, items: number, found: string, narrow: string): string {
  if (items === 0) throw rawOutputOverflowError(maxBytes);
  return `[ripgrep printed more than ${countOf(maxBytes, 'byte')} (${hostAdvice().setting('search.rawOutputMaxBytes')}), so Scout stopped it there and this result is incomplete: it holds ${found}, and more exist. To see everything, narrow the search: ${narrow}.]`;
}
