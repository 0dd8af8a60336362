import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { isToolError, ToolError, type ToolErrorCode } from '../../../src/core/errors';
import { isWithin, resolveTarget, type ResolveOptions, type WorkspaceFolderRef } from '../../../src/core/workspace/folders';
import { makeTree, removeTree } from '../../helpers/tree';

async function errorCode(pathArg: string | undefined, folders: WorkspaceFolderRef[], options?: ResolveOptions): Promise<ToolErrorCode> {
  try {
    await resolveTarget(pathArg, folders, options);
  } catch (e) {
    assert.ok(isToolError(e), String(e));
    return e.code;
  }
  assert.fail('expected a ToolError');
}

describe('resolveTarget', () => {
  let first: string;
  let second: string;
  let outside: string;
  let folders: WorkspaceFolderRef[];

  before(() => {
    outside = makeTree({ 'o.txt': 'o' });
    second = makeTree({ 'lib/l.ts': 'l', 'docs/d.md': 'd' });
    first = makeTree({
      'src/a.ts': 'a',
      '-dir/x': 'x',
      'app/(auth)/users/[id]/page.tsx': 'p',
      'to-second': { symlink: path.join(second, 'lib') },
      'to-outside': { symlink: outside },
      'loop1': { symlink: 'loop2' },
      'loop2': { symlink: 'loop1' },
    });
    folders = [
      { name: 'main', path: first },
      { name: 'other', path: second },
    ];
  });
  after(() => [first, second, outside].forEach(removeTree));

  it('defaults to the first folder', async () => {
    assert.deepEqual(await resolveTarget(undefined, folders), { workdir: first, folderName: 'main', absPath: first, relPath: '.', kind: 'directory' });
  });

  it('resolves relative paths against the first folder, including odd names', async () => {
    assert.deepEqual(await resolveTarget('src/a.ts', folders), { workdir: first, folderName: 'main', absPath: path.join(first, 'src/a.ts'), relPath: 'src/a.ts', kind: 'file' });
    assert.equal((await resolveTarget('-dir', folders)).relPath, '-dir');
    assert.equal((await resolveTarget('app/(auth)/users/[id]/page.tsx', folders)).relPath, 'app/(auth)/users/[id]/page.tsx');
    assert.equal((await resolveTarget('src/../src/./a.ts', folders)).relPath, 'src/a.ts');
  });

  it('picks a folder by the first segment in a multi-root workspace', async () => {
    const target = await resolveTarget('other/docs', folders);
    assert.deepEqual([target.workdir, target.folderName, target.relPath], [second, 'other', 'docs']);
    assert.equal((await resolveTarget('other', folders)).relPath, '.');
  });

  it('accepts absolute paths inside any folder, relative to that folder', async () => {
    const target = await resolveTarget(path.join(second, 'lib/l.ts'), folders);
    assert.deepEqual([target.workdir, target.relPath], [second, 'lib/l.ts']);
  });

  it('follows symlinks: into another folder is fine, out of every folder is refused', async () => {
    const into = await resolveTarget('to-second', folders);
    assert.deepEqual([into.workdir, into.folderName, into.relPath], [second, 'other', 'lib']);
    assert.equal(await errorCode('to-outside', folders), 'PATH_OUTSIDE_WORKSPACE');
    assert.equal(await errorCode('../', folders), 'PATH_OUTSIDE_WORKSPACE');
    assert.equal(await errorCode(outside, folders), 'PATH_OUTSIDE_WORKSPACE');
  });

  it('allows outside targets when asked, relative to the base folder', async () => {
    const target = await resolveTarget('to-outside', folders, { allowOutside: true });
    assert.deepEqual([target.workdir, target.relPath], [first, path.relative(first, outside)]);
  });

  it('fails INVALID_ARGUMENT for a missing path or a symlink loop', async () => {
    assert.equal(await errorCode('missing', folders), 'INVALID_ARGUMENT');
    assert.equal(await errorCode('loop1', folders), 'INVALID_ARGUMENT');
  });

  it('gives every outside path one answer, whether it exists or not', async () => {
    const message = async (pathArg: string) => {
      try {
        await resolveTarget(pathArg, folders);
      } catch (e) {
        assert.ok(isToolError(e), String(e));
        return [e.code, e.message.replace(JSON.stringify(pathArg), '<path>')];
      }
      assert.fail(`${pathArg} resolved`);
    };
    const existing = await message(path.join(outside, 'o.txt'));
    assert.equal(existing[0], 'PATH_OUTSIDE_WORKSPACE');
    for (const probe of [path.join(outside, 'no-such-file'), '/no/such/dir/x', '../no-such', 'to-outside/o.txt', 'to-outside/no-such', 'to-outside/deeper/no-such']) {
      assert.deepEqual(await message(probe), existing, probe);
    }
  });

  it('gives a dangling symlink to an outside place the answer of an outside path, however it dangles', async () => {
    const links = makeTree({
      'to-missing-outside': { symlink: path.join(outside, 'no-such-folder') },
      'to-missing-outside-deep': { symlink: path.join(outside, 'a/b/c') },
      'to-dangling-chain': { symlink: 'to-missing-outside' },
      'to-missing-inside': { symlink: 'no-such-inside' },
      'to-outside': { symlink: outside },
    });
    try {
      const answer = async (pathArg: string) => {
        try {
          await resolveTarget(pathArg, [{ name: 'links', path: links }]);
        } catch (e) {
          assert.ok(isToolError(e), String(e));
          return `${e.code} ${e.message.replace(JSON.stringify(pathArg), '<path>')}`;
        }
        assert.fail(`${pathArg} resolved`);
      };
      const existing = await answer('to-outside');
      assert.match(existing, /^PATH_OUTSIDE_WORKSPACE /);
      for (const probe of ['to-missing-outside', 'to-missing-outside/x.ts', 'to-missing-outside-deep', 'to-dangling-chain', 'to-dangling-chain/y']) {
        assert.equal(await answer(probe), existing, probe);
      }
      assert.match(await answer('to-missing-inside'), /^INVALID_ARGUMENT .*does not exist in the workspace/);
    } finally {
      removeTree(links);
    }
  });

  it('still reports a missing path inside the workspace as missing', async () => {
    assert.equal(await errorCode('src/no-such.ts', folders), 'INVALID_ARGUMENT');
    assert.equal(await errorCode('src/a.ts/below', folders), 'INVALID_ARGUMENT');
  });

  describe('refuseInside', () => {
    const refuse: ResolveOptions = { refuseInside: { names: ['.git'], refuse: (segment) => new ToolError('INVALID_ARGUMENT', `inside ${segment}`) } };
    let repo: string;
    before(() => (repo = makeTree({ '.git/config': 'c', 'meta': { symlink: '.git' }, 'src/a.ts': 'a' })));
    after(() => removeTree(repo));
    const refusal = async (pathArg: string) =>
      resolveTarget(pathArg, [{ name: 'repo', path: repo }], refuse).then(
        () => 'resolved',
        (e: Error) => e.message,
      );

    it('refuses a path that is or lies inside a named directory, as written, whether it exists or not', async () => {
      for (const p of ['.git', '.git/config', '.git/no-such', 'src/../.git', `${repo}/.git/HEAD`]) assert.equal(await refusal(p), 'inside .git', p);
    });

    it('refuses a symlink into one, and accepts everything else', async () => {
      assert.equal(await refusal('meta'), 'inside .git');
      assert.equal(await refusal('meta/config'), 'inside .git');
      assert.equal(await refusal('src/a.ts'), 'resolved');
      assert.equal(await refusal('.'), 'resolved');
    });
  });

  it('fails NO_WORKSPACE with no folder', async () => {
    assert.equal(await errorCode(undefined, []), 'NO_WORKSPACE');
    assert.equal(await errorCode('src', []), 'NO_WORKSPACE');
  });

  it('isWithin compares whole segments', () => {
    assert.equal(isWithin('/a/b', '/a/b'), true);
    assert.equal(isWithin('/a/b', '/a/b/c'), true);
    assert.equal(isWithin('/a/b', '/a/bc'), false);
    assert.equal(isWithin('/a/b', '/a'), false);
    assert.equal(isWithin('/a/b', '/a/b/..c'), true);
  });
});
