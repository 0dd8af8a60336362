import { isUtf8 } from 'node:buffer';
import * as http from 'node:http';
import * as https from 'node:https';
import { isToolError, quoteValue, ToolError } from '../../errors';
import { hostAdvice } from '../../hostAdvice';
import { bareHostname, effectivePort, parseWebUrl } from './url';
import type { AddressGuard } from './addressGuard';
import { readBody, type BodyCut } from './body';

/** Decoded bytes one response may deliver (5 MiB), counted after decompression. */
export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Redirect hops followed before `WEB_REDIRECT`. */
export const DEFAULT_MAX_REDIRECTS = 5;

const USER_AGENT = 'Mozilla/5.0 (compatible; Scout/0.1; +VS Code extension)';

/**
 * Agents to send requests through, per scheme; absent means Node's global agents. Scout's VS Code layer
 * passes none, because the extension host already routes these requests by the user's proxy settings:
 * VS Code's proxy support (`@vscode/proxy-agent`) replaces `request` and `get` on Node's own `http` and
 * `https` module objects (so `node:http` gets them too). With `http.proxySupport` at its default `override`
 * (or `fallback`) every request, whatever its agent, goes through the proxy that `http.proxy` names (else
 * the `HTTPS_PROXY`/`HTTP_PROXY` environment, else the system's), except hosts in `http.noProxy` and
 * loopback hosts, which connect directly; with `on`, only requests without an agent are proxied.
 * Checked in the real host by test/integration/suite/webFetch.test.ts.
 *
 * Behind a proxy, {@link HttpRequestOptions.guard}'s connect-time `lookup` sees the proxy's address, not the
 * page's; its check before connecting still resolves the page's host name with the local DNS.
 */
export interface HttpAgents {
  readonly http?: http.Agent;
  readonly https?: http.Agent;
}

/** Decides whether to follow a redirect from `from` to `to` (both already validated http(s) URLs). */
export type RedirectRule = (from: URL, to: URL) => boolean;

export interface HttpRequestOptions {
  readonly url: string | URL;
  /** Default GET. */
  readonly method?: 'GET' | 'POST';
  /** Extra request headers (names case-insensitive). `accept-encoding` is always the client's own. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A request body sent as is (set `content-type` yourself). */
  readonly body?: string | Uint8Array;
  /** A value sent as a JSON body with `content-type: application/json` (instead of `body`). */
  readonly json?: unknown;
  /** The whole call's budget in ms: connection, every redirect hop and the body. */
  readonly timeoutMs: number;
  /**
   * The setting `timeoutMs` comes from (a config key: `webFetch.fetchTimeoutMs`), which the `WEB_TIMEOUT`
   * message names in the host's words so the user knows what raises the limit; absent for a caller that words
   * its own timeout error (web_search names its budget).
   */
  readonly timeoutSetting?: string;
  /**
   * An outside end to the same budget: when it aborts, the call ends exactly as if `timeoutMs` had run out
   * (`WEB_TIMEOUT` before the headers, the body so far with `cut: 'timeout'` after). For a budget shared with
   * other work, or a test that decides when time is up; `timeoutMs` still applies and names the budget in
   * messages.
   */
  readonly deadline?: AbortSignal;
  /** Cancels the call and destroys the socket. */
  readonly signal?: AbortSignal;
  readonly agents?: HttpAgents;
  /**
   * The private-network guard, applied to every hop before connecting and at connect time. `false` only for
   * URLs the user chose (a search provider's configured base URL), never for model-chosen URLs.
   */
  readonly guard: AddressGuard | false;
  /** Decoded-body cap in bytes; default {@link DEFAULT_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /** Default {@link DEFAULT_MAX_REDIRECTS}. */
  readonly maxRedirects?: number;
  /** Hears the decoded bytes of the final response's body received so far, as they arrive. */
  readonly onBodyBytes?: (decodedBytes: number) => void;
  /** Default {@link followSameOrigin}. A redirect not followed is returned with `redirectTo` set. */
  readonly followRedirect?: RedirectRule;
}

export interface HttpResponse {
  /** The URL that produced this response (after followed redirects). */
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  /** Response headers, names lowercase (Node's `IncomingHttpHeaders`). */
  readonly headers: http.IncomingHttpHeaders;
  /**
   * Decoded body bytes, at most the cap. The Buffer owns its ArrayBuffer alone: `byteOffset` is 0 and
   * `buffer.byteLength === length`, never a slice of Node's shared allocation pool or of a socket's read
   * buffer, so `body.buffer` can be transferred to a worker thread without a copy (see `readBody`).
   */
  readonly body: Buffer;
  /** Set when the body is incomplete, and why. */
  readonly cut: BodyCut | null;
  /** URLs that redirected, in order (empty when the first response was final). */
  readonly redirects: readonly string[];
  /** Absolute target of a redirect the rule declined to follow; null otherwise. */
  readonly redirectTo: string | null;
  /** `Retry-After` in ms from now (RFC 9110 §10.2.3: delay-seconds or HTTP-date); null when absent or invalid. */
  readonly retryAfterMs: number | null;
}

