import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { webSearchSecretName, type WebSearchConfig } from '../../../src/core/config';
import { formatToolError, isToolError, type ToolError } from '../../../src/core/errors';
import { findTool } from '../../../src/core/registry';
import { CITE_LINE, cappedLine, UNTRUSTED_LINE } from '../../../src/core/web/search/output';
import { createWebSearchTool } from '../../../src/core/web/search/tool';
import { builtConvertWorker } from '../../helpers/webFetchEnv';
import { json, queryOf, recordingLogger, searchConfig, searchEnv, startScriptedServer, tavilyBody, type FixtureResult, type ScriptedServer } from './fixtures';

const TAVILY_KEY = 'tvly-9f8e7d6c5b4a3210fedcba';
const SECRETS = { [webSearchSecretName('tavily')]: TAVILY_KEY };

describe('web_search tool', function () {
  this.timeout(30_000);
  const tool = createWebSearchTool(builtConvertWorker());
  let server: ScriptedServer;

  beforeEach(async () => (server = await startScriptedServer()));
  afterEach(() => server.close());

  const config = (overrides: Partial<WebSearchConfig> = {}) => searchConfig({ provider: 'tavily', baseUrls: { tavily: server.url('/tavily') }, ...overrides });

  /** Answers each query with `lists[query]`. */
  const answerWith = (lists: Record<string, readonly FixtureResult[]>) => (_req: unknown, res: ServerResponse, recorded: ScriptedServer['requests'][number]) =>
    json(res, tavilyBody(queryOf(recorded), lists[queryOf(recorded)] ?? []));

  it('is registered as web_search', () => {
    assert.equal(findTool('web_search')?.name, 'web_search');
  });

  it('returns the seed shape: Sources lines, closing line and reminder, and the canonical value', async () => {
    server.handle = answerWith({ 'node streams': [{ title: 'Stream', url: 'https://nodejs.org/api/stream.html', snippet: 'Streams in Node.js.' }] });
    const c = config();
    const out = await tool.run(tool.parse({ queries: ['node streams'] }, c), searchEnv(c, { secrets: SECRETS }));
    assert.equal(out.text, ['Sources:', '- [Stream](https://nodejs.org/api/stream.html) — Streams in Node.js.', '', CITE_LINE, UNTRUSTED_LINE].join('\n'));
    assert.deepEqual(out.value, {
      queries: ['node streams'],
      answers: [],
      sources: [{ title: 'Stream', url: 'https://nodejs.org/api/stream.html', snippet: 'Streams in Node.js.', date: '', provider: 'tavily', query: 'node streams', rank: 1 }],
      capped: false,
      provider: 'tavily',
    });
    assert.deepEqual(out.summary, { matches: 1, truncated: false });
  });

  it('escapes Markdown link syntax in provider titles and snippets in the text, keeping the clean text in the value', async () => {
    // Regression: a provider snippet `[x](http://evil)` stayed a live link, and a `]` in a title ended the link early.
    server.handle = answerWith({ q: [{ title: 'Arrays ] and [brackets]', url: 'https://example.com/a', snippet: 'See [x](http://evil) now' }] });
    const c = config();
    const out = await tool.run(tool.parse({ queries: ['q'] }, c), searchEnv(c, { secrets: SECRETS }));
    assert.equal(out.text.split('\n')[1], '- [Arrays \\] and \\[brackets\\]](https://example.com/a) — See \\[x\\](http://evil) now');
    assert.equal(out.value.sources[0]!.title, 'Arrays ] and [brackets]');
    assert.equal(out.value.sources[0]!.snippet, 'See [x](http://evil) now');
  });

  it('runs an exact duplicate query once, keeping its first position', async () => {
    server.handle = answerWith({ b: [{ title: 'B', url: 'https://b.example/' }], a: [{ title: 'A', url: 'https://a.example/' }] });
    const c = config();
    const out = await tool.run(tool.parse({ queries: ['b', 'a', 'b'] }, c), searchEnv(c, { secrets: SECRETS }));
    assert.deepEqual(server.requests.map(queryOf).sort(), ['a', 'b']);
    assert.deepEqual(out.value.queries, ['b', 'a']);
    assert.deepEqual(out.value.sources.map((s) => s.title), ['B', 'A']);
  });

  it('refuses 5 queries when the cap is 4, and an empty query, before sending anything', () => {
    const c = config({ searchMaxQueries: 4 });
    assert.throws(() => tool.parse({ queries: ['1', '2', '3', '4', '5'] }, c), (e: ToolError) => formatToolError(e) === 'Error: queries must contain at most 4 queries\n(code: INVALID_ARGUMENT)');
    assert.throws(() => tool.parse({ queries: ['ok', ''] }, c), { code: 'INVALID_ARGUMENT', message: 'each query must be a non-empty string' });
    assert.throws(() => tool.parse({ queries: [] }, c), { message: 'queries must contain at least one query' });
    assert.equal(server.requests.length, 0);
  });

  it('merges uneven lists round-robin by rank, drops URL duplicates, and caps the list', async () => {
    server.handle = answerWith({
      one: [
        { title: 'one-1', url: 'https://www.example.com/shared/' },
        { title: 'one-2', url: 'https://one.example/2' },
        { title: 'one-3', url: 'https://one.example/3' },
        { title: 'one-4', url: 'https://one.example/4' },
      ],
      two: [{ title: 'two-1', url: 'https://EXAMPLE.com:443/shared#part' }],
      three: [
        { title: 'three-1', url: 'https://three.example/1' },
        { title: 'three-2', url: 'https://one.example/2/' },
        { title: 'three-3', url: 'https://three.example/3' },
      ],
    });
    const c = config({ searchMaxResults: 5 });
    const out = await tool.run(tool.parse({ queries: ['one', 'two', 'three'] }, c), searchEnv(c, { secrets: SECRETS }));
    assert.deepEqual(
      out.value.sources.map((s) => [s.title, s.query, s.rank]),
      [
        ['one-1', 'one', 1],
        ['three-1', 'three', 1],
        ['one-2', 'one', 2],
        ['one-3', 'one', 3],
        ['three-3', 'three', 3],
      ],
    );
    assert.equal(out.value.capped, true);
    assert.deepEqual(out.summary, { matches: 5, truncated: true });
    assert.ok(out.text.includes(`\n${cappedLine(5)}\n`), out.text);
  });

  it('aborts the other queries when one fails, waits for them, and returns that failure', async () => {
    let firstArrived: () => void;
    let firstClosed: (unanswered: boolean) => void;
    const arrived = new Promise<void>((r) => (firstArrived = r));
    const closed = new Promise<boolean>((r) => (firstClosed = r));
    server.handle = (_req, res, recorded) => {
      if (queryOf(recorded) === 'slow first') {
        res.on('close', () => firstClosed(!res.writableFinished));
        firstArrived();
        return; // never answers: only the abort ends this request
      }
      void arrived.then(() => json(res, { detail: { error: 'Internal failure' } }, 500));
    };
    const c = config();
    await assert.rejects(tool.run(tool.parse({ queries: ['slow first', 'failing second'] }, c), searchEnv(c, { secrets: SECRETS })), (e: ToolError) => {
      assert.equal(e.code, 'WEB_PROVIDER_UNAVAILABLE');
      assert.match(e.message, /^Tavily is not available right now \(HTTP 500 Internal Server Error: Internal failure\)/);
      return true;
    });
    assert.equal(await closed, true, 'the first query saw its abort signal and closed its unanswered request');
  });

  it('stops every request when the caller cancels', async () => {
    let arrivedCount = 0;
    const bothArrived = new Promise<void>((resolve) => {
      server.handle = () => {
        if (++arrivedCount === 2) resolve();
      };
    });
    const controller = new AbortController();
    const c = config();
    const pending = tool.run(tool.parse({ queries: ['a', 'b'] }, c), searchEnv(c, { secrets: SECRETS, signal: controller.signal }));
    await bothArrived;
    const closed = Promise.all([server.nextSocketClose(), server.nextSocketClose()]);
    controller.abort();
    await assert.rejects(pending, { code: 'WEB_ABORTED', message: 'The web search was cancelled.' });
    await closed;
  });

  it('sends nothing when the call is cancelled before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    const c = config();
    await assert.rejects(tool.run(tool.parse({ queries: ['a'] }, c), searchEnv(c, { secrets: SECRETS, signal: controller.signal })), { code: 'WEB_ABORTED' });
    assert.equal(server.requests.length, 0);
  });

  it('fails with WEB_TIMEOUT when the provider does not answer within searchTimeoutMs', async () => {
    server.handle = () => undefined;
    const c = config({ searchTimeoutMs: 300 });
    await assert.rejects(tool.run(tool.parse({ queries: ['a', 'b'] }, c), searchEnv(c, { secrets: SECRETS })), {
      code: 'WEB_TIMEOUT',
      message: 'Tavily did not answer within the 0.3 s web_search budget (setting scout.webSearch.searchTimeoutMs). Try again, with fewer queries.',
    });
  });

  it('never puts the API key in results, errors or the log', async () => {
    const log = recordingLogger();
    const seen: string[] = [];
    const check = (what: string, text: string) => {
      seen.push(what);
      assert.ok(!text.includes(TAVILY_KEY), `${what} holds the key: ${text}`);
    };
    // A provider that echoes the key everywhere it can, after a rate-limit retry (which is logged).
    server.handle = (_req, res, recorded) => {
      if (server.requests.length === 1) return json(res, { detail: `Too many requests for ${recorded.headers.authorization}` }, 429, { 'retry-after': '0' });
      json(res, tavilyBody(queryOf(recorded), [{ title: `Key ${TAVILY_KEY}`, url: `https://example.com/?k=${TAVILY_KEY}`, snippet: `Your key is ${TAVILY_KEY}.` }], `Answer with ${TAVILY_KEY}`));
    };
    const c = config();
    const out = await tool.run(tool.parse({ queries: ['q'] }, c), searchEnv(c, { secrets: SECRETS, log }));
    assert.equal(server.requests[1]!.headers.authorization, `Bearer ${TAVILY_KEY}`, 'the key was sent to the provider');
    check('text', out.text);
    check('value', JSON.stringify(out.value));
    assert.ok(out.text.includes('[redacted]'));

    server.handle = (_req, res, recorded) => json(res, { detail: { error: `Unauthorized: invalid key ${String(recorded.headers.authorization).slice(7)}` } }, 401);
    const error = await tool.run(tool.parse({ queries: ['q'] }, c), searchEnv(c, { secrets: SECRETS, log })).then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    assert.ok(isToolError(error));
    assert.equal(error.code, 'WEB_PROVIDER_UNCONFIGURED');
    check('error', formatToolError(error));

    assert.ok(log.lines.some((l) => l.startsWith('[warn]') && l.includes('429')), log.lines.join('\n'));
    check('log', log.lines.join('\n'));
    assert.deepEqual(seen, ['text', 'value', 'error', 'log']);
  });
});
