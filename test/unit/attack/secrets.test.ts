/**
 * Issue 8, guarantee 5: API keys stay secret. For each keyed provider a key is stored (ToolEnv.getSecret, or
 * the CLI's environment variable), every error path is provoked against a loopback provider that echoes the
 * key back wherever it can (error details, HTML pages, titles, snippets, answers, redirect targets), and
 * every output is searched for the key or any 8-character piece of it: text, value, error, log lines at
 * every level, and the CLI's stdout and stderr. The real-host half (the Scout log file, the run log behind
 * the panel) is in test/integration/suite/attack.test.ts.
 */
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { runCliAsync as cli } from '../../helpers/cli';
import { KEYED_WEB_SEARCH_PROVIDERS, webSearchKeyEnvVar, webSearchSecretName, type KeyedWebSearchProvider } from '../../../src/core/config';
import type { ToolEnv } from '../../../src/core/tool';
import { createWebSearchTool } from '../../../src/core/web/search/tool';
import { startLoopbackServer } from '../../helpers/loopbackServer';
import { assertNotLeaked, assertWellFormed, callTool, visibleTexts } from '../../helpers/toolOutcome';
import { builtConvertWorker, webToolEnv } from '../../helpers/webFetchEnv';
import { braveBody, exaBody, json, queryOf, recordingLogger, searchConfig, startScriptedServer, tavilyBody, type Recorded, type ScriptedServer } from '../webSearch/fixtures';

/** Shortest piece of a key that counts as leaked. */
const MIN_PIECE = 8;

/** A fresh key per provider, shaped like the real ones. */
const KEYS: Record<KeyedWebSearchProvider, string> = {
  brave: `BSA${Math.random().toString(36).slice(2, 12)}Qx7${Math.random().toString(36).slice(2, 10)}`,
  tavily: `tvly-${Math.random().toString(36).slice(2, 12)}K4${Math.random().toString(36).slice(2, 10)}`,
  exa: `exa-${Math.random().toString(36).slice(2, 12)}M9${Math.random().toString(36).slice(2, 10)}`,
};

/** A provider's normal answer, with the key planted in titles and snippets (one across the snippet cut) and in Tavily's answer. */
function echoingAnswer(provider: KeyedWebSearchProvider, query: string, key: string): unknown {
  const results = [
    { title: `Result ${key}`, url: 'https://example.com/a', snippet: `${'s'.repeat(290)}${key}` },
    { title: `${'t'.repeat(190)}${key}`, url: `https://example.com/b?k=${key}`, snippet: `<strong>${key}</strong> &amp; more` },
  ];
  if (provider === 'brave') return braveBody(results);
  if (provider === 'exa') return exaBody(results.map((r) => ({ ...r, highlights: [r.snippet] })));
  return tavilyBody(query, results, `The key is ${key}.`);
}

