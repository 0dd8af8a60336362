import * as assert from 'node:assert/strict';
import { webSearchSecretName } from '../../../src/core/config';
import type { ToolError } from '../../../src/core/errors';
import { braveSearchLang } from '../../../src/core/web/search/providers/brave';
import { duckduckgoRegion } from '../../../src/core/web/search/providers/duckduckgo';
import { unwrapResultLink } from '../../../src/core/web/search/providers/duckduckgoPage';
import { searxngLanguage } from '../../../src/core/web/search/providers/searxng';
import { createWebSearchTool } from '../../../src/core/web/search/tool';
import type { WebSearchConfig } from '../../../src/core/config';
import { builtConvertWorker } from '../../helpers/webFetchEnv';
import {
  braveBody,
  DUCKDUCKGO_CHALLENGE,
  duckduckgoPage,
  exaBody,
  json,
  queryOf,
  recordingLogger,
  searchConfig,
  searchEnv,
  searxngBody,
  startScriptedServer,
  tavilyBody,
  type ScriptedServer,
} from './fixtures';

const KEYS = { brave: 'BSA-test-key-0001', tavily: 'tvly-test-key-0002', exa: 'exa-test-key-0003' };
const SECRETS = { [webSearchSecretName('brave')]: KEYS.brave, [webSearchSecretName('tavily')]: KEYS.tavily, [webSearchSecretName('exa')]: KEYS.exa };

