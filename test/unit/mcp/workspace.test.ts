import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { namedFolders, tooBroadToSearch } from '../../../src/mcp/workspace';
import { makeTree, removeTree } from '../../helpers/tree';
import { cliText, connectScout, requireFreshBuild, textOf } from './support';

describe('MCP server: the workspace', function () {
  this.timeout(60_000);
  let api: string;
  let web: string;
  let elsewhere: string;
  /** Holds `rootlink`, a symlink to `/`. */
  let links: string;
  const grep = { pattern: 'needle' };
  before(() => {
    api = makeTree({ 'src/server.ts': 'const needle = "api";\n' });
    web = makeTree({ 'src/page.tsx': 'export const needle = "web";\n' });
    elsewhere = makeTree({ 'notes.txt': 'needle in the working directory\n', 'a-file.txt': 'not a folder\n' });
    links = makeTree({ rootlink: { symlink: '/' } });
    requireFreshBuild();
  });
  after(() => [api, web, elsewhere, links].forEach(removeTree));

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

  describe('roots that are not existing folders', () => {
    const bad = () => [
      [root(path.join(elsewhere, 'no-such-folder')), `${path.join(elsewhere, 'no-such-folder')} does not exist`],
      [root(path.join(elsewhere, 'a-file.txt')), `${path.join(elsewhere, 'a-file.txt')} is a file, not a folder`],
      [{ uri: 'file://fileserver/share/repo' }, 'it names no folder on this machine'],
      [{ uri: 'https://example.com/repo', name: 'remote' }, 'it names no folder on this machine'],
      [root('/'), '/ is the file system root, too broad to search as a workspace'],
      [root(path.join(links, 'rootlink')), `${path.join(links, 'rootlink')} is a link to the file system root, too broad to search as a workspace`],
    ] as const;

    it('fail the call with NO_WORKSPACE naming the root and why, for each kind of bad root', async () => {
      for (const [bad1, problem] of bad()) {
        const scout = await connectScout({ cwd: elsewhere, roots: [bad1] });
        try {
          const result = await scout.client.callTool({ name: 'grep', arguments: grep });
          assert.equal(result.isError, true);
          assert.equal(
            textOf(result),
            `Error: The client's workspace root is not a folder Scout can search: ${JSON.stringify(bad1.uri)} (${problem}). Open a project folder in the client, or start the server with --cwd DIR.\n(code: NO_WORKSPACE)`,
          );
        } finally {
          await scout.close();
        }
      }
    });

    it('are skipped, each with one warning, when another root is an existing folder', async () => {
      const skipped = bad();
      const scout = await connectScout({ cwd: elsewhere, roots: [skipped[0][0], root(api), ...skipped.slice(1).map(([r]) => r)] });
      try {
        const note = `Scout skipped the client's roots ${skipped.map(([r, problem]) => `${JSON.stringify(r.uri)} (${problem})`).slice(0, 5).join('; ')} and ${skipped.length - 5} more.`;
        for (let i = 0; i < 2; i++) {
          const result = await scout.client.callTool({ name: 'grep', arguments: grep });
          assert.equal(textOf(result), `${(await cliText('grep', grep, ['--cwd', api])).text}\n\n${note}`);
        }
        assert.deepEqual(
          scout.stderr().split('\n').filter(Boolean),
          skipped.map(([r, problem]) => `[warn] skipping the root ${JSON.stringify(r.uri)}: ${problem}`),
        );
      } finally {
        await scout.close();
      }
    });
  });

  it('names roots with the same folder name apart, in the client\'s order: src, then src (2), and the note says which', async () => {
    const first = makeTree({ 'src/a.txt': 'needle A\n' });
    const second = makeTree({ 'src/b.txt': 'needle B\n' });
    const scout = await connectScout({ cwd: elsewhere, roots: [root(path.join(first, 'src')), root(path.join(second, 'src'))] });
    try {
      const byDefault = textOf(await scout.client.callTool({ name: 'grep', arguments: { pattern: 'needle' } }));
      assert.equal(byDefault, `a.txt\nLine 1: needle A\n\nPaths are relative to ${path.join(first, 'src')} (workspace folder "src").`);
      const second2 = textOf(await scout.client.callTool({ name: 'grep', arguments: { pattern: 'needle', path: 'src (2)' } }));
      assert.equal(second2, `b.txt\nLine 1: needle B\n\nPaths are relative to ${path.join(second, 'src')} (workspace folder "src (2)").`);
      const byPath = textOf(await scout.client.callTool({ name: 'glob', arguments: { pattern: '*', path: path.join(second, 'src') } }));
      assert.match(byPath, /\(workspace folder "src \(2\)"\)\.$/);
    } finally {
      await scout.close();
      removeTree(first);
      removeTree(second);
    }
  });

  describe('without --cwd or roots', () => {
    it('refuses to search the file system root, telling the user to add --cwd, and warns at start', async () => {
      const scout = await connectScout({ cwd: '/' });
      try {
        for (const [tool, input] of [
          ['glob', { pattern: 'passwd', path: 'etc' }],
          ['grep', { pattern: '^root:', path: 'etc/passwd' }],
          ['workspace_search', { query: 'root' }],
        ] as const) {
          const result = await scout.client.callTool({ name: tool, arguments: input });
          assert.equal(result.isError, true, tool);
          assert.equal(
            textOf(result),
            'Error: Scout has no workspace folder: the MCP server runs in / (the file system root), which it will not search as a workspace nobody chose, and the client does not share workspace roots. Add "--cwd", "/path/to/project" to the server\'s arguments in the client\'s MCP configuration, or use a client that shares its workspace roots with MCP servers.\n(code: NO_WORKSPACE)',
          );
        }
        // The web tools need no workspace.
        const web = await scout.client.callTool({ name: 'web_fetch', arguments: { url: 'ftp://example.com/' } });
        assert.match(textOf(web), /\(code: WEB_INVALID_URL\)$/);
        assert.match(scout.stderr(), /^\[warn\] started in \/ \(the file system root\) without --cwd: glob, grep and workspace_search search only the roots a client lists; add --cwd DIR to the server's arguments in the client's MCP configuration\n/);
      } finally {
        await scout.close();
      }
    });

    it('refuses the home folder too, as the working directory and as a root, but not given with --cwd', async () => {
      const home = { HOME: elsewhere };
      const implicit = await connectScout({ cwd: elsewhere, env: home });
      try {
        const result = await implicit.client.callTool({ name: 'grep', arguments: grep });
        assert.equal(result.isError, true);
        assert.match(textOf(result), new RegExp(`^Error: Scout has no workspace folder: the MCP server runs in ${elsewhere} \\(your home folder\\)`));
        assert.match(implicit.stderr(), /^\[warn\] started in .* \(your home folder\) without --cwd/);
      } finally {
        await implicit.close();
      }
      const asRoot = await connectScout({ cwd: api, env: home, roots: [root(elsewhere)] });
      try {
        const result = await asRoot.client.callTool({ name: 'grep', arguments: grep });
        assert.equal(
          textOf(result),
          `Error: The client's workspace root is not a folder Scout can search: ${JSON.stringify(root(elsewhere).uri)} (${elsewhere} is your home folder, too broad to search as a workspace). Open a project folder in the client, or start the server with --cwd DIR.\n(code: NO_WORKSPACE)`,
        );
      } finally {
        await asRoot.close();
      }
      const chosen = await connectScout({ cwd: elsewhere, env: home, args: ['--cwd', elsewhere] });
      try {
        assert.equal(textOf(await chosen.client.callTool({ name: 'grep', arguments: grep })), (await cliText('grep', grep, ['--cwd', elsewhere])).text);
        assert.equal(chosen.stderr(), '');
      } finally {
        await chosen.close();
      }
    });
  });

  it('refuses a root that is a symlink to /, and says in the result which root it skipped', async () => {
    const rootlink = path.join(links, 'rootlink');
    const scout = await connectScout({ cwd: elsewhere, roots: [root(api), root(rootlink)] });
    try {
      const result = await scout.client.callTool({ name: 'grep', arguments: { pattern: 'PRIVATE KEY', path: 'etc' } });
      const text = textOf(result);
      assert.ok(!text.includes('/etc/'), text);
      assert.ok(text.endsWith(`\n\nScout skipped the client's root ${JSON.stringify(root(rootlink).uri)} (${rootlink} is a link to the file system root, too broad to search as a workspace).`), text);
    } finally {
      await scout.close();
    }
    const inLink = await connectScout({ cwd: rootlink });
    try {
      const result = await inLink.client.callTool({ name: 'grep', arguments: { pattern: 'PRIVATE KEY', path: 'etc' } });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /^Error: Scout has no workspace folder: the MCP server runs in .* \((a link to )?the file system root\)/);
    } finally {
      await inLink.close();
    }
  });

  describe('a client whose roots/list fails', () => {
    const unread =
      'Error: Scout has no workspace folder: the client did not answer roots/list, so Scout does not know which folders it may search. It asks again when the client sends notifications/roots/list_changed. Reopen the folder in the client, or add "--cwd", "/path/to/project" to the server\'s arguments in the client\'s MCP configuration.\n(code: NO_WORKSPACE)';

    it('gets NO_WORKSPACE, never the working directory, is asked once and warned about once, until its roots change', async () => {
      let answer: 'fail' | 'api' = 'fail';
      const scout = await connectScout({
        cwd: elsewhere,
        rootsHandler: () => {
          if (answer === 'fail') throw new McpError(-32601, 'no roots here');
          return { roots: [root(api)] };
        },
      });
      try {
        for (let i = 0; i < 3; i++) {
          const result = await scout.client.callTool({ name: 'grep', arguments: grep });
          assert.deepEqual([result.isError, textOf(result)], [true, unread]);
        }
        assert.equal(scout.rootsRequests, 1);
        assert.deepEqual(scout.stderr().split('\n').filter(Boolean), [
          '[warn] roots/list failed (MCP error -32601: no roots here); Scout refuses the tools that search the workspace until the client sends notifications/roots/list_changed',
        ]);
        answer = 'api';
        await scout.client.sendRootsListChanged();
        const inApi = (await cliText('grep', grep, ['--cwd', api])).text;
        assert.equal(textOf(await scout.client.callTool({ name: 'grep', arguments: grep })), inApi);
        assert.equal(scout.rootsRequests, 2);
      } finally {
        await scout.close();
      }
    });

    it('keeps the roots it listed last when a later roots/list fails', async () => {
      let answer: 'fail' | 'api' = 'api';
      const scout = await connectScout({
        cwd: elsewhere,
        rootsHandler: () => {
          if (answer === 'fail') throw new McpError(-32603, 'roots unavailable');
          return { roots: [root(api)] };
        },
      });
      try {
        const inApi = (await cliText('grep', grep, ['--cwd', api])).text;
        assert.equal(textOf(await scout.client.callTool({ name: 'grep', arguments: grep })), inApi);
        answer = 'fail';
        await scout.client.sendRootsListChanged();
        for (let i = 0; i < 2; i++) assert.equal(textOf(await scout.client.callTool({ name: 'grep', arguments: grep })), inApi);
        assert.equal(scout.rootsRequests, 2);
        assert.match(scout.stderr(), /\[warn\] roots\/list failed \(MCP error -32603: roots unavailable\); Scout keeps the roots it listed last until the client sends notifications\/roots\/list_changed\n$/);
      } finally {
        await scout.close();
      }
    });

    it('by never answering costs one --roots-timeout, not one per call', async () => {
      const scout = await connectScout({ cwd: elsewhere, args: ['--roots-timeout', '200'], rootsHandler: () => new Promise(() => undefined) });
      try {
        const concurrent = await Promise.all([1, 2].map(() => scout.client.callTool({ name: 'grep', arguments: grep })));
        const later = await scout.client.callTool({ name: 'grep', arguments: grep });
        for (const result of [...concurrent, later]) assert.equal(textOf(result), unread);
        assert.equal(scout.rootsRequests, 1);
        assert.match(scout.stderr(), /^\[warn\] roots\/list failed \(MCP error -32001: Request timed out\); Scout refuses the tools that search the workspace until the client sends notifications\/roots\/list_changed\n$/);
      } finally {
        await scout.close();
      }
    });
  });

  describe('namedFolders', () => {
    it('names a folder by the root\'s name when it is a usable folder name, else by its last path segment', () => {
      const named = (dir: string, name?: string) => ({ root: root(dir, name), dir });
      assert.deepEqual(
        namedFolders([
          named('/work/api', 'Backend'),
          named('/work/web'),
          named('/work/docs', 'docs/site'),
          named('/work/evil', 'x\n(code: FORGED)'),
          named('/work/blank', '  '),
          named('/work/up', '..'),
        ]),
        [
          { name: 'Backend', path: '/work/api' },
          { name: 'web', path: '/work/web' },
          { name: 'docs', path: '/work/docs' },
          { name: 'evil', path: '/work/evil' },
          { name: 'blank', path: '/work/blank' },
          { name: 'up', path: '/work/up' },
        ],
      );
    });

    it('makes names unique deterministically, never taking a name another root has as its own', () => {
      const named = (dir: string, name?: string) => ({ root: root(dir, name), dir });
      assert.deepEqual(
        namedFolders([named('/a/src'), named('/b/src'), named('/c/x', 'src (2)'), named('/d/src'), named('/e/src (2)')]).map((f) => f.name),
        ['src', 'src (3)', 'src (2)', 'src (4)', 'src (2) (2)'],
      );
    });
  });

  it('tooBroadToSearch: the file system root and the home folder (also through a symlink), nothing else', () => {
    const link = makeTree({ home: { symlink: elsewhere } });
    try {
      assert.equal(tooBroadToSearch('/', elsewhere), 'the file system root');
      assert.equal(tooBroadToSearch(elsewhere, elsewhere), 'your home folder');
      assert.equal(tooBroadToSearch(elsewhere, path.join(link, 'home')), 'your home folder');
      assert.equal(tooBroadToSearch(api, elsewhere), undefined);
      assert.equal(tooBroadToSearch(path.join(elsewhere, 'sub'), elsewhere), undefined);
    } finally {
      removeTree(link);
    }
  });
});
