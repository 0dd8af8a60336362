import { cutAtCodePoint } from './codePoints';
import { jsonQuote } from './controlCharacters';

/**
 * Structured tool errors shared by every Scout tool.
 *
 * Codes come from the seeds: `SEARCH_*` from the fs-search seed (000), `WEB_*` from the web seed (004).
 * `INVALID_ARGUMENT` marks a model argument mistake, which the seeds keep as an ordinary argument error.
 */
export type ToolErrorCode =
  | 'INVALID_ARGUMENT'
  | 'INTERNAL_ERROR'
  | 'UNSUPPORTED_WORKSPACE'
  | 'NO_WORKSPACE'
  | 'PATH_OUTSIDE_WORKSPACE'
  | 'SEARCH_INVALID_PATTERN'
  | 'SEARCH_FAILED'
  | 'SEARCH_RAW_OUTPUT_OVERFLOW'
  | 'SEARCH_ABORTED'
  | 'WORKSPACE_SEARCH_FAILED'
  | 'WORKSPACE_SEARCH_ABORTED'
  | 'WEB_INVALID_URL'
  | 'WEB_BLOCKED_ADDRESS'
  | 'WEB_REDIRECT'
  | 'WEB_TIMEOUT'
  | 'WEB_ABORTED'
  | 'WEB_NETWORK'
  | 'WEB_BAD_RESPONSE'
  | 'WEB_PROVIDER_UNAVAILABLE'
  | 'WEB_PROVIDER_UNCONFIGURED'
  | 'WEB_PROVIDER_ERROR'
  | 'WEB_RATE_LIMITED';

/** An error a tool returns to its caller as data (never a crash). `message` says what to do next. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** True when `e` is a {@link ToolError}. */
export function isToolError(e: unknown): e is ToolError {
  return e instanceof ToolError;
}

/**
 * The text a model sees for a failed call: `Error: <message>` (the seeds' shape), then the code on its own
 * line so callers can route on it. Argument errors keep the exact seed message on the first line.
 */
export function formatToolError(e: ToolError): string {
  return `Error: ${e.message}\n(code: ${e.code})`;
}

/** Most UTF-16 code units of a model-supplied value that an error message quotes. */
export const QUOTED_VALUE_MAX_CHARS = 200;

/**
 * `value` (a model argument) as an error message quotes it: a JSON string (`jsonQuote`) of its first
 * {@link QUOTED_VALUE_MAX_CHARS} UTF-16 code units (never half a surrogate pair), followed by `…` when cut.
 * A message echoes the value so the model sees which one was wrong; the whole of a 10,000-character value
 * would only bury the advice.
 */
export function quoteValue(value: string): string {
  const head = cutAtCodePoint(value, QUOTED_VALUE_MAX_CHARS);
  return head.length < value.length ? `${jsonQuote(head)}…` : jsonQuote(value);
}
