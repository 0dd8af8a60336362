import { strict as assert } from 'node:assert';
import { cutText, findMatch, previewLine, trimmedRange, utf8RangeToUtf16 } from '../../../src/vscode/panel/match';

describe('panel match ranges', () => {
  it('maps rg byte offsets to UTF-16 positions after multibyte text', () => {
    const line = 'é😀 needle';
    // é = 2 bytes, 😀 = 4 bytes, space = 1 → "needle" starts at byte 7, UTF-16 index 4.
    assert.deepEqual(utf8RangeToUtf16(line, 7, 13), { start: 4, end: 10 });
    assert.equal(line.slice(4, 10), 'needle');
    assert.deepEqual(utf8RangeToUtf16(line, 2, 6), { start: 1, end: 3 });
  });

  it('refuses offsets inside a character or past the end', () => {
    assert.equal(utf8RangeToUtf16('é', 1, 2), undefined);
    assert.equal(utf8RangeToUtf16('abc', 1, 9), undefined);
    assert.equal(utf8RangeToUtf16('abc', 2, 1), undefined);
    assert.deepEqual(utf8RangeToUtf16('abc', 3, 3), { start: 3, end: 3 });
  });

  it('finds a literal with and without case', () => {
    assert.deepEqual(findMatch('const Foo = foo', { literal: 'foo', caseSensitive: true }), { start: 12, end: 15 });
    assert.deepEqual(findMatch('const Foo = foo', { literal: 'foo', caseSensitive: false }), { start: 6, end: 9 });
    assert.equal(findMatch('nothing here', { literal: 'foo', caseSensitive: false }), undefined);
  });

  it('gives up on case-insensitive matching when lowercasing changes the length', () => {
    // "İ".toLowerCase() is two code units, so positions would not map back.
    assert.equal(findMatch('İstanbul foo', { literal: 'foo', caseSensitive: false }), undefined);
    assert.deepEqual(findMatch('İstanbul foo', { literal: 'foo', caseSensitive: true }), { start: 9, end: 12 });
  });

  it('selects a line without its indentation', () => {
    assert.deepEqual(trimmedRange('    return x;  '), { start: 4, end: 13 });
    assert.deepEqual(trimmedRange('   '), { start: 0, end: 3 });
  });

  it('previews around a far match and reports the highlight in preview positions', () => {
    const line = `${'a'.repeat(500)}NEEDLE${'b'.repeat(500)}`;
    const p = previewLine(line, 100, { start: 500, end: 506 });
    assert.ok(p.text.startsWith('…') && p.text.endsWith('…'));
    assert.ok(p.highlight);
    assert.equal(p.text.slice(p.highlight.start, p.highlight.end), 'NEEDLE');
    assert.ok(p.text.length <= 102);
  });

  it('keeps a near match at the line start and trims indentation', () => {
    const p = previewLine('\t\tfoo(bar)', 50, { start: 2, end: 5 });
    assert.equal(p.text, 'foo(bar)');
    assert.deepEqual(p.highlight, { start: 0, end: 3 });
  });

  it('never splits a surrogate pair', () => {
    const line = `${'x'.repeat(9)}😀😀`;
    const p = previewLine(line, 10);
    assert.equal(p.text, `${'x'.repeat(9)}…`);
    assert.equal(cutText('ab😀', 3), 'ab…');
    assert.equal(cutText('abc', 3), 'abc');
  });
});
