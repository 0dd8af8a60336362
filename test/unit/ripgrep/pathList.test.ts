import * as assert from 'node:assert/strict';
import { decodePath, decodePathList, PathListReader } from '../../../src/core/ripgrep/pathList';
import { seededRandom } from '../../helpers/seededRandom';

describe('decodePathList (rg --files --null output)', () => {
  it('splits NUL-ended paths and strips the ./ prefix', () => {
    assert.deepEqual(decodePathList(Buffer.from('./a\0./b c\0./d/e\0'), 2), { paths: ['a', 'b c', 'd/e'], nonUtf8Paths: [] });
    assert.deepEqual(decodePathList(Buffer.from('src/a\0src/b\0'), 0), { paths: ['src/a', 'src/b'], nonUtf8Paths: [] });
    assert.deepEqual(decodePathList(Buffer.alloc(0), 2), { paths: [], nonUtf8Paths: [] });
  });

  it('lists only the names that are not UTF-8, with their exact bytes after the prefix', () => {
    const out = Buffer.concat([
      Buffer.from('./ok\0./'), Buffer.from([0xff]), Buffer.from('\0./real\uFFFDchar\0./x/'), Buffer.from([0xc3, 0x28]), Buffer.from('\0./z\0'),
    ]);
    const { paths, nonUtf8Paths } = decodePathList(out, 2);
    assert.deepEqual(paths, ['ok', '\uFFFD', 'real\uFFFDchar', 'x/\uFFFD(', 'z']);
    assert.deepEqual(nonUtf8Paths, [
      { index: 1, base64: Buffer.from([0xff]).toString('base64') },
      { index: 3, base64: Buffer.from([0x78, 0x2f, 0xc3, 0x28]).toString('base64') },
    ]);
  });
});

describe('decodePath (one record)', () => {
  it('drops the prefix and keeps the exact bytes of a name that is not UTF-8 only', () => {
    const out = Buffer.concat([Buffer.from('./ok\0./bad'), Buffer.from([0xff]), Buffer.from('\0')]);
    assert.deepEqual(decodePath(out, 0, 4, 2), { path: 'ok' });
    assert.deepEqual(decodePath(out, 5, 11, 2), { path: 'bad\uFFFD', base64: Buffer.from([0x62, 0x61, 0x64, 0xff]).toString('base64') });
  });
});

describe('decodePath past the end of its buffer', () => {
  it('reads only the buffer, as subarray did: a byte of the memory after it never completes a name', () => {
    // A small Buffer lies in Node's shared pool, and the next Buffer made there holds 0xa9, which would make the
    // trailing 0xc3 a valid é.
    const bytes = Buffer.allocUnsafe(8).fill(0x61);
    bytes[7] = 0xc3;
    Buffer.from([0xa9]);
    assert.deepEqual(decodePath(bytes, 0, 9, 0), { path: 'aaaaaaa\uFFFD', base64: bytes.toString('base64') });
  });
});

