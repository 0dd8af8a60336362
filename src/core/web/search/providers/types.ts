import type { WebSearchConfig } from '../../../config';
import type { Logger } from '../../../tool';
import type { ConvertWorkerPool } from '../../convert/workerPool';
import type { AddressGuard } from '../../http/addressGuard';
import type { HttpAgents } from '../../http/client';

/** A provider's id: the value of the setting `scout.webSearch.provider`. */
export type ProviderId = WebSearchConfig['provider'];

/**
 * Locale hints of one web_search call, already validated and lowercase: `country` an ISO 3166-1 alpha-2 code
 * (`us`), `language` a BCP 47 tag (`en`, `zh-cn`). Each provider maps them onto its own parameters or drops them.
 */
export interface SearchHints {
  readonly country?: string;
  readonly language?: string;
}

/** One search result as a provider returns it, cleaned: plain text, no markup, entities decoded once. */
export interface ProviderResult {
  readonly title: string;
  /** An absolute http(s) URL. */
  readonly url: string;
  /** '' when the provider gave none. */
  readonly snippet: string;
  /** `YYYY-MM-DD`, or the provider's own short wording (`3 days ago`); '' when none. */
  readonly date: string;
}

/** What one query produced: the provider's own answer, when it writes one (Tavily, SearXNG), and its results in rank order. */
export interface ProviderAnswer {
  readonly answer?: string;
  readonly results: readonly ProviderResult[];
}

/** Everything one provider request may use. */
export interface ProviderContext {
  /** The provider's base URL (its default, or the user's `scout.webSearch.baseUrls` entry). */
  readonly baseUrl: URL;
  /** The private-network guard for the default base URL; false for a base URL the user chose. */
  readonly guard: AddressGuard | false;
  /** The API key of a keyed provider; never logged, never put in a message or a result. */
  readonly apiKey?: string;
  /** Aborts when the call is cancelled, its time budget runs out, or a sibling query failed. */
  readonly signal: AbortSignal;
  /** `Date.now()` value by which the whole call must finish (`searchTimeoutMs` after it started). */
  readonly deadline: number;
  /** `searchTimeoutMs`, for messages. */
  readonly timeoutMs: number;
  /** Results wanted per query (`searchMaxResults`); a provider returns at most this many. */
  readonly maxResults: number;
  readonly agents?: HttpAgents;
  readonly log: Logger;
  /** Workers for DOM parsing (DuckDuckGo's HTML result page); linkedom never loads on the calling thread. */
  readonly workers: ConvertWorkerPool;
}

/** One web search backend behind web_search. */
export interface SearchProvider {
  readonly id: ProviderId;
  /** Its name in messages: "Brave Search". */
  readonly label: string;
  /** The public base URL used when `scout.webSearch.baseUrls` has no entry for it. */
  readonly defaultBaseUrl: string | undefined;
  /** Needs an API key (kept in `SecretStorage` under `webSearchSecretName(id)`). */
  readonly keyed: boolean;
  /** The provider's documented longest query, in characters (Unicode code points); checked before sending. */
  readonly maxQueryChars?: number;
  /** The provider's documented most words per query; checked before sending. */
  readonly maxQueryWords?: number;
  /**
   * Runs one query.
   * @throws ToolError WEB_PROVIDER_UNAVAILABLE, WEB_PROVIDER_UNCONFIGURED, WEB_PROVIDER_ERROR, WEB_RATE_LIMITED,
   *   WEB_TIMEOUT, WEB_ABORTED
   */
  search(query: string, hints: SearchHints, ctx: ProviderContext): Promise<ProviderAnswer>;
}
