import { cutAtCodePoint } from '../../codePoints';
import { decodeText, type CharsetSource } from '../http/charset';
import { displayText } from './displayText';
import { htmlToMarkdown, type Conversion } from './markdown';
import { pdfToText, type PdfText } from './pdfText';

/** One whole body for the conversion worker to decode and convert. Sent with `bytes`' buffer transferred. */
export interface RenderRequest {
  /** The whole body (up to the 5 MiB download cap). */
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
  /** From `classifyContent`; binary bodies are never sent. */
  readonly kind: 'html' | 'text' | 'pdf';
  /** Look for a `<meta>` charset or XML declaration when neither a BOM nor the header names one. */
  readonly sniffMarkup: boolean;
  /** Final URL of the page (base for relative links). */
  readonly url: string;
  /**
   * Characters of decoded source the worker posts first (`fetchMaxOutputChars`), shown raw when the
   * conversion does not finish in time. The conversion itself reads the whole body.
   */
  readonly rawChars: number;
  readonly extractMainContent: boolean;
  /**
   * `Date.now()` ms by which the worker plans to have answered (set by the pool, a little before it stops the
   * worker): an HTML page skips the article search and a PDF stops reading pages when it is near.
   */
  readonly deadline: number;
}

/**
 * The start of the decoded source, posted before conversion starts so a conversion that runs out of time can
 * still show raw text. Not posted for a PDF, which has no source text to show.
 */
export interface DecodedMessage {
  readonly type: 'decoded';
  /** At most `rawChars` characters, display-safe (see displayText.ts). */
  readonly text: string;
  /** The body held more text than `text`. */
  readonly truncated: boolean;
  readonly charset: string;
  readonly charsetSource: CharsetSource;
}

/**
 * A whole body, converted and display-safe:
 * - `text`: a text body's whole decoded text;
 * - `html`: an HTML body's conversion (its Markdown is the whole page's, or the main content's);
 * - `pdf`: a PDF's text, or why it has none.
 */
export type ConvertedPage = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'html'; readonly conversion: Conversion } | { readonly kind: 'pdf'; readonly pdf: PdfText };

export interface ConvertedMessage {
  readonly type: 'converted';
  readonly page: ConvertedPage;
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

/**
 * Decodes (iconv-lite) and converts a whole body; `post` receives the {@link DecodedMessage} (HTML and text),
 * then the {@link ConvertedMessage}. Every text posted is display-safe.
 */
export async function render(request: RenderRequest, post: (message: RenderMessage) => void): Promise<void> {
  if (request.kind === 'pdf') {
    const pdf = await pdfToText(request.bytes, { deadline: request.deadline }).catch((e: unknown): PdfText => ({ status: 'invalid', error: e instanceof Error ? e.message : String(e) }));
    post({ type: 'converted', page: { kind: 'pdf', pdf: pdf.status === 'text' ? { ...pdf, text: displayText(pdf.text) } : pdf } });
    return;
  }
  // Every byte decodes to at most one UTF-16 code unit, so this many characters is the whole body.
  const decoded = decodeText(request.bytes, request.contentType, request.bytes.length, request.sniffMarkup);
  const raw = cutAtCodePoint(decoded.text, request.rawChars);
  post({ type: 'decoded', text: displayText(raw), truncated: raw.length < decoded.text.length || decoded.truncated, charset: decoded.charset, charsetSource: decoded.source });
  if (request.kind === 'text') {
    post({ type: 'converted', page: { kind: 'text', text: displayText(decoded.text) } });
    return;
  }
  const conversion = htmlToMarkdown(decoded.text, { baseUrl: request.url, extractMainContent: request.extractMainContent, deadline: request.deadline });
  post({ type: 'converted', page: { kind: 'html', conversion: conversion.mode === 'markdown' ? { ...conversion, markdown: displayText(conversion.markdown) } : conversion } });
}
