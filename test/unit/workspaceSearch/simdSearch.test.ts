import * as assert from 'node:assert/strict';
import { probePositions, SimdByteSearch } from '../../../src/core/workspaceSearch/simdSearch';
import { seededRandom } from '../../helpers/seededRandom';

/** The kernel's contract, byte by byte: the first offset ≥ from where every byte matches (ASCII letters either case when folding). */
function naiveIndexOf(hay: Uint8Array, needle: Uint8Array, from: number, foldAsciiCase: boolean): number {
  const lower = (b: number) => (foldAsciiCase && b >= 0x41 && b <= 0x5a ? b | 0x20 : b);
  for (let at = Math.max(0, from); at + needle.length <= hay.length; at++) {
    let k = 0;
    while (k < needle.length && lower(hay[at + k]!) === needle[k]) k++;
    if (k === needle.length) return at;
  }
  return -1;
}

describe('workspace_search SIMD byte search', () => {
  it('finds a needle at every offset of buffers around the 16-byte step, and nothing past the end', () => {
    for (const needle of ['a', 'ab', 'needle', 'x'.repeat(15), 'abcdefghijklmnopq', 'n'.repeat(40)]) {
      const bytes = Buffer.from(needle);
      const search = new SimdByteSearch([bytes], true);
      for (let length = 0; length <= 50; length++) {
        for (let at = 0; at + bytes.length <= length; at++) {
          const hay = search.readBuffer(length);
          hay.fill(0x2e); // '.'
          bytes.copy(hay, at);
          assert.equal(search.indexOf(0, hay, 0), at, `${needle} at ${at} of ${length}`);
          assert.equal(search.indexOf(0, hay, at + 1), naiveIndexOf(hay, bytes, at + 1, true));
        }
        // The bytes after a buffer are left over from earlier files: a needle there must not be found.
        const shorter = search.readBuffer(length + bytes.length).fill(0x2e);
        bytes.copy(shorter, length);
        assert.equal(search.indexOf(0, shorter.subarray(0, length + bytes.length - 1), 0), -1, `${needle} cut by the end of ${length} bytes`);
      }
    }
  });

  it('agrees with a naive search on random bytes, folded and exact, in place and copied in', () => {
    const random = seededRandom(15);
    const pick = (n: number) => Math.floor(random() * n);
    // A small alphabet makes partial matches (work for the verification loop) common.
    const alphabet = Buffer.from('aAbB_\n\r\xc3\xa9\x00\xff');
    for (let round = 0; round < 400; round++) {
      const foldAsciiCase = random() < 0.5;
      const needles = Array.from({ length: 1 + pick(2) }, () => {
        const n = Buffer.from(Array.from({ length: 1 + pick(round < 200 ? 4 : 24) }, () => alphabet[pick(alphabet.length)]!));
        return foldAsciiCase ? Buffer.from(n.map((b) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b))) : n;
      });
      const search = new SimdByteSearch(needles, foldAsciiCase);
      const length = pick(round % 10 === 0 ? 70_000 : 300);
      const source = Buffer.from(Array.from({ length }, () => alphabet[pick(alphabet.length)]!));
      const inPlace = search.readBuffer(length);
      source.copy(inPlace);
      needles.forEach((needle, k) => {
        const occurrences: number[] = [];
        for (let at = naiveIndexOf(source, needle, 0, foldAsciiCase); at >= 0; at = naiveIndexOf(source, needle, at + 1, foldAsciiCase)) occurrences.push(at);
        for (let from = 0; from <= length; from += 1 + pick(40)) {
          const expected = occurrences.find((at) => at >= from) ?? -1;
          assert.equal(search.indexOf(k, inPlace, from), expected, `round ${round}, needle ${k} from ${from}`);
          assert.equal(search.indexOf(k, source, from), expected, `round ${round}, needle ${k} from ${from}, copied in`);
        }
      });
    }
  });

  it('folds ASCII letters only: bytes outside A–Z never match a lowercase letter or each other', () => {
    const search = new SimdByteSearch([Buffer.from('a@[`{')], true);
    assert.equal(search.indexOf(0, Buffer.from('A@[`{'), 0), 0);
    // 0x40 @, 0x5b [, 0x60 `, 0x7b { differ from their neighbours by the case bit and must not fold onto them.
    assert.equal(search.indexOf(0, Buffer.from('a`{@[ a@[`{'), 0), 6);
    assert.equal(search.indexOf(0, Buffer.from([0xc1, 0x40, 0x5b, 0x60, 0x7b]), 0), -1, '0xc1 | 0x20 is not `a`');
    const exact = new SimdByteSearch([Buffer.from('ab')], false);
    assert.equal(exact.indexOf(0, Buffer.from('AB Ab aB ab'), 0), 9);
  });

  it('stays inside its memory whatever the file size (the kernel loads 16 bytes at a time past the end)', () => {
    // Memory grows in 64 KiB pages; sizes around the first page's end put a file's last byte on it.
    for (let size = 65_536 - 160; size <= 65_536 + 16; size++) {
      const search = new SimdByteSearch([Buffer.from('needle')], true);
      const hay = search.readBuffer(size).fill(0x6e); // 'n'
      assert.equal(search.indexOf(0, hay, 0), -1);
      hay.write('NEEDLE', size - 6);
      assert.equal(search.indexOf(0, hay, 0), size - 6);
    }
  });

  it('keeps what a buffer held when the memory grows for a larger file', () => {
    const search = new SimdByteSearch([Buffer.from('needle')], true);
    const small = search.readBuffer(10);
    small.write('xxneedlexx');
    assert.equal(search.indexOf(0, small, 0), 2);
    const large = search.readBuffer(3 * 1024 * 1024);
    large.fill(0x20).write('NEEDLE', large.length - 6);
    assert.equal(search.indexOf(0, large, 0), large.length - 6);
  });

  it('probes the rarest bytes of the needle in source code', () => {
    assert.deepEqual(probePositions(Buffer.from('a'), true), [0, 0]);
    assert.deepEqual(probePositions(Buffer.from('the'), false), [1, 0], '`h` and `t` are rarer than `e`');
    assert.deepEqual(probePositions(Buffer.from('scoutNeedle'), false), [5, 8], 'a capital is rarer than its lowercase letter');
    assert.deepEqual(probePositions(Buffer.from('scoutneedle'), true), [8, 3], 'folded letters rank as their lowercase');
  });
});
