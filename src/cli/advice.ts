import type { HostAdvice } from '../core/hostAdvice';
import { KEYED_WEB_SEARCH_PROVIDERS, webSearchKeyEnvVar, type KeyedWebSearchProvider } from '../core/config';
import { CLI_FLAGS } from './flags';

// The words of Scout's messages outside VS Code (see HostAdvice): the CLI's flags, which an MCP user puts among
// the server's arguments, and its environment variables. Both connect directly: Node's HTTP client reads no
// proxy settings. A setting without a flag of its own is named as --config KEY=VALUE, which sets any of them.

/** Where an MCP user gives the server its flags. */
const SERVER_ARGUMENTS = "the Scout server's arguments in the MCP client's configuration";

/** Where an MCP user gives the server its environment variables. */
const SERVER_ENVIRONMENT = "in the Scout server's environment (the env of its entry in the MCP client's configuration)";

/** `A`, `A or B`, `A, B or C`. */
function either(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function flagAdvice(mcp: boolean): HostAdvice {
  const flagOf = (key: string) => CLI_FLAGS.find((f) => f.setting === key);
  const option = (key: string, value?: string): string => {
    const flag = flagOf(key);
    return flag ? `${flag.name} ${value ?? flag.value}` : `--config ${key}=${value ?? 'VALUE'}`;
  };
  const pass = (args: string): string => (mcp ? `add ${args} to ${SERVER_ARGUMENTS}` : `pass ${args} to Scout`);
  const host = mcp ? 'the MCP server' : 'the CLI';
  const where = mcp ? 'server argument' : 'option';
  return {
    allowPrivateHost: (address) => pass(option('webFetch.allowedPrivateHosts', address)),
    ripgrepPath: (binary) => pass(`--rg with the path of ${binary}`),
    network: `Check the network connection: ${host} connects directly, through no proxy.`,
    setting: (key) => `${where} ${option(key)}`,
    set: (key, value) => pass(option(key, String(value))),
    providerUrl: () => `the ${where} --provider-url`,
    storeApiKey: (provider) => {
      const set = provider ? `set the environment variable ${webSearchKeyEnvVar(provider as KeyedWebSearchProvider)} to a valid key` : `set its key in its environment variable (${either(KEYED_WEB_SEARCH_PROVIDERS.map(webSearchKeyEnvVar))})`;
      return mcp ? `${set} ${SERVER_ENVIRONMENT}` : set;
    },
    openFolder: mcp ? `Open a folder in the MCP client, or add --cwd DIR to ${SERVER_ARGUMENTS}.` : 'Run Scout with --cwd DIR, the folder to search.',
  };
}

/**
 * How the user gives Scout an OS temporary folder it can write complete results to, as a verb phrase: for the
 * CLI, or (`mcp`) for the MCP server, in its environment.
 */
export function tempFolderAdvice(mcp: boolean): string {
  const set = 'set the environment variable TMPDIR to a folder Scout can write to';
  return mcp ? `${set} ${SERVER_ENVIRONMENT}` : set;
}

/** The advice of the one-shot CLI: its flags and environment variables. */
export const CLI_ADVICE: HostAdvice = flagAdvice(false);

/** The advice of the MCP server (`scout mcp`): the same flags, named as the server's arguments in the client's configuration. */
export const MCP_ADVICE: HostAdvice = flagAdvice(true);
