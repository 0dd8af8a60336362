import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cliEnvironment, DIST_CLI } from '../../helpers/cli';
import { makeTree, removeTree } from '../../helpers/tree';
import { cliText, requireFreshBuild } from './support';

/** `node dist/cli.js mcp ...args` spoken to as raw text: lines in, stdout and stderr out. */
function rawServer(args: string[]) {
  const server = spawn(process.execPath, [DIST_CLI, 'mcp', ...args], { env: cliEnvironment() });
  let stdout = '';
  let stderr = '';
  server.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  server.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
  return {
    /** Writes `text` to the server's stdin as it is. */
    write: (text: string) => void server.stdin.write(text),
    /** Waits (at most 400 × 25 ms) until stdout holds the reply with this `id`. */
    async reply(id: number): Promise<void> {
      for (let i = 0; i < 400 && !stdout.includes(`"id":${id}`); i++) await new Promise((r) => setTimeout(r, 25));
    },
    /** Closes stdin and resolves with the exit status and everything written. */
    async end(): Promise<{ status: number | null; stdout: string; stderr: string }> {
      server.stdin.end();
      const status = await exited;
      return { status, stdout, stderr };
    },
  };
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-client', version: '0.0.1' } } };

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
    const server = rawServer(['--cwd', root]);
    // One request at a time, as a client that waits for each answer sends them.
    for (const request of [
      INITIALIZE,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'grep', arguments: { pattern: 'needle', include: '*.ts' } } },
    ]) {
      server.write(`${JSON.stringify(request)}\n`);
      if ('id' in request && request.id !== undefined) await server.reply(request.id);
    }
    const { status, stdout, stderr } = await server.end();
    assert.equal(status, 0, stderr);
    assert.equal(stderr, '');

    assert.ok(stdout.endsWith('\n'));
    const replies = stdout.slice(0, -1).split('\n').map((line) => JSON.parse(line));
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

  it('skips a line that is not a JSON-RPC message with a warning on stderr, and answers an unknown method with an error', async () => {
    const server = rawServer(['--cwd', root]);
    server.write('this is not json\n{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"wrong"}\n');
    server.write(`${JSON.stringify(INITIALIZE)}\n`);
    await server.reply(1);
    server.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'prompts/list' })}\n`);
    await server.reply(2);
    const { status, stdout, stderr } = await server.end();
    assert.equal(status, 0, stderr);
    const replies = stdout.trim().split('\n').map((line) => JSON.parse(line));
    // The SDK's stdio transport drops a message that fails its JSON-RPC schema, even one with an id.
    assert.deepEqual(replies.map((r) => r.id), [1, 2]);
    assert.equal(replies[0].result.serverInfo.name, 'scout');
    assert.equal(replies[1].error.code, -32601, 'a method the server does not offer');
    const warnings = stderr.split('\n').filter(Boolean);
    assert.equal(warnings.length, 2, stderr);
    assert.match(warnings[0]!, /^\[warn\] MCP: .*"this is not json" is not valid JSON$/);
    assert.match(warnings[1]!, /^\[warn\] MCP: .*expected object, received string/);
  });
});
