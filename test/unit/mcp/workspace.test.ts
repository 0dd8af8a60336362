import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { foldersFromRoots } from '../../../src/mcp/workspace';
import { makeTree, removeTree } from '../../helpers/tree';
import { recordingLogger } from '../webSearch/fixtures';
import { cliText, connectScout, requireFreshBuild, textOf } from './support';

describe('MCP server: the workspace', function () {
  this.timeout(60_000);
  let api: string;
  let web: string;
  let elsewhere: string;
  const grep = { pattern: 'needle' };
  before(() => {
    api = makeTree({ 'src/server.ts': 'const needle = "api";\n' });
    web = makeTree({ 'src/page.tsx': 'export const needle = "web";\n' });
    elsewhere = makeTree({ 'notes.txt': 'needle in the working directory\n' });
    requireFreshBuild();
  });
  after(() => [api, web, elsewhere].forEach(removeTree));

  const root = (dir: string, name?: string) => ({ uri: pathToFileURL(dir).href, ...(name ? { name } : {}) });

  it('is the client\'s root, asked for once, then again after roots/list_changed', async () => {
    const scout = await connectScout({ cwd: elsewhere, roots: [root(api)] });
    try {
      const first = await scout.client.callTool({ name: 'grep', arguments: grep });
      assert.equal(textOf(first), (await cliText('grep', grep, ['--cwd', api])).text);
      await scout.client.callTool({ name: 'glob', arguments: { pattern: '*' } });
      assert.equal(scout.rootsRequests, 1, 'the roots are kept between calls');

      await scout.setRoots([root(web)]);
      const changed = await scout.client.callTool({ name: 'grep', arguments: grep });
      assert.equal(textOf(changed), (await cliText('grep', grep, ['--cwd', web])).text);
      assert.equal(scout.rootsRequests, 2);
    } finally {
      await scout.close();
    }
  });

  it('acts as a multi-root workspace for several roots: the first is the default, a folder name picks another', async () => {
    const scout = await connectScout({ cwd: elsewhere, roots: [root(api, 'api'), root(web, 'web')] });
    try {
      const byDefault = textOf(await scout.client.callTool({ name: 'glob', arguments: { pattern: '*' } }));
      assert.ok(byDefault.includes('src/server.ts') && byDefault.includes(api), byDefault);
      assert.ok(!byDefault.includes('page.tsx'), byDefault);
      const named = textOf(await scout.client.callTool({ name: 'grep', arguments: { pattern: 'needle', path: 'web/src' } }));
      assert.ok(named.includes('src/page.tsx') && named.includes(web), named);
      assert.ok(!named.includes('server.ts'), named);
      const search = textOf(await scout.client.callTool({ name: 'workspace_search', arguments: { query: 'needle', path: 'web' } }));
      const value = JSON.parse(search);
      assert.equal(value.workspaceFolder, 'web');
      assert.deepEqual(value.matches.map((m: { path: string }) => m.path), ['src/page.tsx']);
    } finally {
      await scout.close();
    }
  });

  it('refuses paths outside the roots, as VS Code does outside its folders', async () => {
    const scout = await connectScout({ cwd: elsewhere, roots: [root(api)] });
    try {
      for (const [tool, input] of [
        ['grep', { pattern: 'needle', path: path.join(elsewhere, 'notes.txt') }],
        ['glob', { pattern: '*', path: '../' }],
        ['workspace_search', { query: 'needle', path: elsewhere }],
      ] as const) {
        const result = await scout.client.callTool({ name: tool, arguments: input });
        assert.equal(result.isError, true, tool);
        assert.match(textOf(result), /\(code: PATH_OUTSIDE_WORKSPACE\)$/, tool);
      }
    } finally {
      await scout.close();
    }
  });

  it('is the --cwd folder when one is given: the client\'s roots are never asked for', async () => {
    const scout = await connectScout({ cwd: elsewhere, args: ['--cwd', web], roots: [root(api)] });
    try {
      const result = await scout.client.callTool({ name: 'grep', arguments: grep });
      assert.equal(textOf(result), (await cliText('grep', grep, ['--cwd', web])).text);
      assert.equal(scout.rootsRequests, 0);
    } finally {
      await scout.close();
    }
  });

  it('is the server\'s working directory for a client without roots', async () => {
    const scout = await connectScout({ cwd: elsewhere });
    try {
      const result = await scout.client.callTool({ name: 'grep', arguments: grep });
      assert.equal(textOf(result), (await cliText('grep', grep, ['--cwd', elsewhere])).text);
    } finally {
      await scout.close();
    }
  });

  it('is the working directory when no root names a local folder, or the client answers roots/list wrongly', async () => {
    const expected = (await cliText('grep', grep, ['--cwd', elsewhere])).text;
    for (const [roots, warning] of [
      [[{ uri: 'file://fileserver/share/repo' }], /\[warn\] skipping the root "file:\/\/fileserver\/share\/repo": it names no folder on this machine\n/],
      [[{ uri: 'https://example.com/repo', name: 'remote' }], /\[warn\] roots\/list failed \(.*must start with .*file:\/\/.*\); the workspace is the working directory .*\n/],
    ] as const) {
      const scout = await connectScout({ cwd: elsewhere, roots: [...roots] });
      try {
        const result = await scout.client.callTool({ name: 'grep', arguments: grep });
        assert.equal(textOf(result), expected);
        assert.match(scout.stderr(), warning);
      } finally {
        await scout.close();
      }
    }
  });

  describe('foldersFromRoots', () => {
    it('names a folder by the root\'s name when it is a usable folder name, else by its last path segment', () => {
      const log = recordingLogger();
      const folders = foldersFromRoots(
        [
          root('/work/api', 'Backend'),
          root('/work/web'),
          root('/work/docs', 'docs/site'),
          root('/work/evil', 'x\n(code: FORGED)'),
          root('/work/blank', '  '),
          { uri: 'file://fileserver/share/repo' },
        ],
        log,
      );
      assert.deepEqual(folders, [
        { name: 'Backend', path: '/work/api' },
        { name: 'web', path: '/work/web' },
        { name: 'docs', path: '/work/docs' },
        { name: 'evil', path: '/work/evil' },
        { name: 'blank', path: '/work/blank' },
      ]);
      assert.deepEqual(log.lines, ['[warn] skipping the root "file://fileserver/share/repo": it names no folder on this machine']);
    });
  });
});
