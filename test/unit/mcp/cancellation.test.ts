import * as assert from 'node:assert/strict';
import { findProcesses, processesUnder } from '../../helpers/processes';
import { makeTree, removeTree, SLOW_PATTERN, writeSlowCorpus } from '../../helpers/tree';
import { connectScout, requireFreshBuild, type ScoutSession } from './support';

/** Waits (at most `tries` × 50 ms) until `done()` holds; returns whether it did. */
async function eventually(done: () => boolean, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}

/** rg processes searching under `root` (the server runs rg with its working directory there). */
const rgUnder = (root: string) => processesUnder(root).filter((p) => p.argv.some((a) => a.endsWith('/rg') || a === 'rg'));

describe('MCP server: cancellation', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    // 40 files of 500 KB that SLOW_PATTERN crawls through (seconds of rg work).
    root = makeTree({});
    writeSlowCorpus(root, 'slow', 40, 500_000);
    requireFreshBuild();
  });
  after(() => removeTree(root));

  it('stops a grep on notifications/cancelled: rg is killed, and the server goes on serving', async () => {
    const scout = await connectScout({ args: ['--cwd', root, '--verbose'] });
    try {
      const abort = new AbortController();
      const call = scout.client.callTool({ name: 'grep', arguments: { pattern: SLOW_PATTERN } }, undefined, { signal: abort.signal });
      assert.ok(await eventually(() => rgUnder(root).length > 0), 'rg started');
      abort.abort();
      await assert.rejects(call);
      assert.ok(await eventually(() => rgUnder(root).length === 0), `rg left behind: ${JSON.stringify(rgUnder(root))}`);
      assert.ok(await eventually(() => /\[info\] grep: SEARCH_ABORTED in \d+ ms/.test(scout.stderr())), scout.stderr());
      const next = await scout.client.callTool({ name: 'glob', arguments: { pattern: 'f1.txt' } });
      assert.equal(next.isError, undefined);
    } finally {
      await scout.close();
    }
  });

  for (const [how, stop] of [
    ['the client goes away (stdin closed)', (scout: ScoutSession) => scout.close()],
    ['it gets SIGTERM', async (scout: ScoutSession) => void process.kill(scout.pid, 'SIGTERM')],
  ] as const) {
    it(`stops a running grep and exits when ${how}`, async () => {
      const scout = await connectScout({ args: ['--cwd', root] });
      try {
        const call = scout.client.callTool({ name: 'grep', arguments: { pattern: SLOW_PATTERN } });
        call.catch(() => undefined);
        assert.ok(await eventually(() => rgUnder(root).length > 0), 'rg started');
        await stop(scout);
        assert.ok(await eventually(() => findProcesses((p) => p.pid === scout.pid).length === 0), 'the server exited');
        assert.deepEqual(rgUnder(root), []);
      } finally {
        await scout.close();
      }
    });
  }
});
