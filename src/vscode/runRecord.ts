/**
 * The record of one tool call, as the run log keeps it and the results panel shows it. Plain JSON, with no
 * `vscode` import: the card builder and the unit tests use it too. `runs.ts` owns the log of these records;
 * `panel/` builds cards from them.
 */
import type { RunSummary, ToolName } from '../core/tool';

/** Who started a call: a model through `vscode.lm`, or a person through a command or the panel. */
export type RunSource = 'agent' | 'command';

export type RunStatus = 'running' | 'done' | 'error' | 'cancelled';

/** One tool call as the results panel shows it. JSON-serialisable (kept in workspace state). */
export interface ToolRun {
  readonly id: string;
  readonly tool: ToolName;
  /** The arguments as given (already validated when status is not `error`). */
  readonly input: unknown;
  readonly source: RunSource;
  status: RunStatus;
  /** Epoch ms. */
  readonly startedAt: number;
  /** ms from start to finish; absent while running. */
  durationMs?: number;
  summary?: RunSummary;
  /** The latest progress message while running (not kept across reloads). */
  progress?: string;
  /**
   * The tool's canonical value (see `ToolOutput.value`), bounded for storage by {@link boundValue}: the
   * card lists from it, and the complete result stays in the spill document and the model text.
   */
  value?: unknown;
  /** The text the model saw. */
  text?: string;
  error?: { code: string; message: string };
  /** URI of the spill document holding the complete result, when the tool made one. */
  spillUri?: string;
  /**
   * That document's first line (`spillHeading`), while Scout holds it; removed when Scout releases it (see
   * `RunLog.forgetDocument`), so the panel can say the result is no longer kept.
   */
  spillTitle?: string;
  /** URI of the document the panel made from `text` when the spill document was gone or never made. */
  textUri?: string;
  /** The first line of the document at `textUri` (`modelTextHeading`), which identifies it (see `spillTitle`). */
  textTitle?: string;
}

/** Items of any one array, and UTF-16 code units of any one string, kept in a stored value. */
export const MAX_STORED_ITEMS = 200;
export const MAX_STORED_CHARS = 20_000;

/**
 * A copy of a canonical tool value small enough to keep in workspace state for every card: arrays cut to
 * {@link MAX_STORED_ITEMS} items and strings to {@link MAX_STORED_CHARS} code units, at any depth. The card
 * shows at most a few dozen rows from it; the counts come from the run's summary, which is kept whole.
 * (A grep value can hold every match of a 20 MB rg output; 50 of those must not live in memory or state.)
 * Used by `RunLog` when a run finishes.
 */
export function boundValue(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_STORED_CHARS ? value.slice(0, MAX_STORED_CHARS) : value;
  if (Array.isArray(value)) return value.slice(0, MAX_STORED_ITEMS).map(boundValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, boundValue(v)]));
  }
  return value;
}
