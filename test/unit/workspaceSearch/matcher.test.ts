import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { LiteralLineMatcher } from '../../../src/core/workspaceSearch/matcher';
import { classifyText } from '../../../src/core/workspaceSearch/reader';

/** Runs the matcher on `text` as a file's UTF-8 bytes would reach it. */
function search(query: string, text: string | Buffer, options: { caseSensitive?: boolean; limit?: number } = {}) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const kind = classifyText(bytes);
  assert.equal(typeof kind, 'string', 'test text must be valid UTF-8 without NUL');
  return new LiteralLineMatcher(query, options.caseSensitive ?? false).match(bytes, kind as 'ascii' | 'utf8', options.limit ?? 100);
}
const lineNumbers = (r: ReturnType<typeof search>) => r.lines.map((l) => l.line);
const hasLoneSurrogate = (s: string) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe('workspace_search matching', () => {
  it('reports one result per matching line, at its first occurrence', () => {
    const r = search('ab', 'xx ab ab ab\nno\nAB\n');
    assert.deepEqual(r.lines.map(({ line, column, preview }) => ({ line, column, preview })), [
      { line: 1, column: 4, preview: 'xx ab ab ab' },
      { line: 3, column: 1, preview: 'AB' },
    ]);
    assert.equal(r.more, false);
  });

  it('lowercases both sides by default and compares exactly when caseSensitive', () => {
    const text = 'Needle\nNEEDLE\nneedle\n';
    assert.deepEqual(lineNumbers(search('nEEdle', text)), [1, 2, 3]);
    assert.deepEqual(lineNumbers(search('NEEDLE', text, { caseSensitive: true })), [2]);
    assert.deepEqual(lineNumbers(search('nEEdle', text, { caseSensitive: true })), []);
  });

  it('is literal: regex and glob characters match themselves only', () => {
    const text = 'a.c\nabc\n(x)*\n[x]\n';
    assert.deepEqual(lineNumbers(search('a.c', text)), [1]);
    assert.deepEqual(lineNumbers(search('(x)*', text)), [3]);
    assert.deepEqual(lineNumbers(search('[x]', text)), [4]);
  });

  it('never matches across lines, and ends lines at \\n without the \\r of CRLF', () => {
    const r = search('end', 'the end\r\nend\rof\r\n');
    assert.deepEqual(r.lines.map((l) => [l.line, l.preview]), [
      [1, 'the end'],
      [2, 'end\rof'],
    ]);
    assert.deepEqual(lineNumbers(search('a b', 'a\nb\n')), []);
  });

  it('stops at the limit and says whether another matching line follows', () => {
    const text = 'hit\nhit\nmiss\nhit\n';
    const two = search('hit', text, { limit: 2 });
    assert.deepEqual([lineNumbers(two), two.more], [[1, 2], true]);
    const three = search('hit', text, { limit: 3 });
    assert.deepEqual([lineNumbers(three), three.more], [[1, 2, 4], false]);
  });

  it('does not count a byte-order mark in line 1 columns', () => {
    const r = search('x', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ab x\n x')]));
    assert.deepEqual(r.lines.map((l) => [l.line, l.column, l.preview]), [
      [1, 4, 'ab x'],
      [2, 2, ' x'],
    ]);
  });

  describe('Unicode lowercase', () => {
    it('İ lowercases to i + U+0307: "i̇" finds it, "istanbul" does not, "İ" finds "i̇"', () => {
      const text = 'İstanbul\ni̇stanbul\nistanbul\n';
      assert.deepEqual(lineNumbers(search('İstanbul', text)), [1, 2]);
      assert.deepEqual(lineNumbers(search('istanbul', text)), [3]);
      assert.deepEqual(lineNumbers(search('i', 'xİx\n')), [1], 'the ASCII fast path must not miss the i inside İ');
    });

    it('the Kelvin sign lowercases to k', () => {
      assert.deepEqual(lineNumbers(search('kelvin', '\u212Aelvin\n')), [1]);
      assert.deepEqual(lineNumbers(search('kelvin', 'é \u212Aelvin\n')), [1]);
    });

    it('a query outside ASCII still finds text whose ASCII letters come only from İ or K', () => {
      // Such files are searched only when they hold an ASCII run of the query, or İ or K.
      assert.deepEqual(lineNumbers(search('İö', 'x\nxİöx\n')), [2]);
      assert.deepEqual(lineNumbers(search('kö', 'x\n\u212Aö\n')), [2]);
      assert.deepEqual(lineNumbers(search('caFÉ', 'CAFE\u0301\nnothing\n')), [1]);
      assert.deepEqual(lineNumbers(search('café', 'cafe\ncaf é\n')), []);
    });

    it('ß is lowercase already and is not case-folded to ss', () => {
      const text = 'STRASSE\nstraße\nSTRAßE\n';
      assert.deepEqual(lineNumbers(search('straße', text)), [2, 3]);
      assert.deepEqual(lineNumbers(search('strasse', text)), [1]);
    });

    it('maps İ, ß and emoji previews back to the original text when a long line is clipped', () => {
      const line = `${'İ'.repeat(700)}ẞ NeedLE ß 😀${'😀'.repeat(400)}`;
      const [hit] = search('ß needle ß', `${line}\n`).lines;
      assert.ok(hit);
      assert.equal(hit.column, 701, 'column counts original code units, not the longer lowercase');
      assert.ok(hit.preview.includes('ẞ NeedLE ß'), 'the preview window is centred on the original match');
      assert.ok(hit.clipped && hit.preview.startsWith('…') && hit.preview.endsWith('…'));
      assert.ok(hit.preview.length <= 502);
      assert.ok(!hasLoneSurrogate(hit.preview));
    });

    it('keeps emoji whole in previews around a match', () => {
      const [hit] = search('needle', `${'😀'.repeat(400)}needle${'🚀'.repeat(400)}`).lines;
      assert.ok(hit && hit.preview.includes('needle') && !hasLoneSurrogate(hit.preview));
      assert.equal(hit.column, 801);
    });
  });

  describe('NFC and NFD (the query is searched in both forms; text is never normalised)', () => {
    const nfc = 'caf\u00e9'; // é precomposed
    const nfd = 'cafe\u0301'; // e + combining acute
    const text = `${nfc} nfc\n${nfd} nfd\ncafe plain\n`;

    for (const [name, query] of [
      ['an NFC query', nfc],
      ['an NFD query', nfd],
      ['an uppercase NFC query', nfc.toUpperCase()],
    ] as const) {
      it(`${name} finds both forms`, () => assert.deepEqual(lineNumbers(search(query, text)), [1, 2]));
    }

    it('works case-sensitively too, and previews show the original bytes', () => {
      const r = search(nfd, text, { caseSensitive: true });
      assert.deepEqual(r.lines.map((l) => l.preview), [`${nfc} nfc`, `${nfd} nfd`]);
    });

    it('a base letter finds the same letter inside a decomposed character (plain substring search)', () => {
      assert.deepEqual(lineNumbers(search('cafe', text)), [2, 3]);
    });
  });

  describe('agrees with a line-by-line toLowerCase().includes() oracle', () => {
    const alphabet = ['a', 'B', 'k', 'I', 'i', ' ', 'İ', '\u212A', 'ß', 'é', 'e\u0301', 'É', 'Σ', 'σ', 'ς', '😀', '\n', '\r\n', 'x'];
    const chunk = fc.constantFrom(...alphabet);
    const queryChunk = fc.constantFrom(...alphabet.filter((c) => !c.includes('\n') && c !== ' '));

    /** Expected [line, column] pairs, computed naively per line. */
    function oracle(query: string, text: string, caseSensitive: boolean): [number, number][] {
      const forms = [...new Set([query.normalize('NFC'), query.normalize('NFD')].map((q) => (caseSensitive ? q : q.toLowerCase())))];
      const out: [number, number][] = [];
      text.split('\n').forEach((raw, i) => {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        const hay = caseSensitive ? line : line.toLowerCase();
        const hits = forms.map((f) => hay.indexOf(f)).filter((at) => at >= 0);
        if (hits.length === 0) return;
        const at = Math.min(...hits);
        // The original offset whose lowercase prefix reaches the match start.
        let original = 0;
        while (original < line.length) {
          const width = line.codePointAt(original)! > 0xffff ? 2 : 1;
          if (line.slice(0, original + width).toLowerCase().length > at) break;
          original += width;
        }
        out.push([i + 1, (caseSensitive ? at : original) + 1]);
      });
      return out;
    }

    for (const caseSensitive of [false, true]) {
      it(caseSensitive ? 'case-sensitive' : 'case-insensitive', () => {
        fc.assert(
          fc.property(fc.array(chunk, { maxLength: 60 }), fc.array(queryChunk, { minLength: 1, maxLength: 4 }), (textParts, queryParts) => {
            const text = textParts.join('');
            const query = queryParts.join('');
            const got = search(query, text, { caseSensitive }).lines.map((l) => [l.line, l.column]);
            assert.deepEqual(got, oracle(query, text, caseSensitive));
          }),
          { numRuns: 3000, seed: 3 },
        );
      });
    }
  });

  describe('assumptions the fast paths rely on (checked over every code point)', () => {
    it('no code point lowercases to fewer UTF-16 code units', () => {
      for (let cp = 0; cp <= 0x10ffff; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const s = String.fromCodePoint(cp);
        if (s.toLowerCase().length < s.length) assert.fail(`U+${cp.toString(16)} lowercases shorter`);
      }
    });

    it('only İ and the Kelvin sign lowercase to text holding ASCII', () => {
      const found: number[] = [];
      for (let cp = 0x80; cp <= 0x10ffff; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        if (/[\x00-\x7f]/.test(String.fromCodePoint(cp).toLowerCase())) found.push(cp);
      }
      assert.deepEqual(found, [0x130, 0x212a]);
    });
  });
});
