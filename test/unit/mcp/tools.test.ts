import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS } from '../../../src/core/registry';
import { makeTree, removeTree } from '../../helpers/tree';
import { cliText, connectScout, requireFreshBuild, textOf, type ScoutSession } from './support';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));

describe('MCP server: tools', function () {
  this.timeout(60_000);
  let root: string;
  let scout: ScoutSession;
  before(async () => {
    root = makeTree({
      'src/app.ts': 'export function handleRequest(req: Request) {\n  // TODO: validate req.body\n  return respond(req);\n}\n',
      'src/util/strings.ts': 'export const trimAll = (s: string[]) => s.map((x) => x.trim());\n// TODO(ada): unicode\n',
      'test/app.test.ts': "import { handleRequest } from '../src/app';\ndescribe('handleRequest', () => {});\n",
      'README.md': '# Demo\n\nCall `handleRequest(req)` to answer a request.\n',
      'package.json': '{ "name": "demo", "version": "1.0.0" }\n',
    });
    requireFreshBuild();
    scout = await connectScout({ args: ['--cwd', root] });
  });
  after(async () => {
    await scout?.close();
    removeTree(root);
  });

  it('lists the five tools with the names, descriptions and input schemas of package.json', async () => {
    const { tools } = await scout.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), Object.keys(TOOLS));
    for (const tool of tools) {
      const declared = manifest.contributes.languageModelTools.find((d: { name: string }) => d.name === tool.name);
      assert.equal(tool.description, declared.modelDescription, tool.name);
      assert.deepEqual(tool.inputSchema, declared.inputSchema, tool.name);
      assert.equal(tool.title, declared.displayName, tool.name);
    }
  });

  it('marks glob, grep and workspace_search read-only and closed-world, and the web tools neither, so clients ask before them', async () => {
    const { tools } = await scout.client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, [t.annotations?.readOnlyHint, t.annotations?.openWorldHint, t.annotations?.destructiveHint]]));
    assert.deepEqual(hints, {
      glob: [true, false, undefined],
      grep: [true, false, undefined],
      workspace_search: [true, false, undefined],
      web_search: [false, true, undefined],
      web_fetch: [false, true, undefined],
    });
  });

  const calls: [string, Record<string, unknown>][] = [
    ['glob', { pattern: '*.ts' }],
    ['glob', { pattern: '*', path: 'src' }],
    ['grep', { pattern: 'TODO', include: '*.ts' }],
    ['grep', { pattern: 'handleRequest\\(', path: 'src/app.ts' }],
    ['workspace_search', { query: 'handleRequest(' }],
    ['workspace_search', { query: 'todo', caseSensitive: false, maxResults: 1 }],
    // Read the way the model meant them, with a note (see the next test).
    ['grep', { pattern: 'string[]' }],
    ['grep', { pattern: '(?<=TODO)\\(ada' }],
    ['glob', { pattern: '*.MD' }],
    ['glob', { pattern: 'src\\*.ts|test\\*.ts' }],
  ];
  for (const [tool, input] of calls) {
    it(`answers ${tool} ${JSON.stringify(input)} with exactly the CLI's text`, async () => {
      const expected = await cliText(tool, input, ['--cwd', root]);
      assert.equal(expected.status, 0, expected.text);
      const result = await scout.client.callTool({ name: tool, arguments: input });
      assert.equal(result.isError, undefined);
      assert.equal((result.content as unknown[]).length, 1, 'one text item, no resource link for a result that fits');
      assert.equal(textOf(result), expected.text);
    });
  }

  it('says how it read a call that found nothing as sent', async () => {
    const noteOf = async (name: string, args: Record<string, unknown>) => textOf(await scout.client.callTool({ name, arguments: args })).split('\n').filter((l) => l.startsWith('['));
    assert.deepEqual(await noteOf('grep', { pattern: 'string[]' }), ['[pattern "string[]" is not a valid regex, so it was searched as literal text (--fixed-strings).]']);
    assert.deepEqual(await noteOf('grep', { pattern: '(?<=TODO)\\(ada' }), ['[pattern "(?<=TODO)\\\\(ada" uses look-around or a backreference, so it ran on ripgrep\'s PCRE2 engine (--pcre2).]']);
    assert.deepEqual(await noteOf('glob', { pattern: '*.MD' }), ['[pattern "*.MD" matched nothing as written (globs are case-sensitive), so it was read case-insensitively, as "*.[mM][dD]".]']);
  });

  const failures: [string, string, Record<string, unknown>, string][] = [
    ['a pattern of the wrong type', 'grep', { pattern: 5 }, 'INVALID_ARGUMENT'],
    ['an unknown argument', 'glob', { pattern: '*', recursive: true }, 'INVALID_ARGUMENT'],
    ['a missing argument', 'workspace_search', {}, 'INVALID_ARGUMENT'],
    ['an invalid regular expression', 'grep', { pattern: 'nowhere[' }, 'SEARCH_INVALID_PATTERN'],
    ['a path outside the workspace', 'grep', { pattern: 'x', path: '/etc' }, 'PATH_OUTSIDE_WORKSPACE'],
    ['a path that does not exist', 'glob', { pattern: '*', path: 'nope' }, 'INVALID_ARGUMENT'],
    ['a URL that is not http(s)', 'web_fetch', { url: 'file:///etc/passwd' }, 'WEB_INVALID_URL'],
  ];
  for (const [what, tool, input, code] of failures) {
    it(`returns ${what} as an isError result with the CLI's Error text (${code})`, async () => {
      const expected = await cliText(tool, input, ['--cwd', root]);
      assert.equal(expected.status, 1, expected.text);
      const result = await scout.client.callTool({ name: tool, arguments: input });
      assert.equal(result.isError, true);
      assert.equal(textOf(result), expected.text);
      assert.match(textOf(result), new RegExp(`^Error: .*\\n\\(code: ${code}\\)$`, 's'));
    });
  }

  it('treats a call without arguments as an empty argument object', async () => {
    const result = await scout.client.callTool({ name: 'glob' });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), (await cliText('glob', {}, ['--cwd', root])).text);
  });

  it('answers an unknown tool name with a protocol error naming the tools, its code said once', async () => {
    await assert.rejects(scout.client.callTool({ name: 'read_file', arguments: {} }), (e: unknown) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.code, -32602);
      // The SDK's client puts "MCP error -32602: " before the message it receives; the server adds none.
      assert.equal(e.message, 'MCP error -32602: Scout has no tool named "read_file"; its tools are glob, grep, workspace_search, web_search, web_fetch.');
      return true;
    });
  });

  it('reports workspace_search progress with the number of files done and the total', async () => {
    const many = makeTree(Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`src/m${i % 20}/f${i}.ts`, `export const v${i} = ${i};\n`])));
    const counted = await connectScout({ args: ['--cwd', many] });
    try {
      const updates: Progress[] = [];
      const result = await counted.client.callTool({ name: 'workspace_search', arguments: { query: 'no such text' } }, undefined, { onprogress: (p) => updates.push(p) });
      assert.equal(result.isError, undefined);
      assert.deepEqual(updates, [
        { progress: 250, total: 600, message: 'Searched 250 of 600 files' },
        { progress: 500, total: 600, message: 'Searched 500 of 600 files' },
      ]);
    } finally {
      await counted.close();
      removeTree(many);
    }
  });
});
