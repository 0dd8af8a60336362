import * as path from 'node:path';
import { defaultConfig, KEYED_WEB_SEARCH_PROVIDERS, NUMERIC_SETTING_LIMITS, settingProblem, webSearchKeyEnvVar, type ConfigKey, type NumericLimits, type ScoutConfig, type WebSearchConfig } from '../core/config';

/** A mistake in how the CLI was called (exit status 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What the command line sets for one run. Flags write into it. */
export interface CliSettings {
  /** The workspace folder (default: the current directory). */
  cwd: string;
  /** `--cwd` was given: the MCP server then serves that folder and ignores the client's roots. */
  cwdGiven: boolean;
  /** Print the canonical value as JSON instead of the model text. */
  json: boolean;
  /** `--rg`: the rg binary to run instead of the packaged one or PATH's (must be an executable file). */
  rgPath?: string;
  /** Log diagnostics to stderr. */
  verbose: boolean;
  /** Scout's settings: the defaults, changed by `--config` and tool flags. */
  config: ScoutConfig;
  /** `--provider-url`: the web search provider's base URL, kept so it follows a later `--provider`. */
  providerUrl?: string;
  /** `--roots-timeout` (mcp only): ms to wait for the client's answer to `roots/list`. */
  rootsTimeoutMs?: number;
}

/**
 * One `--name [VALUE]` option. This table is the hook for tool-specific flags: a later tool adds its entries
 * to {@link CLI_FLAGS}, usually with {@link configFlag} (e.g. web_fetch's repeatable
 * `configFlag('--allow-private-host', 'webFetch.allowedPrivateHosts', 'HOST', …)`), or with its own `apply`
 * when a flag does not map onto one setting.
 */
export interface CliFlag {
  /** The flag as typed, with its dashes: `--cwd`. Also accepted as `--cwd=VALUE`. */
  readonly name: string;
  /** Placeholder of the value in the usage text (`DIR`); absent for a switch that takes no value. */
  readonly value?: string;
  /** May be given more than once. */
  readonly repeatable?: boolean;
  readonly help: string;
  /** The one command the flag applies to: `tool` (a one-shot run) or `mcp` (the server); absent: both. */
  readonly only?: 'tool' | 'mcp';
  /** The setting the flag sets, when it sets one: the advice of messages names this flag for it (see `CLI_ADVICE`). */
  readonly setting?: ConfigKey;
  /**
   * Applies the flag. `value` is undefined for a switch.
   * @throws UsageError when the value is not acceptable.
   */
  apply(settings: CliSettings, value: string | undefined): void;
}

/** `word` as a POSIX shell reads it back: as it is when it holds no special character, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]*$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Sets one setting from a string, converted to the type of its default: a number (finite), `true`/`false`,
 * a string, a string list (a JSON array replaces the list; any other value is appended to it), or an
 * object (a JSON object). The value must then pass the core's `settingProblem` (the numeric ranges of
 * `NUMERIC_SETTING_LIMITS`, valid `allowedPrivateHosts` entries), the rule the extension applies too.
 *
 * @param flag the flag that sets this one setting (`--allow-private-host`), for `--config` undefined: messages
 *   then name the flag, and its value is always one list item (so `[fd00::1]` is an address, not JSON).
 * @throws UsageError for an unknown key (a VS Code setting name, `scout.search.timeoutMs`, with the key to give
 *   instead), a value of the wrong type, or one the setting does not accept.
 */
