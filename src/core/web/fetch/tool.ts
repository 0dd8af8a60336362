import * as path from 'node:path';
import * as z from 'zod/mini';
import { parseArguments } from '../../args';
import type { ScoutTool, ToolEnv, ToolOutput } from '../../tool';
import { showControlPictures } from '../../controlCharacters';
import { quoteValue, ToolError } from '../../errors';
import { hostAdvice } from '../../hostAdvice';
import { countOf, saveCompleteResult, type SavedResult } from '../../spill';
import { classifyContent } from '../convert/contentKind';
import { displayText } from '../convert/displayText';
import type { ContentSource } from '../convert/mainContent';
import { parseRefresh, type MetaRefresh } from '../convert/refresh';
import { sharedConvertWorkerPool, type ConvertWorkerPool } from '../convert/workerPool';
import { capHeaderText, completeFetchText, fitsInOneResult, formatFetchOutput, MAX_HEADER_URL_CHARS } from './output';
import { formatSeconds, pageBody, type PageBody, type WebFetchFormat } from './pageBody';

export type { WebFetchFormat } from './pageBody';
import { AddressGuard } from '../http/addressGuard';
import type { BodyCut } from '../http/body';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_REDIRECTS, followSameOrigin, httpRequest, type HttpResponse } from '../http/client';
import { bareHostname, parseWebUrl } from '../http/url';

export interface WebFetchArgs {
  /** The validated, WHATWG-serialised URL. */
  readonly url: string;
}

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

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/markdown;q=0.9,text/plain;q=0.8,application/json;q=0.8,application/pdf;q=0.7,*/*;q=0.5';

/** Longest reason phrase shown in a header note (UTF-16 code units); a longer one is shortened with `…`. */
export const MAX_REASON_PHRASE_CHARS = 80;

/** Options of {@link createWebFetchTool} beyond the worker script. */
export interface WebFetchToolOptions {
  /**
   * An outside end to each call's download (the HTTP client's `deadline`): when it aborts, the download ends
   * as if `fetchTimeoutMs` had run out. For tests, which decide when time is up instead of racing a clock.
   */
  readonly downloadDeadline?: AbortSignal;
}

/**
 * Builds the web_fetch tool around a conversion-worker script. The extension and CLI use
 * {@link webFetchTool} (the script next to the running bundle); tests pass the built `dist/convertWorker.js`.
 */
export function createWebFetchTool(convertWorkerPath: string, options: WebFetchToolOptions = {}): ScoutTool<WebFetchArgs, WebFetchValue> {
  const workers = sharedConvertWorkerPool(convertWorkerPath);
  return {
    name: 'web_fetch',
    parse(input: unknown): WebFetchArgs {
      const { url } = parseArguments(schema, input);
      return { url: parseWebUrl(url).href };
    },
    run: (args, env) => fetchPage(args, env, workers, options),
  };
}

/**
 * web_fetch (seed 004): fetches one public http(s) URL and returns it as Markdown (HTML), as
 * text (text, JSON, XML, Markdown) or as the text of its pages (PDF), headed `Fetched <finalUrl> (HTTP <status>)`.
 *
 * The whole body (up to the 5 MiB download cap) is decoded and converted in a separate process within
 * `conversionTimeoutMs` of that process's CPU time, counted when it takes the body, with a wall-clock backstop
 * of `WALL_BACKSTOP_FACTOR` (4) times as long (`fetchTimeoutMs` bounds the download; waiting for a free process
 * is bounded by `conversionTimeoutMs` too), so a call takes at most `fetchTimeoutMs + 5 × conversionTimeoutMs`. `fetchMaxOutputChars` bounds the text the model gets; a longer
 * result (the Markdown, or the raw source when conversion failed) is saved whole through the spill writer and
 * its footer names where.
 *
 * Redirect rule: hops within the same origin, and `http://host` → `https://host`, are followed (up to 5, a
 * refresh declaration counted as one: see {@link MAX_FOLLOWED_REFRESH_SECONDS});
 * a hop to any other origin is not followed but reported, naming its target, so the model decides whether
 * to fetch it (a target the guard refuses without DNS, a private address or `localhost`, is refused outright). Non-2xx statuses are results.
 */
export const webFetchTool = createWebFetchTool(path.join(__dirname, 'convertWorker.js'));

/** ms between two download progress messages of web_fetch (the first comes with the first bytes). */
const DOWNLOAD_PROGRESS_INTERVAL_MS = 500;

/**
 * web_fetch's progress while the body arrives: `Downloading <url>: 12.3 KB so far`, at the first bytes and
 * then at most every {@link DOWNLOAD_PROGRESS_INTERVAL_MS} (decoded bytes, after any Content-Encoding).
 */
