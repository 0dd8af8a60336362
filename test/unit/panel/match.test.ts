import { strict as assert } from 'node:assert';
import { CONTEXT_BEFORE_MATCH, WHOLE_LINE_CHARS, cutText, findAll, findMatch, previewLine, trimmedRange, utf8RangesToUtf16 } from '../../../src/vscode/panel/match';

/** The highlighted pieces of a preview. */
const marked = (p: { text: string; highlights: readonly { start: number; end: number }[] }) => p.highlights.map((r) => p.text.slice(r.start, r.end));

describe('panel match ranges', () => {
  it('maps rg byte offsets to UTF-16 positions after multibyte text', () => {
    const line = 'é😀 needle';
    // é = 2 bytes, 😀 = 4 bytes, space = 1 → "needle" starts at byte 7, UTF-16 index 4.
    assert.deepEqual(utf8RangesToUtf16(line, [{ start: 7, end: 13 }]), [{ start: 4, end: 10 }]);
    assert.equal(line.slice(4, 10), 'needle');
    assert.deepEqual(utf8RangesToUtf16(line, [{ start: 2, end: 6 }]), [{ start: 1, end: 3 }]);
  });

  it('maps many ranges in one pass and sorts them', () => {
    const line = 'ab é ab é ab';
    // Bytes: a0 b1 _2 é3-4 _5 a6 b7 _8 é9-10 _11 a12 b13.
    assert.deepEqual(utf8RangesToUtf16(line, [{ start: 12, end: 14 }, { start: 0, end: 2 }, { start: 6, end: 8 }]), [
      { start: 0, end: 2 },
      { start: 5, end: 7 },
      { start: 10, end: 12 },
    ]);
  });

  it('leaves out ranges inside a character or past the end', () => {
    assert.deepEqual(utf8RangesToUtf16('é', [{ start: 1, end: 2 }]), []);
    assert.deepEqual(utf8RangesToUtf16('abc', [{ start: 1, end: 9 }]), []);
    assert.deepEqual(utf8RangesToUtf16('abc', [{ start: 2, end: 1 }]), []);
    assert.deepEqual(utf8RangesToUtf16('abc', [{ start: 3, end: 3 }, { start: 0, end: 1 }]), [{ start: 0, end: 1 }, { start: 3, end: 3 }]);
  });

  it('finds a literal with and without case', () => {
    assert.deepEqual(findMatch('const Foo = foo', { literal: 'foo', caseSensitive: true }), { start: 12, end: 15 });
    assert.deepEqual(findMatch('const Foo = foo', { literal: 'foo', caseSensitive: false }), { start: 6, end: 9 });
    assert.equal(findMatch('nothing here', { literal: 'foo', caseSensitive: false }), undefined);
  });

  it('finds every occurrence, left to right and not overlapping, up to a limit', () => {
    assert.deepEqual(findAll('Foo foo FOO', { literal: 'foo', caseSensitive: false }), [
      { start: 0, end: 3 },
      { start: 4, end: 7 },
      { start: 8, end: 11 },
    ]);
    assert.deepEqual(findAll('aaaa', { literal: 'aa', caseSensitive: true }), [
      { start: 0, end: 2 },
      { start: 2, end: 4 },
    ]);
    assert.equal(findAll('x'.repeat(1000), { literal: 'x', caseSensitive: true }, 5).length, 5);
    assert.deepEqual(findAll('abc', { literal: '', caseSensitive: true }), []);
  });

  it('maps case-insensitive matches back when lowercasing changes the line’s length', () => {
    // "İ".toLowerCase() is two code units; positions after it still point at the original text.
    const line = 'İstanbul foo FOO';
    assert.deepEqual(findAll(line, { literal: 'foo', caseSensitive: false }).map((r) => line.slice(r.start, r.end)), ['foo', 'FOO']);
    assert.deepEqual(findMatch('İstanbul foo', { literal: 'foo', caseSensitive: true }), { start: 9, end: 12 });
  });

  it('finds a query typed precomposed in decomposed text and the other way round, as workspace_search does', () => {
    const nfd = 'cafe\u0301 and café';
    assert.deepEqual(findAll(nfd, { literal: 'café', caseSensitive: true }).map((r) => nfd.slice(r.start, r.end)), ['cafe\u0301', 'café']);
    assert.deepEqual(findAll(nfd, { literal: 'cafe\u0301', caseSensitive: false }).length, 2);
  });

  it('selects a line without its indentation', () => {
    assert.deepEqual(trimmedRange('    return x;  '), { start: 4, end: 13 });
    assert.deepEqual(trimmedRange('   '), { start: 0, end: 3 });
  });
});

