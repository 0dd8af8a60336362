import { isToolError, quoteValue, ToolError } from '../../../errors';
import { cutAtCodePoint } from '../../../codePoints';
import { httpRequest, type HttpResponse } from '../../http/client';
import { showControlPictures } from '../../../controlCharacters';
import { redactSecret } from '../redaction';
import { cleanText, objectField } from '../text';
import type { ProviderContext, SearchProvider } from './types';
import { capitalized, hostAdvice } from '../../../hostAdvice';

/** On HTTP 429 a provider request is retried once, after `Retry-After` but never more than 5 s. */
export const MAX_RETRY_WAIT_MS = 5000;
/** The wait before that retry when the 429 response gives no usable `Retry-After`. */
export const DEFAULT_RETRY_WAIT_MS = 1000;
/** Decoded bytes one provider response may have; a search API answer or result page is far smaller. */
const MAX_PROVIDER_BODY_BYTES = 2 * 1024 * 1024;
/** Characters of a provider's error text quoted in a message. */
const MAX_DETAIL_CHARS = 200;

/** One request to a provider, relative to its base URL. */
export interface ProviderRequest {
  /** Path relative to the base URL, without a leading slash (`res/v1/web/search`), so a base URL's own path is kept. */
  readonly path: string;
  /** Default GET. */
  readonly method?: 'GET' | 'POST';
  /** Query-string parameters; undefined values are left out. */
  readonly params?: Readonly<Record<string, string | undefined>>;
  /** Extra headers (the API key's header, for example). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (POST). */
  readonly json?: unknown;
  /** An `application/x-www-form-urlencoded` body (POST); undefined values are left out. */
  readonly form?: Readonly<Record<string, string | undefined>>;
  /** The `Accept` header. */
  readonly accept: string;
  /** Spaces requests out for a provider with a per-second limit (Brave's free tier). */
  readonly spacer?: RequestSpacer;
}

/**
 * Spaces request starts at least `intervalMs` apart, across every concurrent query and call sharing it:
 * each request reserves the next free slot and waits for it.
 */
export class RequestSpacer {
  private next = 0;

  constructor(readonly intervalMs: number) {}

  /**
   * Resolves at this request's slot.
   * @throws ToolError WEB_ABORTED when `signal` aborts first
   */
  async wait(signal: AbortSignal): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.next);
    this.next = slot + this.intervalMs;
    if (slot > now) await sleep(slot - now, signal);
  }
}

