/**
 * The CLI's spill file: the complete result is written piece by piece as it is made, never held as
 * one string, and the file holds exactly the pieces joined, as UTF-8.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeSpillFile } from '../../../src/cli/env';

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
});