describe('panel row previews (windows on the match)', () => {
  it('starts a long line’s window shortly before its first match, with … on each side', () => {
    const line = `${'a'.repeat(500)}NEEDLE${'b'.repeat(500)}`;
    const p = previewLine(line, 100, [{ start: 500, end: 506 }]);
    assert.ok(p.text.startsWith('…') && p.text.endsWith('…'));
    assert.deepEqual(marked(p), ['NEEDLE']);
    // The match sits CONTEXT_BEFORE_MATCH units after the leading "…", wherever it was in the line.
    assert.equal(p.highlights[0]!.start, 1 + CONTEXT_BEFORE_MATCH);
    assert.equal(p.text.length, 102);
  });

  it('shows a short line whole, however far into it the match is (the review saw "…cript>alert(1)</script> NEEDLE")', () => {
    const line = '<script>alert(1)</script> NEEDLE';
    const p = previewLine(line, 240, [{ start: 26, end: 32 }]);
    assert.equal(p.text, line);
    assert.deepEqual(marked(p), ['NEEDLE']);
    // Up to WHOLE_LINE_CHARS after the indentation, a line is shown from its start; one unit more moves the window.
    const edge = `${'x'.repeat(WHOLE_LINE_CHARS - 6)}NEEDLE tail`;
    assert.equal(previewLine(`    ${edge}`, 240, [{ start: 4 + WHOLE_LINE_CHARS - 6, end: 4 + WHOLE_LINE_CHARS }]).text, edge);
    const past = previewLine(`x${edge}`, 240, [{ start: WHOLE_LINE_CHARS - 5, end: WHOLE_LINE_CHARS + 1 }]);
    assert.ok(past.text.startsWith('…'), past.text);
    assert.equal(past.highlights[0]!.start, 1 + CONTEXT_BEFORE_MATCH);
  });

  it('highlights every match inside the window and clips one that crosses its edge', () => {
    const line = `${'x'.repeat(100)}hit ${'y'.repeat(10)} hit ${'z'.repeat(30)}hit-past-the-edge`;
    const ranges = findAll(line, { literal: 'hit', caseSensitive: true });
    assert.equal(ranges.length, 3);
    const p = previewLine(line, CONTEXT_BEFORE_MATCH + 51, ranges);
    assert.deepEqual(marked(p), ['hit', 'hit', 'hi']);
    assert.ok(p.text.endsWith('hi…'));
  });

  it('keeps a near match at the line start and trims indentation', () => {
    const p = previewLine('\t\tfoo(bar) foo', 50, [{ start: 2, end: 5 }, { start: 11, end: 14 }]);
    assert.equal(p.text, 'foo(bar) foo');
    assert.deepEqual(p.highlights, [{ start: 0, end: 3 }, { start: 9, end: 12 }]);
  });

  it('shows control and bidi characters as visible text and keeps the highlights on the match', () => {
    // A right-to-left override would reorder the row; a CR would look like a line break.
    const line = 'a\u202Eb\rc NEEDLE \u2066d';
    const p = previewLine(line, 200, [{ start: 6, end: 12 }]);
    assert.equal(p.text, 'a\\u202eb\u240Dc NEEDLE \\u2066d');
    assert.deepEqual(marked(p), ['NEEDLE']);
  });

  it('never splits a surrogate pair', () => {
    const line = `${'x'.repeat(9)}😀😀`;
    const p = previewLine(line, 10);
    assert.equal(p.text, `${'x'.repeat(9)}…`);
    const far = previewLine(`${'y'.repeat(100)}😀${'z'.repeat(CONTEXT_BEFORE_MATCH - 1)}HIT`, 30, [{ start: 102 + CONTEXT_BEFORE_MATCH - 1, end: 102 + CONTEXT_BEFORE_MATCH + 2 }]);
    assert.ok(far.text.startsWith('…😀'), far.text);
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(far.text), far.text);
    assert.equal(cutText('ab😀', 3), 'ab…');
    assert.equal(cutText('abc', 3), 'abc');
  });
});
