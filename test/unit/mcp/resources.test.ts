import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpError, type CallToolResult, type ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { COMPLETE_RESULTS_KEPT } from '../../../src/core/spill';
import { makeTree, removeTree } from '../../helpers/tree';
import { cliText, connectScout, requireFreshBuild, textOf, type ScoutSession } from './support';

/** The temp files a footer names (`It is a plain text file at <path>;`). */
function spillFiles(text: string): string[] {
  return [...text.matchAll(/It is a plain text file at (\S+);/g)].map((m) => m[1]!);
}

/** `text` with the complete result's locator sentence (host-specific) replaced by a marker. */
function withoutLocator(text: string): string {
  return text.replace(/The complete result is saved at [^\]]*\]/, 'The complete result is saved at <locator>]');
}

describe('MCP server: complete results as resources', function () {
  this.timeout(60_000);
  const flags = ['--config', 'search.globMaxResults=2', '--config', 'search.grepMaxMatches=2'];
  let root: string;
  let scout: ScoutSession;
  const written: string[] = [];
  before(async () => {
    root = makeTree(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/m${i}/file${i}.ts`, `export const value${i} = ${i}; // needle\n`])));
    requireFreshBuild();
    scout = await connectScout({ args: ['--cwd', root, ...flags] });
  });
  after(async () => {
    await scout?.close();
    removeTree(root);
    for (const file of written) rmSync(file, { force: true });
  });

  /** Calls `tool`, expects an over-cap result, and returns it with its resource link. */
  async function overCap(tool: string, input: Record<string, unknown>): Promise<{ result: CallToolResult; text: string; link: ResourceLink }> {
    const result = (await scout.client.callTool({ name: tool, arguments: input })) as CallToolResult;
    const text = textOf(result);
    written.push(...spillFiles(text));
    assert.equal(result.content.length, 2, JSON.stringify(result));
    const link = result.content[1] as ResourceLink;
    assert.equal(link.type, 'resource_link');
    return { result, text, link };
  }

  it('saves an over-cap result to a temp file as the CLI does, and links it as a scout://result/<id> resource', async () => {
    const input = { pattern: 'needle' };
    const { text, link } = await overCap('grep', input);
    assert.match(link.uri, /^scout:\/\/result\/[0-9a-f]{16}$/);
    assert.equal(link.mimeType, 'text/plain');
    assert.ok(text.includes(`or read the MCP resource ${link.uri}.`), text);

    const cli = await cliText('grep', input, ['--cwd', root, ...flags]);
    written.push(...spillFiles(cli.text));
    assert.equal(withoutLocator(text), withoutLocator(cli.text), 'the same page and footer, but for where the complete result is');

    const { contents } = await scout.client.readResource({ uri: link.uri });
    assert.equal(contents.length, 1);
    const complete = (contents[0] as { text: string }).text;
    assert.equal(contents[0]!.uri, link.uri);
    assert.ok(complete.startsWith(`${link.name}\n\n`), 'starts with its self-describing first line');
    assert.match(link.name, /^Scout grep "needle": 12 matches?.*complete result, [\d,]+ lines$/);
    assert.equal(complete, readFileSync(spillFiles(text)[0]!, 'utf8'), 'the resource holds what the temp file holds');
    assert.equal(complete, readFileSync(spillFiles(cli.text)[0]!, 'utf8'), "and what the CLI's temp file holds");
    assert.equal(link.size, Buffer.byteLength(complete));
  });

  it(`keeps the ${COMPLETE_RESULTS_KEPT} newest complete results, lists them newest first, and refuses an older one`, async () => {
    const links: ResourceLink[] = [];
    for (let i = 0; i <= COMPLETE_RESULTS_KEPT; i++) links.push((await overCap('glob', { pattern: i % 2 ? '*.ts' : '*' })).link);
    const { resources } = await scout.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), links.slice(1).reverse().map((l) => l.uri));
    assert.equal(new Set(links.map((l) => l.uri)).size, links.length, 'every result has its own URI');
    const newest = await scout.client.readResource({ uri: links.at(-1)!.uri });
    assert.match((newest.contents[0] as { text: string }).text, /^Scout glob "\*": 12 files, complete result, 16 lines\n\n/);
    await assert.rejects(scout.client.readResource({ uri: links[0]!.uri }), (e: unknown) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.code, -32002);
      assert.match(e.message, new RegExp(`no complete result at "${links[0]!.uri}": it keeps the ${COMPLETE_RESULTS_KEPT} newest`));
      return true;
    });
  });

  // A missing folder, and a regular file (ENOTDIR): the call and its resource are still served, and the log
  // names the folder and says to set TMPDIR, in the server's words (never a VS Code setting).
  for (const [what, name, error] of [
    ['a missing folder', 'no-such-tmp', 'ENOENT: no such file or directory'],
    ['a regular file', 'src/m0/file0.ts', 'ENOTDIR: not a directory'],
  ] as const) {
    it(`serves the call and its complete result as a resource when TMPDIR is ${what}, and its log says why and what to set`, async () => {
      const tmpdir = `${root}/${name}`;
      const session = await connectScout({ args: ['--cwd', root, ...flags], env: { TMPDIR: tmpdir } });
      try {
        const result = (await session.client.callTool({ name: 'glob', arguments: { pattern: '*' } })) as CallToolResult;
        const text = textOf(result);
        assert.ok(!result.isError, text);
        assert.match(text, /The complete result is saved at scout:\/\/result\/[0-9a-f]{16}\. Read that MCP resource to see every result\./);
        const link = result.content[1] as ResourceLink;
        assert.equal(link.type, 'resource_link');
        const { contents } = await session.client.readResource({ uri: link.uri });
        assert.match((contents[0] as { text: string }).text, /^Scout glob "\*": 12 files, complete result, 16 lines\n\n/);
        const log = session.stderr();
        assert.ok(
          log.includes(
            `[warn] glob: the complete result could not be written to a temp file (the temporary folder ${tmpdir} cannot be written to (${error}); to have it written, set the environment variable TMPDIR to a folder Scout can write to in the Scout server's environment (the env of its entry in the MCP client's configuration)); it is served only as ${link.uri}\n`,
          ),
          log,
        );
        assert.doesNotMatch(log, /scout\.\w+\.\w+|VS Code/);
      } finally {
        await session.close();
      }
    });
  }

  // The plain path was TMPDIR as given, read by a model against the workspace folder.
  it('names the temp file by its absolute path, the file of its URI, when TMPDIR is relative', async () => {
    const spills = mkdtempSync(path.join(os.tmpdir(), 'scout-mcp-relative-'));
    const session = await connectScout({ args: ['--cwd', root, ...flags], env: { TMPDIR: path.relative(os.tmpdir(), spills) } }); // run in os.tmpdir()
    try {
      const text = textOf((await session.client.callTool({ name: 'glob', arguments: { pattern: '*' } })) as CallToolResult);
      const [, uri, file] = /saved at (file:\S+)\. It is a plain text file at (\S+);/.exec(text) ?? [];
      assert.ok(uri && file, text);
      assert.ok(file.startsWith(spills + path.sep), file);
      assert.equal(pathToFileURL(file).href, uri);
    } finally {
      await session.close();
      rmSync(spills, { recursive: true, force: true });
    }
  });

  it('offers no resource templates: results come from tool calls', async () => {
    assert.deepEqual((await scout.client.listResourceTemplates()).resourceTemplates, []);
  });

  it('refuses a resource URI it never made', async () => {
    for (const uri of ['scout://result/0000000000000000', 'file:///etc/passwd', 'scout://result/../../etc/passwd']) {
      await assert.rejects(scout.client.readResource({ uri }), (e: unknown) => e instanceof McpError && e.code === -32002, uri);
    }
  });
});
