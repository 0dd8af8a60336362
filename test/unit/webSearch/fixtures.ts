/**
 * Wire-format fixtures for the web_search provider tests, written from each provider's public API
 * documentation (field names, nesting and typical values), plus the loopback environment the suites share.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defaultConfig, type ScoutConfig, type WebSearchConfig } from '../../../src/core/config';
import type { Logger, ToolEnv } from '../../../src/core/tool';
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopbackServer';

/** A result as the fixtures describe it. */
export interface FixtureResult {
  readonly title: string;
  readonly url: string;
  readonly snippet?: string;
  readonly date?: string;
}

/** Brave Search API `GET /res/v1/web/search` answer: results under `web.results`, snippet in `description`. */
export function braveBody(results: readonly FixtureResult[], options: { web?: 'null' | 'missing' } = {}): unknown {
  const web =
    options.web === 'null'
      ? null
      : {
          type: 'search',
          family_friendly: true,
          results: results.map((r) => ({
            title: r.title,
            url: r.url,
            is_source_local: false,
            is_source_both: false,
            description: r.snippet ?? '',
            ...(r.date ? { page_age: `${r.date}T08:30:00`, age: 'March 5, 2024' } : {}),
            language: 'en',
            family_friendly: true,
            type: 'search_result',
            subtype: 'generic',
            meta_url: { scheme: 'https', netloc: new URL(r.url).host, hostname: new URL(r.url).hostname, favicon: 'https://imgs.search.brave.com/x.png', path: '› docs' },
            profile: { name: new URL(r.url).hostname, url: r.url, long_name: new URL(r.url).hostname, img: 'https://imgs.search.brave.com/y.png' },
          })),
        };
  return {
    type: 'search',
    query: { original: 'q', show_strict_warning: false, is_navigational: false, is_news_breaking: false, spellcheck_off: true, country: 'us', bad_results: false, should_fallback: false, postal_code: '', city: '', header_country: '', more_results_available: true, state: '' },
    mixed: { type: 'mixed', main: [], top: [], side: [] },
    ...(options.web === 'missing' ? {} : { web }),
  };
}

/** Tavily `POST /search` answer: an optional generated `answer`, results with `content` as the snippet. */
export function tavilyBody(query: string, results: readonly FixtureResult[], answer: string | null = null): unknown {
  return {
    query,
    follow_up_questions: null,
    answer,
    images: [],
    results: results.map((r, i) => ({ title: r.title, url: r.url, content: r.snippet ?? '', score: 0.9 - i * 0.1, raw_content: null, ...(r.date ? { published_date: `Tue, ${r.date.slice(8)} Mar 2024 10:00:00 GMT` } : {}) })),
    response_time: 1.05,
    request_id: '123e4567-e89b-12d3-a456-426614174111',
  };
}

/** Exa `POST /search` answer with `contents.highlights`: excerpts in `highlights`, ISO `publishedDate`. */
export function exaBody(results: readonly (FixtureResult & { highlights?: readonly string[]; text?: string })[]): unknown {
  return {
    requestId: 'b5947044c4b78efa9552a7c89b306d95',
    resolvedSearchType: 'neural',
    results: results.map((r) => ({
      id: r.url,
      title: r.title,
      url: r.url,
      publishedDate: r.date ? `${r.date}T00:00:00.000Z` : null,
      author: null,
      score: 0.37,
      ...(r.highlights ? { highlights: r.highlights, highlightScores: r.highlights.map(() => 0.4) } : {}),
      ...(r.text !== undefined ? { text: r.text } : {}),
    })),
    searchType: 'auto',
    costDollars: { total: 0.005, search: { neural: 0.005 } },
  };
}

