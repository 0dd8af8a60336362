import { cleanText, displayDate } from '../text';
import { readJsonObject, sendRequest } from './request';
import { mapResults } from './results';
import type { SearchHints, SearchProvider } from './types';

/** Tavily's `max_results` accepts 0 to 20. */
const MAX_RESULTS = 20;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * Tavily Search: `POST /search` with `Authorization: Bearer <key>` and a JSON body. `include_answer` asks for
 * its short generated `answer`, which Scout passes through; `results[]` carry `title`, `url`, `content` (the
 * snippet) and, for news, `published_date`. Its `country` parameter takes an English country name in lower
 * case ("united states"), derived here from the ISO code; it has no language parameter. Tavily documents
 * queries of at most 400 characters.
 */
export const tavilyProvider: SearchProvider = {
  id: 'tavily',
  label: 'Tavily',
  defaultBaseUrl: 'https://api.tavily.com',
  keyed: true,
  maxQueryChars: 400,
  async search(query: string, hints: SearchHints, ctx) {
    const country = hints.country !== undefined ? regionNames.of(hints.country.toUpperCase())?.toLowerCase() : undefined;
    const res = await sendRequest(this, ctx, {
      path: 'search',
      method: 'POST',
      json: {
        query,
        search_depth: 'basic',
        topic: 'general',
        max_results: Math.min(ctx.maxResults, MAX_RESULTS),
        include_answer: true,
        ...(country !== undefined ? { country } : {}),
      },
      headers: { authorization: `Bearer ${ctx.apiKey ?? ''}` },
      accept: 'application/json',
    });
    const body = readJsonObject(this, ctx, res);
    const results = mapResults(body.results, (fields, url) => ({ title: cleanText(fields.title), url, snippet: cleanText(fields.content), date: displayDate(fields.published_date) }));
    const answer = cleanText(body.answer);
    return { ...(answer ? { answer } : {}), results: results.slice(0, ctx.maxResults) };
  },
};