describe('PathListReader (chunked rg --files --null output)', () => {
  /** Feeds `out` cut at `cuts` and returns what the reader decoded. */
  function read(out: Buffer, strip: number, cuts: readonly number[]) {
    const reader = new PathListReader(strip);
    let at = 0;
    for (const cut of [...cuts, out.length]) {
      reader.push(out.subarray(at, cut));
      at = cut;
    }
    return reader.end();
  }

  /** Names of every kind: ASCII, Latin-1 and CJK in UTF-8, emoji, line feeds, and bytes that are not UTF-8. */
  function names(count: number, random: () => number): Buffer[] {
    const kinds = [
      () => Buffer.from(`src/file${Math.floor(random() * 1000)}.ts`),
      () => Buffer.from(`docs/caf\u00e9-${Math.floor(random() * 100)}.md`),
      () => Buffer.from(`i18n/\u65e5\u672c\u8a9e/${Math.floor(random() * 100)}.json`),
      () => Buffer.from(`emoji/\u{1f600}${Math.floor(random() * 100)}`),
      () => Buffer.from(`weird/line\nfeed${Math.floor(random() * 100)}`),
      () => Buffer.concat([Buffer.from('legacy/caf'), Buffer.from([0xe9]), Buffer.from(`${Math.floor(random() * 100)}.txt`)]),
      () => Buffer.concat([Buffer.from('legacy/cut'), Buffer.from([0xc3])]),
    ];
    return Array.from({ length: count }, () => kinds[Math.floor(random() * (random() < 0.995 ? 4 : kinds.length))]!());
  }

  it('decodes exactly what name-by-name decoding gives, wherever the chunks are cut', () => {
    const random = seededRandom(7);
    let seenNonUtf8 = 0;
    let seenLineFeeds = 0;
    let seenHalved = 0;
    for (let trial = 0; trial < 40; trial++) {
      const strip = trial % 2 ? 2 : 0;
      const list = names(50 + Math.floor(random() * (trial % 4 === 0 ? 20_000 : 3000)), random);
      const out = Buffer.concat(list.flatMap((n) => [Buffer.from(strip ? './' : ''), n, Buffer.from([0])]));
      const cuts = Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * out.length)).sort((a, b) => a - b);
      const got = read(out, strip, cuts);
      const want: string[] = [];
      const nonUtf8: { index: number; base64: string }[] = [];
      let at = 0;
      for (const name of list) {
        const listed = decodePath(out, at, at + strip + name.length, strip);
        if (listed.base64 !== undefined) nonUtf8.push({ index: want.length, base64: listed.base64 });
        want.push(listed.path);
        at += strip + name.length + 1;
      }
      assert.deepEqual(got.paths, want);
      assert.deepEqual(got.nonUtf8Paths, nonUtf8);
      seenNonUtf8 += nonUtf8.length;
      seenLineFeeds += want.filter((p) => p.includes('\n')).length;
      seenHalved += got.runs.length > cuts.length + 1 ? 1 : 0;
      assert.equal(got.endsWithNul, true);
      assert.equal(got.runs.reduce((n, r) => n + r.count, 0), want.length);
      let first = 0;
      for (const run of got.runs) {
        const paths = want.slice(first, first + run.count);
        if (run.joined !== undefined) {
          assert.equal(run.joined, paths.join('\n'), 'a joined run is its paths joined by line feeds');
          assert.ok(!paths.some((p) => p.includes('\n')));
        }
        first += run.count;
      }
      if (out.length > 32 * 1024) assert.ok(got.runs.some((r) => r.joined !== undefined), 'a long list is mostly decoded in joined runs');
    }
    assert.ok(seenNonUtf8 > 5 && seenLineFeeds > 5 && seenHalved > 5, `the trials met every case: ${seenNonUtf8} ${seenLineFeeds} ${seenHalved}`);
  });

  it('finds a line feed at any place in a name, among thousands of plain names, as name-by-name decoding does', () => {
    // A line feed first, last, alone or doubled in a name, names of line feeds side by side and next to one that
    // is not UTF-8: each is where a range or a single record starts or ends when the decoder halves its run.
    const odd = [
      Buffer.from('\nlead.txt'),
      Buffer.from('trail.txt\n'),
      Buffer.from('\n'),
      Buffer.from('\n\n'),
      Buffer.from('a\n\nb'),
      Buffer.concat([Buffer.from('\n'), Buffer.from([0xff])]),
      Buffer.concat([Buffer.from([0xe9]), Buffer.from('\n')]),
    ];
    const random = seededRandom(11);
    for (let trial = 0; trial < 24; trial++) {
      const strip = trial % 2 ? 2 : 0;
      const list: Buffer[] = [];
      for (let i = 0; i < 6000; i++) {
        const r = random();
        list.push(r < 0.01 ? odd[Math.floor(random() * odd.length)]! : Buffer.from(r < 0.5 ? `src/plain${i}.ts` : `docs/caf\u00e9${i}.md`));
      }
      // The first name's line feed is then the output's first byte.
      if (trial % 3 === 0) list.unshift(odd[0]!);
      const out = Buffer.concat(list.flatMap((n) => [Buffer.from(strip ? './' : ''), n, Buffer.from([0])]));
      const cuts = Array.from({ length: trial % 5 }, () => Math.floor(random() * out.length)).sort((a, b) => a - b);
      const got = read(out, strip, cuts);
      const want: string[] = [];
      let at = 0;
      for (const name of list) {
        want.push(decodePath(out, at, at + strip + name.length, strip).path);
        at += strip + name.length + 1;
      }
      assert.deepEqual(got.paths, want);
      for (const run of got.runs) if (run.joined !== undefined) assert.equal(run.joined.split('\n').length, run.count, 'a joined run holds no name with a line feed');
    }
  });

  it('decodes the plain names around a few that are not UTF-8 or hold a line feed as whole runs', () => {
    // One bad name in every few hundred broke a 256 KiB run into runs of a few dozen names each, and every run
    // is checked and written on its own after rg exits.
    const plain = (from: number, n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`./src/file${from + i}.ts\0`));
    const out = Buffer.concat([
      ...plain(0, 1500),
      Buffer.from('./legacy/caf'), Buffer.from([0xe9]), Buffer.from('\0'),
      ...plain(1500, 1500),
      Buffer.from('./weird/line\nfeed\0./x/'), Buffer.from([0xc3]), Buffer.from('\0'),
      ...plain(3000, 1500),
    ]);
    const got = read(out, 2, []);
    assert.deepEqual(got.runs.map((r) => [r.count, r.joined !== undefined]), [[1500, true], [1, false], [1500, true], [2, false], [1500, true]]);
    assert.equal(got.runs[2]!.joined, Array.from({ length: 1500 }, (_, i) => `src/file${1500 + i}.ts`).join('\n'));
    assert.deepEqual(got.paths.slice(1499, 1502), ['src/file1499.ts', 'legacy/caf\uFFFD', 'src/file1500.ts']);
    assert.deepEqual(got.paths.slice(3001, 3004), ['weird/line\nfeed', 'x/\uFFFD', 'src/file3000.ts']);
    assert.deepEqual(got.nonUtf8Paths.map((p) => p.index), [1500, 3002]);
  });

  it('decodes a record without the prefix as decodePath does, not merged with its neighbours', () => {
    const out = Buffer.from('./a\0bc\0./d\0');
    const got = read(out, 2, []);
    assert.deepEqual(got.paths, [decodePath(out, 0, 3, 2).path, decodePath(out, 4, 6, 2).path, 'd']);
    assert.deepEqual(got.paths, ['a', '', 'd']);
    assert.equal(got.runs[0]!.joined, undefined, 'no joined text claims to split back into these paths');
  });

  it('says when the output does not end with a NUL, and decodes the last path anyway', () => {
    const got = read(Buffer.from('./a\0./b'), 2, [3]);
    assert.deepEqual(got.paths, ['a', 'b']);
    assert.equal(got.endsWithNul, false);
    assert.equal(read(Buffer.alloc(0), 2, []).endsWithNul, true);
  });
});
