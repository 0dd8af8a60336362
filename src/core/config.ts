/**
 * Every tunable of Scout's core, with the seeds' defaults. The VS Code layer reads these from `scout.*`
 * settings (see package.json `contributes.configuration`); the CLI uses the defaults plus its flags.
 */
export interface SearchConfig {
  /** Seed 000 (required there): sample an over-cap glob page round-robin across top-level entries. */
  sampleOverCapGlobResults: boolean;
  /** Seed 000: paths one glob call shows inline. */
  globMaxResults: number;
  /** Seed 000: matches one grep call shows inline. */
  grepMaxMatches: number;
  /** Seed 000: bytes per matched-line preview; the cut keeps UTF-8 boundaries. */
  grepMaxLineBytes: number;
  /** Seed 000: bytes of raw rg stdout a search will parse before `SEARCH_RAW_OUTPUT_OVERFLOW`. */
  rawOutputMaxBytes: number;
  /** Seed 000: ms budget of one call before it is aborted (`SEARCH_ABORTED`). */
  timeoutMs: number;
  /** Seed 000: ms between SIGTERM and SIGKILL once a search is aborted. */
  graceMs: number;
  /** Seed 000: bytes of rg stderr kept (the tail) for diagnostics. */
  stderrMaxBytes: number;
  /** Allow `path` to resolve outside every workspace folder (off: refused). */
  allowPathsOutsideWorkspace: boolean;
}

export interface WorkspaceSearchConfig {
  /** Seed 003: directory names skipped during traversal and refused as explicit targets. */
  excludedDirectories: string[];
}

export interface WebFetchConfig {
  /** Seed 004: source characters converted and characters of the whole output. */
  fetchMaxOutputChars: number;
  /** Seed 004: ms budget of one fetch. */
  fetchTimeoutMs: number;
  /** Hosts or CIDR ranges the private-network guard lets through. */
  allowedPrivateHosts: string[];
  /** Run main-content extraction before conversion. */
  extractMainContent: boolean;
  /** Domains fetched without a confirmation prompt. */
  autoApprovedDomains: string[];
  /** ms from the download's end (waiting for a free worker included) until the conversion is abandoned and raw text returned. */
  conversionTimeoutMs: number;
}

export interface WebSearchConfig {
  /** Which provider serves web_search. */
  provider: 'duckduckgo' | 'brave' | 'tavily' | 'exa' | 'searxng';
  /** Seed 004: sources one call returns. */
  searchMaxResults: number;
  /** Seed 004: queries one call accepts. */
  searchMaxQueries: number;
  /** Seed 004: ms budget of one search call. */
  searchTimeoutMs: number;
  /** Per-provider base URL overrides (user-chosen, so not subject to the private-network guard). */
  baseUrls: Partial<Record<WebSearchConfig['provider'], string>>;
}

/** The web search providers that need an API key. */
export const KEYED_WEB_SEARCH_PROVIDERS = ['brave', 'tavily', 'exa'] as const;
export type KeyedWebSearchProvider = (typeof KEYED_WEB_SEARCH_PROVIDERS)[number];

/**
 * The name under which a provider's API key is kept: the key of VS Code's `SecretStorage` (set by the
 * *Scout: Set Web Search API Key* command) and the `name` a tool passes to `ToolEnv.getSecret`.
 * For example `scout.webSearch.brave.apiKey`.
 */
export function webSearchSecretName(provider: KeyedWebSearchProvider): string {
  return `scout.webSearch.${provider}.apiKey`;
}

/**
 * The environment variable the CLI reads a provider's API key from (issue 5), e.g. `SCOUT_BRAVE_API_KEY`.
 * Outside VS Code there is no `SecretStorage`; the CLI's `getSecret` maps {@link webSearchSecretName} to it.
 */
export function webSearchKeyEnvVar(provider: KeyedWebSearchProvider): string {
  return `SCOUT_${provider.toUpperCase()}_API_KEY`;
}

export interface ScoutConfig {
  search: SearchConfig;
  workspaceSearch: WorkspaceSearchConfig;
  webFetch: WebFetchConfig;
  webSearch: WebSearchConfig;
}

/** The defaults: the seeds' numbers, and Scout's choices where a seed has none. */
export function defaultConfig(): ScoutConfig {
  return {
    search: {
      sampleOverCapGlobResults: true,
      globMaxResults: 100,
      grepMaxMatches: 250,
      grepMaxLineBytes: 2000,
      rawOutputMaxBytes: 20_000_000,
      timeoutMs: 30_000,
      graceMs: 3_000,
      stderrMaxBytes: 65_536,
      allowPathsOutsideWorkspace: false,
    },
    workspaceSearch: {
      excludedDirectories: ['.git', 'node_modules', '.pi', 'dist', 'build'],
    },
    webFetch: {
      fetchMaxOutputChars: 200_000,
      fetchTimeoutMs: 30_000,
      allowedPrivateHosts: [],
      extractMainContent: true,
      autoApprovedDomains: [],
      conversionTimeoutMs: 10_000,
    },
    webSearch: {
      provider: 'duckduckgo',
      searchMaxResults: 8,
      searchMaxQueries: 4,
      searchTimeoutMs: 30_000,
      baseUrls: {},
    },
  };
}
