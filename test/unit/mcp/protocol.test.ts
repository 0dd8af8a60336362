import * as assert from 'node:assert/strict';
import { makeTree, removeTree } from '../../helpers/tree';
import { INITIALIZE, rawServer, requireFreshBuild } from './support';

/** The review's lifecycle and malformed-request probes, spoken as raw JSON-RPC lines (the SDK's client would refuse to send them). */
describe('MCP server: the protocol around the tools', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = makeTree({ 'src/a.ts': '// TODO one\n' });
    requireFreshBuild();
  });
  after(() => removeTree(root));

  it('refuses tools/list and tools/call before initialize, answers ping, then serves once initialized', async () => {
    const server = rawServer(['--cwd', root]);
    server.send(
      { jsonrpc: '2.0', id: 10, method: 'tools/list' },
      { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'grep', arguments: { pattern: 'TODO' } } },
      { jsonrpc: '2.0', id: 12, method: 'ping' },
    );
    assert.deepEqual(await server.reply(10), {
      jsonrpc: '2.0',
      id: 10,
      error: { code: -32600, message: 'The server is not initialized: send initialize first, then tools/list.' },
    });
    assert.deepEqual((await server.reply(11)).error, { code: -32600, message: 'The server is not initialized: send initialize first, then tools/call.' });
    assert.deepEqual((await server.reply(12)).result, {});
    server.send(INITIALIZE, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 13, method: 'tools/list' });
    assert.equal(((await server.reply(13)).result as { tools: unknown[] }).tools.length, 5);
    const { status, stderr } = await server.end();
    assert.equal(status, 0);
    assert.equal(stderr, '');
  });

  it('answers bad params with -32602 and a one-line reason, and an unknown tool without a doubled code', async () => {
    const server = rawServer(['--cwd', root]);
    server.send(INITIALIZE);
    await server.reply(1);
    const cases: [unknown, string][] = [
      [undefined, 'Invalid params for tools/call: params: expected object, received undefined.'],
      [{ name: 'grep', arguments: 'x' }, 'Invalid params for tools/call: params.arguments: expected record, received string.'],
      [{ name: 'grep', arguments: [1] }, 'Invalid params for tools/call: params.arguments: expected record, received array.'],
      [{ name: 'grep', arguments: null }, 'Invalid params for tools/call: params.arguments: expected record, received null.'],
      [{ name: 5 }, 'Invalid params for tools/call: params.name: expected string, received number.'],
      [{ name: '__proto__', arguments: {} }, 'Scout has no tool named "__proto__"; its tools are glob, grep, workspace_search, web_search, web_fetch.'],
    ];
    cases.forEach(([params], i) => server.send({ jsonrpc: '2.0', id: 20 + i, method: 'tools/call', ...(params === undefined ? {} : { params }) }));
    server.send({ jsonrpc: '2.0', id: 40, method: 'resources/read', params: { uri: 7 } });
    for (const [i, [, message]] of cases.entries()) assert.deepEqual((await server.reply(20 + i)).error, { code: -32602, message }, message);
    assert.deepEqual((await server.reply(40)).error, { code: -32602, message: 'Invalid params for resources/read: params.uri: expected string, received number.' });
    const { stderr } = await server.end();
    assert.equal(stderr, '');
  });
});