export function setConfigValue(config: ScoutConfig, key: string, raw: string, flag?: string): void {
  const label = flag ?? `setting "${key}"`;
  const defaults = defaultConfig() as unknown as Record<string, Record<string, unknown>>;
  const known = (k: string): boolean => {
    const [section, name, ...extra] = k.split('.');
    return !!section && !!name && extra.length === 0 && Object.hasOwn(defaults, section) && Object.hasOwn(defaults[section]!, name);
  };
  if (!known(key)) {
    // The name of the VS Code setting, as docs/settings.md lists it: the key is what follows "scout.".
    const unprefixed = key.startsWith('scout.') ? key.slice('scout.'.length) : undefined;
    if (unprefixed !== undefined && known(unprefixed)) {
      const { values, problem } = suggestedValues(unprefixed, raw, defaults);
      const range = problem === undefined ? '' : `, and its value ${problem}`;
      const give = values.map((value) => `--config ${shellWord(`${unprefixed}=${value}`)}`).join(' or ');
      throw new UsageError(`unknown setting "${key}": the key is ${unprefixed}, without the "scout." of the VS Code setting${range}. Give ${give}.`);
    }
    throw new UsageError(`unknown setting "${key}". Settings are section.key, e.g. search.globMaxResults; see docs/settings.md in Scout for the list.`);
  }
  const [section, name] = key.split('.') as [string, string];
  const target = (config as unknown as Record<string, Record<string, unknown>>)[section]!;
  const example = defaults[section]![name];
  if (typeof example === 'number') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${label} needs a number, not "${raw}".`);
    check(key, n, label);
    target[name] = n;
  } else if (typeof example === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw new UsageError(`${label} needs true or false, not "${raw}".`);
    target[name] = raw === 'true';
  } else if (typeof example === 'string') {
    target[name] = raw;
  } else if (Array.isArray(example)) {
    if (flag === undefined && raw.trimStart().startsWith('[')) {
      const list = parseJson(key, raw);
      if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) throw new UsageError(`${label} needs a JSON array of strings.`);
      check(key, list, label);
      target[name] = list;
    } else {
      check(key, [raw], label);
      target[name] = [...(target[name] as string[]), raw];
    }
  } else {
    const object = parseJson(key, raw);
    if (typeof object !== 'object' || object === null || Array.isArray(object)) throw new UsageError(`${label} needs a JSON object.`);
    target[name] = object;
  }
}

/**
 * The values to suggest for setting `key` given `raw`, each one the setting accepts, with why `raw` is not
 * one of them (`problem`): a number outside the setting's `NUMERIC_SETTING_LIMITS` becomes the nearest value
 * it accepts (rounded for an integer setting); a number setting given no number gets its default, and a
 * true/false setting given neither gets both. Any other value is kept as it is (its own errors come when it
 * is given).
 */
function suggestedValues(key: string, raw: string, defaults: Record<string, Record<string, unknown>>): { values: string[]; problem?: string } {
  const [section, name] = key.split('.') as [string, string];
  const example = defaults[section]![name];
  const limits = (NUMERIC_SETTING_LIMITS as Readonly<Record<string, NumericLimits>>)[key];
  if (typeof example === 'boolean' && raw !== 'true' && raw !== 'false') return { values: ['true', 'false'], problem: `needs true or false, not ${JSON.stringify(raw)}` };
  if (typeof example !== 'number') return { values: [raw] };
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) {
    const range = limits ? ` from ${limits.minimum} to ${limits.maximum}` : '';
    return { values: [String(example)], problem: `needs ${limits?.integer ? 'an integer' : 'a number'}${range}, not ${JSON.stringify(raw)} (the default is ${example})` };
  }
  const problem = settingProblem(key, n);
  if (problem === undefined || limits === undefined) return { values: [raw] };
  const nearest = Math.min(limits.maximum, Math.max(limits.minimum, limits.integer ? Math.round(n) : n));
  return { values: [String(nearest)], problem };
}

function check(key: string, value: unknown, label: string): void {
  const problem = settingProblem(key, value);
  if (problem) throw new UsageError(`${label} ${problem}.`);
}

function parseJson(key: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new UsageError(`setting "${key}" needs JSON, and "${raw}" is not valid JSON.`);
  }
}

/**
 * A flag that sets one setting ({@link setConfigValue}); repeatable when the setting is a list.
 * Example: `configFlag('--provider', 'webSearch.provider', 'NAME', 'web search provider')`.
 */
export function configFlag(name: string, key: ConfigKey, value: string, help: string): CliFlag {
  const [section, setting] = key.split('.') as [keyof ScoutConfig, string];
  const repeatable = Array.isArray((defaultConfig()[section] as unknown as Record<string, unknown>)[setting]);
  return { name, value, repeatable, help, setting: key, apply: (settings, v) => setConfigValue(settings.config, key, v!, name) };
}

/**
 * The values of `--provider` (those of the setting scout.webSearch.provider). Read from web_search's provider
 * table only when a flag needs them (`--provider`, the usage text), so other runs never load web_search.
 */
function webSearchProviders(): WebSearchConfig['provider'][] {
  const { PROVIDERS } = require('../core/web/search/providers') as typeof import('../core/web/search/providers');
  return Object.keys(PROVIDERS) as WebSearchConfig['provider'][];
}

/** Every option the CLI accepts. Tools append their own flags here (see {@link CliFlag}). */
export const CLI_FLAGS: CliFlag[] = [
  {
    name: '--cwd',
    value: 'DIR',
    help: "workspace folder to run in (default: the current directory; for mcp, the client's roots first)",
    apply: (s, v) => {
      s.cwd = v!;
      s.cwdGiven = true;
    },
  },
  { name: '--json', only: 'tool', help: 'print the canonical result value as JSON instead of the model text', apply: (s) => (s.json = true) },
  { name: '--rg', value: 'PATH', help: 'ripgrep binary to run, an executable file (default: the one of the @vscode/ripgrep dependency, then rg on PATH)', apply: (s, v) => (s.rgPath = v!) },
  {
    name: '--config',
    value: 'KEY=VALUE',
    repeatable: true,
    help: 'change a setting, e.g. search.globMaxResults=20 (keys as in the scout.* settings)',
    apply: (s, v) => {
      const eq = v!.indexOf('=');
      if (eq <= 0) throw new UsageError(`--config needs KEY=VALUE, not "${v}".`);
      setConfigValue(s.config, v!.slice(0, eq), v!.slice(eq + 1));
    },
  },
  { name: '--verbose', help: 'log diagnostics to stderr', apply: (s) => (s.verbose = true) },
  {
    name: '--provider',
    value: 'NAME',
    setting: 'webSearch.provider',
    get help() {
      return `web_search provider: ${webSearchProviders().join(', ')} (default duckduckgo; API keys are read from ${KEYED_WEB_SEARCH_PROVIDERS.map(webSearchKeyEnvVar).join(', ')})`;
    },
    apply: (s, v) => {
      const providers = webSearchProviders();
      const provider = providers.find((p) => p === v);
      if (!provider) throw new UsageError(`--provider must be one of ${providers.join(', ')}, not "${v}".`);
      s.config.webSearch.provider = provider;
      if (s.providerUrl !== undefined) s.config.webSearch.baseUrls = { [provider]: s.providerUrl };
    },
  },
  {
    name: '--provider-url',
    value: 'URL',
    help: "base URL of the web_search provider (a SearXNG instance, a proxy or a test server); you chose it, so web_fetch's private-network guard does not apply",
    apply: (s, v) => {
      let url: URL | undefined;
      try {
        url = new URL(v!);
      } catch {
        // reported below
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`--provider-url needs an absolute http(s) URL, not "${v}".`);
      s.providerUrl = url.href;
      s.config.webSearch.baseUrls = { [s.config.webSearch.provider]: url.href };
    },
  },
  configFlag('--allow-private-host', 'webFetch.allowedPrivateHosts', 'HOST', 'let web_fetch reach this host, address or CIDR range although it is private (loopback, LAN)'),
  {
    name: '--roots-timeout',
    value: 'MS',
    only: 'mcp',
    help: "ms to wait for the client's answer to roots/list (default 10000); without one, Scout works without the roots until they change",
    apply: (s, v) => {
      const ms = Number(v);
      if (!/^\d+$/.test(v!) || ms < 1 || ms > 600_000) throw new UsageError(`--roots-timeout needs a whole number of ms from 1 to 600000, not "${v}".`);
      s.rootsTimeoutMs = ms;
    },
  },
];

/** The command that serves the tools over MCP instead of running one (`node dist/cli.js mcp`). */
export const MCP_COMMAND = 'mcp';

/** The parsed command line: the tool name (or {@link MCP_COMMAND}) and its JSON argument text, plus the settings. */
export interface CommandLine {
  readonly tool: string;
  readonly argumentsJson: string | undefined;
  readonly settings: CliSettings;
  readonly help: boolean;
}

/**
 * Parses `<tool> ['<json args>'] [flags]`: flags may come anywhere, as `--flag VALUE` or `--flag=VALUE`.
 * A non-repeatable flag given twice, an unknown flag, a missing value or a third positional argument is a
 * usage error. `-h`/`--help` asks for the usage text.
 *
 * @throws UsageError
 */
export function parseCommandLine(argv: readonly string[], cwd: string, flags: readonly CliFlag[] = CLI_FLAGS): CommandLine {
  const settings: CliSettings = { cwd, cwdGiven: false, json: false, verbose: false, config: defaultConfig() };
  const positional: string[] = [];
  const seen = new Set<string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const flag = flags.find((f) => f.name === name);
    if (!flag) throw new UsageError(`unknown option ${name}.`);
    if (seen.has(name) && !flag.repeatable) throw new UsageError(`${name} may be given only once.`);
    seen.add(name);
    let value: string | undefined;
    if (flag.value === undefined) {
      if (eq >= 0) throw new UsageError(`${name} takes no value.`);
    } else if (eq >= 0) {
      value = arg.slice(eq + 1);
    } else {
      value = argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value (${flag.value}).`);
    }
    flag.apply(settings, value);
  }
  if (help) return { tool: positional[0] ?? '', argumentsJson: undefined, settings, help };
  if (positional.length === 0) throw new UsageError('name a tool to run.');
  if (positional.length > 2) throw new UsageError(`expected a tool and one JSON argument, got ${positional.length} positional arguments (quote the JSON).`);
  return { tool: positional[0]!, argumentsJson: positional[1], settings, help };
}

