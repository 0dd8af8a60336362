import * as path from 'node:path';
import * as z from 'zod/mini';
import { parseArguments } from '../../args';
import type { ScoutTool, ToolEnv, ToolOutput } from '../../tool';
import { showControlPictures } from '../../controlCharacters';
import { quoteValue, ToolError } from '../../errors';
import { countOf, saveCompleteResult, type SavedResult } from '../../spill';
import { classifyContent } from '../convert/contentKind';
import { displayText } from '../convert/displayText';
import { MAX_NESTING_DEPTH } from '../convert/htmlScan';
import type { ContentSource } from '../convert/mainContent';
import type { Conversion } from '../convert/markdown';
import type { PdfText } from '../convert/pdfText';
import { sharedConvertWorkerPool, type ConvertWorkerPool, type RenderResult } from '../convert/workerPool';
import { completeFetchText, fitsInOneResult, formatFetchOutput } from './output';
import { AddressGuard } from '../http/addressGuard';
import type { BodyCut } from '../http/body';
import { DEFAULT_MAX_BODY_BYTES, httpRequest, type HttpResponse } from '../http/client';
import { bareHostname, parseWebUrl } from '../http/url';

export interface WebFetchArgs {
  /** The validated, WHATWG-serialised URL. */
  readonly url: string;
}

/** How the body in `markdown` was produced. */
export type WebFetchFormat = 'markdown' | 'text' | 'pdf' | 'raw-html' | 'unsupported' | 'redirect';

/** The canonical value of a web_fetch call (`--json`, panel card). */
export interface WebFetchValue {
  readonly finalUrl: string;
  readonly status: number;
  /** The `Content-Type` header, '' when absent. */
  readonly contentType: string;
  /** Decoded body bytes received (at most 5 MiB). */
  readonly bytes: number;
  readonly sourceId: string;
  /** Readability's article was shown (see `content`). */
  readonly extracted: boolean;
  /** For an HTML page converted to Markdown: which part of it (see `ContentSource`); null otherwise. */
  readonly content: ContentSource | null;
  /** The output does not hold the whole page (over `fetchMaxOutputChars`, or only its raw start was shown). */
  readonly truncated: boolean;
  /** Why the body itself is incomplete, if it is. */
  readonly cut: BodyCut | null;
  /** The body text shown to the model. */
  readonly markdown: string;
  /** UTF-16 code units of the whole converted body; more than `markdown` holds when the result was cut. */
  readonly totalChars: number;
  readonly format: WebFetchFormat;
  /** The cross-origin redirect target that was reported instead of followed. */
  readonly redirectTo: string | null;
}

/** Seed 004 argument error; a contract value. */
const URL_MESSAGE = 'url must be a non-empty string';

const schema = z.strictObject({
  url: z.custom<string>((v) => typeof v === 'string' && v.trim() !== '', { message: URL_MESSAGE }),
});

/** Extraction is mentioned in the result only when it left out at least this much text (a short paragraph). */
const MIN_LEFT_OUT_CHARS = 200;

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/markdown;q=0.9,text/plain;q=0.8,application/json;q=0.8,application/pdf;q=0.7,*/*;q=0.5';

/**
 * Builds the web_fetch tool around a conversion-worker script. The extension and CLI use
 * {@link webFetchTool} (the script next to the running bundle); tests pass the built `dist/convertWorker.js`.
 */
export function createWebFetchTool(convertWorkerPath: string): ScoutTool<WebFetchArgs, WebFetchValue> {
  const workers = sharedConvertWorkerPool(convertWorkerPath);
  return {
    name: 'web_fetch',
    parse(input: unknown): WebFetchArgs {
      const { url } = parseArguments(schema, input);
      return { url: parseWebUrl(url).href };
    },
    run: (args, env) => fetchPage(args, env, workers),
  };
}

