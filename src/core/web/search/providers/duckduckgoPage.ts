// Runs in the conversion worker (dist/convertWorker.js), the only bundle that holds linkedom.
import type { WorkerTaskRequest } from '../../convert/render';
import type * as Linkedom from 'linkedom' with { 'resolution-mode': 'import' };
import { resultUrl } from '../sourceUrl';
import { displayDate, plainLine } from '../text';
import type { ProviderResult } from './types';

// linkedom's type declarations are ESM-only; the package also ships CommonJS, which esbuild and tsx load.
const { DOMParser } = require('linkedom') as typeof Linkedom;

/** Worker task: parse one DuckDuckGo HTML result page. */
export interface DuckDuckGoPageRequest extends WorkerTaskRequest {
  readonly task: 'duckduckgoPage';
}

/** What a DuckDuckGo HTML page holds. */
export interface DuckDuckGoPage {
  /** Organic results in page order (ads left out), URLs unwrapped from DuckDuckGo's redirect links. */
  readonly results: readonly ProviderResult[];
  /** The page has DuckDuckGo's result list, or its "no results" notice (false: some other page). */
  readonly recognised: boolean;
  /** The page is DuckDuckGo's bot check (a CAPTCHA) instead of results. */
  readonly challenge: boolean;
}

/**
 * Parses html.duckduckgo.com's result page: each `.result` block (not `.result--ad`) gives the title and link
 * of its `a.result__a`, the text of `.result__snippet`, and a date when `.result__extras__url` shows one.
 * Result links point to DuckDuckGo's redirector (`//duckduckgo.com/l/?uddg=<target>&rut=…`); the target is
 * taken from `uddg`. Links that stay on DuckDuckGo (ads, `y.js`) and non-http(s) targets are dropped.
 * Titles and snippets come from the DOM's text, so entities are decoded exactly once and `<b>` tags are gone;
 * `plainLine` then makes them one printable line.
 */
export function parseDuckDuckGoPage(request: DuckDuckGoPageRequest): DuckDuckGoPage {
  const document = new DOMParser().parseFromString(request.html, 'text/html');
  const challenge = document.querySelector('#challenge-form, .anomaly-modal__modal, form[action*="anomaly"]') !== null;
  const recognised = document.querySelector('#links, .results, .result, .no-results, .result--no-result') !== null;
  const results: ProviderResult[] = [];
  for (const block of document.querySelectorAll('.result')) {
    if (block.classList.contains('result--ad')) continue;
    const link = block.querySelector('a.result__a');
    const url = link && unwrapResultLink(link.getAttribute('href') ?? '', request.pageUrl);
    if (!link || !url) continue;
    const extras = block.querySelector('.result__extras__url')?.textContent ?? '';
    const date = /\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?/.exec(extras)?.[0] ?? '';
    results.push({
      title: plainLine(link.textContent ?? ''),
      url,
      snippet: plainLine(block.querySelector('.result__snippet')?.textContent ?? ''),
      date: displayDate(date),
    });
  }
  return { results, recognised, challenge };
}

/**
 * The destination of a result link: the `uddg` parameter of a DuckDuckGo `/l/` redirect link, or the link
 * itself when it points off DuckDuckGo. Undefined for DuckDuckGo's own pages and anything not http(s).
 */
export function unwrapResultLink(href: string, pageUrl: string): string | undefined {
  let link: URL;
  try {
    link = new URL(href, pageUrl);
  } catch {
    return undefined;
  }
  const onDuckDuckGo = /(^|\.)duckduckgo\.com$/i.test(link.hostname) || link.host === new URL(pageUrl).host;
  if (!onDuckDuckGo) return resultUrl(link.href);
  const target = link.pathname === '/l/' ? link.searchParams.get('uddg') : null;
  return target === null ? undefined : resultUrl(target);
}