/**
 * How the user started the CLI, for its usage text: the command's own name when it ran through the package's
 * bin (`scout`, a link npm makes to `dist/cli.js`), else `node dist/cli.js` (run from a checkout).
 *
 * @param script the script path Node was given (`process.argv[1]`).
 */
export function programName(script: string | undefined = process.argv[1]): string {
  const base = script === undefined ? '' : path.basename(script);
  return base !== '' && !/\.[cm]?[jt]s$/i.test(base) ? base : 'node dist/cli.js';
}

/**
 * The usage text, listing `tools` and every flag (those of one command marked so); with `command` =
 * {@link MCP_COMMAND} (`mcp --help`), the server's usage with only the flags that apply to it.
 */
export function usage(tools: readonly string[], flags: readonly CliFlag[] = CLI_FLAGS, command?: typeof MCP_COMMAND, program = programName()): string {
  const shown = command === MCP_COMMAND ? flags.filter((f) => f.only !== 'tool') : flags;
  const marks = { tool: ' (not with mcp)', mcp: ' (mcp only)' };
  const rows = shown.map(
    (f) => [`${f.name}${f.value ? ` ${f.value}` : ''}`, `${f.help}${f.repeatable ? ' (repeatable)' : ''}${f.only && command === undefined ? marks[f.only] : ''}`] as const,
  );
  const width = Math.max(...rows.map(([left]) => left.length));
  const options = ['Options:', ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`), `  ${'-h, --help'.padEnd(width)}  show this help`];
  if (command === MCP_COMMAND) {
    return [
      `Usage: ${program} ${MCP_COMMAND} [options]`,
      '',
      'Serves every Scout tool to Model Context Protocol clients over stdio (newline-delimited JSON-RPC) until',
      "stdin closes. The workspace is --cwd, else the client's roots, else the directory the server runs in",
      '(never the file system root or your home folder). Diagnostics go to stderr.',
      '',
      `Tools: ${tools.join(', ')}`,
      '',
      ...options,
      '',
      'Exit status: 0 when stdin closes or on SIGINT, SIGTERM, SIGHUP or SIGQUIT; 1 when stdout is gone; 2 bad usage.',
      `Example: ${program} ${MCP_COMMAND} --cwd ~/project --provider brave`,
    ].join('\n');
  }
  return [
    `Usage: ${program} <tool> ['<json arguments>'] [options]`,
    `       ${program} ${MCP_COMMAND} [options]`,
    '',
    'Runs one Scout tool on a folder and prints exactly what a language model would see.',
    `With ${MCP_COMMAND}, serves every tool to Model Context Protocol clients over stdio until stdin closes.`,
    '',
    `Tools: ${tools.join(', ')}`,
    '',
    ...options,
    '',
    'Exit status: 0 success, 1 tool error (the Error: text is printed), 2 bad usage.',
    `Example: ${program} grep '{"pattern":"TODO","include":"*.ts"}' --cwd ~/project`,
  ].join('\n');
}
