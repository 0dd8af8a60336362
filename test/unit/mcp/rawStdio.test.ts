import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cliEnvironment, DIST_CLI } from '../../helpers/cli';
import { makeTree, removeTree } from '../../helpers/tree';
import { cliText, requireFreshBuild } from './support';

/**
 * The bar of issue 17, spoken without the SDK: `node dist/cli.js mcp` answers `initialize`, `tools/list` and a
 * `tools/call` of grep written to its stdin as newline-delimited JSON-RPC, one message a line on stdout.
 */
describe('MCP server: raw newline-delimited JSON-RPC over stdio', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = makeTree({ 'src/a.ts': 'const needle = 1;\n', 'src/b.ts': 'needle();\n', 'README.md': '# needle\n' });
    requireFreshBuild();
  });
  after(() => removeTree(root));

  it('answers initialize, tools/list with the five tools, and a tools/call of grep', async () => {
    const requests = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-client', version: '0.0.1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'grep', arguments: { pattern: 'needle', include: '*.ts' } } },
    ];
    const server = spawn(process.execPath, [DIST_CLI, 'mcp', '--cwd', root], { env: cliEnvironment() });
    let stdout = '';
    let stderr = '';
    server.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    server.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    // One request at a time, as a client that waits for each answer would send them.
    for (const request of requests) {
      server.stdin.write(`${JSON.stringify(request)}\n`);
      if (!('id' in request)) continue;
      for (let i = 0; i < 400 && !stdout.split('\n').some((line) => line.includes(`"id":${request.id}`)); i++) await new Promise((r) => setTimeout(r, 25));
    }
    server.stdin.end();
    assert.equal(await exited, 0, stderr);
    assert.equal(stderr, '');

    assert.ok(stdout.endsWith('\n'));
    const lines = stdout.slice(0, -1).split('\n');
    const replies = lines.map((line) => JSON.parse(line));
    assert.deepEqual(replies.map((r) => r.id), [1, 2, 3], 'one reply a line, nothing else on stdout');
    for (const reply of replies) assert.equal(reply.jsonrpc, '2.0');

    const [initialize, list, call] = replies;
    assert.equal(initialize.result.protocolVersion, '2025-06-18');
    assert.equal(initialize.result.serverInfo.name, 'scout');
    assert.deepEqual(Object.keys(initialize.result.capabilities).sort(), ['resources', 'tools']);
    assert.deepEqual(list.result.tools.map((t: { name: string }) => t.name), ['glob', 'grep', 'workspace_search', 'web_search', 'web_fetch']);
    const expected = await cliText('grep', { pattern: 'needle', include: '*.ts' }, ['--cwd', root]);
    assert.deepEqual(call.result, { content: [{ type: 'text', text: expected.text }] });
  });
});