/**
 * web_fetch (seed 004, issues 4 and 11): fetches one public http(s) URL and returns it as Markdown (HTML), as
 * text (text, JSON, XML, Markdown) or as the text of its pages (PDF), headed `Fetched <finalUrl> (HTTP <status>)`.
 *
 * The whole body (up to the 5 MiB download cap) is decoded and converted in a worker within
 * `conversionTimeoutMs`, which starts when the download ends (`fetchTimeoutMs` bounds the download), so a call
 * takes at most the sum of the two. `fetchMaxOutputChars` bounds the text the model gets; a longer result is
 * saved whole through the spill writer and its footer names where.
 *
 * Redirect rule: hops within the same origin, and `http://host` → `https://host`, are followed (up to 5);
 * a hop to any other origin is not followed but reported, naming its target, so the model decides whether
 * to fetch it (a target the guard refuses without DNS, a private address or `localhost`, is refused outright). Non-2xx statuses are results.
 */
export const webFetchTool = createWebFetchTool(path.join(__dirname, 'convertWorker.js'));

/** A page's body as shown: its text, how it was made, and the notes that explain it. */
interface PageBody {
  readonly body: string;
  readonly format: WebFetchFormat;
  readonly content: ContentSource | null;
  readonly notes: readonly string[];
  /** `body` is only the start of the page (its raw source, cut at `fetchMaxOutputChars`). */
  readonly sourceTruncated: boolean;
}

async function fetchPage(args: WebFetchArgs, env: ToolEnv, workers: ConvertWorkerPool): Promise<ToolOutput<WebFetchValue>> {
  const config = env.config.webFetch;
  const guard = new AddressGuard(config.allowedPrivateHosts);
  const res = await httpRequest({
    url: args.url,
    headers: { accept: ACCEPT },
    timeoutMs: config.fetchTimeoutMs,
    signal: env.signal,
    agents: env.httpAgent,
    guard,
  });
  const contentType = headerValue(res.headers['content-type']);
  // A header value may hold C1 controls (obs-text bytes, decoded as Latin-1): shown as escapes in the value too.
  const base = { finalUrl: res.url, status: res.status, contentType: showControlPictures(contentType), bytes: res.body.length, cut: res.cut, redirectTo: null };
  const notes = [...redirectNotes(res), ...cutNotes(res.cut, config.fetchTimeoutMs), ...statusNotes(res)];
  const plain = (format: WebFetchFormat, body: string): PageBody => ({ body, format, content: null, notes: [], sourceTruncated: false });

  if (res.redirectTo !== null) {
    refuseBlockedTarget(res.redirectTo, guard, res.url);
    const body = `The server redirects (HTTP ${res.status}) to another origin: ${res.redirectTo}\nScout follows redirects only within the same origin, or from http to https on the same host. If that destination is what you need, call web_fetch with it.`;
    return finish(env, { ...base, redirectTo: res.redirectTo }, notes, plain('redirect', displayText(body)));
  }

  const kind = classifyContent(res.body, contentType);
  if (kind.kind === 'binary') {
    const body = `Unsupported content type: the response is ${kind.description ?? 'binary data'} (Content-Type: ${contentType || 'none'}, ${res.body.length} bytes), not HTML, text or PDF, so web_fetch cannot show it. Look for an HTML or plain-text version of this document.`;
    return finish(env, base, notes, plain('unsupported', displayText(body)));
  }
  if (res.body.length === 0) return finish(env, base, notes, plain('text', '(The response body is empty.)'));

  env.progress?.(kind.kind === 'pdf' ? `Reading the PDF ${res.url}` : `Converting ${res.url}`);
  const rendered = await workers.render(
    {
      bytes: res.body, // transferred to the worker: res.body is empty from here on
      contentType,
      kind: kind.kind,
      sniffMarkup: kind.kind === 'html' || kind.mime.includes('xml'),
      url: res.url,
      rawChars: config.fetchMaxOutputChars,
      extractMainContent: config.extractMainContent,
    },
    config.conversionTimeoutMs,
    env.signal,
  );
  return finish(env, base, notes, pageBody(kind.kind, rendered, config.conversionTimeoutMs));
}

