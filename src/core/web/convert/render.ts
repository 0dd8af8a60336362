import { decodeText, type CharsetSource } from '../http/charset';
import { displayText, markPageLines } from './displayText';
import { feedKind, feedToMarkdown, type FeedMarkdown } from './feed';
import { htmlToMarkdown, type Conversion } from './markdown';
import { pdfToText, type PdfText } from './pdfText';

/** One whole body for the conversion process to decode and convert. */
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
   * Characters of source shown raw (`fetchMaxOutputChars`) when the request never reaches a conversion
   * process and the pool decodes the body's start itself. The process itself reads the whole body.
   */
  readonly rawChars: number;
  readonly extractMainContent: boolean;
  /**
   * ms of the conversion process's own CPU time (user and system, from when it received the request) within
   * which it plans to have answered; set by the pool, a little under the CPU budget at which it stops the
   * process. An HTML page skips the article search, a page cut in parts stops converting parts, and a PDF stops
   * reading pages when this is near. CPU time, not wall-clock time, so a busy machine does not change the text.
   */
  readonly cpuBudgetMs: number;
}

/**
 * The whole decoded source, posted before conversion starts so a conversion that runs out of time can still
 * show the raw text, all of it (its start inline, the rest saved with it). Not posted for a PDF, which has no
 * source text to show.
 */
export interface DecodedMessage {
  readonly type: 'decoded';
  /** The whole body's text, display-safe (see displayText.ts). */
  readonly text: string;
  readonly charset: string;
  readonly charsetSource: CharsetSource;
  /** Nothing declared the charset and the body is not plain ASCII: `charset` is Scout's guess. */
  readonly charsetAssumed: boolean;
}

/**
 * A whole body, converted and display-safe:
 * - `text`: a text body, shown as decoded (its text is the {@link DecodedMessage}'s);
 * - `feed`: an RSS, Atom or RDF feed, as a Markdown list (see feed.ts);
 * - `html`: an HTML body's conversion (its Markdown is the whole page's, or the main content's);
 * - `pdf`: a PDF's text, or why it has none.
 */
export type ConvertedPage =
  | { readonly kind: 'text' }
  | { readonly kind: 'feed'; readonly feed: FeedMarkdown }
  | { readonly kind: 'html'; readonly conversion: Conversion } | { readonly kind: 'pdf'; readonly pdf: PdfText };

export interface ConvertedMessage {
  readonly type: 'converted';
  readonly page: ConvertedPage;
}

/**
 * One page of a PDF's text, as {@link PdfText} will hold it (headed by its page marker), posted as soon as it
 * is read, so a process stopped on a later page still leaves the pages it read.
 */
export interface PdfPageMessage {
  readonly type: 'pdf-page';
  readonly text: string;
}

export type RenderMessage = DecodedMessage | ConvertedMessage | PdfPageMessage;

/** CPU time (user and system) this process has used, in ms: the clock of {@link RenderRequest.cpuBudgetMs}. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

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
 * or each PDF page's {@link PdfPageMessage}, then the {@link ConvertedMessage}. Every text posted is
 * display-safe. `post` resolves once the message has left the process: the decoded source is on its way to
 * the pool before the (synchronous) conversion starts, so a conversion stopped for its budget still leaves it
 * (a 5 MB source posted just before converting stayed queued in the blocked process, and nothing was shown).
 * `cpuNow` is the clock of `cpuBudgetMs` (default {@link processCpuMs}); tests pass their own.
 */
export async function render(request: RenderRequest, post: (message: RenderMessage) => Promise<void> | void, cpuNow: () => number = processCpuMs): Promise<void> {
  const start = cpuNow();
  const clock = { deadline: request.cpuBudgetMs, now: () => cpuNow() - start };
  if (request.kind === 'pdf') {
    // pdf.js wants a plain Uint8Array; a Buffer arrives as a Buffer over the IPC channel.
    const bytes = new Uint8Array(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
    const onPage = (text: string): Promise<void> | void => post({ type: 'pdf-page', text: displayText(text) });
    const pdf = await pdfToText(bytes, { ...clock, onPage }).catch((e: unknown): PdfText => ({ status: 'invalid', error: e instanceof Error ? e.message : String(e) }));
    post({ type: 'converted', page: { kind: 'pdf', pdf: pdf.status === 'text' ? { ...pdf, text: displayText(pdf.text) } : pdf } });
    return;
  }
  // Every byte decodes to at most one UTF-16 code unit, so this many characters is the whole body.
  const decoded = decodeText(request.bytes, request.contentType, request.bytes.length, request.sniffMarkup);
  await post({ type: 'decoded', text: markPageLines(displayText(decoded.text)), charset: decoded.charset, charsetSource: decoded.source, charsetAssumed: decoded.assumed });
  if (request.kind === 'text') {
    const feed = feedKind(decoded.text) ? feedToMarkdown(decoded.text, request.url) : undefined;
    if (feed) await post({ type: 'converted', page: { kind: 'feed', feed: { ...feed, markdown: markPageLines(displayText(feed.markdown)) } } });
    else await post({ type: 'converted', page: { kind: 'text' } });
    return;
  }
  const conversion = htmlToMarkdown(decoded.text, { baseUrl: request.url, extractMainContent: request.extractMainContent, ...clock });
  post({ type: 'converted', page: { kind: 'html', conversion: conversion.mode === 'markdown' ? { ...conversion, markdown: displayText(conversion.markdown) } : conversion } });
}
