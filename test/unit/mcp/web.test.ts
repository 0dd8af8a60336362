import * as assert from 'node:assert/strict';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { articlePage } from '../../helpers/webPages';
import { json, queryOf, searxngBody, startScriptedServer, tavilyBody, type ScriptedServer } from '../webSearch/fixtures';
import { cliText, connectScout, requireFreshBuild, textOf, type ScoutSession } from './support';

describe('MCP server: web tools', function () {
  this.timeout(60_000);
  const page = articlePage(60_000, 7, 'Backpressure in Node.js streams');
  let web: ScriptedServer;
  let stallClosed: Promise<void> | undefined;
  before(async () => {
    requireFreshBuild();
    web = await startScriptedServer();
    web.handle = (req, res, recorded) => {
      const url = new URL(req.url ?? '/', web.origin);
      if (url.pathname === '/article') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
      if (url.pathname === '/searxng/search') {
        return json(res, searxngBody(queryOf(recorded), [
          { title: 'Backpressuring in Streams', url: 'https://nodejs.org/en/learn/modules/backpressuring-in-streams', snippet: 'When data flows faster than it can be consumed…', date: '2024-03-05' },
          { title: 'stream | Node.js API', url: 'https://nodejs.org/api/stream.html', snippet: 'A stream is an abstract interface.' },
        ]));
      }
      if (url.pathname === '/stall') {
        // Sends the head and a few bytes, then never ends; resolves `stallClosed` when the client drops it.
        stallClosed = new Promise((resolve) => req.socket.once('close', resolve));
        return void res.writeHead(200, { 'content-type': 'text/html' }).write('<html><body><p>first bytes');
      }
      if (url.pathname === '/tavily/search') return json(res, tavilyBody(queryOf(recorded), [{ title: 'Keyed', url: 'https://example.com/keyed', snippet: 'found with a key' }]));
      res.writeHead(404).end();
    };
  });
  after(() => web.close());

  describe('with --allow-private-host 127.0.0.1', () => {
    const flags = (): string[] => ['--allow-private-host', '127.0.0.1', '--provider', 'searxng', '--provider-url', web.url('/searxng')];
    let scout: ScoutSession;
    before(async () => (scout = await connectScout({ args: flags() })));
    after(() => scout.close());

    it('fetches a page to exactly the CLI\'s Markdown, asking no question', async () => {
      const input = { url: web.url('/article') };
      const expected = await cliText('web_fetch', input, flags());
      assert.equal(expected.status, 0, expected.text);
      assert.match(expected.text, /^Fetched http:\/\/127\.0\.0\.1:\d+\/article \(HTTP 200\)/);
      const result = await scout.client.callTool({ name: 'web_fetch', arguments: input });
      assert.equal(result.isError, undefined);
      assert.equal(textOf(result), expected.text);
    });

    it('reports progress to a client that sends a progress token', async () => {
      const updates: Progress[] = [];
      const result = await scout.client.callTool({ name: 'web_fetch', arguments: { url: web.url('/article') } }, undefined, { onprogress: (p) => updates.push(p) });
      assert.equal(result.isError, undefined);
      assert.ok(updates.some((u) => u.message === `Converting ${web.url('/article')}`), JSON.stringify(updates));
      assert.ok(updates.every((u, i) => u.progress === i + 1), 'progress counts up by one per message');
    });

    it('aborts a fetch on notifications/cancelled: the connection to the server is closed', async () => {
      const abort = new AbortController();
      const call = scout.client.callTool({ name: 'web_fetch', arguments: { url: web.url('/stall') } }, undefined, { signal: abort.signal });
      for (let i = 0; i < 400 && stallClosed === undefined; i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(stallClosed, 'the request arrived');
      abort.abort();
      await assert.rejects(call);
      await stallClosed; // resolves only when the server process drops the connection (the fetch timeout is 30 s)
    });

    it('searches the web with the --provider and --provider-url given, to exactly the CLI\'s text', async () => {
      const input = { queries: ['node stream backpressure', 'highWaterMark'] };
      const expected = await cliText('web_search', input, flags());
      assert.equal(expected.status, 0, expected.text);
      const before = web.requests.length;
      const result = await scout.client.callTool({ name: 'web_search', arguments: input });
      assert.equal(textOf(result), expected.text);
      assert.match(textOf(result), /Backpressuring in Streams/);
      assert.deepEqual(web.requests.slice(before).map((r) => new URL(r.url, web.origin).pathname), ['/searxng/search', '/searxng/search']);
    });
  });

  it('refuses a private address without --allow-private-host, and sends it no request', async () => {
    const scout = await connectScout();
    try {
      const input = { url: web.url('/article') };
      const before = web.requests.length;
      const result = await scout.client.callTool({ name: 'web_fetch', arguments: input });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /\n\(code: WEB_BLOCKED_ADDRESS\)$/);
      // The CLI's error, in the server's words: the flag goes among its arguments.
      const cli = (await cliText('web_fetch', input)).text;
      assert.ok(cli.includes('they can pass --allow-private-host 127.0.0.1 to Scout.'), cli);
      assert.equal(textOf(result), cli.replace('pass --allow-private-host 127.0.0.1 to Scout', "add --allow-private-host 127.0.0.1 to the Scout server's arguments in the MCP client's configuration"));
      assert.equal(web.requests.length, before);
    } finally {
      await scout.close();
    }
  });

  it('reads a provider\'s API key from the same environment variable as the CLI, and never shows it', async () => {
    const env = { SCOUT_TAVILY_API_KEY: 'tvly-mcp-environment-42' };
    const flags = ['--provider', 'tavily', '--provider-url', web.url('/tavily')];
    const scout = await connectScout({ args: flags, env });
    try {
      const result = await scout.client.callTool({ name: 'web_search', arguments: { queries: ['keyed search'] } });
      assert.equal(result.isError, undefined, textOf(result));
      assert.equal(web.requests.at(-1)!.headers.authorization, 'Bearer tvly-mcp-environment-42');
      assert.equal(textOf(result), (await cliText('web_search', { queries: ['keyed search'] }, flags, env)).text);
      assert.ok(!textOf(result).includes('tvly-mcp-environment-42') && !scout.stderr().includes('tvly-mcp-environment-42'));
      const missing = await connectScout({ args: flags });
      try {
        const unconfigured = await missing.client.callTool({ name: 'web_search', arguments: { queries: ['keyed search'] } });
        assert.equal(unconfigured.isError, true);
        assert.match(textOf(unconfigured), /SCOUT_TAVILY_API_KEY[\s\S]*\(code: WEB_PROVIDER_UNCONFIGURED\)$/);
      } finally {
        await missing.close();
      }
    } finally {
      await scout.close();
    }
  });
});
