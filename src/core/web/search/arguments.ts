import * as z from 'zod/mini';
import { parseArguments } from '../../args';
import { ToolError } from '../../errors';

/** Validated web_search arguments. */
export interface WebSearchArgs {
  /** 1 to `searchMaxQueries` non-blank queries, as given (duplicates are removed when the call runs). */
  readonly queries: readonly string[];
  /** ISO 3166-1 alpha-2 code, lowercase (`us`). */
  readonly country?: string;
  /** BCP 47 language tag, lowercase with `-` (`en`, `zh-cn`). */
  readonly language?: string;
}

/** Seed 004 argument errors: contract values, kept exactly. */
export const AT_LEAST_ONE_QUERY = 'queries must contain at least one query';
export const EACH_QUERY_NON_EMPTY = 'each query must be a non-empty string';
/** Seed 004: `queries must contain at most 1 query` for a cap of one, `… at most <count> queries` otherwise. */
export function atMostQueries(max: number): string {
  return max === 1 ? 'queries must contain at most 1 query' : `queries must contain at most ${max} queries`;
}

/**
 * Longest query accepted, in UTF-16 code units (Scout's bound; the seed sets none). A search-box query is a few
 * words; 1,000 leaves room for long quoted error messages while keeping every provider's request URL far below
 * the 8,192-character limit of `parseWebUrl` (a longer query used to fail there as a provider error blaming the
 * base-URL setting). Providers with a lower limit of their own (Tavily: 400) still apply it.
 */
export const MAX_QUERY_CHARS = 1000;

/** Scout's message for a query over {@link MAX_QUERY_CHARS} (the seed has none); `index` is 0-based. */
export function queryTooLong(index: number, length: number): string {
  return `queries.${index} is ${length} characters long; each query may have at most ${MAX_QUERY_CHARS} characters. Shorten it to the key terms, or split it into several queries.`;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/**
 * Parses web_search arguments (seed 004): `queries` must be an array of strings (schema errors), holding 1 to
 * `maxQueries` entries, none blank (the seed's exact messages) and none longer than {@link MAX_QUERY_CHARS}
 * (Scout's own message); the count is checked before anything runs.
 * `country` and `language` are optional hints, normalised to lowercase and validated: a country is a known
 * ISO 3166-1 alpha-2 code (`uk` is read as `gb`), a language a BCP 47 tag whose primary language is known (`_` is read as `-`).
 *
 * @throws ToolError INVALID_ARGUMENT
 */
export function parseWebSearchArguments(input: unknown, maxQueries: number): WebSearchArgs {
  const schema = z.strictObject({
    queries: z.array(z.string()).check(
      z.superRefine((queries, ctx) => {
        if (queries.length === 0) ctx.addIssue({ code: 'custom', message: AT_LEAST_ONE_QUERY });
        else if (queries.length > maxQueries) ctx.addIssue({ code: 'custom', message: atMostQueries(maxQueries) });
        else if (queries.some((q) => q.trim() === '')) ctx.addIssue({ code: 'custom', message: EACH_QUERY_NON_EMPTY });
        else {
          const index = queries.findIndex((q) => q.length > MAX_QUERY_CHARS);
          if (index !== -1) ctx.addIssue({ code: 'custom', message: queryTooLong(index, queries[index]!.length) });
        }
      }),
    ),
    country: z.optional(z.string()),
    language: z.optional(z.string()),
  });
  const args = parseArguments(schema, input);
  return {
    queries: args.queries,
    ...(args.country !== undefined ? { country: countryCode(args.country) } : {}),
    ...(args.language !== undefined ? { language: languageTag(args.language) } : {}),
  };
}

function countryCode(raw: string): string {
  const code = raw.trim().toLowerCase();
  // `uk` is reserved in ISO 3166-1 for the United Kingdom, whose code is `gb`; `zz` is "unknown region".
  if (code === 'uk') return 'gb';
  if (/^[a-z]{2}$/.test(code) && code !== 'zz' && regionNames.of(code.toUpperCase()) !== undefined) return code;
  throw new ToolError('INVALID_ARGUMENT', `country must be a two-letter ISO 3166-1 country code such as "us", "de" or "jp", not ${JSON.stringify(raw.slice(0, 40))}. Omit it when the request names no country or market.`);
}

function languageTag(raw: string): string {
  const tag = raw.trim().toLowerCase().replace(/_/g, '-');
  const primary = tag.split('-')[0]!;
  if (/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(tag) && languageNames.of(primary) !== undefined) return tag;
  throw new ToolError('INVALID_ARGUMENT', `language must be a language code such as "en", "de" or "zh-cn", not ${JSON.stringify(raw.slice(0, 40))}. Omit it when the request does not ask for results in a particular language.`);
}
