import * as assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult, ResourceLink, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { globTool } from '../../../src/core/search/glob';
import { countOf, partsAdvice, readingParts, spillString } from '../../../src/core/spill';
import type { SpillWriter } from '../../../src/core/tool';
import { DIST_CLI, runCliAsync } from '../../helpers/cli';
import { searchConfig, searchEnv } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';
import { connectScout, requireFreshBuild, textOf } from '../mcp/support';

/** The reading advice a footer must carry for a saved text: its length and the line ranges to read. */
function adviceFor(saved: string): string {
  const advice = partsAdvice(readingParts([saved], []));
  assert.match(advice, /^It has [\d,]+ lines: read lines 1–1,500, then 1,501–3,000/, 'the result is long enough to be read in parts');
  return advice;
}

/** The saved text's first line must give its length in lines, as an editor numbers them. */
function checkHeading(saved: string, host: string): string {
  const heading = saved.slice(0, saved.indexOf('\n'));
  assert.equal(heading, `Scout glob "*": 4,000 files, complete result, ${countOf(saved.split('\n').length, 'line')}`, host);
  return heading;
}

/** The body's lines in order of name: glob lists by modification time, which ties among files made together. */
const sortedBody = (saved: string): string[] => saved.split('\n').slice(2).sort();

describe('saved complete results: the same length line and reading advice in the CLI, the MCP server and the editor', function () {
  this.timeout(120_000);
  const flags = ['--config', 'search.globMaxResults=10', '--config', 'search.sampleOverCapGlobResults=false'];
  let root: string;
  const written: string[] = [];
  let editor: { saved: string; text: string };

  before(async () => {
    requireFreshBuild();
    root = makeTree(Object.fromEntries(Array.from({ length: 4_000 }, (_, i) => [`f${String(i).padStart(4, '0')}.txt`, 'x\n'])));
    // The editor's path: the core saves through the host's spill writer, VS Code's untitled document in the editor.
    let saved = '';
    const writer: SpillWriter = async (text) => {
      saved = spillString(text);
      return { uri: 'untitled:Untitled-1', hint: 'It is an unsaved editor document.' };
    };
    const config = searchConfig({ globMaxResults: 10, sampleOverCapGlobResults: false });
    const output = await globTool.run(globTool.parse({ pattern: '*' }, config), searchEnv({ folders: [{ name: path.basename(root), path: root }], search: config.search, spill: writer }));
    editor = { saved, text: output.text };
  });
  after(() => {
    removeTree(root);
    for (const file of written) rmSync(file, { force: true });
  });

  it("the editor's document: its length on the first line, the ranges in the footer", () => {
    checkHeading(editor.saved, 'editor');
    assert.ok(editor.text.includes(`It is an unsaved editor document. ${adviceFor(editor.saved)}`), editor.text.slice(-700));
  });

  it("the CLI's temp file: the editor's first line, text and reading advice", async () => {
    const r = await runCliAsync(['glob', '{"pattern":"*"}', '--cwd', root, ...flags], {}, DIST_CLI);
    assert.equal(r.status, 0, r.stderr);
    const file = /It is a plain text file at (\S+);/.exec(r.stdout)?.[1];
    assert.ok(file, r.stdout.slice(-700));
    written.push(file);
    const saved = readFileSync(file, 'utf8');
    assert.equal(checkHeading(saved, 'CLI'), checkHeading(editor.saved, 'editor'));
    assert.deepEqual(sortedBody(saved), sortedBody(editor.saved));
    assert.equal(adviceFor(saved), adviceFor(editor.saved));
    assert.ok(r.stdout.includes(`read it to see every result. ${adviceFor(saved)}`), r.stdout.slice(-700));
  });

  it("the MCP server's file and resource: the editor's first line, text and reading advice", async () => {
    const scout = await connectScout({ args: ['--cwd', root, ...flags] });
    try {
      const result = (await scout.client.callTool({ name: 'glob', arguments: { pattern: '*' } })) as CallToolResult;
      const text = textOf(result);
      const file = /It is a plain text file at (\S+);/.exec(text)?.[1];
      assert.ok(file, text.slice(-700));
      written.push(file);
      const link = result.content[1] as ResourceLink;
      const resource = ((await scout.client.readResource({ uri: link.uri })).contents[0] as TextResourceContents).text;
      assert.equal(resource, readFileSync(file, 'utf8'), 'the resource is the file');
      assert.equal(link.name, checkHeading(resource, 'MCP'));
      assert.equal(checkHeading(resource, 'MCP'), checkHeading(editor.saved, 'editor'));
      assert.deepEqual(sortedBody(resource), sortedBody(editor.saved));
      assert.ok(text.includes(`or read the MCP resource ${link.uri}. ${adviceFor(editor.saved)}`), text.slice(-700));
    } finally {
      await scout.close();
    }
  });
});
