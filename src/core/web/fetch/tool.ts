import * as path from 'node:path';
import * as z from 'zod/mini';
import { parseArguments } from '../../args';
import type { ScoutConfig } from '../../config';
import { ToolError } from '../../errors';
import type { ScoutTool, ToolEnv, ToolOutput } from '../../tool';
import { classifyContent } from '../convert/contentKind';
import { MAX_NESTING_DEPTH } from '../convert/htmlScan';
import { sharedConvertWorkerPool, type ConvertWorkerPool, type RenderResult } from '../convert/workerPool';
import { formatFetchOutput } from './output';
import { AddressGuard } from '../http/addressGuard';
import type { BodyCut } from '../http/body';
import { DEFAULT_MAX_BODY_BYTES, httpRequest, type HttpResponse } from '../http/client';
import { bareHostname, parseWebUrl } from '../http/url';

export interface WebFetchArgs {
  /** The validated, WHATWG-serialised URL. */
  readonly url: string;
}

/** How the body in `markdown` was produced. */
export type WebFetchFormat = 'markdown' | 'text' | 'raw-html' | 'unsupported' | 'redirect';

/** The canonical value of a web_fetch call (`--json`, panel card). */
export interface WebFetchValue {
  readonly finalUrl: string;
  readonly status: number;
  /** The `Content-Type` header, '' when absent. */
  readonly contentType: string;
  /** Decoded body bytes received (at most 5 MiB). */
  readonly bytes: number;
  readonly sourceId: string;
  /** Main-content extraction was used. */
  readonly extracted: boolean;
  /** The output does not hold the whole page (source or output over `fetchMaxOutputChars`). */
  readonly truncated: boolean;
  /** Why the body itself is incomplete, if it is. */
  readonly cut: BodyCut | null;
  /** The body text shown to the model. */
  readonly markdown: string;
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

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/markdown;q=0.9,text/plain;q=0.8,application/json;q=0.8,*/*;q=0.5';

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
 * web_fetch (seed 004, issue 4): fetches one public http(s) URL and returns it as Markdown (HTML) or as
 * text (text, JSON, XML, Markdown), headed `Fetched <finalUrl> (HTTP <status>)`.
 *
 * Redirect rule: hops within the same origin, and `http://host` → `https://host`, are followed (up to 5);
 * a hop to any other origin is not followed but reported, naming its target, so the model decides whether
 * to fetch it (a target the guard refuses without DNS, a private address or `localhost`, is refused outright). Non-2xx statuses are results.
 */
export const webFetchTool = createWebFetchTool(path.join(__dirname, 'convertWorker.js'));

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
  const base = { finalUrl: res.url, status: res.status, contentType, bytes: res.body.length, cut: res.cut };
  const notes = [...redirectNotes(res), ...cutNotes(res.cut, config.fetchTimeoutMs), ...statusNotes(res)];

  if (res.redirectTo !== null) {
    refuseBlockedTarget(res.redirectTo, guard, res.url);
    const body = `The server redirects (HTTP ${res.status}) to another origin: ${res.redirectTo}\nScout follows redirects only within the same origin, or from http to https on the same host. If that destination is what you need, call web_fetch with it.`;
    return finish(env.config, { ...base, format: 'redirect', redirectTo: res.redirectTo, extracted: false }, notes, body, false);
  }

  const kind = classifyContent(res.body, contentType);
  if (kind.kind === 'binary') {
    const body = `Unsupported content type: the response is ${kind.description ?? 'binary data'} (Content-Type: ${contentType || 'none'}, ${res.body.length} bytes), not HTML or text, so web_fetch cannot show it. Look for an HTML or plain-text version of this document.`;
    return finish(env.config, { ...base, format: 'unsupported', redirectTo: null, extracted: false }, notes, body, false);
  }
  if (res.body.length === 0) {
    return finish(env.config, { ...base, format: 'text', redirectTo: null, extracted: false }, notes, '(The response body is empty.)', false);
  }

  env.progress?.(`Converting ${res.url}`);
  const rendered = await workers.render(
    {
      bytes: res.body,
      contentType,
      kind: kind.kind,
      sniffMarkup: kind.kind === 'html' || kind.mime.includes('xml'),
      url: res.url,
      maxChars: config.fetchMaxOutputChars,
      extractMainContent: config.extractMainContent,
    },
    config.conversionTimeoutMs,
    env.signal,
  );
  const { body, format, extracted, conversionNotes } = pageBody(kind.kind, rendered, config.conversionTimeoutMs);
  return finish(env.config, { ...base, format, redirectTo: null, extracted }, [...notes, ...conversionNotes], body, rendered.truncated);
}

function pageBody(kind: 'html' | 'text', rendered: RenderResult, conversionTimeoutMs: number): { body: string; format: WebFetchFormat; extracted: boolean; conversionNotes: string[] } {
  if (kind === 'text') return { body: rendered.text, format: 'text', extracted: false, conversionNotes: [] };
  const conversion = rendered.conversion;
  if (conversion?.mode === 'markdown') {
    const leftOut = conversion.extraction ? conversion.extraction.pageChars - conversion.extraction.articleChars : 0;
    const notes = leftOut >= MIN_LEFT_OUT_CHARS ? [`showing the page's main content; about ${leftOut} characters of navigation, sidebars, footers and similar text were left out.`] : [];
    return { body: conversion.markdown === '' ? '(The page has no readable text.)' : conversion.markdown, format: 'markdown', extracted: conversion.extracted, conversionNotes: notes };
  }
  let why: string;
  if (conversion?.mode === 'raw-too-deep') why = `the HTML nests deeper than ${MAX_NESTING_DEPTH} levels`;
  else if (conversion?.mode === 'raw-error') why = `converting the HTML failed (${conversion.error ?? 'unknown error'})`;
  else if (rendered.failure === 'timeout') why = `converting the HTML took longer than ${conversionTimeoutMs / 1000} s`;
  else why = 'the HTML converter stopped unexpectedly';
  return { body: rendered.text, format: 'raw-html', extracted: false, conversionNotes: [`${why}, so the raw HTML is shown.`] };
}

function finish(
  config: ScoutConfig,
  value: Omit<WebFetchValue, 'sourceId' | 'truncated' | 'markdown'>,
  notes: string[],
  body: string,
  sourceTruncated: boolean,
): ToolOutput<WebFetchValue> {
  const out = formatFetchOutput({ finalUrl: value.finalUrl, status: value.status, notes, body, sourceTruncated }, config.webFetch.fetchMaxOutputChars);
  return {
    text: out.text,
    value: { ...value, sourceId: out.sourceId, truncated: out.truncated, markdown: out.body },
    summary: { truncated: out.truncated || value.cut !== null },
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
      return [`the server was still sending when the ${fetchTimeoutMs / 1000} s fetch timeout ran out; the body is incomplete.`];
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