/** The body shown for a converted (or not converted) page, and the notes about how it was made. */
function pageBody(kind: 'html' | 'text' | 'pdf', rendered: RenderResult, conversionTimeoutMs: number): PageBody {
  const budget = `the ${formatSeconds(conversionTimeoutMs)} conversion budget (scout.webFetch.conversionTimeoutMs)`;
  const page = rendered.page;
  if (page?.kind === 'text') return { body: page.text, format: 'text', content: null, notes: [], sourceTruncated: false };
  if (page?.kind === 'pdf') return pdfBody(page.pdf, budget);
  if (page?.kind === 'html' && page.conversion.mode === 'markdown') {
    const c = page.conversion;
    return { body: c.markdown === '' ? '(The page has no readable text.)' : c.markdown, format: 'markdown', content: c.content, notes: contentNotes(c, budget), sourceTruncated: false };
  }
  if (kind === 'pdf') {
    const why = rendered.failure === 'timeout' ? `reading the PDF took longer than ${budget}` : 'the PDF reader stopped unexpectedly';
    return { body: `(Nothing can be shown: ${why}.)`, format: 'pdf', content: null, notes: [], sourceTruncated: false };
  }
  let why: string;
  if (page?.kind === 'html' && page.conversion.mode === 'raw-too-deep') why = `the HTML nests deeper than ${MAX_NESTING_DEPTH} levels`;
  else if (page?.kind === 'html' && page.conversion.mode === 'raw-error') why = `converting the HTML failed (${page.conversion.error})`;
  else if (rendered.failure === 'timeout') why = `converting the ${kind === 'html' ? 'HTML' : 'text'} took longer than ${budget}`;
  else why = 'the converter stopped unexpectedly';
  if (rendered.text === '') return { body: displayText(`(Nothing can be shown: ${why}, before the page was decoded.)`), format: kind === 'html' ? 'raw-html' : 'text', content: null, notes: [], sourceTruncated: false };
  const shown = kind === 'html' ? 'the raw HTML is shown' : 'its start is shown unconverted';
  return { body: rendered.text, format: kind === 'html' ? 'raw-html' : 'text', content: null, notes: [`${why}, so ${shown}.`], sourceTruncated: rendered.truncated };
}

/** What the header says about which part of an HTML page was converted. */
function contentNotes(c: Extract<Conversion, { mode: 'markdown' }>, budget: string): string[] {
  const leftOut = c.pageChars - c.contentChars;
  const about = leftOut >= MIN_LEFT_OUT_CHARS ? `; about ${leftOut} characters of other text were left out` : '';
  const noTime = c.articleSearchSkipped ? `the page is too large to look for its article within ${budget}` : '';
  switch (c.content) {
    case 'readability':
      return leftOut >= MIN_LEFT_OUT_CHARS ? [`showing the page's main content; about ${leftOut} characters of navigation, sidebars, footers and similar text were left out.`] : [];
    case 'main':
    case 'article':
    case 'role-main': {
      const element = { main: 'its `main` element', article: 'its `article` element', 'role-main': 'its element marked `role="main"`' }[c.content];
      return [`${noTime || 'no article was found in the page'}, so ${element} is shown without the navigation and sidebars in it${about}.`];
    }
    case 'body-cleaned':
      return [`${noTime || 'no article or main element was found in the page'}, so the whole page is shown without its navigation, header, footer, sidebars and cookie banners${about}.`];
    case 'body':
      return [];
  }
}

