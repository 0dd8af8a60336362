import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isToolError } from '../../../src/core/errors';
import { excludedNameTest } from '../../../src/core/workspaceSearch/target';
import { discoverFiles, type Discovery } from '../../../src/core/workspaceSearch/traversal';
import { makeTree, removeTree } from '../../helpers/tree';

const DEFAULT_EXCLUDED = ['.git', 'node_modules', '.pi', 'dist', 'build'];

function discover(root: string, options: { excluded?: string[]; platform?: NodeJS.Platform; beforeList?: (dir: string) => void } = {}): Discovery {
  return discoverFiles({ absPath: root, relPath: '.' }, excludedNameTest(options.excluded ?? DEFAULT_EXCLUDED, options.platform ?? 'linux'), {
    isCancelled: () => false,
    beforeList: options.beforeList,
  });
}
const paths = (d: Discovery) => d.files.map((f) => f.relPath);

describe('workspace_search traversal', () => {
  const roots: string[] = [];
  const tree = (entries: Parameters<typeof makeTree>[0]) => {
    const root = makeTree(entries);
    roots.push(root);
    return root;
  };
  after(() => roots.forEach(removeTree));

  it('walks depth first, each directory sorted by name (code-unit order)', () => {
    const root = tree({ 'b.txt': '', 'a/z.txt': '', 'a/b/c.txt': '', 'A.txt': '', 'a.txt': '', '_x/y.txt': '' });
    assert.deepEqual(paths(discover(root)), ['A.txt', '_x/y.txt', 'a/b/c.txt', 'a/z.txt', 'a.txt', 'b.txt']);
  });

  it('collects exactly 2,000 files without truncation, and stops at the 2,001st', () => {
    const entries: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) entries[`d${i % 7}/f${String(i).padStart(4, '0')}.txt`] = '';
    const exact = tree(entries);
    const atLimit = discover(exact);
    assert.equal(atLimit.files.length, 2000);
    assert.deepEqual([...atLimit.limitsReached], []);

    const over = tree({ ...entries, 'd9/extra.txt': '' });
    const past = discover(over);
    assert.equal(past.files.length, 2000);
    assert.deepEqual([...past.limitsReached], ['files']);
    assert.ok(!paths(past).includes('d9/extra.txt'), 'the last file in walk order is the one left out');
  });

  it('visits depth 16 and not depth 17 (rg --max-depth 16)', () => {
    const deep = (n: number) => `${Array.from({ length: n - 1 }, (_, i) => `d${i + 1}`).join('/')}/f${n}.txt`;
    const at16 = tree({ [deep(16)]: '' });
    const sixteen = discover(at16);
    assert.deepEqual(paths(sixteen), [deep(16)]);
    assert.deepEqual([...sixteen.limitsReached], []);

    const at17 = tree({ [deep(16)]: '', [deep(17)]: '' });
    const seventeen = discover(at17);
    assert.deepEqual(paths(seventeen), [deep(16)]);
    assert.deepEqual([...seventeen.limitsReached], ['depth']);
    assert.equal(seventeen.skippedEntries, 1, 'the directory at depth 16 is not listed');
  });

  it('lists 512 directories (the root included) and skips the 513th', () => {
    const entries: Record<string, string> = {};
    for (let i = 0; i < 511; i++) entries[`d${String(i).padStart(3, '0')}/f.txt`] = '';
    const exact = tree(entries);
    const atLimit = discover(exact);
    assert.equal(atLimit.directories, 512);
    assert.equal(atLimit.files.length, 511);
    assert.deepEqual([...atLimit.limitsReached], []);

    const over = tree({ ...entries, 'd511/f.txt': '' });
    const past = discover(over);
    assert.equal(past.directories, 512);
    assert.equal(past.files.length, 511);
    assert.deepEqual([...past.limitsReached], ['directories']);
  });

  it('examines 4,096 entries (skipped ones count) and stops at the 4,097th', () => {
    const exact = tree({ 'real.txt': '' });
    for (let i = 0; i < 4095; i++) symlinkSync('real.txt', path.join(exact, `link${i}`));
    const atLimit = discover(exact);
    assert.equal(atLimit.entries, 4096);
    assert.equal(atLimit.skippedEntries, 4095);
    assert.deepEqual([...atLimit.limitsReached], []);

    symlinkSync('real.txt', path.join(exact, 'one-more'));
    const past = discover(exact);
    assert.equal(past.entries, 4096);
    assert.deepEqual([...past.limitsReached], ['entries']);
  });

  it('lists no further directory once the entry budget is spent', () => {
    const root = tree({ 'a/.keep': '', 'b/inner.txt': '' });
    for (let i = 0; i < 4096; i++) symlinkSync('.keep', path.join(root, 'a', `link${i}`));
    const d = discover(root);
    assert.deepEqual([...d.limitsReached], ['entries']);
    assert.equal(d.entries, 4096);
    assert.equal(d.directories, 2, 'the root and a; b was examined but never listed');
    assert.ok(!paths(d).includes('b/inner.txt'));
  });

  it('skips discovered symlinks, special files and excluded directories without opening them', () => {
    const root = tree({
      'src/app.ts': '',
      'node_modules/pkg/index.js': '',
      '.git/HEAD': '',
      '.pi/state.json': '',
      'dist/out.js': '',
      'build/out.js': '',
      'src/build/nested.js': '',
      'outside.txt': '',
      'Build/kept.js': '',
    });
    symlinkSync('/etc/passwd', path.join(root, 'src/passwd.ts'));
    symlinkSync('/etc', path.join(root, 'etc-link'));
    execFileSync('mkfifo', [path.join(root, 'src/pipe.ts')]); // a FIFO named like a source file: never opened, never hangs
    const d = discover(root);
    assert.deepEqual(paths(d), ['Build/kept.js', 'outside.txt', 'src/app.ts']);
    assert.equal(d.skippedEntries, 9, '6 excluded directories, 2 symlinks and a FIFO');
    assert.deepEqual([...d.limitsReached], []);
  });

  it('compares excluded names case-insensitively on Windows and macOS only', () => {
    const root = tree({ 'Node_Modules/x.js': '', 'BUILD/y.js': '', 'src/z.js': '' });
    assert.deepEqual(paths(discover(root, { platform: 'darwin' })), ['src/z.js']);
    assert.deepEqual(paths(discover(root, { platform: 'win32' })), ['src/z.js']);
    assert.deepEqual(paths(discover(root, { platform: 'linux' })), ['BUILD/y.js', 'Node_Modules/x.js', 'src/z.js']);
  });

  it('takes its excluded names from the setting, ignoring junk entries', () => {
    const root = tree({ 'vendor/a.js': '', 'node_modules/b.js': '', 'src/c.js': '' });
    assert.deepEqual(paths(discover(root, { excluded: ['vendor', '', 7 as unknown as string] })), ['node_modules/b.js', 'src/c.js']);
  });

  it('keeps a literal backslash of a POSIX file name in the relative path', () => {
    const root = tree({ 'dir\\name/file\\x.txt': '' });
    assert.deepEqual(paths(discover(root)), ['dir\\name/file\\x.txt']);
  });

  it('gives a partial result when a directory below the root cannot be listed', () => {
    const root = tree({ 'a/lost.txt': '', 'b/kept.txt': '', 'c.txt': '' });
    const d = discover(root, { beforeList: (dir) => dir.endsWith('/a') && rmSync(dir, { recursive: true }) });
    assert.deepEqual(paths(d), ['b/kept.txt', 'c.txt']);
    assert.equal(d.unreadableDirectories, 1);
  });

  it('fails WORKSPACE_SEARCH_FAILED when the root itself cannot be listed', () => {
    const root = tree({ 'x.txt': '' });
    const gone = path.join(root, 'gone');
    mkdirSync(gone);
    rmSync(gone, { recursive: true });
    assert.throws(() => discover(gone), (e) => isToolError(e) && e.code === 'WORKSPACE_SEARCH_FAILED' && /cannot list the directory/.test(e.message));
  });

  it('observes cancellation between entries', () => {
    const root = tree({ 'a.txt': '', 'b.txt': '' });
    writeFileSync(path.join(root, 'c.txt'), '');
    let checks = 0;
    assert.throws(
      () => discoverFiles({ absPath: root, relPath: '.' }, excludedNameTest([]), { isCancelled: () => ++checks > 2 }),
      (e) => isToolError(e) && e.code === 'WORKSPACE_SEARCH_ABORTED',
    );
  });
});
