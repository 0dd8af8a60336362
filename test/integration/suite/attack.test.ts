/**
 * In the real host: a cloned repository cannot reconfigure Scout against its user. The
 * fixture workspace's .vscode/settings.json (test/host/runIntegration.mjs, makeWorkspace) sets every
 * machine- or application-scoped Scout setting to a hostile value; none of them may take effect, while the
 * user's own (machine-level) settings keep working. One ordinary setting in the same file does apply, which
 * shows the file is read at all.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readScoutConfig } from '../../../src/vscode/services';
import { PREPARERS } from '../../../src/vscode/tools';
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopbackServer';
import { json, searxngBody } from '../../unit/webSearch/fixtures';
import { fixture, invokeText, scoutApi, setUserSettings, type Fixture } from '../support';

const code = (text: string) => /\(code: ([A-Z_]+)\)$/.exec(text)?.[1] ?? 'result';

describe('attack: a workspace whose settings.json sets every guard setting', () => {
  let fx: Fixture;
  let hostile: Record<string, unknown>;
  before(async () => {
    await scoutApi();
    fx = await fixture();
    hostile = fx.workspaceSettings;
    for (const key of ['scout.ripgrepPath', 'scout.search.allowPathsOutsideWorkspace', 'scout.webFetch.allowedPrivateHosts', 'scout.webFetch.autoApprovedDomains', 'scout.webSearch.baseUrls']) {
      assert.ok(key in hostile, `the runner did not write a hostile ${key}`);
    }
  });

  it('is read: its ordinary setting (scout.search.stderrMaxBytes) applies', () => {
    assert.equal(hostile['scout.search.stderrMaxBytes'], 65000);
    assert.equal(readScoutConfig().search.stderrMaxBytes, 65000);
  });

  it('changes none of the guard settings Scout reads', () => {
    const config = readScoutConfig();
    assert.equal(config.search.allowPathsOutsideWorkspace, false);
    for (const entry of hostile['scout.webFetch.allowedPrivateHosts'] as string[]) assert.ok(!config.webFetch.allowedPrivateHosts.includes(entry), `allowedPrivateHosts took ${entry} from the workspace`);
    for (const entry of hostile['scout.webFetch.autoApprovedDomains'] as string[]) assert.ok(!config.webFetch.autoApprovedDomains.includes(entry), `autoApprovedDomains took ${entry} from the workspace`);
    const collector = Object.values(hostile['scout.webSearch.baseUrls'] as Record<string, string>)[0];
    assert.ok(!Object.values(config.webSearch.baseUrls).includes(collector!), 'baseUrls took the workspace collector');
    assert.notEqual(vscode.workspace.getConfiguration().get('scout.ripgrepPath'), hostile['scout.ripgrepPath']);
  });

  it('cannot choose the rg Scout runs: glob and grep use the editor’s own, and the workspace’s script never runs', async () => {
    const marker = path.join(path.dirname(hostile['scout.ripgrepPath'] as string), 'ran');
    assert.equal(code(await invokeText('glob', { pattern: '*.md' })), 'result');
    assert.equal(code(await invokeText('grep', { pattern: 'GREETING', path: 'src' })), 'result');
    assert.equal((await scoutApi()).ripgrep().source, 'appRoot');
    assert.equal(fs.existsSync(marker), false, `the workspace's rg ran (${marker} exists)`);
  });

  it('cannot let a path leave the workspace', async () => {
    const outside = path.dirname(fx.workdir);
    for (const [tool, input] of [
      ['glob', { pattern: '*', path: outside }],
      ['grep', { pattern: 'touch', path: path.join(outside, 'hostile') }],
      ['workspace_search', { query: 'touch', path: outside }],
    ] as const) {
      assert.equal(code(await invokeText(tool, input)), 'PATH_OUTSIDE_WORKSPACE', `${tool} reached ${input.path}`);
    }
  });

  describe('web tools', () => {
    let server: LoopbackServer;
    let restore: (() => Promise<void>) | undefined;
    before(async () => {
      server = await startLoopbackServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('loopback page'));
    });
    afterEach(async () => {
      await restore?.();
      restore = undefined;
    });
    after(() => server.close());

    it('cannot open private hosts: the workspace’s entries are refused, the machine setting’s 127.0.0.1 still works', async () => {
      // Approve the hosts at user level so no confirmation dialog (which nothing here could answer) comes up.
      restore = await setUserSettings({ 'scout.webFetch.autoApprovedDomains': ['127.0.0.1', '127.0.0.2', '::1'] });
      assert.match(await invokeText('web_fetch', { url: server.url('/allowed') }), new RegExp(`^Fetched ${server.url('/allowed')} \\(HTTP 200\\)\\n`));
      const connections = server.connections;
      for (const url of [`http://127.0.0.2:${server.port}/`, `http://[::1]:${server.port}/`]) {
        const text = await invokeText('web_fetch', { url });
        assert.equal(code(text), 'WEB_BLOCKED_ADDRESS', `${url}: ${text}`);
      }
      assert.equal(server.connections, connections, 'a refused host was connected to');
    });

    it('cannot auto-approve domains: fetching one the workspace lists still asks first', () => {
      for (const domain of hostile['scout.webFetch.autoApprovedDomains'] as string[]) {
        const prepared = PREPARERS.web_fetch({ url: `http://${domain}/page` }, readScoutConfig());
        assert.ok(prepared.confirmationMessages, `fetching ${domain} would not ask`);
      }
    });

    it('cannot redirect web searches: the machine setting’s provider address is used, the workspace’s collector gets nothing', async () => {
      const collectorUrl = new URL(Object.values(hostile['scout.webSearch.baseUrls'] as Record<string, string>)[0]!);
      const collected: string[] = [];
      const collector = await startLoopbackServerOn(Number(collectorUrl.port), (url) => collected.push(url));
      const searxng = await startLoopbackServer((req, res) => {
        const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('q') ?? '';
        json(res, searxngBody(query, [{ title: 'Legit result', url: 'https://example.com/legit' }]));
      });
      try {
        restore = await setUserSettings({ 'scout.webSearch.provider': 'searxng', 'scout.webSearch.baseUrls': { searxng: searxng.origin } });
        const text = await invokeText('web_search', { queries: ['hostile settings'] });
        assert.match(text, /^Sources:\n- \[Legit result\]\(https:\/\/example\.com\/legit\)\n/);
        await restore();
        restore = await setUserSettings({ 'scout.webSearch.provider': 'searxng' });
        assert.equal(code(await invokeText('web_search', { queries: ['hostile settings'] })), 'WEB_PROVIDER_UNCONFIGURED', 'with no address of its own, the workspace’s was used');
        assert.deepEqual(collected, [], 'the workspace’s collector received a search');
      } finally {
        await collector.close();
        await searxng.close();
      }
    });
  });
});

/** An HTTP server on 127.0.0.1:`port` that records each request's URL and answers 200. */
async function startLoopbackServerOn(port: number, record: (url: string) => void): Promise<{ close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    record(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": []}');
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
