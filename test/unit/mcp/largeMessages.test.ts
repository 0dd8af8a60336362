import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { McpError, type CallToolResult, type ResourceLink, type TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { jsonStringBytes, MESSAGE_MAX_BYTES, messageBytes, STDIO_LINE_MAX_BYTES } from '../../../src/mcp/messageSize';
import { makeTree, removeTree } from '../../helpers/tree';
import { connectScout, requireFreshBuild, textOf, type ScoutSession } from './support';

/**
 * A name of 201 characters, mostly `"` and `\`: each takes two bytes in JSON, so a list of such paths is about
 * twice as long on the wire as in UTF-16 code units.
 */
const escapeHeavyName = (i: number) => `n${i}${'"\\'.repeat(100)}`.slice(0, 201);

/**
 * The review's failing input, made real: a glob result of 10,000 paths of about 600 characters (like 150,000
 * files under node_modules), whose complete result is under 8 MiB as a string but over 10 MiB as JSON. Before
 * the fix, `resources/read` sent it as one line, which the SDK's client dropped before closing the connection.
 */
describe('MCP server: messages never too big for a stdio line', function () {
  this.timeout(120_000);
  let root: string;
  let scout: ScoutSession;
  const written: string[] = [];
  before(async () => {
    requireFreshBuild();
    root = makeTree({});
    for (let a = 0; a < 10; a++) {
      for (let b = 0; b < 10; b++) {
        const dir = path.join(root, escapeHeavyName(a), escapeHeavyName(b));
        mkdirSync(dir, { recursive: true });
        for (let c = 0; c < 100; c++) writeFileSync(path.join(dir, escapeHeavyName(c)), '');
      }
    }
    scout = await connectScout({ args: ['--cwd', root] });
  });
  after(async () => {
    await scout?.close();
    removeTree(root);
    for (const file of written) rmSync(file, { force: true });
  });

  it('serves a complete result of over 10 MiB of JSON in parts, each one message under 8 MiB, that join to the saved file', async () => {
    const result = (await scout.client.callTool({ name: 'glob', arguments: { pattern: '*' } })) as CallToolResult;
    const text = textOf(result);
    const file = /It is a plain text file at (\S+);/.exec(text)?.[1];
    assert.ok(file, text.slice(-600));
    written.push(file);
    const links = result.content.slice(1) as ResourceLink[];
    assert.deepEqual(links.map((l) => l.type), ['resource_link', 'resource_link']);
    const [first, second] = links as [ResourceLink, ResourceLink];
    assert.match(first.uri, /^scout:\/\/result\/[0-9a-f]{16}$/);
    assert.equal(second.uri, `${first.uri}?part=2`);
    assert.match(first.name, /^Scout glob "\*": 10,000 files, complete result, [\d,]+ lines \(part 1 of 2\)$/);
    assert.match(second.name, / \(part 2 of 2\)$/);
    assert.ok(
      text.includes(`or read the MCP resources ${first.uri} and ${second.uri}, in order (it is served in 2 parts). It has `),
      text.slice(-600),
    );

    const parts: string[] = [];
    for (const link of links) {
      const { contents } = await scout.client.readResource({ uri: link.uri });
      const content = contents[0] as TextResourceContents;
      assert.equal(content.uri, link.uri);
      assert.equal(link.size, Buffer.byteLength(content.text));
      // The answer as the server wrote it (a client's ids are small numbers).
      assert.ok(messageBytes({ result: { contents }, jsonrpc: '2.0', id: 1000 }) <= MESSAGE_MAX_BYTES);
      parts.push(content.text);
    }
    const complete = parts.join('');
    assert.equal(complete, readFileSync(file, 'utf8'));
    assert.ok(complete.length < MESSAGE_MAX_BYTES, 'short enough in code units to pass a length check…');
    assert.ok(jsonStringBytes(complete) > STDIO_LINE_MAX_BYTES, '…and too long as JSON for one stdio line');
    assert.ok(parts[0]!.endsWith('\n'), 'the first part ends at a line end');

    const { resources } = await scout.client.listResources();
    assert.deepEqual(resources.slice(0, 2).map((r) => r.uri), [first.uri, second.uri]);
    await assert.rejects(scout.client.readResource({ uri: `${first.uri}?part=3` }), (e: unknown) => e instanceof McpError && e.code === -32002);
    await scout.client.ping();
  });

  it('answers a tool result too big for one message with an error, and goes on serving', async () => {
    const lines = makeTree(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`big${i}.txt`, `needle ${'"'.repeat(400_000)}\n`])));
    const big = await connectScout({ args: ['--cwd', lines, '--config', 'search.grepMaxMatches=100000', '--config', 'search.grepMaxLineBytes=1000000'] });
    try {
      await assert.rejects(big.client.callTool({ name: 'grep', arguments: { pattern: 'needle' } }), (e: unknown) => {
        assert.ok(e instanceof McpError);
        assert.equal(e.code, -32603);
        assert.match(e.message, /^MCP error -32603: Scout's answer is \d+(\.\d)? MiB of JSON, more than the 8 MiB it writes as one message .* lower the output limits the server was started with \(--config search\.grepMaxMatches/);
        return true;
      });
      await big.client.ping();
      assert.match(big.stderr(), /^\[warn\] MCP: the answer to request \d+ would be \d+(\.\d)? MiB, over the 8 MiB Scout writes at once; it sent an error instead\n$/);
    } finally {
      await big.close();
      removeTree(lines);
    }
  });

  it('refuses a request of over 10 MiB with an error answer instead of ending, and goes on serving', async () => {
    const before = scout.stderr();
    await assert.rejects(scout.client.callTool({ name: 'grep', arguments: { pattern: 'a'.repeat(11 * 1024 * 1024) } }), (e: unknown) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.code, -32600);
      assert.match(e.message, /^MCP error -32600: The request is 11 MiB of JSON, more than the 10 MiB Scout reads as one message, so it was not read\. Send shorter arguments\.$/);
      return true;
    });
    const after = await scout.client.callTool({ name: 'glob', arguments: { pattern: 'nothing-matches-this' } });
    assert.equal(textOf(after), 'No files found');
    assert.match(scout.stderr().slice(before.length), /^\[warn\] MCP: skipped an input line of 11 MiB, over the 10 MiB limit of one message; answered request \d+ with an error\n$/);
  });
});
