import { ToolError } from '../../../errors';
import { hostAdvice } from '../../../hostAdvice';
import type { DuckDuckGoPage } from './duckduckgoPage';
import { checkResponse, sendRequest, timedOut } from './request';
import type { SearchHints, SearchProvider } from './types';

/**
 * DuckDuckGo's `kl` regions (country-language, as its region menu lists them; `uk` is the United Kingdom,
 * `xa`/`xl`/`ct` are Arabia, Latin America and Catalonia). The first entry of a country is its default.
 */
const REGIONS: readonly string[] = (
  'xa-ar xa-en ar-es au-en at-de be-fr be-nl br-pt bg-bg ca-en ca-fr ct-ca cl-es cn-zh co-es hr-hr cz-cs dk-da ee-et fi-fi ' +
  'fr-fr de-de gr-el hk-tzh hu-hu in-en id-id id-en ie-en il-he it-it jp-jp kr-kr lv-lv lt-lt xl-es my-ms my-en mx-es nl-nl ' +
  'nz-en no-no pe-es ph-en ph-tl pl-pl pt-pt ro-ro ru-ru sg-en sk-sk sl-sl za-en es-es se-sv ch-de ch-fr ch-it tw-tzh th-th ' +
  'tr-tr ua-uk uk-en us-en ue-es ve-es vn-vi'
).split(' ');

/** ISO 3166-1 codes that DuckDuckGo spells differently in `kl`. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = { gb: 'uk', si: 'sl' };

/**
 * DuckDuckGo's `kl` region for the hints: the country's entry in the language asked for (only countries with
 * several languages have a choice: Belgium, Canada, Switzerland…), else the country's first entry; undefined without a country or for a country DuckDuckGo has no region for (it has no
 * language-only setting).
 */
export function duckduckgoRegion(hints: SearchHints): string | undefined {
  if (hints.country === undefined) return undefined;
  const country = COUNTRY_ALIASES[hints.country] ?? hints.country;
  const ofCountry = REGIONS.filter((r) => r.startsWith(`${country}-`));
  if (ofCountry.length === 0) return undefined;
  const language = hints.language?.split('-')[0];
  return ofCountry.find((r) => r === `${country}-${language}`) ?? ofCountry[0];
}

/**
 * DuckDuckGo's HTML interface (html.duckduckgo.com/html/), the keyless default: the query is POSTed as its
 * own search form does, and the result page is parsed with linkedom in the conversion worker. It is a
 * best-effort source: DuckDuckGo answers automated traffic with a bot check (HTTP 202, or a CAPTCHA page),
 * which is reported as WEB_RATE_LIMITED with the advice to wait or use a keyed provider.
 */
export const duckduckgoProvider: SearchProvider = {
  id: 'duckduckgo',
  label: 'DuckDuckGo',
  defaultBaseUrl: 'https://html.duckduckgo.com',
  keyed: false,
  async search(query: string, hints: SearchHints, ctx) {
    const res = await sendRequest(this, ctx, {
      path: 'html/',
      method: 'POST',
      form: { q: query, b: '', kl: duckduckgoRegion(hints) },
      accept: 'text/html',
    });
    if (res.status === 202 || res.status === 403) throw botCheck(res.status);
    checkResponse(this, ctx, res);
    const parsed = await ctx.workers.task<DuckDuckGoPage>(
      { task: 'duckduckgoPage', html: new TextDecoder('utf-8').decode(res.body), pageUrl: res.url },
      Math.max(1, ctx.deadline - Date.now()),
      ctx.signal,
    );
    if ('failure' in parsed) {
      if (parsed.failure === 'timeout') throw timedOut(this, ctx.timeoutMs);
      throw new ToolError('WEB_PROVIDER_ERROR', "Scout could not read DuckDuckGo's result page (its parser stopped unexpectedly). Try again.");
    }
    const page = parsed.reply;
    if (page.challenge) throw botCheck(res.status);
    if (!page.recognised) {
      throw new ToolError(
        'WEB_PROVIDER_ERROR',
        `DuckDuckGo answered with a page that is not its result list (HTTP ${res.status}); its layout may have changed, or a proxy answered instead. Try again later, or choose a keyed provider (${hostAdvice().setting('webSearch.provider')}).`,
      );
    }
    return { results: page.results.slice(0, ctx.maxResults) };
  },
};

function botCheck(status: number): ToolError {
  return new ToolError(
    'WEB_RATE_LIMITED',
    `DuckDuckGo answered with its bot check instead of results (HTTP ${status}): it limits automated searches from one address. Wait a few minutes and search again with fewer queries, or choose a provider with an API key (${hostAdvice().setting('webSearch.provider')}) and ${hostAdvice().storeApiKey()}.`,
  );
}
