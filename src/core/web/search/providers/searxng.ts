import { ToolError } from '../../../errors';
import { cleanText, displayDate, listField, objectField } from '../text';
import { baseUrlAdvice, readJsonObject, sendRequest } from './request';
import { mapResults } from './results';
import type { SearchHints, SearchProvider } from './types';

/**
 * SearXNG, the user's own metasearch instance (its address in `scout.webSearch.baseUrls.searxng`, no key):
 * `GET /search?q=…&format=json`. Results are `results[]` (`url`, `title`, `content`, `publishedDate`); its
 * `answers` (strings, or objects with an `answer` field in newer versions) become the provider answer. The
 * hints become its `language` parameter: the language tag with the country as region (`en-US`), or the
 * language alone; a country without a language is dropped. An instance without `json` in its `search.formats`
 * answers HTTP 403, which the message explains.
 */
export const searxngProvider: SearchProvider = {
  id: 'searxng',
  label: 'SearXNG',
  defaultBaseUrl: undefined,
  keyed: false,
  async search(query: string, hints: SearchHints, ctx) {
    const res = await sendRequest(this, ctx, {
      path: 'search',
      params: { q: query, format: 'json', pageno: '1', language: searxngLanguage(hints) },
      accept: 'application/json',
    });
    if (res.status === 403) {
      throw new ToolError(
        'WEB_PROVIDER_ERROR',
        `The SearXNG instance at ${ctx.baseUrl.origin} refused a JSON search (HTTP 403). Its settings.yml must list json under search.formats; ask its operator, or use an instance that allows it. ${baseUrlAdvice(this)}`,
      );
    }
    const body = readJsonObject(this, ctx, res);
    const results = mapResults(body.results, (fields, url) => ({ title: cleanText(fields.title), url, snippet: cleanText(fields.content), date: displayDate(fields.publishedDate) }));
    const answers = [...new Set(listField(body.answers).map((a) => cleanText(objectField(a)?.answer ?? a)).filter((a) => a !== ''))];
    return { ...(answers.length > 0 ? { answer: answers.join('\n\n') } : {}), results: results.slice(0, ctx.maxResults) };
  },
};

/** SearXNG's `language` for the hints: `en-US` style when both are given, `en` for a language alone. */
export function searxngLanguage(hints: SearchHints): string | undefined {
  if (hints.language === undefined) return undefined;
  const [primary, ...rest] = hints.language.split('-');
  if (rest.length > 0) return `${primary}-${rest.join('-').toUpperCase()}`;
  return hints.country !== undefined ? `${primary}-${hints.country.toUpperCase()}` : primary;
}