/** The body shown for a PDF: its text and what was left out, or why it has none. */
function pdfBody(pdf: PdfText, budget: string): PageBody {
  const result = (body: string, notes: string[] = []): PageBody => ({ body, format: 'pdf', content: null, notes, sourceTruncated: false });
  switch (pdf.status) {
    case 'text': {
      const notes: string[] = [];
      if (pdf.stoppedBy === 'page-cap') notes.push(`the PDF has ${pdf.pageCount} pages; only the first ${pdf.pagesRead} were read.`);
      if (pdf.stoppedBy === 'deadline') notes.push(`reading the PDF's text took longer than ${budget}; only pages 1 to ${pdf.pagesRead} of ${pdf.pageCount} were read.`);
      return result(pdf.text, notes);
    }
    case 'encrypted':
      return result('The PDF is encrypted with a password, so web_fetch cannot read its text. Look for an unprotected copy or an HTML version of the document.');
    case 'no-text':
      return result(`The PDF has ${pdf.pageCount} ${pdf.pageCount === 1 ? 'page' : 'pages'} but no text in them: it is probably scanned images of pages, and web_fetch does not read text from images. Look for an HTML or text version of the document.`);
    case 'invalid':
      return result(displayText(`The response is not a PDF that can be read (${pdf.error}). Check the URL, or look for an HTML version of the document.`));
  }
}

/**
 * Formats the result; when the body does not fit `fetchMaxOutputChars`, first saves the complete result
 * through the spill writer (seed 000's over-cap rule, as glob and grep do) so the footer can name it.
 */
async function finish(env: ToolEnv, value: Omit<WebFetchValue, 'sourceId' | 'truncated' | 'markdown' | 'totalChars' | 'format' | 'content' | 'extracted'>, notes: readonly string[], page: PageBody): Promise<ToolOutput<WebFetchValue>> {
  const maxChars = env.config.webFetch.fetchMaxOutputChars;
  const parts = { finalUrl: value.finalUrl, status: value.status, notes: [...notes, ...page.notes], body: page.body, sourceTruncated: page.sourceTruncated };
  let saved: SavedResult | undefined;
  if (!page.sourceTruncated && !fitsInOneResult(parts, maxChars)) {
    saved = await saveCompleteResult(env, { tool: 'web_fetch', call: quoteValue(value.finalUrl), size: countOf(page.body.length, 'character') }, () => completeFetchText(parts));
  }
  const out = formatFetchOutput(parts, maxChars, saved);
  return {
    text: out.text,
    value: { ...value, format: page.format, content: page.content, extracted: page.content === 'readability', sourceId: out.sourceId, truncated: out.truncated, markdown: out.body, totalChars: page.body.length },
    summary: { truncated: out.truncated || value.cut !== null },
    ...(saved?.spill ? { spill: saved.spill } : {}),
  };
}

function redirectNotes(res: HttpResponse): string[] {
  return res.redirects.length > 0 ? [`redirected from ${res.redirects[0]}.`] : [];
}

function cutNotes(cut: BodyCut | null, fetchTimeoutMs: number): string[] {
  switch (cut) {
    case 'maxBytes':
      return [`the server sent more than ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MB (after decompression); only the first ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MB were read.`];
    case 'timeout':
      return [`the server was still sending when the ${formatSeconds(fetchTimeoutMs)} fetch timeout ran out; the body is incomplete.`];
    case 'closed':
      return ['the connection closed before the whole body arrived; the body is incomplete.'];
    default:
      return [];
  }
}

function statusNotes(res: HttpResponse): string[] {
  if (res.status < 400) return [];
  return [`the server answered with an error status (HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}); the text below is its error page.`];
}

function formatSeconds(ms: number): string {
  return `${ms / 1000} s`;
}

/**
 * A cross-origin redirect is only reported, but a target the guard refuses without DNS (a private address
 * literal, a `localhost` name) is refused outright, by the same decision a direct fetch of it would get.
 */
function refuseBlockedTarget(target: string, guard: AddressGuard, from: string): void {
  try {
    guard.checkBeforeResolving(bareHostname(new URL(target)));
  } catch (e) {
    throw new ToolError('WEB_BLOCKED_ADDRESS', `${from} redirects to ${target}, which Scout refuses: ${(e as ToolError).message}`);
  }
}

function headerValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
