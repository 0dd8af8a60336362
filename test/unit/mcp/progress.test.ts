import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { makeTree, removeTree } from '../../helpers/tree';
import { connectScout, requireFreshBuild, textOf, type ScoutSession } from './support';

/** Files of the long grep: each holds matches, so rg prints while it walks. */
const FILES = 3000;

describe('MCP server: progress of grep, glob and web_fetch, and advice in the CLI\'s words', function () {
  this.timeout(120_000);
  let root: string;
  let scout: ScoutSession;
  before(async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) tree[`src/m${Math.floor(i / 100)}/f${i}.ts`] = `export const TOKEN_${i} = 1;\n// TOKEN again\n`;
    root = makeTree(tree);
    requireFreshBuild();
    scout = await connectScout({ args: ['--cwd', root] });
  });
  after(async () => {
    await scout?.close();
    if (root) removeTree(root);
  });

  it('sends grep progress at once with the files and matches found so far, counting up, while real rg runs', async () => {
    const updates: Progress[] = [];
    const result = await scout.client.callTool({ name: 'grep', arguments: { pattern: 'TOKEN' } }, undefined, { onprogress: (p) => updates.push(p) });
    assert.equal(result.isError, undefined);
    assert.match(textOf(result), /^src\/m0\/f0\.ts\nLine 1: /);
    assert.equal(updates[0]?.message, `Searching ${root}`, JSON.stringify(updates));
    const counted = updates.slice(1).map((u) => /^([\d,]+) matches in ([\d,]+) files? so far$/.exec(u.message ?? ''));
    assert.ok(counted.length > 0 && counted.every(Boolean), JSON.stringify(updates));
    const numbers = counted.map((m) => [Number(m![1]!.replace(/,/g, '')), Number(m![2]!.replace(/,/g, ''))] as const);
    for (const [matches, files] of numbers) assert.ok(matches >= files && files >= 1 && files <= FILES && matches <= 2 * FILES);
    assert.ok(updates.every((u, i) => u.progress === i + 1), 'progress counts up by one per message');
  });

  it('sends glob progress while rg walks (rg prints its sorted list only at the end, so no count)', async () => {
    const updates: Progress[] = [];
    const result = await scout.client.callTool({ name: 'glob', arguments: { pattern: '*.ts' } }, undefined, { onprogress: (p) => updates.push(p) });
    assert.match(textOf(result), /src\//);
    assert.equal(updates[0]?.message, `Listing files under ${root}`, JSON.stringify(updates));
    assert.ok(updates.every((u) => /^Listing files under .+( \(\d+ s\))?$/.test(u.message ?? '')));
  });

  describe('web_fetch', () => {
    let server: http.Server;
    let origin: string;
    let release: () => void = () => undefined;
    before(async () => {
      server = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        // The first half now, the rest once the test has heard progress for it.
        res.write('a'.repeat(40_000));
        release = () => res.end('b'.repeat(40_000));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reports the bytes of a download as they arrive, before the body is complete', async () => {
      const fetcher = await connectScout({ args: ['--cwd', root, '--allow-private-host', '127.0.0.1'] });
      try {
        const updates: Progress[] = [];
        const url = `${origin}/slow.txt`;
        const call = fetcher.client.callTool({ name: 'web_fetch', arguments: { url } }, undefined, {
          onprogress: (p) => {
            updates.push(p);
            if (/^Downloading .*: [\d.]+ KB so far$/.test(p.message ?? '')) release();
          },
        });
        const result = await call;
        assert.equal(result.isError, undefined, textOf(result));
        const first = updates.find((u) => u.message?.startsWith('Downloading'));
        assert.ok(first, JSON.stringify(updates));
        assert.match(first.message!, new RegExp(`^Downloading ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (?:[1-3]\\d|40)\\.\\d KB so far$`), 'heard before the second half was sent');
      } finally {
        await fetcher.close();
      }
    });

    it('advises the CLI flag --allow-private-host, not the VS Code setting, for a private address', async () => {
      const result = await scout.client.callTool({ name: 'web_fetch', arguments: { url: `${origin}/x` } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /they can add --allow-private-host 127\.0\.0\.1 to the Scout server's arguments in the MCP client's configuration\.\n\(code: WEB_BLOCKED_ADDRESS\)$/);
      assert.doesNotMatch(textOf(result), /scout\.webFetch/);
    });
  });
});
