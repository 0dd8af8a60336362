/**
 * The words in which an error or a note tells the user how to change Scout, which depend on the host that
 * shows it: VS Code has settings (`scout.webFetch.allowedPrivateHosts`) and commands, the CLI has flags
 * (`--allow-private-host`, `--config KEY=VALUE`) and environment variables, and the MCP server has the same
 * flags among its arguments in the client's configuration. The core builds every such message with the
 * current host's advice, and never names a setting, flag or command itself; each process has one host, which
 * sets it once at start ({@link setHostAdvice}). The default is VS Code's.
 */
export interface HostAdvice {
  /** How the user lets web_fetch reach the private host `host`, as a verb phrase: `add 10.0.0.5 to the setting …`. */
  allowPrivateHost(host: string): string;
  /** How the user makes Scout run `binary` as rg, as a verb phrase: `set scout.ripgrepPath to ripgrep 13 or later`. */
  ripgrepPath(binary: string): string;
  /** What to check when a web request cannot reach its server, as a sentence. */
  readonly network: string;
  /**
   * What the user changes to change setting `key` (a `ConfigKey` of config.ts, `search.rawOutputMaxBytes`;
   * not imported, since config.ts depends on messages built with this advice), as a noun phrase without an article, to stand in
   * parentheses or after "the": `setting scout.search.rawOutputMaxBytes`, `option --config
   * search.rawOutputMaxBytes=VALUE`, `server argument --provider NAME`.
   */
  setting(key: string): string;
  /**
   * How the user gives setting `key` the value `value`, as a verb phrase: `set scout.webSearch.provider to
   * "duckduckgo"`, `pass --provider duckduckgo`.
   */
  set(key: string, value: string | boolean): string;
  /**
   * Where the user gives web_search provider `provider` its address, as a noun phrase: `the "searxng" entry
   * of the setting scout.webSearch.baseUrls`, `the option --provider-url`.
   */
  providerUrl(provider: string): string;
  /**
   * How the user gives Scout the API key of the keyed web_search provider `provider` (`brave`; of the provider
   * they choose, when undefined), as a verb phrase: `store a valid key with the command "Scout: Set Web Search API Key"`.
   */
  storeApiKey(provider?: string): string;
  /** What the user does when no workspace folder is open, as a sentence. */
  readonly openFolder: string;
}

/** VS Code's words: its settings and commands. */
export const SETTINGS_ADVICE: HostAdvice = {
  allowPrivateHost: (host) => `add ${host} to the setting scout.webFetch.allowedPrivateHosts`,
  ripgrepPath: (binary) => `set scout.ripgrepPath to ${binary}`,
  network: 'Check the network connection and the proxy setting (http.proxy).',
  setting: (key) => `setting scout.${key}`,
  set: (key, value) => `set scout.${key} to ${JSON.stringify(value)}`,
  providerUrl: (provider) => `the "${provider}" entry of the setting scout.webSearch.baseUrls`,
  storeApiKey: (provider) => `store ${provider ? 'a valid' : 'its'} key with the command "Scout: Set Web Search API Key"`,
  openFolder: 'Open a folder in VS Code, then call the tool again.',
};

let current: HostAdvice = SETTINGS_ADVICE;

/** The advice of this process's host. */
export function hostAdvice(): HostAdvice {
  return current;
}

/** Makes `advice` the words of every later message (the CLI and the MCP server call it at start). */
export function setHostAdvice(advice: HostAdvice): void {
  current = advice;
}

/** `phrase` with its first letter in upper case, to start a sentence with advice. */
export function capitalized(phrase: string): string {
  return `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}`;
}