/** Every way a provider call can fail, each echoing the key where the provider's reply allows it. */
const PATHS: Record<string, { codes: string[]; reply: (res: ServerResponse, key: string, origin: string, provider: KeyedWebSearchProvider, recorded: Recorded) => void }> = {
  'a 401 whose detail quotes the key': { codes: ['WEB_PROVIDER_UNCONFIGURED'], reply: (res, key) => json(res, { error: { detail: `Invalid API key ${key}` } }, 401) },
  'a 429, twice': { codes: ['WEB_RATE_LIMITED'], reply: (res, key) => json(res, { message: `Too many requests for ${key}` }, 429, { 'retry-after': '0' }) },
  'an HTML page instead of JSON': { codes: ['WEB_PROVIDER_ERROR'], reply: (res, key) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>Log in (key ${key})</body></html>`) },
  'a 500 whose detail puts the key across the 200-character cut': { codes: ['WEB_PROVIDER_UNAVAILABLE'], reply: (res, key) => json(res, { detail: `${'x'.repeat(190)}${key}` }, 500) },
  'a redirect to another origin carrying the key': { codes: ['WEB_PROVIDER_ERROR'], reply: (res, key) => void res.writeHead(302, { location: `http://collector.invalid/?key=${key}` }).end() },
  'a timeout': { codes: ['WEB_TIMEOUT'], reply: () => undefined },
  'a success echoing the key in titles, snippets and the answer': { codes: [], reply: (res, key, _origin, provider, recorded) => json(res, echoingAnswer(provider, queryOf(recorded), key)) },
};

describe('attack: API keys stay secret', function () {
  this.timeout(60_000);
  const tool = createWebSearchTool(builtConvertWorker());
  let server: ScriptedServer;
  let unreachable: string;
  before(async () => {
    server = await startScriptedServer();
    const closed = await startLoopbackServer(() => undefined);
    unreachable = closed.url('/');
    await closed.close();
  });
  after(() => server.close());

  /** The config and env of one call with `provider` at `baseUrl` and its key stored; the log keeps every line. */
  function keyedEnv(provider: KeyedWebSearchProvider, baseUrl: string, searchTimeoutMs = 5_000) {
    const config = searchConfig({ provider, baseUrls: { [provider]: baseUrl }, searchTimeoutMs });
    const log = recordingLogger();
    const env: ToolEnv = { ...webToolEnv(config), log, getSecret: async (name) => (name === webSearchSecretName(provider) ? KEYS[provider] : undefined) };
    return { env, log };
  }

  for (const provider of KEYED_WEB_SEARCH_PROVIDERS) {
    describe(provider, () => {
      for (const [what, path_] of Object.entries(PATHS)) {
        it(`never shows the key after ${what}`, async () => {
          const key = KEYS[provider];
          server.handle = (_req, res, recorded) => path_.reply(res, key, server.origin, provider, recorded);
          const before = server.requests.length;
          // Brave spaces its requests 1 s apart, so only the timeout path gets a short budget.
          const { env, log } = keyedEnv(provider, server.url('/'), path_.codes.includes('WEB_TIMEOUT') ? 1_500 : 5_000);
          const outcome = await callTool(tool, { queries: ['scout secrets'] }, env);
          assertWellFormed(outcome);
          if (path_.codes.length) assert.ok('error' in outcome && path_.codes.includes(outcome.error.code), JSON.stringify(visibleTexts(outcome)));
          else assert.ok('output' in outcome, JSON.stringify(visibleTexts(outcome)));
          assertNotLeaked(key, [...visibleTexts(outcome), ...log.lines], `${provider} after ${what}`, MIN_PIECE);
          // The key really went out (so there was something to leak), in the provider's own header.
          const sent = server.requests.slice(before).map((r) => JSON.stringify(r.headers));
          assert.ok(sent.length > 0 && sent.every((h) => h.includes(key)), 'the request did not carry the key');
        });
      }

      it('never shows the key when the provider is unreachable', async () => {
        const { env, log } = keyedEnv(provider, unreachable);
        const outcome = await callTool(tool, { queries: ['scout secrets'] }, env);
        assert.equal('error' in outcome && outcome.error.code, 'WEB_PROVIDER_UNAVAILABLE');
        assertNotLeaked(KEYS[provider], [...visibleTexts(outcome), ...log.lines], `${provider} unreachable`, MIN_PIECE);
      });
    });
  }

  it('the CLI never prints the key from its environment variable, on any path, even with --verbose', async () => {
    const provider = 'tavily';
    const key = KEYS[provider];
    const byQuery = new Map(Object.values(PATHS).map((p, i) => [`path ${i}`, p]));
    server.handle = (_req, res, recorded) => byQuery.get(queryOf(recorded))!.reply(res, key, server.origin, provider, recorded);
    const runs = [...byQuery.keys()].map((query) => ({ query, url: server.url('/') }));
    runs.push({ query: 'unreachable', url: unreachable });
    const results = await Promise.all(
      runs.map(({ query, url }, i) =>
        cli(['web_search', JSON.stringify({ queries: [query] }), '--provider', provider, '--provider-url', url, '--config', 'webSearch.searchTimeoutMs=1500', ...(i % 2 ? ['--json'] : []), '--verbose'], {
          [webSearchKeyEnvVar(provider)]: key,
        }),
      ),
    );
    results.forEach((r, i) => {
      assert.ok(r.status === 0 || r.status === 1, `${runs[i]!.query}: exit ${r.status}\n${r.stderr}`);
      assertNotLeaked(key, [r.stdout, r.stderr], `the CLI (${runs[i]!.query})`, MIN_PIECE);
    });
  });
});

