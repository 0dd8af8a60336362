import * as assert from 'node:assert/strict';
import { LINE_TRUNCATED, previewLine } from '../../../src/core/search/preview';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
/** The preview without its markers. */
const body = (preview: string) => preview.replace(/^…/, '').replace(/… \(line truncated\)$/, '').replace(/ \(line truncated\)$/, '');

describe('previewLine', () => {
  it('returns a line that fits unchanged, counting bytes not characters', () => {
    assert.equal(previewLine('hello', [{ start: 0, end: 5 }], 5), 'hello');
    const accented = 'é'.repeat(5); // 10 bytes, 5 characters
    assert.equal(previewLine(accented, [], 10), accented);
    assert.notEqual(previewLine(accented, [], 9), accented);
  });

  it('cuts at a UTF-8 boundary, never inside a character, and marks the cut', () => {
    for (const ch of ['é', '日', '🙂']) {
      const line = `${ch.repeat(50)}`;
      for (let max = 1; max <= 20; max++) {
        const preview = previewLine(line, [{ start: 0, end: bytes(ch) }], max);
        assert.ok(preview.endsWith(`… ${LINE_TRUNCATED}`), preview);
        const kept = body(preview);
        assert.ok(bytes(kept) <= max, `${bytes(kept)} <= ${max}`);
        assert.equal(kept, ch.repeat(Math.floor(max / bytes(ch))), `whole characters only (${ch}, ${max})`);
        assert.ok(!kept.includes('\uFFFD'));
      }
    }
  });

  it('keeps the head when the first match ends inside the cap', () => {
    const line = `abc needle ${'x'.repeat(100)}`;
    assert.equal(previewLine(line, [{ start: 4, end: 10 }], 20), `abc needle xxxxxxxxx… ${LINE_TRUNCATED}`);
  });

  it('centres the window on a match deep in a 200,000-character line', () => {
    const line = `${'a'.repeat(100_000)}NEEDLE${'b'.repeat(99_994)}`;
    const preview = previewLine(line, [{ start: 100_000, end: 100_006 }], 2000);
    assert.ok(preview.startsWith('…') && preview.endsWith(`… ${LINE_TRUNCATED}`));
    const kept = body(preview);
    assert.equal(bytes(kept), 2000);
    assert.ok(kept.includes('NEEDLE'));
    assert.equal(kept.indexOf('NEEDLE'), 997, 'the match sits in the middle');
  });

  it('reads submatch offsets as bytes: a match after multibyte text is found in the window', () => {
    const prefix = '日本語'.repeat(400); // 3,600 bytes, 1,200 characters
    const line = `${prefix}NEEDLE${'z'.repeat(3000)}`;
    const start = bytes(prefix);
    const kept = body(previewLine(line, [{ start, end: start + 6 }], 100));
    assert.ok(kept.includes('NEEDLE'), kept);
    assert.ok(bytes(kept) <= 100);
  });

  it('ends the window at the end of the line when the match is near it', () => {
    const line = `${'a'.repeat(500)}END`;
    const preview = previewLine(line, [{ start: 500, end: 503 }], 50);
    assert.ok(preview.startsWith('…'));
    assert.ok(preview.endsWith(`END ${LINE_TRUNCATED}`), preview);
  });

  it('cuts a non-UTF-8 line on its raw bytes, where the offsets point', () => {
    const raw = Buffer.concat([Buffer.alloc(300, 0xe9), Buffer.from('needle\n')]);
    const lossy = raw.toString('utf8').replace(/\n$/, '');
    const preview = previewLine(lossy, [{ start: 300, end: 306 }], 40, raw);
    assert.ok(preview.includes('needle'), preview);
    assert.ok(preview.startsWith('…\uFFFD'));
    assert.equal(previewLine('caf\uFFFD', [], 40, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])), 'caf\uFFFD');
  });

  it('shows NUL and every other C0 control except TAB, and DEL, as control pictures', () => {
    assert.equal(previewLine('aaa\0bbb needle', [{ start: 8, end: 14 }], 2000), 'aaa\u2400bbb needle');
    assert.equal(previewLine('MARK a\rLine 99: forged', [{ start: 0, end: 4 }], 2000), 'MARK a\u240DLine 99: forged');
    assert.equal(previewLine('a\tb\x1b[31mred\x0c\x7f\x1f', [], 2000), 'a\tb\u241B[31mred\u240C\u2421\u241F');
  });

  it('replaces controls inside a cut window too, and never leaves a CR or LF in the preview', () => {
    const line = `${'x'.repeat(50)}\r${'y'.repeat(50)}needle\r`;
    const preview = previewLine(line, [{ start: 101, end: 107 }], 60);
    assert.ok(preview.endsWith(' (line truncated)'), preview);
    assert.ok(preview.includes('\u240D') && preview.includes('needle'), preview);
    assert.doesNotMatch(preview, /[\r\n]/);
  });
});
