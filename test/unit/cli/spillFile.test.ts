/**
 * The CLI's spill file: the complete result is written piece by piece as it is made, never held as
 * one string, and the file holds exactly the pieces joined, as UTF-8.
 */
import * as assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemErrorReason, tempFileSpill, TempFolderError, writeSpillFile } from '../../../src/cli/env';
import { SpillError } from '../../../src/core/spill';
import { DIST_CLI, runCliAsync } from '../../helpers/cli';
import { makeTree, removeTree } from '../../helpers/tree';

describe('CLI spill file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'scout-spill-test-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the pieces in order as UTF-8, across its buffer and beyond it, with mode 600', () => {
    const pieces = ['Scout grep "x": 3 matches, complete result\n\n', 'é'.repeat(400_000), '\n', '日本語🙂'.repeat(200_000), 'x'.repeat(3_000_000), '', 'end'];
    let made = 0;
    function* lazily(): Generator<string> {
      for (const piece of pieces) {
        made++;
        yield piece;
      }
    }
    const file = writeSpillFile(lazily(), 'grep', dir);
    assert.equal(made, pieces.length);
    assert.equal(readFileSync(file, 'utf8'), pieces.join(''));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.match(path.basename(file), /^scout-spill-grep-\d+-\d+-\d+\.txt$/);
  });

  it('writes in writes of at most 64 KiB, which Linux ext4 takes several times faster than larger ones', function () {
    // The kernel counts this process's write system calls; nothing else writes while the call runs.
    const writes = (): number => Number(/^syscw: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
    if (process.platform !== 'linux') this.skip();
    const pieces = ['x'.repeat(300_000), 'y'.repeat(3_000_000)];
    const before = writes();
    const file = writeSpillFile(pieces, 'glob', dir);
    const calls = writes() - before;
    assert.equal(statSync(file).size, 3_300_000);
    assert.ok(calls >= Math.ceil(3_300_000 / 65_536), `${calls} write calls for 3,300,000 bytes`);
  });

  it('gives two spills of one millisecond two files', () => {
    const a = writeSpillFile(['a'], 'glob', dir);
    const b = writeSpillFile(['b'], 'glob', dir);
    assert.notEqual(a, b);
    assert.deepEqual([readFileSync(a, 'utf8'), readFileSync(b, 'utf8')], ['a', 'b']);
  });

  it('leaves no partial file when making the text fails midway, and throws', () => {
    function* failing(): Generator<string> {
      yield 'x'.repeat(2_000_000);
      throw new Error('the tool failed while formatting');
    }
    assert.throws(() => writeSpillFile(failing(), 'glob', dir), /failed while formatting/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('names the folder and the OS error when the temporary folder refuses the file', () => {
    const missing = path.join(dir, 'gone');
    assert.throws(() => writeSpillFile(['x'], 'glob', missing), (e: unknown) => e instanceof TempFolderError && e.message === `the temporary folder ${missing} cannot be written to (ENOENT: no such file or directory)`);
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    assert.throws(() => writeSpillFile(['x'], 'glob', file), (e: unknown) => e instanceof TempFolderError && e.message === `the temporary folder ${file} cannot be written to (ENOTDIR: not a directory)`);
  });

  it('words a full disk as it words a missing folder: the code and description, without the system call', function () {
    // A write to /dev/full fails as a write to a full file system does. Node's message then ends in ", write",
    // with no path; only the tail of an open (", open '/path'") used to be trimmed.
    if (process.platform !== 'linux') this.skip();
    const fd = openSync('/dev/full', 'w');
    let error: unknown;
    try {
      writeSync(fd, Buffer.from('x'));
    } catch (e) {
      error = e;
    } finally {
      closeSync(fd);
    }
    assert.equal(systemErrorReason(error), 'ENOSPC: no space left on device');
    let missing: unknown;
    try {
      openSync(path.join(dir, 'gone', 'x'), 'wx');
    } catch (e) {
      missing = e;
    }
    assert.equal(systemErrorReason(missing), 'ENOENT: no such file or directory');
  });

  it("gives the CLI's footer the reason and TMPDIR (the CLI's spill writer), as a SpillError", async () => {
    const missing = path.join(dir, 'gone');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = missing;
    try {
      await assert.rejects(
        tempFileSpill(['x'], { tool: 'glob', title: 'Scout glob "*": 1 file, complete result, 1 line' }),
        (e: unknown) => e instanceof SpillError && e.message === `the temporary folder ${missing} cannot be written to (ENOENT: no such file or directory); to have it saved, set the environment variable TMPDIR to a folder Scout can write to.`,
      );
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});

describe('the built CLI with an unusable TMPDIR', function () {
  this.timeout(60_000);
  let ws: string;
  before(() => (ws = makeTree(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}.txt`, 'x\n'])))));
  after(() => removeTree(ws));

  // The footer said only "The complete result could not be saved; narrow the search to see the rest."
  for (const [what, name, error] of [
    ['a missing folder', 'no-such-folder', 'ENOENT: no such file or directory'],
    ['a file', 'f0.txt', 'ENOTDIR: not a directory'],
  ] as const) {
    it(`says why an over-cap result was not saved, and what to set, for ${what}`, async () => {
      const tmpdir = path.join(ws, name);
      const r = await runCliAsync(['glob', '{"pattern":"*.txt"}', '--cwd', ws, '--config', 'search.globMaxResults=2'], { TMPDIR: tmpdir }, DIST_CLI);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(
        r.stdout,
        new RegExp(`\\[3 more files not shown: [^\\]]*\\. The complete result could not be saved: the temporary folder ${tmpdir} cannot be written to \\(${error}\\); to have it saved, set the environment variable TMPDIR to a folder Scout can write to\\. Narrow the search to see the rest\\.\\]\\n`),
      );
    });
  }

  it('needs no temporary folder for a result that fits', async () => {
    const r = await runCliAsync(['glob', '{"pattern":"f0.txt"}', '--cwd', ws], { TMPDIR: path.join(ws, 'no-such-folder') }, DIST_CLI);
    assert.deepEqual([r.status, r.stdout.split('\n')[0], r.stderr], [0, 'f0.txt', '']);
  });
});

describe('the built CLI with a relative TMPDIR', function () {
  this.timeout(60_000);
  let ws: string;
  let spills: string;
  before(() => {
    ws = makeTree(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}.txt`, 'x\n'])));
    spills = mkdtempSync(path.join(os.tmpdir(), 'scout-spill-relative-'));
  });
  after(() => {
    removeTree(ws);
    rmSync(spills, { recursive: true, force: true });
  });

  // The file: URI was right but the plain path was TMPDIR as given ("It is a plain text file at
  // scout-spill-relative-…/scout-spill-glob-….txt"), which a model reads against the workspace folder.
  it('names the saved file by its absolute path, the file of the URI', async () => {
    const relative = path.relative(os.tmpdir(), spills); // runCliAsync runs the CLI in os.tmpdir()
    assert.ok(!path.isAbsolute(relative));
    const r = await runCliAsync(['glob', '{"pattern":"*.txt"}', '--cwd', ws, '--config', 'search.globMaxResults=2'], { TMPDIR: relative }, DIST_CLI);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const [, uri, file] = /saved at (file:\S+)\. It is a plain text file at (\S+); read it/.exec(r.stdout) ?? [];
    assert.ok(uri && file, r.stdout);
    assert.ok(file.startsWith(spills + path.sep), file);
    assert.equal(pathToFileURL(file).href, uri);
    assert.equal(readFileSync(file, 'utf8').split('\n').filter((l) => l.endsWith('.txt')).length, 5);
  });
});
