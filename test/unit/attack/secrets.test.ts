/**
 * API keys stay secret. For each keyed provider a key is stored (ToolEnv.getSecret, or
 * the CLI's environment variable), every error path is provoked against a loopback provider that echoes the
 * key back wherever it can (error details, HTML pages, titles, snippets, answers, redirect targets, result
 * host names; also upper-cased, lowercased by URL parsing, percent-encoded, in base64 and in
 * halves), and every output is searched for the key or any 8-character piece of it, in any ASCII case,
 * percent-decoded, and in base64: text, value, error, log lines at every level, and the CLI's stdout and
 * stderr. The real-host half (the Scout log file, the run log behind the panel) is in
 * test/integration/suite/attack.test.ts.
 */
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { runCliAsync as cli } from '../../helpers/cli';
import { defaultConfig, KEYED_WEB_SEARCH_PROVIDERS, webSearchKeyEnvVar, webSearchSecretName, type KeyedWebSearchProvider } from '../../../src/core/config';
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

/** Every character of `text` percent-encoded. */
const percentEncoded = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** A provider's normal answer, with the key planted in titles and snippets (one across the snippet cut) and in Tavily's answer. */
function echoingAnswer(provider: KeyedWebSearchProvider, query: string, key: string): unknown {
  const results = [
    { title: `Result ${key}`, url: 'https://example.com/a', snippet: `${'s'.repeat(290)}${key}` },
    { title: `${'t'.repeat(190)}${key}`, url: `https://example.com/b?k=${key}`, snippet: `<strong>${key}</strong> &amp; more` },
    // The key inside a host name (URL parsing lowercases it), upper-cased, percent-encoded, in base64, in halves.
    { title: `KEY ${key.toUpperCase()}`, url: `https://${key}.collector.example/`, snippet: `k=${percentEncoded(key)} auth=Basic ${Buffer.from(`user:${key}`).toString('base64')}` },
    { title: `half ${key.slice(0, key.length >> 1)}`, url: 'https://example.com/c', snippet: `other half ${key.slice(key.length >> 1).toLowerCase()}` },
  ];
  if (provider === 'brave') return braveBody(results);
  if (provider === 'exa') return exaBody(results.map((r) => ({ ...r, highlights: [r.snippet] })));
  return tavilyBody(query, results, `The key is ${key}.`);
}