/**
 * Scout's redirect rule for fetched pages: follow a hop that stays on the same origin (scheme, host and
 * port), or that only upgrades `http://host` to `https://host` on the default ports. Any other hop goes to
 * a server the model did not name, so it is returned to the caller to report instead of being followed.
 */
export const followSameOrigin: RedirectRule = (from, to) =>
  from.origin === to.origin ||
  (from.protocol === 'http:' && to.protocol === 'https:' && bareHostname(from) === bareHostname(to) && effectivePort(from) === 80 && effectivePort(to) === 443);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the caller's identity; dropped when a followed redirect leaves the origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * One HTTP(S) request over Node's `http`/`https`, shared by web_fetch and the web_search providers.
 *
 * - Validates the URL (http/https only, no credentials, length; see `parseWebUrl`) and every redirect target.
 * - Applies `guard` to each hop's host before connecting and to the resolved address at connect time.
 * - Follows redirects (301/302/303/307/308) the rule accepts, up to `maxRedirects` hops; 303, and 301/302
 *   after a POST, continue as GET without a body (RFC 9110 §15.4); credentials are dropped across origins.
 * - Streams and decompresses the body (at most `MAX_CONTENT_CODINGS` stacked codings) with a decoded-byte
 *   cap and memory bounded by the bytes kept, whatever the chunking, and reports a cut instead of failing.
 * - One deadline (`timeoutMs`, or `deadline` if it aborts first) covers the whole call. Before the response
 *   headers arrive it fails with `WEB_TIMEOUT`; once they have, the bytes decoded so far are returned with `cut: 'timeout'` (the server
 *   was still sending) or `'decodeTimeout'` (it had sent everything; decompression was still running).
 * - `signal` aborts the socket at any point and rejects with `WEB_ABORTED`.
 *
 * Non-2xx statuses are results, not errors.
 *
 * @throws ToolError WEB_INVALID_URL, WEB_BLOCKED_ADDRESS, WEB_REDIRECT, WEB_TIMEOUT, WEB_ABORTED,
 *   WEB_NETWORK, WEB_BAD_RESPONSE
 */
export async function httpRequest(options: HttpRequestOptions): Promise<HttpResponse> {
  const { timeoutMs, guard } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const followRedirect = options.followRedirect ?? followSameOrigin;
  let url = parseWebUrl(String(options.url));

  const deadline = new AbortController();
  const timeoutReason = new Error('deadline');
  const cancelReason = new Error('cancelled');
  const timer = setTimeout(() => deadline.abort(timeoutReason), timeoutMs);
  const onCancel = (): void => deadline.abort(cancelReason);
  const onDeadline = (): void => deadline.abort(timeoutReason);
  options.signal?.addEventListener('abort', onCancel, { once: true });
  options.deadline?.addEventListener('abort', onDeadline, { once: true });
  if (options.signal?.aborted) onCancel();
  if (options.deadline?.aborted) onDeadline();
  const signal = deadline.signal;

  let method: 'GET' | 'POST' = options.method ?? 'GET';
  let headers = requestHeaders(options);
  let body: string | Uint8Array | undefined = options.json !== undefined ? JSON.stringify(options.json) : options.body;
  const visited = new Set([withoutHash(url)]);
  const redirects: string[] = [];

  try {
    for (;;) {
      const res = await untilAborted(sendOnce(url, method, headers, body, options.agents, guard, signal), signal);
      const location = REDIRECT_STATUSES.has(res.statusCode ?? 0) ? res.headers.location : undefined;
      if (location !== undefined) {
        const target = redirectTarget(location, url, res);
        if (followRedirect(url, target)) {
          res.destroy();
          if (redirects.length >= maxRedirects) {
            throw new ToolError('WEB_REDIRECT', `${options.url.toString()} redirected more than ${maxRedirects} times (last hop to ${target.href}). Fetch the final address directly if you know it.`);
          }
          if (visited.has(withoutHash(target))) {
            throw new ToolError('WEB_REDIRECT', `${url.href} redirects in a loop (back to ${target.href}). The page cannot be fetched as is; try a different URL.`);
          }
          visited.add(withoutHash(target));
          redirects.push(url.href);
          if (res.statusCode === 303 || (method === 'POST' && (res.statusCode === 301 || res.statusCode === 302))) {
            method = 'GET';
            body = undefined;
            headers = withoutHeaders(headers, ['content-type', 'content-length']);
          }
          if (target.origin !== url.origin) headers = withoutHeaders(headers, CREDENTIAL_HEADERS);
          url = target;
          continue;
        }
        return await finishResponse(res, url, redirects, target.href);
      }
      return await finishResponse(res, url, redirects, null);
    }
  } catch (e) {
    throw toToolError(e, url, options, signal, timeoutReason);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
    options.deadline?.removeEventListener('abort', onDeadline);
  }

  async function finishResponse(res: http.IncomingMessage, at: URL, hops: string[], redirectTo: string | null): Promise<HttpResponse> {
    const { body: bytes, cut } = await readBody(res, maxBodyBytes, signal, timeoutReason, options.onBodyBytes);
    return {
      url: at.href,
      status: res.statusCode ?? 0,
      statusText: res.statusMessage ?? '',
      headers: res.headers,
      body: bytes,
      cut,
      redirects: hops,
      redirectTo,
      retryAfterMs: parseRetryAfter(res.headers['retry-after']),
    };
  }
}

