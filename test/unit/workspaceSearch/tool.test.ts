import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { isToolError, type ToolErrorCode } from '../../../src/core/errors';
import { findTool } from '../../../src/core/registry';
import type { ToolEnv } from '../../../src/core/tool';
import type { WorkspaceSearchReport } from '../../../src/core/workspaceSearch/report';
import { workspaceSearchTool } from '../../../src/core/workspaceSearch/tool';
import { folder, searchEnv, type SearchEnvOptions } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

async function run(input: unknown, env: ToolEnv) {
  return workspaceSearchTool.run(workspaceSearchTool.parse(input, env.config), env);
}

async function failure(input: unknown, env: ToolEnv): Promise<{ code: ToolErrorCode; message: string }> {
  try {
    await run(input, env);
  } catch (e) {
    assert.ok(isToolError(e), String(e));
    return { code: e.code, message: e.message };
  }
  assert.fail('expected a ToolError');
}

describe('workspace_search tool (through its worker)', function () {
  this.timeout(30_000);
  let root: string;
  let outside: string;
  const env = (options: SearchEnvOptions = {}) => searchEnv({ folders: [folder(root, 'ws')], ...options });

  before(() => {
    outside = makeTree({ 'secret.txt': 'needle outside\n' });
    root = makeTree({
      'src/app.ts': 'const a = 1;\nexport const Needle = a; // needle twice\n',
      'src/util/helpers.ts': 'no match here\n',
      'docs/guide.md': '# NEEDLE guide\n',
      'node_modules/pkg/index.js': 'needle in a dependency\n',
      'back\\slash.txt': 'needle in a file whose POSIX name has a backslash\n',
      'scripts/build': 'echo a build script\n',
    });
    symlinkSync(outside, path.join(root, 'out-link'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link.txt'));
    symlinkSync('src', path.join(root, 'src-link'));
    symlinkSync('node_modules/pkg', path.join(root, 'pkg-link'));
    execFileSync('mkfifo', [path.join(root, 'pipe.ts')]);
  });
  after(() => {
    removeTree(root);
    removeTree(outside);
  });

  it('is registered as workspace_search', () => {
    assert.equal(findTool('workspace_search'), workspaceSearchTool);
  });

  it('searches the workspace and reports the same JSON to the model and as its value', async () => {
    const out = await run({ query: 'needle' }, env());
    const value = out.value as WorkspaceSearchReport;
    assert.equal(out.text, JSON.stringify(value));
    assert.deepEqual(
      value.matches.map((m) => [m.path, m.line, m.column]),
      [
        ['back\\slash.txt', 1, 1],
        ['docs/guide.md', 1, 3],
        ['src/app.ts', 2, 14],
      ],
    );
    assert.equal(value.workspaceFolder, 'ws');
    assert.equal(value.path, '.');
    assert.equal(value.filesFound, 5);
    assert.equal(value.scannedFiles, 5);
    assert.equal(value.skippedFiles, 0);
    assert.equal(value.skippedEntries, 6, 'node_modules, four symlinks and the FIFO');
    assert.equal(value.truncated, false);
    assert.deepEqual(out.summary, { matches: 3, files: 5, skipped: 0, truncated: false });
  });

  it('escapes bidi controls, line separators, C1 controls and DEL in names and previews, as grep quotes names', async () => {
    const hostile = makeTree({
      'bidi\u202etxt.exe': 'needle \u202e reversed\n',
      'sep\u2028arator.txt': 'needle \u2028 next\n',
      'nel\u0085.txt': 'needle \u0085 del \u007f end\n',
    });
    try {
      const out = await run({ query: 'needle' }, searchEnv({ folders: [folder(hostile, 'h')] }));
      const value = out.value as WorkspaceSearchReport;
      assert.equal(value.matches.length, 3);
      assert.doesNotMatch(out.text, /[\u202e\u2028\u0085\u007f]/, 'no raw unsafe character in the text');
      assert.deepEqual(JSON.parse(out.text), value, 'the text still parses to the exact value');
      for (const escape of ['\\u202e', '\\u2028', '\\u0085', '\\u007f']) assert.ok(out.text.includes(escape), escape);
      assert.ok(value.matches.some((m) => m.path === 'bidi\u202etxt.exe'), 'the value keeps the exact name');
    } finally {
      removeTree(hostile);
    }
  });

  it('honours caseSensitive and maxResults', async () => {
    const exact = (await run({ query: 'Needle', caseSensitive: true }, env())).value as WorkspaceSearchReport;
    assert.deepEqual(exact.matches.map((m) => m.path), ['src/app.ts']);
    const one = (await run({ query: 'needle', maxResults: 1 }, env())).value as WorkspaceSearchReport;
    assert.equal(one.matchCount, 1);
    assert.deepEqual(one.truncatedBy, ['maxResults']);
  });

  it('searches a directory or a single file given as path', async () => {
    const dir = (await run({ query: 'needle', path: 'src' }, env())).value as WorkspaceSearchReport;
    assert.equal(dir.path, 'src');
    assert.deepEqual(dir.matches.map((m) => m.path), ['src/app.ts']);
    const file = (await run({ query: 'needle', path: './docs/guide.md' }, env())).value as WorkspaceSearchReport;
    assert.deepEqual(file.matches.map((m) => m.path), ['docs/guide.md']);
  });

  it('follows an explicit symlink that stays inside, reporting canonical paths', async () => {
    const value = (await run({ query: 'needle', path: 'src-link' }, env())).value as WorkspaceSearchReport;
    assert.equal(value.path, 'src');
    assert.deepEqual(value.matches.map((m) => m.path), ['src/app.ts']);
  });

  it('refuses symlinks out of the workspace, even when grep may leave it', async () => {
    for (const target of ['out-link', 'secret-link.txt', '../', outside]) {
      const { code } = await failure({ query: 'needle', path: target }, env({ search: { allowPathsOutsideWorkspace: true } }));
      assert.equal(code, 'PATH_OUTSIDE_WORKSPACE', target);
    }
  });

  it('refuses an excluded directory as an explicit target, also through a symlink', async () => {
    for (const target of ['node_modules', 'node_modules/pkg/index.js', 'pkg-link', 'src/../node_modules']) {
      const { code, message } = await failure({ query: 'needle', path: target }, env());
      assert.equal(code, 'INVALID_ARGUMENT', target);
      assert.match(message, /inside "node_modules", a directory workspace_search never searches/);
    }
  });

  it('accepts a file whose own name is excluded as a directory name', async () => {
    const value = (await run({ query: 'script', path: 'scripts/build' }, env())).value as WorkspaceSearchReport;
    assert.deepEqual(value.matches.map((m) => m.path), ['scripts/build']);
  });

  it('refuses a FIFO as target without opening it, and a missing path', async () => {
    assert.match((await failure({ query: 'x', path: 'pipe.ts' }, env())).message, /neither a regular file nor a directory/);
    assert.match((await failure({ query: 'x', path: 'nope' }, env())).message, /does not exist/);
  });

  it('fails NO_WORKSPACE without a folder', async () => {
    assert.equal((await failure({ query: 'x' }, searchEnv({ folders: [] }))).code, 'NO_WORKSPACE');
  });

  it('searches the folder a multi-root path names', async () => {
    const second = makeTree({ 'b.txt': 'needle in the second folder\n' });
    try {
      const value = (await run({ query: 'needle', path: 'other' }, searchEnv({ folders: [folder(root, 'ws'), folder(second, 'other')] }))).value as WorkspaceSearchReport;
      assert.equal(value.workspaceFolder, 'other');
      assert.deepEqual(value.matches.map((m) => m.path), ['b.txt']);
    } finally {
      removeTree(second);
    }
  });

  it('caps the report at 128 KiB, dropping matches from the end', async () => {
    const big = makeTree({ 'controls.txt': `${'\u0001'.repeat(494)}needle\n`.repeat(100) });
    try {
      const out = await run({ query: 'needle' }, searchEnv({ folders: [folder(big)] }));
      const value = out.value as WorkspaceSearchReport;
      assert.ok(Buffer.byteLength(out.text) <= 128 * 1024);
      assert.equal(value.matchCount, 100);
      assert.ok(value.omittedMatches > 0 && value.matches.length + value.omittedMatches === 100);
      assert.deepEqual(value.truncatedBy, ['reportSize']);
      assert.equal(out.text, JSON.stringify(value));
    } finally {
      removeTree(big);
    }
  });

  describe('cancellation', () => {
    let many: string;
    before(() => {
      const entries: Record<string, string> = {};
      for (let i = 0; i < 1500; i++) entries[`d${i % 10}/f${i}.txt`] = 'needle\n'.repeat(20);
      many = makeTree(entries);
    });
    after(() => removeTree(many));

    it('fails WORKSPACE_SEARCH_ABORTED when cancelled before it starts', async () => {
      const controller = new AbortController();
      controller.abort();
      assert.equal((await failure({ query: 'x' }, searchEnv({ folders: [folder(many)], signal: controller.signal }))).code, 'WORKSPACE_SEARCH_ABORTED');
    });

    it('stops a running search, publishes nothing, and the next search still works', async () => {
      const controller = new AbortController();
      const progress: string[] = [];
      const env = {
        ...searchEnv({ folders: [folder(many)], signal: controller.signal }),
        progress: (message: string) => {
          progress.push(message);
          controller.abort();
        },
      };
      // A rare query makes the scan read every file, so the first progress report comes mid-scan.
      const { code } = await failure({ query: 'absent' }, env);
      assert.equal(code, 'WORKSPACE_SEARCH_ABORTED');
      assert.deepEqual(progress, ['Searched 250 of 1500 files']);
      const after = (await run({ query: 'needle', maxResults: 3 }, searchEnv({ folders: [folder(many)] }))).value as WorkspaceSearchReport;
      assert.equal(after.matchCount, 3);
    });

    it('runs concurrent searches independently', async () => {
      const [a, b] = await Promise.all([
        run({ query: 'needle', path: 'd1', maxResults: 2 }, searchEnv({ folders: [folder(many)] })),
        run({ query: 'absent' }, searchEnv({ folders: [folder(many)] })),
      ]);
      assert.equal((a.value as WorkspaceSearchReport).matchCount, 2);
      assert.equal((b.value as WorkspaceSearchReport).scannedFiles, 1500);
    });
  });
});
