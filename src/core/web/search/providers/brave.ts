import { cleanText, displayDate, objectField } from '../text';
import { readJsonObject, RequestSpacer, sendRequest } from './request';
import { mapResults } from './results';
import type { SearchHints, SearchProvider } from './types';

/** Brave's `count` parameter accepts 1 to 20. */
const MAX_COUNT = 20;

/**
 * Brave's free plan allows one request per second, so every Brave request of this process, from
 * concurrent queries and concurrent calls alike, starts at least a second after the one before.
 */
const spacer = new RequestSpacer(1000);

/** The `country` values Brave's web search documents (ISO 3166-1 alpha-2, upper case); others are dropped. */
const COUNTRIES = new Set('AR AU AT BE BR CA CL DK FI FR DE HK IN ID IT JP KR MY MX NL NZ NO CN PL PT PH RU SA ZA ES SE CH TW TR GB US'.split(' '));

/** The `search_lang` values Brave documents. */
const SEARCH_LANGS = new Set(
  'ar eu bn bg ca zh-hans zh-hant hr cs da nl en en-gb et fi fr gl de gu he hi hu is it jp kn ko lv lt ms ml mr nb pl pt-br pt-pt pa ro ru sr sk sl es sv ta te th tr uk vi'.split(' '),
);

/** BCP 47 tags whose Brave code is not the tag itself or its primary subtag. */
const SEARCH_LANG_ALIASES: Readonly<Record<string, string>> = {
  ja: 'jp',
  zh: 'zh-hans',
  'zh-cn': 'zh-hans',
  'zh-sg': 'zh-hans',
  'zh-tw': 'zh-hant',
  'zh-hk': 'zh-hant',
  'zh-mo': 'zh-hant',
  pt: 'pt-pt',
  no: 'nb',
  nn: 'nb',
  iw: 'he',
};

/** Brave's `search_lang` for a language hint; undefined when Brave has no such language. */
export function braveSearchLang(language: string | undefined): string | undefined {
  if (language === undefined) return undefined;
  if (SEARCH_LANGS.has(language)) return language;
  if (SEARCH_LANG_ALIASES[language]) return SEARCH_LANG_ALIASES[language];
  const primary = language.split('-')[0]!;
  return SEARCH_LANG_ALIASES[primary] ?? (SEARCH_LANGS.has(primary) ? primary : undefined);
}

/**
 * Brave Search API, web search: `GET /res/v1/web/search?q=…` with the key in the `X-Subscription-Token`
 * header. Results are `web.results[]` (`title`, `url`, `description` with `<strong>` around matched words,
 * `page_age` ISO date or `age` wording); `"web": null` or no `web` gives no results. Brave documents queries
 * of at most 400 characters and 50 words.
 */
export const braveProvider: SearchProvider = {
  id: 'brave',
  label: 'Brave Search',
  defaultBaseUrl: 'https://api.search.brave.com',
  keyed: true,
  maxQueryChars: 400,
  maxQueryWords: 50,
  async search(query: string, hints: SearchHints, ctx) {
    const country = hints.country?.toUpperCase();
    const res = await sendRequest(this, ctx, {
      path: 'res/v1/web/search',
      params: {
        q: query,
        count: String(Math.min(ctx.maxResults, MAX_COUNT)),
        country: country !== undefined && COUNTRIES.has(country) ? country : undefined,
        search_lang: braveSearchLang(hints.language),
      },
      headers: { 'x-subscription-token': ctx.apiKey ?? '' },
      accept: 'application/json',
      spacer,
    });
    const body = readJsonObject(this, ctx, res);
    const results = mapResults(objectField(body.web)?.results, (fields, url) => ({
      title: cleanText(fields.title),
      url,
      snippet: cleanText(fields.description),
      date: displayDate(fields.page_age) || displayDate(fields.age),
    }));
    return { results: results.slice(0, ctx.maxResults) };
  },
};
