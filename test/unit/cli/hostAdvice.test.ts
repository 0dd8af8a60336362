import * as assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { environmentSecret } from '../../../src/cli/env';
import { parseCommandLine } from '../../../src/cli/flags';
import { loadTool } from '../../../src/cli/tools';
import { CLI_ADVICE, MCP_ADVICE } from '../../../src/cli/advice';
import { formatToolError, isToolError } from '../../../src/core/errors';
import { hostAdvice, setHostAdvice, SETTINGS_ADVICE, type HostAdvice } from '../../../src/core/hostAdvice';
import type { ToolName } from '../../../src/core/tool';
import type { RenderResult } from '../../../src/core/web/convert/workerPool';
import { callGuard } from '../../../src/core/search/include';
import { pageBody } from '../../../src/core/web/fetch/pageBody';
import { DIST_CLI, runCliAsync } from '../../helpers/cli';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';
import { connectScout, requireFreshBuild, textOf } from '../mcp/support';
import { DUCKDUCKGO_CHALLENGE, json, startScriptedServer, type ScriptedServer } from '../webSearch/fixtures';

/** What the cases below run against: a workspace, a loopback provider, an rg that prints nonsense, one that never ends. */
interface Context {
  readonly ws: string;
  readonly web: ScriptedServer;
  readonly fakeRg: string;
  readonly stuckRg: string;
}

/**
 * One message that tells the user how to change Scout: the same call run by the CLI, the MCP server and
 * (in-process, with VS Code's advice) the editor, and the words each must use.
 */
interface AdviceCase {
  readonly name: string;
  readonly tool: ToolName;
  readonly input: (c: Context) => unknown;
  /** The CLI's flags for the call; the editor gets the same settings from them. */
  readonly flags?: (c: Context) => string[];
  readonly env?: Record<string, string>;
  /** The error code, or undefined for a note in a result. */
  readonly code?: string;
  readonly cli: RegExp;
  readonly mcp: RegExp;
  readonly vscode: RegExp;
}

