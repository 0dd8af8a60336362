import * as assert from 'node:assert/strict';
import { runCliAsync as cli } from '../../helpers/cli';
import { json, queryOf, startScriptedServer, tavilyBody, type ScriptedServer } from './fixtures';

describe('CLI web_search and web flags', function () {
  this.timeout(60_000);
  let server: ScriptedServer;
  before(async () => {
    server = await startScriptedServer();
    server.handle = (req, res, recorded) => {
      if (req.url === '/notes.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('private notes\n');
      json(res, tavilyBody(queryOf(recorded), [{ title: 'Result', url: 'https://example.com/r', snippet: `Seen with ${String(recorded.headers.authorization)}` }]));
    };
  });
  after(() => server.close());

  it('searches with --provider and --provider-url (in either order), the key coming from SCOUT_TAVILY_API_KEY', async () => {
    const env = { SCOUT_TAVILY_API_KEY: 'tvly-from-environment-123' };
    for (const flags of [
      ['--provider', 'tavily', '--provider-url', server.url('/tavily')],
      [`--provider-url=${server.url('/tavily')}`, '--provider=tavily'],
    ]) {
      const r = await cli(['web_search', '{"queries":["cli search"]}', ...flags, '--json'], env);
      assert.equal(r.status, 0, r.stderr);
      const value = JSON.parse(r.stdout);
      assert.deepEqual(value.queries, ['cli search']);
      assert.equal(value.provider, 'tavily');
      assert.equal(value.sources[0].snippet, 'Seen with Bearer [redacted]');
    }
    assert.equal(server.requests.at(-1)!.headers.authorization, 'Bearer tvly-from-environment-123');
    assert.equal(new URL(server.requests.at(-1)!.url, server.origin).pathname, '/tavily/search');
  });

  it('names the environment variable when the key is missing', async () => {
    const r = await cli(['web_search', '{"queries":["q"]}', '--provider', 'exa', '--provider-url', server.url('/exa')]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^Error: web_search is set to use Exa .* SCOUT_EXA_API_KEY.*\n\(code: WEB_PROVIDER_UNCONFIGURED\)\n$/s);
  });

  it('refuses an unknown provider and a provider URL that is not http(s)', async () => {
    const unknown = await cli(['web_search', '{"queries":["q"]}', '--provider', 'bing']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^scout: --provider must be one of duckduckgo, brave, tavily, exa, searxng, not "bing"\./);
    const badUrl = await cli(['web_search', '{"queries":["q"]}', '--provider-url', 'file:///etc/passwd']);
    assert.equal(badUrl.status, 2);
    assert.match(badUrl.stderr, /--provider-url needs an absolute http\(s\) URL/);
  });

  it('lets web_fetch reach a private host named with --allow-private-host (repeatable)', async () => {
    const blocked = await cli(['web_fetch', JSON.stringify({ url: server.url('/notes.txt') })]);
    assert.equal(blocked.status, 1);
    assert.match(blocked.stdout, /\(code: WEB_BLOCKED_ADDRESS\)/);
    const allowed = await cli(['web_fetch', JSON.stringify({ url: server.url('/notes.txt') }), '--allow-private-host', '10.0.0.0/8', '--allow-private-host', '127.0.0.1']);
    assert.equal(allowed.status, 0, allowed.stdout + allowed.stderr);
    assert.match(allowed.stdout, /private notes/);
  });
});