describe('web_search providers (loopback servers speaking each API)', function () {
  this.timeout(30_000);
  const tool = createWebSearchTool(builtConvertWorker());
  let server: ScriptedServer;

  beforeEach(async () => (server = await startScriptedServer()));
  afterEach(() => server.close());

  /** Runs web_search with `provider` pointed at the loopback server's `/<provider>` path. */
  function run(provider: WebSearchConfig['provider'], input: Record<string, unknown>, overrides: Partial<WebSearchConfig> = {}, log = recordingLogger()) {
    const config = searchConfig({ provider, baseUrls: { [provider]: server.url(`/${provider}`) }, ...overrides });
    return tool.run(tool.parse(input, config), searchEnv(config, { secrets: SECRETS, log }));
  }

  describe('Brave Search', () => {
    it('sends GET /res/v1/web/search with the key header and hints, and reads web.results', async () => {
      server.handle = (_req, res) =>
        json(
          res,
          braveBody([
            { title: 'Stream | Node.js <strong>v22</strong> Documentation', url: 'https://nodejs.org/api/stream.html', snippet: 'A <strong>stream</strong> is an abstract interface &amp;amp; more', date: '2024-03-05' },
            { title: 'Backpressuring in Streams', url: 'https://nodejs.org/en/learn/modules/backpressuring-in-streams', snippet: 'There is a general problem…' },
            { title: 'Bad', url: 'javascript:alert(1)' },
          ]),
        );
      const out = await run('brave', { queries: ['node streams'], country: 'de', language: 'de' });
      const request = server.requests[0]!;
      const url = new URL(request.url, server.origin);
      assert.equal(request.method, 'GET');
      assert.equal(url.pathname, '/brave/res/v1/web/search');
      assert.deepEqual(Object.fromEntries(url.searchParams), { q: 'node streams', count: '8', country: 'DE', search_lang: 'de' });
      assert.equal(request.headers['x-subscription-token'], KEYS.brave);
      assert.equal(request.headers.accept, 'application/json');
      assert.deepEqual(
        out.value.sources.map((s) => [s.title, s.url, s.snippet, s.date]),
        [
          ['Stream | Node.js v22 Documentation', 'https://nodejs.org/api/stream.html', 'A stream is an abstract interface &amp; more', '2024-03-05'],
          ['Backpressuring in Streams', 'https://nodejs.org/en/learn/modules/backpressuring-in-streams', 'There is a general problem…', ''],
        ],
      );
      assert.match(out.text, /^Sources:\n- \[Stream \| Node\.js v22 Documentation\]\(https:\/\/nodejs\.org\/api\/stream\.html\) — A stream is an abstract interface \\&amp; more \(2024-03-05\)\n/);
    });

    it('gives no sources for "web": null or a missing web section', async () => {
      server.handle = (_req, res, recorded) => json(res, braveBody([], { web: queryOf(recorded) === 'a' ? 'null' : 'missing' }));
      const out = await run('brave', { queries: ['a', 'b'] });
      assert.deepEqual(out.value.sources, []);
      assert.match(out.text, /^No results found\.\n/);
    });

    it('spaces its requests a second apart (the free plan allows 1 request/s)', async () => {
      server.handle = (_req, res, recorded) => json(res, braveBody([{ title: queryOf(recorded), url: `https://example.com/${queryOf(recorded)}` }]));
      const started = Date.now();
      const out = await run('brave', { queries: ['one', 'two'] });
      assert.equal(out.value.sources.length, 2);
      // The second request starts a second after the first, which starts no sooner than the call: load can
      // delay the first one's arrival (so the arrivals may be closer), never bring the second one forward
      // (10 ms allow for timers and Date.now rounding differently).
      assert.ok(server.arrivals[1]! - started >= 990, `the second request arrived ${server.arrivals[1]! - started} ms after the call started`);
    });

    it('refuses a query over 400 characters or 50 words before sending anything', async () => {
      await assert.rejects(run('brave', { queries: ['x'.repeat(401)] }), { code: 'INVALID_ARGUMENT', message: /401 characters, but Brave Search accepts at most 400/ });
      await assert.rejects(run('brave', { queries: [Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ')] }), { message: /51 words, but Brave Search accepts at most 50/ });
      assert.equal(server.requests.length, 0);
    });

    it('maps language hints onto its search_lang codes', () => {
      assert.deepEqual(['en', 'en-gb', 'ja', 'zh-cn', 'zh-tw', 'pt', 'pt-br', 'de-at', 'xh', undefined].map(braveSearchLang), ['en', 'en-gb', 'jp', 'zh-hans', 'zh-hant', 'pt-pt', 'pt-br', 'de', undefined, undefined]);
    });
  });

  describe('Tavily', () => {
    it('POSTs /search with a bearer key and include_answer, and passes the answer through', async () => {
      server.handle = (_req, res, recorded) =>
        json(res, tavilyBody(queryOf(recorded), [{ title: 'Leo Messi - Wikipedia', url: 'https://en.wikipedia.org/wiki/Lionel_Messi', snippet: 'Lionel Andrés Messi is an Argentine footballer.' }], 'Lionel Messi is an Argentine footballer &amp; captain.'));
      const out = await run('tavily', { queries: ['who is leo messi'], country: 'us', language: 'es' });
      const request = server.requests[0]!;
      assert.equal(request.method, 'POST');
      assert.equal(new URL(request.url, server.origin).pathname, '/tavily/search');
      assert.equal(request.headers.authorization, `Bearer ${KEYS.tavily}`);
      assert.match(String(request.headers['content-type']), /^application\/json/);
      assert.deepEqual(JSON.parse(request.body), { query: 'who is leo messi', search_depth: 'basic', topic: 'general', max_results: 8, include_answer: true, country: 'united states' });
      assert.deepEqual(out.value.answers, [{ query: 'who is leo messi', text: 'Lionel Messi is an Argentine footballer & captain.' }]);
      assert.ok(out.text.startsWith('## Answer to "who is leo messi"\n\nLionel Messi is an Argentine footballer \\& captain.\n\nSources:\n- [Leo Messi - Wikipedia](https://en.wikipedia.org/wiki/Lionel_Messi) — Lionel Andrés Messi is an Argentine footballer.\n'), out.text);
    });

    it('labels each answer with its query when several queries run', async () => {
      server.handle = (_req, res, recorded) => json(res, tavilyBody(queryOf(recorded), [], `Answer for ${queryOf(recorded)}.`));
      const out = await run('tavily', { queries: ['first question', 'second question'] });
      assert.deepEqual(out.value.answers.map((a) => a.query), ['first question', 'second question']);
      assert.match(out.text, /^## Answer to "first question"\n\nAnswer for first question\.\n\n## Answer to "second question"\n\nAnswer for second question\.\n\nWhen you use/);
    });

    it('refuses a query over its 400-character limit before sending anything', async () => {
      await assert.rejects(run('tavily', { queries: ['ok', `${'é'.repeat(401)}`] }), { code: 'INVALID_ARGUMENT', message: /has 401 characters, but Tavily accepts at most 400\. Shorten it/ });
      assert.equal(server.requests.length, 0);
      server.handle = (_req, res, recorded) => json(res, tavilyBody(queryOf(recorded), []));
      await run('tavily', { queries: ['😀'.repeat(400)] });
      assert.equal(server.requests.length, 1);
    });

    it('treats missing fields as empty', async () => {
      server.handle = (_req, res) => json(res, { query: 'q', results: [{ url: 'https://example.com/' }, null, 'x'] });
      const out = await run('tavily', { queries: ['q'] });
      assert.deepEqual(out.value.sources.map((s) => [s.title, s.url, s.snippet, s.date]), [['', 'https://example.com/', '', '']]);
      assert.deepEqual(out.value.answers, []);
    });
  });

  describe('Exa', () => {
    it('POSTs /search with x-api-key asking for highlights, which become the snippets', async () => {
      server.handle = (_req, res) =>
        json(
          res,
          exaBody([
            { title: 'Attention Is All You Need', url: 'https://arxiv.org/abs/1706.03762', date: '2017-06-12', highlights: ['The dominant sequence transduction models…', 'We propose a new simple network architecture, the Transformer.'] },
            { title: 'No highlights', url: 'https://example.com/text', text: `Full text ${'word '.repeat(200)}` },
          ]),
        );
      const out = await run('exa', { queries: ['transformer paper'], country: 'GB' });
      const request = server.requests[0]!;
      assert.equal(new URL(request.url, server.origin).pathname, '/exa/search');
      assert.equal(request.headers['x-api-key'], KEYS.exa);
      assert.deepEqual(JSON.parse(request.body), { query: 'transformer paper', type: 'auto', numResults: 8, contents: { highlights: { maxCharacters: 500 } }, userLocation: 'GB' });
      assert.equal(out.value.sources[0]!.snippet, 'The dominant sequence transduction models… … We propose a new simple network architecture, the Transformer.');
      assert.equal(out.value.sources[0]!.date, '2017-06-12');
      assert.match(out.value.sources[1]!.snippet, /^Full text word word/);
      assert.ok(out.value.sources[1]!.snippet.length <= 300);
    });
  });

  describe('SearXNG', () => {
    it('GETs /search?format=json on the instance and reads results and answers', async () => {
      server.handle = (_req, res, recorded) =>
        json(
          res,
          searxngBody(queryOf(recorded), [{ title: 'SearXNG', url: 'https://docs.searxng.org/', snippet: 'SearXNG is a free internet metasearch engine.', date: '2024-01-02' }], ['42', { answer: 'An <b>object</b> answer', url: 'https://example.com/' }]),
        );
      const out = await run('searxng', { queries: ['searxng'], country: 'us', language: 'en' });
      const url = new URL(server.requests[0]!.url, server.origin);
      assert.equal(url.pathname, '/searxng/search');
      assert.deepEqual(Object.fromEntries(url.searchParams), { q: 'searxng', format: 'json', pageno: '1', language: 'en-US' });
      assert.deepEqual(out.value.answers, [{ query: 'searxng', text: '42\n\nAn object answer' }]);
      assert.deepEqual(out.value.sources.map((s) => [s.url, s.date]), [['https://docs.searxng.org/', '2024-01-02']]);
    });

    it('explains an instance that has the JSON format turned off', async () => {
      server.handle = (_req, res) => res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body>403 Forbidden</body></html>');
      await assert.rejects(run('searxng', { queries: ['q'] }), { code: 'WEB_PROVIDER_ERROR', message: /must list json under search\.formats/ });
    });

    it('needs the instance address', async () => {
      const config = searchConfig({ provider: 'searxng' });
      await assert.rejects(tool.run(tool.parse({ queries: ['q'] }, config), searchEnv(config)), { code: 'WEB_PROVIDER_UNCONFIGURED', message: /needs the address of your instance in the "searxng" entry of the setting scout\.webSearch\.baseUrls/ });
    });

    it('maps the hints onto its language parameter', () => {
      assert.deepEqual(
        [{}, { language: 'en' }, { language: 'en', country: 'gb' }, { language: 'zh-cn', country: 'tw' }, { country: 'de' }].map(searxngLanguage),
        [undefined, 'en', 'en-GB', 'zh-CN', undefined],
      );
    });
  });

  describe('DuckDuckGo (HTML, parsed in the worker)', () => {
    it('POSTs the search form to /html/ and reads the result page, skipping ads and unwrapping redirect links', async () => {
      server.handle = (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end(
          duckduckgoPage(
            [
              { title: 'x', rawTitle: 'Node.js <b>Streams</b> &amp;amp; pipes', url: 'https://nodejs.org/api/stream.html?x=1&y=2', rawSnippet: 'The <b>stream</b> module&nbsp;provides &lt;an API&gt;.', date: '2024-02-03' },
              { title: 'MDN Streams API', url: 'https://developer.mozilla.org/en-US/docs/Web/API/Streams_API', snippet: 'The Streams API allows JavaScript to programmatically access streams of data.' },
            ],
            { ad: true },
          ),
        );
      const out = await run('duckduckgo', { queries: ['node streams'], country: 'ch', language: 'fr' });
      const request = server.requests[0]!;
      assert.equal(request.method, 'POST');
      assert.equal(new URL(request.url, server.origin).pathname, '/duckduckgo/html/');
      assert.deepEqual(Object.fromEntries(new URLSearchParams(request.body)), { q: 'node streams', b: '', kl: 'ch-fr' });
      assert.deepEqual(
        out.value.sources.map((s) => [s.title, s.url, s.snippet, s.date]),
        [
          ['Node.js Streams &amp; pipes', 'https://nodejs.org/api/stream.html?x=1&y=2', 'The stream module provides <an API>.', '2024-02-03'],
          ['MDN Streams API', 'https://developer.mozilla.org/en-US/docs/Web/API/Streams_API', 'The Streams API allows JavaScript to programmatically access streams of data.', ''],
        ],
      );
    });

    it('says No results found. for its empty result page', async () => {
      server.handle = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(duckduckgoPage([]));
      const out = await run('duckduckgo', { queries: ['zxqv nothing'] });
      assert.deepEqual(out.value.sources, []);
      assert.match(out.text, /^No results found\./);
    });

    it('reports its bot check as a rate limit', async () => {
      server.handle = (_req, res) => res.writeHead(202, { 'content-type': 'text/html' }).end(DUCKDUCKGO_CHALLENGE);
      await assert.rejects(run('duckduckgo', { queries: ['q'] }), { code: 'WEB_RATE_LIMITED', message: /bot check instead of results \(HTTP 202\)/ });
      server.handle = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(DUCKDUCKGO_CHALLENGE);
      await assert.rejects(run('duckduckgo', { queries: ['q'] }), { code: 'WEB_RATE_LIMITED' });
    });

    it('refuses a page that is not its result list', async () => {
      server.handle = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Welcome to the hotel Wi-Fi</h1></body></html>');
      await assert.rejects(run('duckduckgo', { queries: ['q'] }), { code: 'WEB_PROVIDER_ERROR', message: /not its result list/ });
    });

    it('maps the hints onto its kl regions', () => {
      assert.deepEqual(
        [{}, { language: 'de' }, { country: 'de' }, { country: 'gb' }, { country: 'be', language: 'nl' }, { country: 'be', language: 'de' }, { country: 'aq' }].map(duckduckgoRegion),
        [undefined, undefined, 'de-de', 'uk-en', 'be-nl', 'be-fr', undefined],
      );
    });

    it('unwraps only its own redirect links', () => {
      const page = 'https://html.duckduckgo.com/html/';
      assert.equal(unwrapResultLink('//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1&rut=x', page), 'https://example.com/a?b=1');
      assert.equal(unwrapResultLink('https://example.org/direct', page), 'https://example.org/direct');
      assert.equal(unwrapResultLink('https://duckduckgo.com/y.js?ad_domain=x', page), undefined);
      assert.equal(unwrapResultLink('//duckduckgo.com/l/?uddg=javascript%3Aalert(1)', page), undefined);
      assert.equal(unwrapResultLink('/html/?q=next', page), undefined);
    });
  });

  describe('failures common to all providers', () => {
    it('retries once after a 429, honouring Retry-After', async () => {
      server.handle = (_req, res) => {
        if (server.requests.length === 1) json(res, { detail: { error: 'Too many requests' } }, 429, { 'retry-after': '1' });
        else json(res, tavilyBody('q', [{ title: 'ok', url: 'https://example.com/ok' }]));
      };
      const out = await run('tavily', { queries: ['q'] });
      assert.equal(server.requests.length, 2);
      assert.deepEqual(out.value.sources.map((s) => s.url), ['https://example.com/ok']);
      assert.ok(server.arrivals[1]! - server.arrivals[0]! >= 950, `retried after ${server.arrivals[1]! - server.arrivals[0]!} ms`);
    });

    it('waits at most 5 s however long Retry-After asks', async () => {
      server.handle = (_req, res) => {
        if (server.requests.length === 1) json(res, {}, 429, { 'retry-after': '3600' });
        else json(res, exaBody([]));
      };
      const log = recordingLogger();
      await run('exa', { queries: ['q'] }, {}, log);
      // The wait Scout chose, from its log; the arrival times only bound it from below (a busy machine adds to it).
      assert.deepEqual(log.lines.filter((l) => /retrying/.test(l)), ['[warn] web_search: Exa answered HTTP 429 (rate limit); retrying once in 5000 ms.']);
      assert.ok(server.arrivals[1]! - server.arrivals[0]! >= 4900, `retried after ${server.arrivals[1]! - server.arrivals[0]!} ms`);
    });

    it('fails with WEB_RATE_LIMITED after a second 429', async () => {
      server.handle = (_req, res) => json(res, { error: 'rate limited' }, 429, { 'retry-after': '0' });
      await assert.rejects(run('exa', { queries: ['q'] }), (e: ToolError) => {
        assert.equal(e.code, 'WEB_RATE_LIMITED');
        assert.match(e.message, /^Exa is limiting how often Scout may search \(HTTP 429, twice in a row/);
        return true;
      });
      assert.equal(server.requests.length, 2);
    });

    it('does not wait for a retry that would pass the time budget', async () => {
      server.handle = (_req, res) => json(res, {}, 429, { 'retry-after': '4' });
      await assert.rejects(run('tavily', { queries: ['q'] }, { searchTimeoutMs: 2000 }), { code: 'WEB_RATE_LIMITED', message: /longer than the time left/ });
      assert.equal(server.requests.length, 1);
    });

    it('says what to set when the key is missing, and sends nothing', async () => {
      for (const [provider, variable] of [['brave', 'SCOUT_BRAVE_API_KEY'], ['tavily', 'SCOUT_TAVILY_API_KEY'], ['exa', 'SCOUT_EXA_API_KEY']] as const) {
        const config = searchConfig({ provider, baseUrls: { [provider]: server.url('/x') } });
        await assert.rejects(tool.run(tool.parse({ queries: ['q'] }, config), searchEnv(config, { secrets: {} })), (e: ToolError) => {
          assert.equal(e.code, 'WEB_PROVIDER_UNCONFIGURED');
          assert.match(e.message, /needs an API key, and Scout has none/);
          // VS Code's words: its command; the CLI's environment variable is for the CLI's own messages.
          assert.ok(e.message.includes('"Scout: Set Web Search API Key"') && !e.message.includes(variable), e.message);
          return true;
        });
      }
      assert.equal(server.requests.length, 0);
    });

    it('reports a refused key as unconfigured', async () => {
      server.handle = (_req, res) => json(res, { error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' } }, 401);
      await assert.rejects(run('brave', { queries: ['q'] }), {
        code: 'WEB_PROVIDER_UNCONFIGURED',
        message: /^Brave Search refused the API key \(HTTP 401 Unauthorized: The provided subscription token is invalid\.\)\. Store a valid key with the command "Scout: Set Web Search API Key"/,
      });
    });

    it('refuses a key shorter than any real one before sending anything (a placeholder "x" left no error readable once redacted)', async () => {
      for (const key of ['x', 'k', 'abc1234']) {
        const config = searchConfig({ provider: 'brave', baseUrls: { brave: server.url('/brave') } });
        await assert.rejects(tool.run(tool.parse({ queries: ['q'] }, config), searchEnv(config, { secrets: { [webSearchSecretName('brave')]: key } })), (e: ToolError) => {
          assert.equal(e.code, 'WEB_PROVIDER_UNCONFIGURED');
          assert.match(e.message, new RegExp(`^The Brave Search API key Scout has is ${key.length} characters? long, shorter than any real key, so it was not sent\\. Store a valid key with the command "Scout: Set Web Search API Key"`));
          assert.ok(!e.message.includes('[redacted]'), e.message);
          return true;
        });
      }
      assert.equal(server.requests.length, 0);
    });

    it('refuses an HTML page where JSON was expected', async () => {
      server.handle = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body><form action="/login">Sign in to the proxy</form></body></html>');
      await assert.rejects(run('tavily', { queries: ['q'] }), { code: 'WEB_PROVIDER_ERROR', message: /^Tavily answered with an HTML page where its JSON API answer was expected \(HTTP 200, Content-Type "text\/html"\)\. If you set the "tavily" entry of the setting scout\.webSearch\.baseUrls, check it/ });
      server.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json</html>');
      await assert.rejects(run('exa', { queries: ['q'] }), { code: 'WEB_PROVIDER_ERROR', message: /HTML page/ });
      // Text that only starts with "<" is no HTML page: it is named for what it is.
      server.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<<<not json>>>');
      await assert.rejects(run('exa', { queries: ['q'] }), { code: 'WEB_PROVIDER_ERROR', message: /^Exa answered with something that is not JSON \(HTTP 200, Content-Type "application\/json"\)/ });
      server.handle = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [');
      await assert.rejects(run('exa', { queries: ['q'] }), { code: 'WEB_PROVIDER_ERROR', message: /not JSON/ });
    });

    it('reports server errors as unavailable and other statuses as provider errors', async () => {
      server.handle = (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
      await assert.rejects(run('tavily', { queries: ['q'] }), { code: 'WEB_PROVIDER_UNAVAILABLE', message: /^Tavily is not available right now \(HTTP 502 Bad Gateway: an HTML error page\)/ });
      server.handle = (_req, res) => json(res, { detail: { error: 'Invalid country' } }, 400);
      await assert.rejects(run('tavily', { queries: ['q'] }), { code: 'WEB_PROVIDER_ERROR', message: /^Tavily refused the search \(HTTP 400 Bad Request: Invalid country\)/ });
    });

    it('reports an unreachable provider', async () => {
      const url = server.url('/searxng');
      await server.close();
      await assert.rejects(
        (async () => {
          const config = searchConfig({ provider: 'searxng', baseUrls: { searxng: url } });
          return tool.run(tool.parse({ queries: ['q'] }, config), searchEnv(config));
        })(),
        { code: 'WEB_PROVIDER_UNAVAILABLE', message: /^SearXNG at http:\/\/127\.0\.0\.1:\d+ could not be reached: 127\.0\.0\.1:\d+ refused the connection\./ },
      );
      server = await startScriptedServer();
    });

    it('refuses an unknown provider and an invalid base URL', async () => {
      const unknown = searchConfig({ provider: 'bing' as WebSearchConfig['provider'] });
      await assert.rejects(tool.run(tool.parse({ queries: ['q'] }, unknown), searchEnv(unknown)), { code: 'WEB_PROVIDER_UNCONFIGURED', message: /the provider "bing" \(setting scout\.webSearch\.provider\), which Scout does not know/ });
      const badUrl = searchConfig({ provider: 'searxng', baseUrls: { searxng: 'ftp://searx.example' } });
      await assert.rejects(tool.run(tool.parse({ queries: ['q'] }, badUrl), searchEnv(badUrl)), { code: 'WEB_PROVIDER_UNCONFIGURED', message: /^The "searxng" entry of the setting scout\.webSearch\.baseUrls uses the ftp: scheme/ });
    });
  });
});