const MCP_ARGS = "to the Scout server's arguments in the MCP client's configuration";
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const CASES: AdviceCase[] = [
  {
    name: 'web_fetch of a private host',
    tool: 'web_fetch',
    input: (c) => ({ url: c.web.url('/page') }),
    code: 'WEB_BLOCKED_ADDRESS',
    cli: /they can pass --allow-private-host 127\.0\.0\.1 to Scout\./,
    mcp: new RegExp(`they can add --allow-private-host 127\\.0\\.0\\.1 ${esc(MCP_ARGS)}\\.`),
    vscode: /they can add 127\.0\.0\.1 to the setting scout\.webFetch\.allowedPrivateHosts\./,
  },
  {
    name: 'web_search with a keyed provider and no key',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: (c) => ['--provider', 'brave', '--provider-url', c.web.url('/brave')],
    code: 'WEB_PROVIDER_UNCONFIGURED',
    cli: /\(option --provider NAME\), which needs an API key, and Scout has none\. Set the environment variable SCOUT_BRAVE_API_KEY to a valid key, or pass --provider duckduckgo to Scout, which needs no key\./,
    mcp: new RegExp(`Set the environment variable SCOUT_BRAVE_API_KEY to a valid key in the Scout server's environment \\(the env of its entry in the MCP client's configuration\\), or add --provider duckduckgo ${esc(MCP_ARGS)}, which needs no key\\.`),
    vscode: /\(setting scout\.webSearch\.provider\), which needs an API key, and Scout has none\. Store a valid key with the command "Scout: Set Web Search API Key", or set scout\.webSearch\.provider to "duckduckgo", which needs no key\./,
  },
  {
    name: 'web_search with a key the provider refuses (HTTP 401)',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: (c) => ['--provider', 'brave', '--provider-url', c.web.url('/unauthorized')],
    env: { SCOUT_BRAVE_API_KEY: 'wrong-key' },
    code: 'WEB_PROVIDER_UNCONFIGURED',
    cli: /refused the API key \(HTTP 401[^)]*\)\. Set the environment variable SCOUT_BRAVE_API_KEY to a valid key, or pass --provider duckduckgo to Scout/,
    mcp: /refused the API key \(HTTP 401[^)]*\)\. Set the environment variable SCOUT_BRAVE_API_KEY to a valid key in the Scout server's environment/,
    vscode: /refused the API key \(HTTP 401[^)]*\)\. Store a valid key with the command "Scout: Set Web Search API Key"/,
  },
  {
    name: 'web_search with a key the provider refuses (HTTP 403)',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: (c) => ['--provider', 'tavily', '--provider-url', c.web.url('/forbidden')],
    env: { SCOUT_TAVILY_API_KEY: 'wrong-key' },
    code: 'WEB_PROVIDER_UNCONFIGURED',
    cli: /\(HTTP 403[^)]*\)\. Set the environment variable SCOUT_TAVILY_API_KEY to a valid key/,
    mcp: /\(HTTP 403[^)]*\)\. Set the environment variable SCOUT_TAVILY_API_KEY to a valid key in the Scout server's environment/,
    vscode: /\(HTTP 403[^)]*\)\. Store a valid key with the command "Scout: Set Web Search API Key"/,
  },
  {
    name: 'web_search over its quota (HTTP 429 twice)',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: (c) => ['--provider', 'searxng', '--provider-url', c.web.url('/limited')],
    code: 'WEB_RATE_LIMITED',
    cli: /choose a provider or plan with a higher limit \(option --provider NAME\)\./,
    mcp: /choose a provider or plan with a higher limit \(server argument --provider NAME\)\./,
    vscode: /choose a provider or plan with a higher limit \(setting scout\.webSearch\.provider\)\./,
  },
  {
    name: "DuckDuckGo's bot check",
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: (c) => ['--provider-url', c.web.url('/ddg')],
    code: 'WEB_RATE_LIMITED',
    cli: /choose a provider with an API key \(option --provider NAME\) and set its key in its environment variable \(SCOUT_BRAVE_API_KEY, SCOUT_TAVILY_API_KEY or SCOUT_EXA_API_KEY\)\./,
    mcp: /\(server argument --provider NAME\) and set its key in its environment variable \(SCOUT_BRAVE_API_KEY, SCOUT_TAVILY_API_KEY or SCOUT_EXA_API_KEY\) in the Scout server's environment/,
    vscode: /choose a provider with an API key \(setting scout\.webSearch\.provider\) and store its key with the command "Scout: Set Web Search API Key"\./,
  },
  {
    name: 'web_search with a provider Scout does not know',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: () => ['--config', 'webSearch.provider=bing'],
    code: 'WEB_PROVIDER_UNCONFIGURED',
    cli: /the provider "bing" \(option --provider NAME\), which Scout does not know\. Choose one of: duckduckgo, brave, tavily, exa, searxng\./,
    mcp: /the provider "bing" \(server argument --provider NAME\), which Scout does not know\./,
    vscode: /the provider "bing" \(setting scout\.webSearch\.provider\), which Scout does not know\./,
  },
  {
    name: 'web_search with SearXNG and no address',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: () => ['--provider', 'searxng'],
    code: 'WEB_PROVIDER_UNCONFIGURED',
    cli: /needs the address of your instance in the option --provider-url, for example https:\/\/searx\.example\.org\. Or pass --provider duckduckgo to Scout\./,
    mcp: new RegExp(`needs the address of your instance in the server argument --provider-url, for example https://searx\\.example\\.org\\. Or add --provider duckduckgo ${esc(MCP_ARGS)}\\.`),
    vscode: /needs the address of your instance in the "searxng" entry of the setting scout\.webSearch\.baseUrls, for example https:\/\/searx\.example\.org\. Or set scout\.webSearch\.provider to "duckduckgo"\./,
  },
  {
    name: 'web_search with a provider that is down (HTTP 503)',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: (c) => ['--provider', 'searxng', '--provider-url', c.web.url('/down')],
    code: 'WEB_PROVIDER_UNAVAILABLE',
    cli: /Try again later, or choose another provider \(option --provider NAME\)\./,
    mcp: /Try again later, or choose another provider \(server argument --provider NAME\)\./,
    vscode: /Try again later, or choose another provider \(setting scout\.webSearch\.provider\)\./,
  },
  {
    name: 'web_search with an address that answers with an HTML page',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: (c) => ['--provider', 'searxng', '--provider-url', c.web.url('/portal')],
    code: 'WEB_PROVIDER_ERROR',
    cli: /an HTML page where its JSON API answer was expected \(HTTP 200, Content-Type "text\/html"\)\. Check the option --provider-url\./,
    mcp: /Check the server argument --provider-url\./,
    vscode: /Check the "searxng" entry of the setting scout\.webSearch\.baseUrls\./,
  },
  {
    name: 'web_search with an address nothing listens on',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: () => ['--provider', 'searxng', '--provider-url', 'http://127.0.0.1:1/'],
    code: 'WEB_PROVIDER_UNAVAILABLE',
    cli: /Check the network connection: the CLI connects directly, through no proxy\. Check the option --provider-url\./,
    mcp: /Check the network connection: the MCP server connects directly, through no proxy\. Check the server argument --provider-url\./,
    vscode: /Check the network connection and the proxy setting \(http\.proxy\)\. Check the "searxng" entry of the setting scout\.webSearch\.baseUrls\./,
  },
  {
    name: 'web_search past its time budget',
    tool: 'web_search',
    input: () => ({ queries: ['q'] }),
    flags: (c) => ['--provider', 'searxng', '--provider-url', c.web.url('/stall'), '--config', 'webSearch.searchTimeoutMs=1000'],
    code: 'WEB_TIMEOUT',
    cli: /did not answer within the 1 s web_search budget \(option --config webSearch\.searchTimeoutMs=VALUE\)\./,
    mcp: /did not answer within the 1 s web_search budget \(server argument --config webSearch\.searchTimeoutMs=VALUE\)\./,
    vscode: /did not answer within the 1 s web_search budget \(setting scout\.webSearch\.searchTimeoutMs\)\./,
  },
  {
    name: 'grep past its time limit (an rg that never finishes)',
    tool: 'grep',
    input: () => ({ pattern: 'needle' }),
    flags: (c) => ['--rg', c.stuckRg, '--config', 'search.timeoutMs=500'],
    code: 'SEARCH_ABORTED',
    cli: /^Error: The search did not finish within 500 ms \(option --config search\.timeoutMs=VALUE\) and was stopped\. Narrow it \(a smaller path, a more specific pattern\) and call again, or ask the user to raise the limit\./,
    mcp: /^Error: The search did not finish within 500 ms \(server argument --config search\.timeoutMs=VALUE\) and was stopped\./,
    vscode: /^Error: The search did not finish within 500 ms \(setting scout\.search\.timeoutMs\) and was stopped\./,
  },
  {
    name: 'glob past its time limit (an rg that never finishes)',
    tool: 'glob',
    input: () => ({ pattern: '*.txt' }),
    flags: (c) => ['--rg', c.stuckRg, '--config', 'search.timeoutMs=500'],
    code: 'SEARCH_ABORTED',
    cli: /did not finish within 500 ms \(option --config search\.timeoutMs=VALUE\) and was stopped\./,
    mcp: /did not finish within 500 ms \(server argument --config search\.timeoutMs=VALUE\) and was stopped\./,
    vscode: /did not finish within 500 ms \(setting scout\.search\.timeoutMs\) and was stopped\./,
  },
  {
    name: 'web_fetch of a server that never answers',
    tool: 'web_fetch',
    input: (c) => ({ url: c.web.url('/stall/page') }),
    flags: () => ['--allow-private-host', '127.0.0.1', '--config', 'webFetch.fetchTimeoutMs=1000'],
    code: 'WEB_TIMEOUT',
    cli: /^Error: 127\.0\.0\.1:\d+ did not respond within 1 s \(option --config webFetch\.fetchTimeoutMs=VALUE\)\. Try again later, or fetch a different URL\./,
    mcp: /did not respond within 1 s \(server argument --config webFetch\.fetchTimeoutMs=VALUE\)\./,
    vscode: /did not respond within 1 s \(setting scout\.webFetch\.fetchTimeoutMs\)\./,
  },
  {
    name: "grep cut at ripgrep's raw-output cap",
    tool: 'grep',
    input: () => ({ pattern: 'needle' }),
    flags: () => ['--config', 'search.rawOutputMaxBytes=1000'],
    cli: /\[ripgrep printed more than 1,000 bytes \(option --config search\.rawOutputMaxBytes=VALUE\), so Scout stopped it there/,
    mcp: /\[ripgrep printed more than 1,000 bytes \(server argument --config search\.rawOutputMaxBytes=VALUE\), so Scout stopped it there/,
    vscode: /\[ripgrep printed more than 1,000 bytes \(setting scout\.search\.rawOutputMaxBytes\), so Scout stopped it there/,
  },
  {
    name: 'workspace_search inside a directory it never searches',
    tool: 'workspace_search',
    input: () => ({ query: 'needle', path: 'node_modules/pkg' }),
    code: 'INVALID_ARGUMENT',
    cli: /a directory workspace_search never searches \(option --config workspaceSearch\.excludedDirectories=VALUE\)\. Use grep to search it\./,
    mcp: /a directory workspace_search never searches \(server argument --config workspaceSearch\.excludedDirectories=VALUE\)\./,
    vscode: /a directory workspace_search never searches \(setting scout\.workspaceSearch\.excludedDirectories\)\./,
  },
  {
    name: 'rg that prints something other than its JSON',
    tool: 'grep',
    input: () => ({ pattern: 'needle' }),
    flags: (c) => ['--rg', c.fakeRg],
    code: 'SEARCH_FAILED',
    cli: /This rg may be too old or not ripgrep; pass --rg with the path of ripgrep 13 or later to Scout\./,
    mcp: new RegExp(`This rg may be too old or not ripgrep; add --rg with the path of ripgrep 13 or later ${esc(MCP_ARGS)}\\.`),
    vscode: /This rg may be too old or not ripgrep; set scout\.ripgrepPath to ripgrep 13 or later\./,
  },
  {
    name: 'a path that leads out of the workspace (the same words everywhere: it names nothing to change)',
    tool: 'grep',
    input: () => ({ pattern: 'needle', path: 'link-out' }),
    code: 'PATH_OUTSIDE_WORKSPACE',
    cli: /resolves outside the workspace folders \(symlinks are followed\)\. Search inside the workspace instead\./,
    mcp: /resolves outside the workspace folders \(symlinks are followed\)\. Search inside the workspace instead\./,
    vscode: /resolves outside the workspace folders \(symlinks are followed\)\. Search inside the workspace instead\./,
  },
];

/** Words a message outside VS Code must never use: VS Code's settings, commands and proxy. */
const VS_CODE_WORDS = /\bscout\.[a-zA-Z]|Set Web Search API Key|VS Code|http\.proxy|\bsettings?\b/;
/** Words VS Code's messages must never use: the CLI's flags and environment variables. */
const CLI_WORDS = /(?:^|[\s(])--[a-z]|SCOUT_[A-Z]+_API_KEY|server argument/;

function checkText(text: string, c: AdviceCase, expected: RegExp, forbidden: RegExp, host: string): void {
  if (c.code) assert.match(text, new RegExp(`\\n\\(code: ${c.code}\\)$`), `${host}: ${text}`);
  assert.match(text, expected, `${host}: ${text}`);
  const found = forbidden.exec(text);
  assert.equal(found, null, `${host} names ${found?.[0]} in: ${text}`);
}

describe("advice in the host's own words: flags in the CLI and the MCP server, settings in VS Code", function () {
  this.timeout(60_000);
  let context: Context;

  before(async () => {
    requireFreshBuild();
    const lines = Array.from({ length: 200 }, (_, i) => `needle ${i} ${'x'.repeat(40)}`).join('\n');
    const ws = makeTree({ 'a.txt': `${lines}\n`, 'node_modules/pkg/index.js': 'needle\n', 'link-out': { symlink: path.dirname(RG_PATH) } });
    const fakeRg = path.join(ws, '..', `not-rg-${process.pid}`);
    // It passes the CLI's --version check (like an rg build too old for --json) and then prints no JSON.
    writeFileSync(fakeRg, '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "ripgrep 0.10.0"; exit 0; fi\necho "this is not ripgrep output"\n');
    chmodSync(fakeRg, 0o755);
    // It passes the --version check, then runs far longer than the search's limit (Scout stops its process group).
    const stuckRg = path.join(ws, '..', `stuck-rg-${process.pid}`);
    writeFileSync(stuckRg, `#!/bin/sh\nif [ "$1" = "--version" ]; then exec "${RG_PATH}" --version; fi\nexec sleep 60\n`);
    chmodSync(stuckRg, 0o755);
    const web = await startScriptedServer();
    web.handle = (req, res) => {
      const url = new URL(req.url ?? '/', web.origin);
      if (url.pathname.startsWith('/unauthorized/')) return json(res, { message: 'invalid token' }, 401);
      if (url.pathname.startsWith('/forbidden/')) return json(res, { detail: 'key not allowed' }, 403);
      if (url.pathname.startsWith('/limited/')) return json(res, { message: 'quota used up' }, 429, { 'retry-after': '0' });
      if (url.pathname.startsWith('/down/')) return json(res, { message: 'maintenance' }, 503);
      if (url.pathname.startsWith('/portal/')) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in to the network</body></html>');
      if (url.pathname.startsWith('/ddg/')) return void res.writeHead(202, { 'content-type': 'text/html' }).end(DUCKDUCKGO_CHALLENGE);
      if (url.pathname.startsWith('/stall/')) return; // never answers: the call's budget runs out
      res.writeHead(404).end();
    };
    context = { ws, web, fakeRg, stuckRg };
  });
  after(async () => {
    await context.web.close();
    removeTree(context.ws);
    removeTree(context.fakeRg);
    removeTree(context.stuckRg);
  });

  for (const c of CASES) {
    describe(c.name, () => {
      const flags = (): string[] => ['--cwd', context.ws, ...(c.flags?.(context) ?? [])];

      it('the CLI names its flags and environment variables', async () => {
        const r = await runCliAsync([c.tool, JSON.stringify(c.input(context)), ...flags()], c.env, DIST_CLI);
        assert.equal(r.status, c.code ? 1 : 0, r.stdout + r.stderr);
        checkText(r.stdout.replace(/\n$/, ''), c, c.cli, VS_CODE_WORDS, 'CLI');
      });

      it("the MCP server names them as the server's arguments and environment", async () => {
        const scout = await connectScout({ args: flags(), env: c.env });
        try {
          const result = await scout.client.callTool({ name: c.tool, arguments: c.input(context) as Record<string, unknown> });
          assert.equal(result.isError, c.code ? true : undefined, textOf(result));
          checkText(textOf(result), c, c.mcp, VS_CODE_WORDS, 'MCP');
        } finally {
          await scout.close();
        }
      });

      it('VS Code names its settings and commands', async () => {
        assert.equal(hostAdvice(), SETTINGS_ADVICE, "this process runs with the editor's advice");
        const { settings } = parseCommandLine([c.tool, ...flags()], context.ws);
        const tool = loadTool(c.tool);
        const quiet = (): void => undefined;
        let text: string;
        try {
          const output = await tool.run(tool.parse(c.input(context), settings.config), {
            folders: [{ name: path.basename(context.ws), path: context.ws }],
            config: settings.config,
            signal: new AbortController().signal,
            log: { trace: quiet, info: quiet, warn: quiet, error: quiet },
            ripgrepPath: settings.rgPath ?? RG_PATH,
            // The key the editor would hold in its secret storage.
            getSecret: async (name) => environmentSecret(name, c.env ?? {}),
          });
          assert.equal(c.code, undefined, output.text);
          text = output.text;
        } catch (e) {
          if (!isToolError(e)) throw e;
          text = formatToolError(e);
        }
        checkText(text, c, c.vscode, CLI_WORDS, 'VS Code');
      });
    });
  }

  describe('the search deadline while include is matched, which no rg run reports', () => {
    const hosts: [string, HostAdvice, string][] = [
      ['VS Code', SETTINGS_ADVICE, '(setting scout.search.timeoutMs)'],
      ['the CLI', CLI_ADVICE, '(option --config search.timeoutMs=VALUE)'],
      ['the MCP server', MCP_ADVICE, '(server argument --config search.timeoutMs=VALUE)'],
    ];
    for (const [host, advice, limit] of hosts) {
      it(`names search.timeoutMs in the words of ${host}`, () => {
        setHostAdvice(advice);
        try {
          let clock = 0;
          const guard = callGuard(new AbortController().signal, 2000, () => clock);
          clock = 2001;
          assert.throws(guard, (e: unknown) => isToolError(e) && e.code === 'SEARCH_ABORTED' && e.message === `The search did not finish within 2000 ms ${limit} and was stopped. Narrow it (a smaller path, a more specific pattern) and call again, or ask the user to raise the limit.`);
        } finally {
          setHostAdvice(SETTINGS_ADVICE);
        }
      });
    }
  });

  describe("web_fetch's page notes", () => {
    const stopped: RenderResult = { text: '<p>source</p>', truncated: false, charset: 'utf-8', charsetSource: 'header', charsetAssumed: false, page: null, waitedMs: 0, failure: 'timeout', usage: { wallMs: 12_000, cpuMs: 10_000 } };
    const listing: RenderResult = {
      ...stopped,
      failure: undefined,
      page: { kind: 'html', conversion: { mode: 'markdown', markdown: '# Page', content: 'readability', pageChars: 9000, contentChars: 7000, articleSearch: 'ran', commentChars: 0, scriptBuilt: false, listing: { shown: 8, items: 12 } } },
    };
    const hosts: [string, HostAdvice, string, string][] = [
      ['VS Code', SETTINGS_ADVICE, '(setting scout.webFetch.conversionTimeoutMs)', 'the user can set scout.webFetch.extractMainContent to false.'],
      ['the CLI', CLI_ADVICE, '(option --config webFetch.conversionTimeoutMs=VALUE)', 'the user can pass --config webFetch.extractMainContent=false to Scout.'],
      ['the MCP server', MCP_ADVICE, '(server argument --config webFetch.conversionTimeoutMs=VALUE)', `the user can add --config webFetch.extractMainContent=false ${MCP_ARGS}.`],
    ];
    for (const [host, advice, budget, extraction] of hosts) {
      it(`name the conversion budget and main-content extraction in the words of ${host}`, () => {
        setHostAdvice(advice);
        try {
          assert.deepEqual(pageBody('html', stopped, 10_000).notes, [`converting the HTML used up the 10 s of processor time a conversion may use ${budget}, so the raw HTML is shown.`]);
          assert.ok(pageBody('html', listing, 10_000).notes.includes(`the page looks like a listing: the text below holds 8 of its 12 items. To have every item shown, ${extraction}`));
        } finally {
          setHostAdvice(SETTINGS_ADVICE);
        }
      });
    }
  });
});