function downloadProgress(progress: NonNullable<ToolEnv['progress']>, url: string, now: () => number = Date.now): (bytes: number) => void {
  let last: number | undefined;
  return (bytes) => {
    const t = now();
    if (last !== undefined && t - last < DOWNLOAD_PROGRESS_INTERVAL_MS) return;
    last = t;
    progress(`Downloading ${url}: ${formatBytes(bytes)} so far`);
  };
}

/** `bytes` for a person: `512 bytes`, `12.3 KB`, `4.5 MB` (1 KB = 1,000 bytes). */
function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  return bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} KB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * A page whose `<meta http-equiv="refresh">` (or `Refresh` header) sends the browser to another URL within this
 * many seconds is a redirect: the usual docs-root page (`content="0; url=latest/"`), which alone had "no
 * readable text". Its target is followed by the redirect rule, counted in the redirect limit. A longer delay
 * is a page in its own right (one that reloads a newer version of itself): it is shown, with a note naming the
 * target. Scout's choice.
 */
export const MAX_FOLLOWED_REFRESH_SECONDS = 10;

/**
 * @param hopsBefore the URLs that redirected before this request (HTTP hops and refresh declarations), oldest
 *   first; they count toward the redirect limit
 * @param notesBefore notes about those hops (an error page that redirected by a refresh declaration)
 */
