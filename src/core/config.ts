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
  /** Seed 000: bytes of raw rg stdout a search parses; past it rg is stopped and the result is what was read (search/overflow.ts). */
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
 * The environment variable the CLI reads a provider's API key from, e.g. `SCOUT_BRAVE_API_KEY`.
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

/** A dotted setting path, `section.key` of {@link ScoutConfig}: `search.globMaxResults` (VS Code: `scout.` before it). */
export type ConfigKey = { [S in keyof ScoutConfig]: `${S}.${keyof ScoutConfig[S] & string}` }[keyof ScoutConfig];

/** The {@link ConfigKey}s whose value is a number. */
export type NumericConfigKey = {
  [S in keyof ScoutConfig]: { [K in keyof ScoutConfig[S]]: ScoutConfig[S][K] extends number ? `${S}.${K & string}` : never }[keyof ScoutConfig[S]];
}[keyof ScoutConfig];

/** The accepted values of a numeric setting: `minimum` ≤ value ≤ `maximum` (inclusive), a whole number when `integer`. */
export interface NumericLimits {
  readonly minimum: number;
  readonly maximum: number;
  readonly integer: boolean;
}

/**
 * The range of every numeric setting, one rule for both hosts: the CLI refuses a value outside it (exit 2)
 * and the extension ignores one (default kept, warning logged). package.json's `contributes.configuration`
 * declares the same `minimum`/`maximum`/`type: integer` (a unit test keeps the two equal). Units are those of
 * the key's name (ms, bytes, chars, counts).
 */
export const NUMERIC_SETTING_LIMITS: Readonly<Record<NumericConfigKey, NumericLimits>> = {
  'search.globMaxResults': { minimum: 1, maximum: 10_000, integer: true },
  'search.grepMaxMatches': { minimum: 1, maximum: 100_000, integer: true },
  'search.grepMaxLineBytes': { minimum: 64, maximum: 1_000_000, integer: true },
  'search.rawOutputMaxBytes': { minimum: 1_000, maximum: 1_000_000_000, integer: true },
  'search.timeoutMs': { minimum: 100, maximum: 2_147_483_647, integer: true },
  'search.graceMs': { minimum: 1, maximum: 2_147_483_647, integer: true },
  'search.stderrMaxBytes': { minimum: 1_024, maximum: 10_000_000, integer: true },
  'webFetch.fetchMaxOutputChars': { minimum: 2_000, maximum: 2_000_000, integer: true },
  'webFetch.fetchTimeoutMs': { minimum: 1_000, maximum: 300_000, integer: true },
  'webFetch.conversionTimeoutMs': { minimum: 500, maximum: 120_000, integer: true },
  'webSearch.searchMaxResults': { minimum: 1, maximum: 50, integer: true },
  'webSearch.searchMaxQueries': { minimum: 1, maximum: 10, integer: true },
  'webSearch.searchTimeoutMs': { minimum: 1_000, maximum: 300_000, integer: true },
};

/**
 * Why `value` is not acceptable for setting `key` beyond its type (which the caller checks against the
 * default's), as a phrase like `must be an integer from 1 to 10000, not 0`; undefined when it is fine.
 * Checks {@link NUMERIC_SETTING_LIMITS}, and each entry of `webFetch.allowedPrivateHosts` with the
 * private-network guard's own parser (`parseAllowedPrivateHost`).
 */
export function settingProblem(key: string, value: unknown): string | undefined {
  const limits = (NUMERIC_SETTING_LIMITS as Readonly<Record<string, NumericLimits>>)[key];
  if (limits && typeof value === 'number') {
    const { minimum, maximum, integer } = limits;
    if (!Number.isFinite(value) || value < minimum || value > maximum || (integer && !Number.isInteger(value))) {
      return `must be ${integer ? 'an integer' : 'a number'} from ${minimum} to ${maximum}, not ${value}`;
    }
  }
  if (key === 'webFetch.allowedPrivateHosts' && Array.isArray(value)) {
    // Loaded here, not at the top: the guard parses its address ranges when loaded, which a run that never
    // sets this list (a CLI glob) need not pay for.
    const { parseAllowedPrivateHost } = require('./web/http/addressGuard') as typeof import('./web/http/addressGuard');
    const bad = value.find((entry) => typeof entry !== 'string' || !parseAllowedPrivateHost(entry));
    if (bad !== undefined) return `needs IP addresses, CIDR ranges or host names, and ${JSON.stringify(bad)} is none of them`;
  }
  return undefined;
}

/**
 * Builds the config from a host's settings: for each key of {@link defaultConfig}, `read(section, key)` gives
 * the user's value (undefined: not set). A value of another type than the default is ignored silently (the
 * editor already flags it); an out-of-range number ({@link settingProblem}) is ignored with a `warn`; an
 * invalid `allowedPrivateHosts` entry is dropped with a `warn` and the valid entries kept.
 */
export function configFromSettings(read: (section: string, key: string) => unknown, warn: (message: string) => void): ScoutConfig {
  const config = defaultConfig();
  for (const section of Object.keys(config) as (keyof ScoutConfig)[]) {
    const target = config[section] as unknown as Record<string, unknown>;
    for (const key of Object.keys(target)) {
      let value = read(section, key);
      if (value === undefined || typeof value !== typeof target[key] || Array.isArray(value) !== Array.isArray(target[key])) continue;
      const id = `${section}.${key}`;
      if (Array.isArray(value)) {
        value = value.filter((entry) => {
          const problem = settingProblem(id, [entry]);
          if (problem) warn(`Setting scout.${id} ${problem}; that entry is ignored.`);
          return !problem;
        });
      }
      const problem = settingProblem(id, value);
      if (problem) {
        warn(`Setting scout.${id} ${problem}; the default ${JSON.stringify(target[key])} is used instead.`);
        continue;
      }
      target[key] = value;
    }
  }
  return config;
}
