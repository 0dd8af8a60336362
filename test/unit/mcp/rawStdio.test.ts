import * as assert from 'node:assert/strict';
import { makeTree, removeTree } from '../../helpers/tree';
import { cliText, INITIALIZE, rawServer, requireFreshBuild } from './support';

/**
 * The MCP server, spoken to without the SDK: `node dist/cli.js mcp` answers `initialize`, `tools/list` and a
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
      server.send(request);
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

  it('answers initialize, tools/list and tools/call written all at once, as a shell pipe writes them', async () => {
    const server = rawServer(['--cwd', root]);
    server.send(
      INITIALIZE,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'grep', arguments: { pattern: 'needle' } } },
    );
    assert.ok('result' in (await server.reply(3)), server.stdout());
    const { status, stdout } = await server.end();
    assert.equal(status, 0);
    const replies = stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(replies.map((r) => [r.id, 'result' in r]), [[1, true], [2, true], [3, true]]);
  });

  it('answers a line that is not JSON with -32700 and one that is not a JSON-RPC message with -32600, ignores blank lines, and answers an unknown method with an error', async () => {
    const server = rawServer(['--cwd', root]);
    const lines = ['this is not json', '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"wrong"}', '', '   \r', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', '[{"jsonrpc":"2.0","id":7,"method":"ping"}]'];
    server.write(`${lines.join('\n')}\n`);
    server.send(INITIALIZE);
    await server.reply(1);
    server.send({ jsonrpc: '2.0', id: 2, method: 'prompts/list' });
    await server.reply(2);
    const { status, stdout, stderr } = await server.end();
    assert.equal(status, 0, stderr);
    const replies = stdout.trim().split('\n').map((line) => JSON.parse(line));
    const advice = 'Send each JSON-RPC message as one JSON object on its own line.';
    assert.deepEqual(replies.slice(0, 4), [
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: the line is not JSON. ${advice}` } },
      { jsonrpc: '2.0', id: 9, error: { code: -32600, message: `Invalid request: the line is not a JSON-RPC 2.0 message (params: expected object, received string). ${advice}` } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid request: the line is not a JSON-RPC 2.0 message (id: must be a string or an integer). ${advice}` } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid request: the line is not one JSON-RPC message object (Scout takes no batches). ${advice}` } },
    ]);
    assert.deepEqual(replies.slice(4).map((r) => r.id), [1, 2]);
    assert.equal(replies[4].result.serverInfo.name, 'scout');
    assert.equal(replies[5].error.code, -32601, 'a method the server does not offer');
    assert.deepEqual(stderr.split('\n').filter(Boolean), [
      `[warn] MCP: answered an input line of ${lines[0]!.length} bytes with an error: it is not JSON`,
      `[warn] MCP: answered an input line of ${lines[1]!.length} bytes with an error: it is not a JSON-RPC 2.0 message (params: expected object, received string)`,
      `[warn] MCP: answered an input line of ${lines[4]!.length} bytes with an error: it is not a JSON-RPC 2.0 message (id: must be a string or an integer)`,
      `[warn] MCP: answered an input line of ${lines[5]!.length} bytes with an error: it is not one JSON-RPC message object`,
    ]);
  });
});