async function fetchPage(
  args: WebFetchArgs,
  env: ToolEnv,
  workers: ConvertWorkerPool,
  options: WebFetchToolOptions,
  hopsBefore: readonly string[] = [],
  notesBefore: readonly string[] = [],
): Promise<ToolOutput<WebFetchValue>> {
  const config = env.config.webFetch;
  const guard = new AddressGuard(config.allowedPrivateHosts);
  const res = await httpRequest({
    url: args.url,
    maxRedirects: DEFAULT_MAX_REDIRECTS - hopsBefore.length,
    headers: { accept: ACCEPT },
    timeoutMs: config.fetchTimeoutMs,
    timeoutSetting: 'webFetch.fetchTimeoutMs',
    ...(options.downloadDeadline ? { deadline: options.downloadDeadline } : {}),
    signal: env.signal,
    agents: env.httpAgent,
    guard,
    ...(env.progress ? { onBodyBytes: downloadProgress(env.progress, args.url) } : {}),
  });
  const contentType = headerValue(res.headers['content-type']);
  // A header value may hold C1 controls (obs-text bytes, decoded as Latin-1): shown as escapes in the value too.
  const base = { finalUrl: res.url, status: res.status, contentType: showControlPictures(contentType), bytes: res.body.length, cut: res.cut, redirectTo: null };
  const notes = [...redirectNotes([...hopsBefore, ...res.redirects], hopsBefore.length > 0), ...notesBefore, ...cutNotes(res.cut, config.fetchTimeoutMs), ...statusNotes(res)];
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
  const conversion = rendered.page?.kind === 'html' && rendered.page.conversion.mode === 'markdown' ? rendered.page.conversion : undefined;
  const refresh = conversion?.refresh ?? headerRefresh(res);
  if (refresh && refresh.url.replace(/#.*$/, '') !== res.url.replace(/#.*$/, '')) {
    const after = `after ${countOf(refresh.delaySeconds, 'second')}`;
    if (refresh.delaySeconds > MAX_FOLLOWED_REFRESH_SECONDS) {
      notes.push(`the page asks browsers to go on to ${capHeaderText(refresh.url, MAX_HEADER_URL_CHARS)} ${after} (a refresh declaration); this is the page itself.`);
    } else if (followSameOrigin(new URL(res.url), new URL(refresh.url))) {
      const hops = [...hopsBefore, ...res.redirects, res.url];
      if (hops.length > DEFAULT_MAX_REDIRECTS) throw new ToolError('WEB_REDIRECT', `${hops[0]!} redirected more than ${DEFAULT_MAX_REDIRECTS} times (last hop, a refresh declaration, to ${refresh.url}). Fetch the final address directly if you know it.`);
      if (hops.includes(refresh.url)) throw new ToolError('WEB_REDIRECT', `${res.url} redirects in a loop (a refresh declaration back to ${refresh.url}). The page cannot be fetched as is; try a different URL.`);
      // A browser follows the refresh of an error page too, but the status below is the target's: say what the
      // first page answered, so a 404 is not read as the page being there.
      const errorNote = res.status >= 400 ? [`${capHeaderText(res.url, MAX_HEADER_URL_CHARS)} answered HTTP ${res.status}; its page redirects by a refresh declaration, which Scout followed.`] : [];
      return fetchPage({ url: refresh.url }, env, workers, options, hops, [...notesBefore, ...errorNote]);
    } else {
      refuseBlockedTarget(refresh.url, guard, res.url);
      const body = `The page redirects (a refresh declaration, ${after}) to another origin: ${refresh.url}\nScout follows redirects only within the same origin, or from http to https on the same host. If that destination is what you need, call web_fetch with it.`;
      return finish(env, { ...base, redirectTo: refresh.url }, notes, plain('redirect', displayText(body)));
    }
  }
  return finish(env, base, notes, pageBody(kind.kind, rendered, config.conversionTimeoutMs));
}

/** The response's `Refresh` header (the same syntax as the `<meta>` one), resolved against its URL; undefined when it names none. */
function headerRefresh(res: HttpResponse): MetaRefresh | undefined {
  const refresh = parseRefresh(headerValue(res.headers.refresh));
  if (!refresh) return undefined;
  try {
    const url = new URL(refresh.url, res.url);
    return url.protocol === 'http:' || url.protocol === 'https:' ? { url: url.href, delaySeconds: refresh.delaySeconds } : undefined;
  } catch {
    return undefined;
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
    const language = page.format === 'markdown' ? { language: 'markdown' as const } : {};
    saved = await saveCompleteResult(env, { tool: 'web_fetch', call: quoteValue(value.finalUrl), size: countOf(page.body.length, 'character'), ...language }, () => [completeFetchText(parts)]);
  }
  const out = formatFetchOutput(parts, maxChars, saved);
  return {
    text: out.text,
    value: { ...value, format: page.format, content: page.content, extracted: page.content === 'readability', sourceId: out.sourceId, truncated: out.truncated, markdown: out.body, totalChars: page.body.length },
    summary: { truncated: out.truncated || value.cut !== null },
    ...(saved?.spill ? { spill: saved.spill } : {}),
  };
}

/** The note naming the URL the call started from, when it was redirected (`byRefresh`: a refresh declaration was among the hops). */
function redirectNotes(hops: readonly string[], byRefresh: boolean): string[] {
  return hops.length > 0 ? [`redirected from ${capHeaderText(hops[0]!, MAX_HEADER_URL_CHARS)}${byRefresh ? ' (by a refresh declaration)' : ''}.`] : [];
}

function cutNotes(cut: BodyCut | null, fetchTimeoutMs: number): string[] {
  switch (cut) {
    case 'maxBytes':
      return [`the server sent more than ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MB (after decompression); only the first ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MB were read.`];
    case 'timeout':
      return [`the server was still sending when the ${formatSeconds(fetchTimeoutMs)} fetch timeout (${hostAdvice().setting('webFetch.fetchTimeoutMs')}) ran out; the body is incomplete.`];
    case 'decodeTimeout':
      return [`the whole body arrived, but decompressing it took longer than the ${formatSeconds(fetchTimeoutMs)} fetch timeout (${hostAdvice().setting('webFetch.fetchTimeoutMs')}); the body is incomplete.`];
    case 'closed':
      return ['the connection closed before the whole body arrived; the body is incomplete.'];
    case null:
      return [];
  }
}

/** The longest `Retry-After` wait a note names; a longer one is "more than a day". */
const MAX_NAMED_WAIT_SECONDS = 86_400;

/**
 * The note for an error status; the server's reason phrase is shortened to {@link MAX_REASON_PHRASE_CHARS}. A
 * 429 or 503 also says how long to wait: its `Retry-After` (seconds or an HTTP date; a date already past, an
 * invalid value and a wait of more than a day are each said as such), or, without one, to wait before trying again.
 */
function statusNotes(res: HttpResponse): string[] {
  if (res.status < 400) return [];
  const reason = res.statusText ? ` ${capHeaderText(res.statusText, MAX_REASON_PHRASE_CHARS)}` : '';
  const notes = [`the server answered with an error status (HTTP ${res.status}${reason}); the text below is its error page.`];
  if (res.status === 429 || res.status === 503) {
    const busy = res.status === 429 ? 'the server is limiting how often it is asked' : 'the server is unavailable for now';
    const asked = headerValue(res.headers['retry-after']).trim();
    const seconds = res.retryAfterMs === null ? 0 : Math.ceil(res.retryAfterMs / 1000);
    if (res.retryAfterMs === null) {
      const invalid = asked === '' ? '' : ` (its Retry-After, ${JSON.stringify(capHeaderText(asked, MAX_REASON_PHRASE_CHARS))}, is neither seconds nor a date)`;
      notes.push(`${busy}${invalid}: wait a while before fetching the page again.`);
    } else if (seconds === 0 && !/^\d+$/.test(asked)) {
      notes.push(`${busy}; the date its Retry-After names is already past: the page may be fetched again now.`);
    } else if (seconds > MAX_NAMED_WAIT_SECONDS) {
      notes.push(`${busy} and asks to wait more than a day (Retry-After): look for the information elsewhere.`);
    } else {
      const wait = seconds < 120 ? countOf(seconds, 'second') : seconds < 7200 ? countOf(Math.ceil(seconds / 60), 'minute') : countOf(Math.ceil(seconds / 3600), 'hour');
      notes.push(`${busy} and asks to wait ${wait} (Retry-After): fetch the page again after that, not sooner.`);
    }
  }
  return notes;
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
