/**
 * The words in which an error tells the user how to change Scout, which depend on the host that shows it:
 * VS Code has settings (`scout.webFetch.allowedPrivateHosts`, `http.proxy`), the CLI and the MCP server have
 * flags (`--allow-private-host`, `--rg`). The core builds its messages with the current host's advice; each
 * process has one host, which sets it once at start ({@link setHostAdvice}). The default is VS Code's.
 */
export interface HostAdvice {
  /** How the user lets web_fetch reach the private host `host`, as a verb phrase: `add 10.0.0.5 to the setting …`. */
  allowPrivateHost(host: string): string;
  /** How the user makes Scout run `binary` as rg, as a verb phrase: `set scout.ripgrepPath to ripgrep 13 or later`. */
  ripgrepPath(binary: string): string;
  /** What to check when a web request cannot reach its server, as a sentence. */
  readonly network: string;
}

/** VS Code's words: its settings. */
export const SETTINGS_ADVICE: HostAdvice = {
  allowPrivateHost: (host) => `add ${host} to the setting scout.webFetch.allowedPrivateHosts`,
  ripgrepPath: (binary) => `set scout.ripgrepPath to ${binary}`,
  network: 'Check the network connection and the proxy setting (http.proxy).',
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
