import { cutAtCodePoint } from '../../../codePoints';
import { cleanText, displayDate, listField } from '../text';
import { readJsonObject, sendRequest } from './request';
import { mapResults } from './results';
import type { SearchHints, SearchProvider } from './types';

/** Characters of highlights Exa returns per result (its `contents.highlights.maxCharacters`). */
const HIGHLIGHT_CHARS = 500;

/**
 * Exa: `POST /search` with the key in the `x-api-key` header and a JSON body asking for `highlights`, the
 * excerpts most relevant to the query, which become the snippet (joined with " … "); `summary` or the start of
 * `text` stand in when a result has none. `userLocation` takes the ISO country code; Exa has no language
 * parameter.
 */
export const exaProvider: SearchProvider = {
  id: 'exa',
  label: 'Exa',
  defaultBaseUrl: 'https://api.exa.ai',
  keyed: true,
  async search(query: string, hints: SearchHints, ctx) {
    const res = await sendRequest(this, ctx, {
      path: 'search',
      method: 'POST',
      json: {
        query,
        type: 'auto',
        numResults: ctx.maxResults,
        contents: { highlights: { maxCharacters: HIGHLIGHT_CHARS } },
        ...(hints.country !== undefined ? { userLocation: hints.country.toUpperCase() } : {}),
      },
      headers: { 'x-api-key': ctx.apiKey ?? '' },
      accept: 'application/json',
    });
    const body = readJsonObject(this, ctx, res);
    const results = mapResults(body.results, (fields, url) => {
      const highlights = listField(fields.highlights).map(cleanText).filter((h) => h !== '');
      const snippet = highlights.length > 0 ? highlights.join(' … ') : cleanText(fields.summary) || cutAtCodePoint(cleanText(fields.text), HIGHLIGHT_CHARS);
      return { title: cleanText(fields.title), url, snippet, date: displayDate(fields.publishedDate) };
    });
    return { results: results.slice(0, ctx.maxResults) };
  },
};