/** Every way a provider call can fail, each echoing the key where the provider's reply allows it. */
const PATHS: Record<string, { codes: string[]; reply: (res: ServerResponse, key: string, origin: string, provider: KeyedWebSearchProvider, recorded: Recorded) => void }> = {
  'a 401 whose detail quotes the key': { codes: ['WEB_PROVIDER_UNCONFIGURED'], reply: (res, key) => json(res, { error: { detail: `Invalid API key ${key}` } }, 401) },
  'a 403 whose detail and reason phrase quote the key in another case and percent-encoded': {
    codes: ['WEB_PROVIDER_UNCONFIGURED'],
    reply: (res, key) => {
      res.statusMessage = `Forbidden ${key.toLowerCase()}`;
      json(res, { message: `KEY ${key.toUpperCase()} or ${percentEncoded(key)} refused` }, 403);
    },
  },
  'a 429, twice': { codes: ['WEB_RATE_LIMITED'], reply: (res, key) => json(res, { message: `Too many requests for ${key}` }, 429, { 'retry-after': '0' }) },
  'an HTML page instead of JSON': { codes: ['WEB_PROVIDER_ERROR'], reply: (res, key) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>Log in (key ${key})</body></html>`) },
  'a 500 whose detail puts the key across the 200-character cut': { codes: ['WEB_PROVIDER_UNAVAILABLE'], reply: (res, key) => json(res, { detail: `${'x'.repeat(190)}${key}` }, 500) },
  'a redirect to another origin carrying the key': { codes: ['WEB_PROVIDER_ERROR'], reply: (res, key) => void res.writeHead(302, { location: `http://collector.invalid/?key=${key}` }).end() },
  'a timeout': { codes: ['WEB_TIMEOUT'], reply: () => undefined },
  'a success echoing the key in titles, snippets and the answer': { codes: [], reply: (res, key, _origin, provider, recorded) => json(res, echoingAnswer(provider, queryOf(recorded), key)) },
};

/**
 * Asserts that no 8-character piece of `key` appears in `texts`, in any ASCII case, as written or
 * percent-decoded, nor in base64 (the key's own characters at each of the three byte alignments).
 */
function assertKeyNotLeaked(key: string, texts: readonly string[], what: string): void {
  const base64Forms = ['', 'x', 'xx'].map((pad) => {
    const encoded = Buffer.from(pad + key).toString('base64');
    return encoded.slice(3, -3);
  });
  const lower = (t: string) => t.toLowerCase();
  const decoded = (t: string) => t.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const views = texts.flatMap((t) => [lower(t), lower(decoded(t))]);
  assertNotLeaked(lower(key), views, `${what} (any case, percent-decoded)`, MIN_PIECE);
  for (const form of base64Forms) assertNotLeaked(form, texts, `${what} (base64)`, MIN_PIECE);
}

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
  function keyedEnv(provider: KeyedWebSearchProvider, baseUrl: string, searchTimeoutMs = defaultConfig().webSearch.searchTimeoutMs) {
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
          // Only the timeout path, whose server never answers, gets a short budget; the others keep the default,
          // so a busy machine (or Brave's 1 s request spacing) cannot turn them into timeouts.
          const { env, log } = keyedEnv(provider, server.url('/'), path_.codes.includes('WEB_TIMEOUT') ? 1_500 : undefined);
          const outcome = await callTool(tool, { queries: ['scout secrets'] }, env);
          assertWellFormed(outcome);
          if (path_.codes.length) assert.ok('error' in outcome && path_.codes.includes(outcome.error.code), JSON.stringify(visibleTexts(outcome)));
          else assert.ok('output' in outcome, JSON.stringify(visibleTexts(outcome)));
          assertKeyNotLeaked(key, [...visibleTexts(outcome), ...log.lines], `${provider} after ${what}`);
          // The key really went out (so there was something to leak), in the provider's own header.
          const sent = server.requests.slice(before).map((r) => JSON.stringify(r.headers));
          assert.ok(sent.length > 0 && sent.every((h) => h.includes(key)), 'the request did not carry the key');
        });
      }

      it('never shows the key when the provider is unreachable', async () => {
        const { env, log } = keyedEnv(provider, unreachable);
        const outcome = await callTool(tool, { queries: ['scout secrets'] }, env);
        assert.equal('error' in outcome && outcome.error.code, 'WEB_PROVIDER_UNAVAILABLE');
        assertKeyNotLeaked(KEYS[provider], [...visibleTexts(outcome), ...log.lines], `${provider} unreachable`);
      });
    });
  }

  it('the CLI never prints the key from its environment variable, on any path, even with --verbose', async () => {
    const provider = 'tavily';
    const key = KEYS[provider];
    const byQuery = new Map(Object.values(PATHS).map((p, i) => [`path ${i}`, p]));
    server.handle = (_req, res, recorded) => byQuery.get(queryOf(recorded))!.reply(res, key, server.origin, provider, recorded);
    const runs = [...byQuery.entries()].map(([query, p]) => ({ query, url: server.url('/'), timeoutMs: p.codes.includes('WEB_TIMEOUT') ? 1_500 : defaultConfig().webSearch.searchTimeoutMs }));
    runs.push({ query: 'unreachable', url: unreachable, timeoutMs: defaultConfig().webSearch.searchTimeoutMs });
    const results = await Promise.all(
      runs.map(({ query, url, timeoutMs }, i) =>
        cli(['web_search', JSON.stringify({ queries: [query] }), '--provider', provider, '--provider-url', url, '--config', `webSearch.searchTimeoutMs=${timeoutMs}`, ...(i % 2 ? ['--json'] : []), '--verbose'], {
          [webSearchKeyEnvVar(provider)]: key,
        }),
      ),
    );
    results.forEach((r, i) => {
      assert.ok(r.status === 0 || r.status === 1, `${runs[i]!.query}: exit ${r.status}\n${r.stderr}`);
      assertKeyNotLeaked(key, [r.stdout, r.stderr], `the CLI (${runs[i]!.query})`);
    });
  });
});

