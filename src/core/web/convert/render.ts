import { decodeText, type CharsetSource } from '../http/charset';
import { htmlToMarkdown, type Conversion } from './markdown';

/** One body for the conversion worker to decode and, for HTML, convert. Sent with `bytes` transferred. */
export interface RenderRequest {
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
  /** From `classifyContent`; binary bodies are never sent. */
  readonly kind: 'html' | 'text';
  /** Look for a `<meta>` charset or XML declaration when neither a BOM nor the header names one. */
  readonly sniffMarkup: boolean;
  /** Final URL of the page (base for relative links). */
  readonly url: string;
  /** Source characters to decode and convert at most (`fetchMaxOutputChars`). */
  readonly maxChars: number;
  readonly extractMainContent: boolean;
  /** True when `bytes` is only the start of the body (the caller sends no more than `bytesForChars(maxChars)`). */
  readonly moreBytes?: boolean;
}

/** The decoded source, posted before conversion starts so a timed-out conversion can still return raw text. */
export interface DecodedMessage {
  readonly type: 'decoded';
  readonly text: string;
  /** The body held more than `maxChars` characters. */
  readonly truncated: boolean;
  readonly charset: string;
  readonly charsetSource: CharsetSource;
}

export interface ConvertedMessage {
  readonly type: 'converted';
  /** Null for a text body (it passes through as decoded). */
  readonly conversion: Conversion | null;
}

export type RenderMessage = DecodedMessage | ConvertedMessage;

/**
 * A task of another kind than rendering, answered with one message (`ConvertWorkerPool.task`): parsing an
 * HTML page that is not shown as Markdown, such as a search provider's result page. The converter knows
 * pages, not providers: `task` names the parser, and the worker's entry (worker.ts) maps each name to its
 * module. A message with a `task` field is one of these; any other is a {@link RenderRequest}.
 */
export interface WorkerTaskRequest {
  /** Which parser runs, e.g. `duckduckgoPage`. */
  readonly task: string;
  readonly html: string;
  /** The URL the page came from (base for its relative links). */
  readonly pageUrl: string;
}

/** Decodes (iconv-lite) and, for HTML, converts a body; `post` receives the decoded message, then the converted one. */
export function render(request: RenderRequest, post: (message: RenderMessage) => void): void {
  const decoded = decodeText(request.bytes, request.contentType, request.maxChars, request.sniffMarkup, request.moreBytes);
  post({ type: 'decoded', text: decoded.text, truncated: decoded.truncated, charset: decoded.charset, charsetSource: decoded.source });
  const conversion = request.kind === 'html' ? htmlToMarkdown(decoded.text, { baseUrl: request.url, extractMainContent: request.extractMainContent }) : null;
  post({ type: 'converted', conversion });
}