/** SearXNG `GET /search?format=json` answer: `results[]` with `content`, `answers` for instant answers. */
export function searxngBody(query: string, results: readonly FixtureResult[], answers: readonly unknown[] = []): unknown {
  return {
    query,
    number_of_results: 0,
    results: results.map((r, i) => ({
      url: r.url,
      title: r.title,
      content: r.snippet ?? '',
      publishedDate: r.date ? `${r.date}T00:00:00` : null,
      engine: 'duckduckgo',
      parsed_url: ['https', new URL(r.url).host, new URL(r.url).pathname, '', '', ''],
      template: 'default.html',
      engines: ['duckduckgo', 'brave'],
      positions: [i + 1],
      score: 2 / (i + 1),
      category: 'general',
    })),
    answers,
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
}

/**
 * html.duckduckgo.com/html/ result page: `.result` blocks with an `a.result__a` title link through the
 * `//duckduckgo.com/l/?uddg=` redirector, `.result__snippet`, and an ad block (`result--ad`). `rawTitle` and
 * `rawSnippet` are inserted as HTML source.
 */
export function duckduckgoPage(results: readonly (FixtureResult & { rawTitle?: string; rawSnippet?: string })[], options: { ad?: boolean } = {}): string {
  const block = (r: (typeof results)[number]): string => {
    const link = `//duckduckgo.com/l/?uddg=${encodeURIComponent(r.url)}&amp;rut=4e1a9c0b7f`;
    return `<div class="result results_links results_links_deep web-result ">
  <div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="${link}">${r.rawTitle ?? r.title}</a></h2>
    <div class="result__extras"><div class="result__extras__url">
      <span class="result__icon"><a rel="nofollow" href="${link}"><img class="result__icon__img" width="16" height="16" alt="" src="//external-content.duckduckgo.com/ip3/x.ico" name="i15" /></a></span>
      <a class="result__url" href="${link}">${new URL(r.url).host}${new URL(r.url).pathname}</a>
      ${r.date ? `<span>&nbsp; &nbsp; ${r.date}T00:00:00.0000000</span>` : ''}
    </div></div>
    <a class="result__snippet" href="${link}">${r.rawSnippet ?? r.snippet ?? ''}</a>
    <div class="clear"></div>
  </div>
</div>`;
  };
  const ad = `<div class="result results_links results_links_deep result--ad result--ad--small">
  <div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;ad_provider=bingv7aa&amp;u3=x">Buy things now</a></h2>
    <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Sponsored.</a>
  </div>
</div>`;
  const body = results.length === 0 ? '<div class="no-results">No  results.</div>' : results.map(block).join('\n');
  return `<!DOCTYPE html>
<html lang="en-US"><head><meta http-equiv="content-type" content="text/html; charset=UTF-8"><title>q at DuckDuckGo</title></head>
<body><div class="header">
<form id="search_form" name="x" action="/html/" method="post"><input type="text" name="q" class="search__input" value="q" /></form></div>
<div id="links" class="results">
${options.ad ? ad : ''}
${body}
</div></body></html>`;
}

/** DuckDuckGo's bot check page (served with HTTP 202 or 200). */
export const DUCKDUCKGO_CHALLENGE = `<!DOCTYPE html><html><body><div class="anomaly-modal__modal" data-testid="anomaly-modal">
<form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html" method="POST"><p>Unfortunately, bots use DuckDuckGo too.</p></form></div></body></html>`;

/** Sends `body` as JSON. */
export function json(res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A recorded request: method, URL, headers, body. */
export type Recorded = LoopbackServer['requests'][number];

/** The query a recorded provider request carries (`q` in the URL or form, `query` in a JSON body). */
export function queryOf(request: Recorded): string {
  const url = new URL(request.url, 'http://x');
  if (url.searchParams.has('q')) return url.searchParams.get('q')!;
  if (String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return new URLSearchParams(request.body).get('q') ?? '';
  return (JSON.parse(request.body) as { query: string }).query;
}

/** A loopback provider whose behaviour each test sets; `handle` receives the request with its recorded copy. */
export interface ScriptedServer extends LoopbackServer {
  handle: (req: IncomingMessage, res: ServerResponse, recorded: Recorded) => void;
  /** Arrival times (`Date.now()`) of the requests, in order. */
  readonly arrivals: number[];
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const arrivals: number[] = [];
  let scripted: ScriptedServer;
  const server = await startLoopbackServer((req, res) => {
    arrivals.push(Date.now());
    scripted.handle(req, res, server.requests[server.requests.length - 1]!);
  });
  scripted = Object.assign(server, { handle: (_req: IncomingMessage, res: ServerResponse) => void res.writeHead(404).end(), arrivals });
  return scripted;
}

/** Scout's defaults with web_search settings overridden. */
export function searchConfig(overrides: Partial<WebSearchConfig> = {}): ScoutConfig {
  const config = defaultConfig();
  config.webSearch = { ...config.webSearch, ...overrides };
  return config;
}

/** A logger that keeps every line it is given. */
export function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string) => void lines.push(`[${level}] ${message}`);
  return { lines, trace: keep('trace'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

/** A ToolEnv for web_search: no workspace, the given secrets (by secret name), a recording log. */
export function searchEnv(config: ScoutConfig, options: { secrets?: Record<string, string>; signal?: AbortSignal; log?: Logger } = {}): ToolEnv {
  const secrets = options.secrets;
  return {
    folders: [],
    config,
    signal: options.signal ?? new AbortController().signal,
    log: options.log ?? recordingLogger(),
    ripgrepPath: '',
    ...(secrets ? { getSecret: async (name: string) => secrets[name] } : {}),
  };
}
