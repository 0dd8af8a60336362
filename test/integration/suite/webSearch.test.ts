import * as assert from 'node:assert/strict';
import { CITE_LINE, UNTRUSTED_LINE } from '../../../src/core/web/search/output';
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopbackServer';
import { json, searxngBody } from '../../unit/webSearch/fixtures';
import { invokeText, scoutApi, setUserSettings } from '../support';

/** What the loopback SearXNG instance finds for each query (its documented JSON format, `format=json`). */
const RESULTS: Record<string, { title: string; url: string; snippet?: string; date?: string }[]> = {
  'node stream backpressure': [
    { title: 'Backpressuring in <b>Streams</b>', url: 'https://nodejs.org/en/learn/modules/backpressuring-in-streams', snippet: 'When data arrives faster than it can be consumed &amp; buffered…', date: '2024-02-03' },
    { title: 'Stream | Node.js Documentation', url: 'https://nodejs.org/api/stream.html' },
  ],
  'highWaterMark default': [
    // The same page as the first query's first result, spelled differently: listed once.
    { title: 'Backpressuring in Streams', url: 'https://NodeJS.org/en/learn/modules/backpressuring-in-streams/#top' },
    { title: 'writable.writableHighWaterMark', url: 'https://nodejs.org/docs/latest-v22.x/api/stream.html#writablewritablehighwatermark', snippet: 'The value of highWaterMark passed when creating this Writable.' },
  ],
};

describe('web_search as a language-model tool', () => {
  let searxng: LoopbackServer;
  let restore: () => Promise<void>;
  before(async () => {
    await scoutApi();
    searxng = await startLoopbackServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') return void res.writeHead(404).end();
      const query = url.searchParams.get('q') ?? '';
      json(res, searxngBody(query, RESULTS[query] ?? []));
    });
    // baseUrls is machine-scoped: in code-server this lands in the server's Machine/settings.json.
    restore = await setUserSettings({ 'scout.webSearch.provider': 'searxng', 'scout.webSearch.baseUrls': { searxng: searxng.origin } });
  });
  after(async () => {
    await restore?.();
    await searxng?.close();
  });

  it('runs the queries on the configured SearXNG instance and lists the merged sources', async () => {
    const text = await invokeText('web_search', { queries: ['node stream backpressure', 'highWaterMark default'], language: 'en' });
    assert.equal(
      text,
      [
        'Sources:',
        '- [Backpressuring in Streams](https://nodejs.org/en/learn/modules/backpressuring-in-streams) — When data arrives faster than it can be consumed \\& buffered… (2024-02-03)',
        // Round-robin by rank: first results of both queries (one page, listed once), then the second results.
        '- [Stream | Node.js Documentation](https://nodejs.org/api/stream.html)',
        '- [writable.writableHighWaterMark](https://nodejs.org/docs/latest-v22.x/api/stream.html#writablewritablehighwatermark) — The value of highWaterMark passed when creating this Writable.',
        '',
        CITE_LINE,
        UNTRUSTED_LINE,
      ].join('\n'),
    );
    const asked = searxng.requests.map((r) => Object.fromEntries(new URL(r.url, searxng.origin).searchParams));
    assert.deepEqual(
      asked.sort((a, b) => String(a.q).localeCompare(String(b.q))),
      [
        { q: 'highWaterMark default', format: 'json', pageno: '1', language: 'en' },
        { q: 'node stream backpressure', format: 'json', pageno: '1', language: 'en' },
      ],
    );
  });

  it('says "No results found." when the instance finds nothing', async () => {
    assert.equal(await invokeText('web_search', { queries: ['zzz nothing'] }), ['No results found.', '', CITE_LINE, UNTRUSTED_LINE].join('\n'));
  });

  it('refuses more queries than scout.webSearch.searchMaxQueries before sending any', async () => {
    const sent = searxng.requests.length;
    const text = await invokeText('web_search', { queries: ['a', 'b', 'c', 'd', 'e'] });
    assert.match(text, /\(code: INVALID_ARGUMENT\)$/);
    assert.equal(searxng.requests.length, sent);
  });
});