/**
 * Parses a `Retry-After` value (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) into ms from `now`.
 * Returns null when absent or unparsable (`-5`); a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP-date form starts with the day's name; Date.parse alone would read `-5` as the year 5 BC.
  const date = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

async function sendOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  agents: HttpAgents | undefined,
  guard: AddressGuard | false,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  if (guard) await guard.checkHost(bareHostname(url));
  signal.throwIfAborted();
  const secure = url.protocol === 'https:';
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = (secure ? https : http).request(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: secure ? agents?.https : agents?.http,
      lookup: guard ? guard.lookup : undefined,
      signal,
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end(body);
  });
}

function requestHeaders(options: HttpRequestOptions): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: '*/*' };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    headers.accept = options.headers?.accept ?? 'application/json';
  }
  headers['accept-encoding'] = 'gzip, deflate, br';
  return headers;
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  const out = { ...headers };
  for (const name of names) delete out[name];
  return out;
}

function redirectTarget(location: string, from: URL, res: http.IncomingMessage): URL {
  try {
    const target = parseWebUrl(locationText(location), 'redirect target', from);
    if (target.hash === '' && from.hash !== '') target.hash = from.hash; // RFC 9110 §10.2.2
    return target;
  } catch (e) {
    res.destroy();
    const why = isToolError(e) ? e.message : String(e);
    throw new ToolError('WEB_REDIRECT', `${from.href} redirects to ${quoteValue(location)}, which Scout will not follow: ${why}`);
  }
}

/**
 * The `Location` value as the server meant it. Node reads header bytes as Latin-1, but servers send non-ASCII
 * paths in `Location` as raw UTF-8 (`/wiki/Café`), which browsers and curl read as UTF-8; read as Latin-1 the
 * URL parser would percent-encode `Ã©` (`%C3%83%C2%A9`) and ask for a page that does not exist. A value whose
 * bytes are valid UTF-8 is therefore decoded as UTF-8; any other keeps its Latin-1 reading.
 */
function locationText(location: string): string {
  if (!/[\u0080-\u00ff]/.test(location)) return location;
  const bytes = Buffer.from(location, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : location;
}

function withoutHash(url: URL): string {
  return url.href.replace(/#.*$/, '');
}

/** Resolves with `work`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

function toToolError(e: unknown, url: URL, options: Pick<HttpRequestOptions, 'timeoutMs' | 'timeoutSetting'>, signal: AbortSignal, timeoutReason: unknown): ToolError {
  if (isToolError(e)) return e;
  const host = url.host;
  if (signal.aborted) {
    const limit = options.timeoutSetting === undefined ? '' : ` (${hostAdvice().setting(options.timeoutSetting)})`;
    return signal.reason === timeoutReason
      ? new ToolError('WEB_TIMEOUT', `${host} did not respond within ${formatSeconds(options.timeoutMs)}${limit}. Try again later, or fetch a different URL.`)
      : new ToolError('WEB_ABORTED', 'The request was cancelled.');
  }
  const code = (e as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new ToolError('WEB_NETWORK', `The host name ${url.hostname} could not be resolved (${code}). Check the spelling of the URL, or try again if the network is down.`);
  }
  if (code === 'ECONNREFUSED') return new ToolError('WEB_NETWORK', `${host} refused the connection. The server may be down; try again later.`);
  if (code === 'ECONNRESET' || code === 'EPIPE' || message === 'socket hang up') {
    return new ToolError('WEB_NETWORK', `${host} closed the connection before answering. Try again later.`);
  }
  if (TLS_CODE.test(code)) {
    return new ToolError('WEB_NETWORK', `The TLS connection to ${host} failed (${code}): its certificate could not be verified. Do not retry over plain http; fetch a different source.`);
  }
  return new ToolError('WEB_NETWORK', `The request to ${host} failed (${code || message}). Try again later, or fetch a different URL.`);
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
