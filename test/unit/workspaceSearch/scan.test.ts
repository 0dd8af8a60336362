import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, fstatSync, mkdirSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import * as path from 'node:path';
import { isToolError } from '../../../src/core/errors';
import { openCheckedFile, readOpenedFile, readReservation, type CanonicalPathMethod, type OpenedFile } from '../../../src/core/workspaceSearch/reader';
import { makeTree, removeTree } from '../../helpers/tree';
import { openDescriptorCount, scan } from './fixtures';

const MiB = 1024 * 1024;
const METHODS: CanonicalPathMethod[] = ['procfs', 'realpath'];
const aborted = (e: unknown) => isToolError(e) && e.code === 'WORKSPACE_SEARCH_ABORTED';

describe('workspace_search scan', () => {
  const roots: string[] = [];
  const tree = (entries: Parameters<typeof makeTree>[0]) => {
    const root = makeTree(entries);
    roots.push(root);
    return root;
  };
  after(() => roots.forEach(removeTree));

  describe('file content rules', () => {
    it('reads a 2 MiB file and skips one of 2 MiB + 1 byte', () => {
      const line = `${'x'.repeat(1023)}\n`;
      const exact = `${line.repeat(2047)}${'x'.repeat(1023)}needle`.slice(0, 2 * MiB);
      assert.equal(Buffer.byteLength(exact), 2 * MiB);
      const root = tree({ 'a-exact.txt': `${exact.slice(0, -6)}needle`, 'b-over.txt': `${exact}!` });
      const out = scan(root, 'needle');
      assert.deepEqual(out.matches.map((m) => m.path), ['a-exact.txt']);
      assert.equal(out.scannedFiles, 1);
      assert.deepEqual(out.skippedFileReasons, { tooLarge: 1 });
      assert.equal(out.readBytes, 2 * MiB, 'the oversized file is refused from its size, unread');
      assert.ok(out.reasons.includes('skippedFiles'));
    });

    it('skips and counts invalid UTF-8, a NUL byte and UTF-16 text', () => {
      const root = tree({
        'good.txt': 'needle\n',
        'latin1.txt': Buffer.from('needle caf\xe9\n', 'latin1'),
        'nul.txt': Buffer.from('needle\0\n'),
        'utf16le-bom.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('needle\n', 'utf16le')]),
        'utf16be.txt': Buffer.from('needle\n', 'utf16le').swap16(),
        'surrogate.txt': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0xed, 0xa0, 0x80]), // CESU-8 surrogate: not UTF-8
      });
      const out = scan(root, 'needle');
      assert.deepEqual(out.matches.map((m) => m.path), ['good.txt']);
      assert.equal(out.scannedFiles, 1);
      assert.equal(out.skippedFiles, 5);
      // NUL is checked first, so UTF-16 text of ASCII characters counts as binary; a UTF-16 BOM alone is invalid UTF-8.
      assert.deepEqual(out.skippedFileReasons, { invalidUtf8: 2, binary: 3 });
    });

    it('accepts UTF-8 with a byte-order mark, and empty files', () => {
      const root = tree({ 'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('needle ü\n')]), 'empty.txt': '' });
      const out = scan(root, 'NEEDLE');
      assert.deepEqual(out.matches, [{ path: 'bom.txt', line: 1, column: 1, preview: 'needle ü' }]);
      assert.equal(out.scannedFiles, 2);
      assert.equal(out.readBytes, 13);
    });

    it('stops at the 64 MiB read budget, counting each reservation (size + 1 byte) until the read settles', function () {
      this.timeout(60_000);
      const block = Buffer.alloc(2 * MiB, 'a');
      block.write('needle\n', 0);
      const entries: Record<string, Buffer> = {};
      for (let i = 0; i < 32; i++) entries[`f${String(i).padStart(2, '0')}.txt`] = block;
      const root = tree(entries);
      const out = scan(root, 'needle');
      // 31 × (2 MiB + 1) fits in 64 MiB; a 32nd reservation would not (32 × 2 MiB + 32 > 64 MiB).
      assert.equal(out.scannedFiles, 31);
      assert.equal(out.matches.length, 31);
      assert.equal(out.readBytes, 31 * 2 * MiB);
      assert.deepEqual(out.reasons, ['readBudget']);
      assert.equal(readReservation(2 * MiB), 2 * MiB + 1);
    });
  });

  describe('re-checking files right before reading', () => {
    for (const method of METHODS) {
      describe(`(canonical path by ${method})`, () => {
        it('never reads a file replaced by a symlink to /etc/passwd after discovery', () => {
          const root = tree({ 'a.txt': 'root: mine\n', 'b.txt': 'nothing\n' });
          const out = scan(root, 'root:', {}, {
            canonicalPathMethod: method,
            beforeOpen: (file) => {
              if (!file.relPath.startsWith('b')) return;
              unlinkSync(file.absPath);
              symlinkSync('/etc/passwd', file.absPath);
            },
          });
          assert.deepEqual(out.matches.map((m) => m.path), ['a.txt']);
          assert.deepEqual(out.skippedFileReasons, { changed: 1 });
          assert.equal(out.readBytes, 11, 'only a.txt was read');
        });

        it('never reads through a directory replaced by a symlink out of the root', () => {
          const root = tree({ 'sub/passwd': 'inside\n' });
          const out = scan(root, 'root:', {}, {
            canonicalPathMethod: method,
            beforeOpen: () => {
              renameSync(path.join(root, 'sub'), path.join(root, 'sub.old'));
              symlinkSync('/etc', path.join(root, 'sub'));
            },
          });
          assert.deepEqual(out.matches, []);
          assert.deepEqual(out.skippedFileReasons, { outside: 1 });
          assert.equal(out.readBytes, 0);
        });
      });
    }

    it('skips a file that vanished, keeping earlier matches', () => {
      const root = tree({ 'a.txt': 'needle\n', 'b.txt': 'needle\n', 'c.txt': 'needle\n' });
      const out = scan(root, 'needle', {}, { beforeOpen: (file) => file.relPath === 'b.txt' && unlinkSync(file.absPath) });
      assert.deepEqual(out.matches.map((m) => m.path), ['a.txt', 'c.txt']);
      assert.deepEqual(out.skippedFileReasons, { vanished: 1 });
      assert.equal(out.filesFound, 3);
    });

    it('skips a file replaced by a FIFO without waiting for a writer', () => {
      const root = tree({ 'app.ts': 'needle\n' });
      const out = scan(root, 'needle', {}, {
        beforeOpen: (file) => {
          unlinkSync(file.absPath);
          execFileSync('mkfifo', [file.absPath]);
        },
      });
      assert.deepEqual(out.skippedFileReasons, { notRegular: 1 });
    });

    it('skips a file replaced by a directory', () => {
      const root = tree({ 'x.ts': 'needle\n' });
      const out = scan(root, 'needle', {}, {
        beforeOpen: (file) => {
          unlinkSync(file.absPath);
          mkdirSync(file.absPath);
        },
      });
      assert.deepEqual(out.skippedFileReasons, { notRegular: 1 });
    });

    it('fails a read whose file grew after the check, consuming the whole reservation', () => {
      const root = tree({ 'grow.txt': 'abc' });
      const file = { absPath: path.join(root, 'grow.txt'), relPath: 'grow.txt' };
      const opened = openCheckedFile(file, root, () => false, 'procfs') as OpenedFile;
      assert.equal(opened.size, 3);
      appendFileSync(file.absPath, 'def');
      const read = readOpenedFile(opened, Buffer.alloc(16), () => false);
      assert.deepEqual(read, { skipped: 'changed', bytesRead: 4, consumed: 4 });
      assert.throws(() => fstatSync(opened.fd), /EBADF/, 'the descriptor is closed');
    });
  });

  describe('results', () => {
    it('stops at maxResults and says so when more lines remain', () => {
      const root = tree({ 'a.txt': 'hit\n'.repeat(101) });
      const out = scan(root, 'hit');
      assert.equal(out.matches.length, 100);
      assert.deepEqual(out.reasons, ['maxResults']);
    });

    it('is complete when the last matching line of the last file is exactly the limit', () => {
      const root = tree({ 'a.txt': 'hit\n'.repeat(60), 'b.txt': 'hit\n'.repeat(40) });
      const out = scan(root, 'hit');
      assert.equal(out.matches.length, 100);
      assert.deepEqual(out.reasons, []);
    });

    it('stops at the limit without reading further files (conservatively truncated)', () => {
      const root = tree({ 'a.txt': 'hit\n'.repeat(5), 'b.txt': 'none\n' });
      const out = scan(root, 'hit', { maxResults: 5 });
      assert.equal(out.scannedFiles, 1);
      assert.deepEqual(out.reasons, ['maxResults']);
    });

    it('searches a single-file root', () => {
      const root = tree({ 'one.txt': 'needle\n', 'other.txt': 'needle\n' });
      const out = scan(root, 'needle', { rootPath: path.join(root, 'one.txt'), rootRelPath: 'one.txt', rootKind: 'file' });
      assert.deepEqual(out.matches.map((m) => m.path), ['one.txt']);
      assert.equal(out.filesFound, 1);
      assert.equal(out.directories, 0);
    });

    it('marks clipped previews', () => {
      const root = tree({ 'long.txt': `${'x'.repeat(600)}needle\n` });
      assert.deepEqual(scan(root, 'needle').reasons, ['previewClipped']);
    });
  });

  describe('cancellation', () => {
    it('is observed between files and closes what was opened', () => {
      const entries: Record<string, string> = {};
      for (let i = 0; i < 50; i++) entries[`f${i}.txt`] = 'needle\n';
      const root = tree(entries);
      for (let stopAfter = 1; stopAfter < 40; stopAfter += 3) {
        const before = openDescriptorCount();
        let checks = 0;
        assert.throws(() => scan(root, 'needle', {}, { isCancelled: () => ++checks > stopAfter }), aborted);
        assert.equal(openDescriptorCount(), before, `descriptors leaked when cancelled at check ${stopAfter}`);
      }
    });

    it('is observed between 64 KiB chunks of one file', () => {
      const root = tree({ 'big.txt': Buffer.alloc(MiB, 'a') });
      const file = { absPath: path.join(root, 'big.txt'), relPath: 'big.txt' };
      const opened = openCheckedFile(file, root, () => false, 'procfs') as OpenedFile;
      let chunks = 0;
      assert.throws(() => readOpenedFile(opened, Buffer.alloc(MiB + 1), () => ++chunks > 2), aborted);
      assert.equal(chunks, 3, 'stopped after the third chunk, not after all sixteen');
      assert.throws(() => fstatSync(opened.fd), /EBADF/);
    });

    it('is observed between open and stat', () => {
      const root = tree({ 'a.txt': 'x' });
      const before = openDescriptorCount();
      assert.throws(() => openCheckedFile({ absPath: path.join(root, 'a.txt'), relPath: 'a.txt' }, root, () => true, 'procfs'), aborted);
      assert.equal(openDescriptorCount(), before);
    });
  });

  it('leaves a file it could not open alone (no descriptor kept)', () => {
    const root = tree({ 'a.txt': 'needle' });
    const before = openDescriptorCount();
    const missing = openCheckedFile({ absPath: path.join(root, 'missing.txt'), relPath: 'missing.txt' }, root, () => false, 'realpath');
    assert.deepEqual(missing, { skipped: 'vanished' });
    assert.equal(openDescriptorCount(), before);
  });
});
