import * as assert from 'node:assert/strict';
import { findProcesses, processesUnder } from '../../helpers/processes';
import { makeTree, removeTree, SLOW_PATTERN, writeSlowCorpus } from '../../helpers/tree';
import { connectScout, eventually, INITIALIZE, rawServer, requireFreshBuild, type ScoutSession } from './support';

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
    // SIGHUP's default action ended Node at once and left rg running in its own process group.
    ['it gets SIGHUP (its terminal or client hung up)', async (scout: ScoutSession) => void process.kill(scout.pid, 'SIGHUP')],
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

  /** A raw server in `root` with a slow grep running (request id 2); resolves once its rg has started. */
  async function serverWithSlowGrep() {
    const server = rawServer(['--cwd', root]);
    server.send(INITIALIZE, { jsonrpc: '2.0', method: 'notifications/initialized' });
    await server.reply(1);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'grep', arguments: { pattern: SLOW_PATTERN } } });
    assert.ok(await eventually(() => rgUnder(root).length > 0), 'rg started');
    return server;
  }

  it('exits with status 0, not by the signal, on SIGHUP, and leaves no rg behind', async () => {
    const server = await serverWithSlowGrep();
    process.kill(server.pid, 'SIGHUP');
    assert.deepEqual(await server.exited, { status: 0, signal: null });
    assert.ok(await eventually(() => rgUnder(root).length === 0), `rg left behind: ${JSON.stringify(rgUnder(root))}`);
  });

  it('stops, with status 1 and a warning, when the client has closed its end of stdout (EPIPE)', async () => {
    const server = await serverWithSlowGrep();
    server.closeStdout();
    // The server learns that stdout is gone when it next writes: the answer to this ping.
    server.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    assert.deepEqual(await server.exited, { status: 1, signal: null });
    assert.ok(await eventually(() => rgUnder(root).length === 0), `rg left behind: ${JSON.stringify(rgUnder(root))}`);
    assert.match(server.stderr(), /^\[warn\] MCP: stdout is closed \(EPIPE\), so no answer can reach the client; the server stops$/m);
  });
});