/**
 * Resolves after `ms`.
 * @throws ToolError WEB_ABORTED as soon as `signal` aborts
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `path` (relative) resolved against `base` as a directory, with `params` appended. */
export function endpointUrl(base: URL, path: string, params: Readonly<Record<string, string | undefined>> = {}): URL {
  const directory = new URL(base.href);
  if (!directory.pathname.endsWith('/')) directory.pathname += '/';
  directory.search = '';
  directory.hash = '';
  const url = new URL(path, directory);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

/**
 * Sends one provider request through the shared HTTP client, within the call's deadline and signal, and
 * returns the response whatever its status, except HTTP 429: that is retried once after `Retry-After`
 * (capped at {@link MAX_RETRY_WAIT_MS}; {@link DEFAULT_RETRY_WAIT_MS} without one), and a second 429 (or a
 * wait that would pass the deadline) fails with WEB_RATE_LIMITED.
 *
 * @throws ToolError WEB_RATE_LIMITED; WEB_PROVIDER_UNAVAILABLE (network, DNS, TLS, refused connection, a
 *   default address that resolves to a private network); WEB_PROVIDER_ERROR (redirect loops, corrupt
 *   encodings); WEB_TIMEOUT; WEB_ABORTED
 */
export async function sendRequest(provider: SearchProvider, ctx: ProviderContext, request: ProviderRequest): Promise<HttpResponse> {
  const url = endpointUrl(ctx.baseUrl, request.path, request.params);
  const form = request.form && new URLSearchParams(Object.entries(request.form).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  for (let attempt = 1; ; attempt++) {
    await request.spacer?.wait(ctx.signal);
    const res = await send(provider, ctx, {
      url,
      method: request.method ?? 'GET',
      headers: { accept: request.accept, ...(form !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...request.headers },
      ...(request.json !== undefined ? { json: request.json } : form !== undefined ? { body: form } : {}),
    });
    if (res.status !== 429) return res;
    const wait = Math.min(res.retryAfterMs ?? DEFAULT_RETRY_WAIT_MS, MAX_RETRY_WAIT_MS);
    if (attempt === 2 || Date.now() + wait >= ctx.deadline) throw rateLimited(provider, res, attempt);
    ctx.log.warn(`web_search: ${provider.label} answered HTTP 429 (rate limit); retrying once in ${wait} ms.`);
    await sleep(wait, ctx.signal);
  }
}

async function send(
  provider: SearchProvider,
  ctx: ProviderContext,
  request: { url: URL; method: 'GET' | 'POST'; headers: Record<string, string>; json?: unknown; body?: string },
): Promise<HttpResponse> {
  try {
    return await httpRequest({
      ...request,
      timeoutMs: Math.max(1, ctx.deadline - Date.now()),
      signal: ctx.signal,
      agents: ctx.agents,
      guard: ctx.guard,
      maxBodyBytes: MAX_PROVIDER_BODY_BYTES,
    });
  } catch (e) {
    throw transportError(provider, ctx, e);
  }
}

function transportError(provider: SearchProvider, ctx: ProviderContext, e: unknown): unknown {
  if (!isToolError(e)) return e;
  const where = `${provider.label} at ${ctx.baseUrl.origin}`;
  switch (e.code) {
    case 'WEB_ABORTED':
      return e;
    case 'WEB_TIMEOUT':
      return timedOut(provider, ctx.timeoutMs);
    case 'WEB_BLOCKED_ADDRESS':
      return new ToolError(
        'WEB_PROVIDER_UNAVAILABLE',
        `${where} resolves to a non-public address, which Scout refuses for a provider's default address (this network may redirect DNS). To use a search server on your own network, give its address in ${hostAdvice().providerUrl(provider.id)}.`,
      );
    case 'WEB_NETWORK':
      return new ToolError('WEB_PROVIDER_UNAVAILABLE', `${where} could not be reached: ${firstSentence(e.message)} ${reachAdvice(provider)}`);
    default:
      return new ToolError('WEB_PROVIDER_ERROR', `${where} could not be used: ${firstSentence(e.message)} ${baseUrlAdvice(provider)}`);
  }
}

/**
 * Fails for any response that is not a usable success: a redirect to another origin, HTTP 401/403 from a
 * keyed provider (the key was refused), 5xx (the service is down), any other non-2xx, and a body that was
 * cut short. Each message says what the user can set or do.
 *
 * @throws ToolError WEB_PROVIDER_UNCONFIGURED, WEB_PROVIDER_UNAVAILABLE, WEB_PROVIDER_ERROR, WEB_TIMEOUT
 */
export function checkResponse(provider: SearchProvider, ctx: ProviderContext, res: HttpResponse): void {
  if (res.redirectTo !== null) {
    throw new ToolError('WEB_PROVIDER_ERROR', `${provider.label} redirected the request to ${res.redirectTo}, another address. ${baseUrlAdvice(provider)}`);
  }
  const status = `HTTP ${res.status}${res.statusText ? ` ${reasonPhrase(res, ctx.apiKey)}` : ''}`;
  if (provider.keyed && (res.status === 401 || res.status === 403)) {
    throw new ToolError('WEB_PROVIDER_UNCONFIGURED', `${provider.label} refused the API key (${status}${detail(res, ctx.apiKey)}). ${keyAdvice(provider)}`);
  }
  if (res.status >= 500) {
    throw new ToolError('WEB_PROVIDER_UNAVAILABLE', `${provider.label} is not available right now (${status}${detail(res, ctx.apiKey)}). Try again later, or choose another provider (${hostAdvice().setting('webSearch.provider')}).`);
  }
  if (res.status < 200 || res.status > 299) {
    throw new ToolError('WEB_PROVIDER_ERROR', `${provider.label} refused the search (${status}${detail(res, ctx.apiKey)}). ${baseUrlAdvice(provider)}`);
  }
  if (res.cut === 'timeout' || res.cut === 'decodeTimeout') throw timedOut(provider, ctx.timeoutMs);
  if (res.cut !== null) {
    throw new ToolError('WEB_PROVIDER_ERROR', `${provider.label}'s answer was cut short (${res.cut === 'maxBytes' ? `more than ${MAX_PROVIDER_BODY_BYTES / 1024 / 1024} MB` : 'the connection closed early'}). Try again later.`);
  }
}

/**
 * The JSON object of a successful response ({@link checkResponse} first).
 * @throws ToolError WEB_PROVIDER_ERROR for an HTML page (a login, error or captive portal page where JSON was
 *   expected), text that is not JSON, or JSON that is not an object
 */
export function readJsonObject(provider: SearchProvider, ctx: ProviderContext, res: HttpResponse): Record<string, unknown> {
  checkResponse(provider, ctx, res);
  const contentType = String(res.headers['content-type'] ?? '');
  const shownType = contentType ? quoteValue(contentType) : 'none';
  const text = res.body.toString('utf8');
  if (/html/i.test(contentType) || /^\s*<(?:!doctype|html|head|body|\?xml)\b/i.test(text)) {
    throw new ToolError('WEB_PROVIDER_ERROR', `${provider.label} answered with an HTML page where its JSON API answer was expected (HTTP ${res.status}, Content-Type ${shownType}). ${baseUrlAdvice(provider)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ToolError('WEB_PROVIDER_ERROR', `${provider.label} answered with something that is not JSON (HTTP ${res.status}, Content-Type ${shownType}). ${baseUrlAdvice(provider)}`);
  }
  const object = objectField(value);
  if (!object) throw new ToolError('WEB_PROVIDER_ERROR', `${provider.label} answered with JSON that is not an object, which is not its search API's answer. ${baseUrlAdvice(provider)}`);
  return object;
}

/** How to give a keyed provider its key, in the host's words (VS Code's command, the CLI's environment variable). */
export function keyAdvice(provider: SearchProvider): string {
  const advice = hostAdvice();
  return `${capitalized(advice.storeApiKey(provider.id))}, or ${advice.set('webSearch.provider', 'duckduckgo')}, which needs no key.`;
}

/** Where a provider's address comes from, for messages about a wrong one. */
export function baseUrlAdvice(provider: SearchProvider): string {
  return provider.defaultBaseUrl === undefined
    ? `Check ${hostAdvice().providerUrl(provider.id)}.`
    : `If you set ${hostAdvice().providerUrl(provider.id)}, check it, or remove it to use ${provider.defaultBaseUrl}.`;
}

function reachAdvice(provider: SearchProvider): string {
  return `${hostAdvice().network} ${baseUrlAdvice(provider)}`;
}

/** The call's time budget (`searchTimeoutMs`, in ms) ran out while waiting for `provider`. */
export function timedOut(provider: SearchProvider, timeoutMs: number): ToolError {
  return new ToolError(
    'WEB_TIMEOUT',
    `${provider.label} did not answer within the ${timeoutMs / 1000} s web_search budget (${hostAdvice().setting('webSearch.searchTimeoutMs')}). Try again, with fewer queries.`,
  );
}

function rateLimited(provider: SearchProvider, res: HttpResponse, attempt: number): ToolError {
  const asked = res.retryAfterMs !== null ? ` It asks to wait ${Math.ceil(res.retryAfterMs / 1000)} s.` : '';
  const tried = attempt === 2 ? 'twice in a row, once after waiting' : 'and asked for a wait longer than the time left';
  return new ToolError(
    'WEB_RATE_LIMITED',
    `${provider.label} is limiting how often Scout may search (HTTP 429, ${tried}).${asked} Wait a little and search again with fewer queries, or choose a provider or plan with a higher limit (${hostAdvice().setting('webSearch.provider')}).`,
  );
}

/**
 * `: <the provider's own error text>` from an error response, or '' when it has none worth quoting. An echoed
 * `apiKey` is redacted before the text is cut to {@link MAX_DETAIL_CHARS}.
 */
function detail(res: HttpResponse, apiKey: string | undefined): string {
  const text = res.body.toString('utf8', 0, 8192);
  if (/^\s*</.test(text)) return ': an HTML error page';
  let message = '';
  try {
    message = findMessage(JSON.parse(text), 3);
  } catch {
    message = text;
  }
  const clean = redactSecret(cleanText(message), apiKey);
  return clean ? `: ${cutAtCodePoint(clean, MAX_DETAIL_CHARS)}${clean.length > MAX_DETAIL_CHARS ? '…' : ''}` : '';
}

/**
 * The response's reason phrase as one printable line: a server-controlled header, so control characters are
 * shown as pictures (Node's parser lets obs-text bytes 0x80–0xFF through, and 0x9B is the C1 CSI), an echoed
 * key is redacted, and it is cut to {@link MAX_DETAIL_CHARS}.
 */
function reasonPhrase(res: HttpResponse, apiKey: string | undefined): string {
  const phrase = redactSecret(showControlPictures(res.statusText), apiKey);
  return phrase.length > MAX_DETAIL_CHARS ? `${cutAtCodePoint(phrase, MAX_DETAIL_CHARS)}…` : phrase;
}

/** The first string under a `detail`, `message` or `error` key, looking `depth` levels deep. */
function findMessage(value: unknown, depth: number): string {
  if (typeof value === 'string') return value;
  const object = objectField(value);
  if (!object || depth === 0) return '';
  for (const key of ['detail', 'message', 'error', 'msg']) {
    const found = findMessage(object[key], depth - 1);
    if (found) return found;
  }
  return '';
}

function firstSentence(message: string): string {
  const end = message.search(/\.(\s|$)/);
  return end < 0 ? message : message.slice(0, end + 1);
}

function aborted(): ToolError {
  return new ToolError('WEB_ABORTED', 'The web search was cancelled.');
}
