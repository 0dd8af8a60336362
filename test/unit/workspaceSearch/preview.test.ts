import * as assert from 'node:assert/strict';
import { clipPreview, mapLowercaseRange, OMISSION_MARKER } from '../../../src/core/workspaceSearch/preview';

/** True when `s` holds a high surrogate without its low half, or the reverse. */
const hasLoneSurrogate = (s: string) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
const body = (preview: string) => preview.replace(/^…/, '').replace(/…$/, '');

describe('workspace_search previews', () => {
  describe('clipPreview', () => {
    it('returns a line of up to 500 code units unchanged', () => {
      const line = 'x'.repeat(500);
      assert.deepEqual(clipPreview(line, 10, 11), { text: line, clipped: false });
    });

    it('cuts a 501-unit line to 500 units plus a marker', () => {
      const line = `${'a'.repeat(250)}N${'b'.repeat(250)}`;
      const { text, clipped } = clipPreview(line, 250, 251);
      assert.ok(clipped);
      assert.equal(body(text).length, 500);
      assert.ok(body(text).includes('N'));
      assert.equal(text.length, 501, 'exactly one side omitted');
    });

    it('centres the window on the match, with a marker on each cut side', () => {
      const line = `${'a'.repeat(1000)}NEEDLE${'b'.repeat(1000)}`;
      const { text } = clipPreview(line, 1000, 1006);
      assert.ok(text.startsWith(OMISSION_MARKER) && text.endsWith(OMISSION_MARKER));
      const inner = body(text);
      assert.equal(inner.length, 500);
      const at = inner.indexOf('NEEDLE');
      assert.equal(at, 247, 'the match sits in the middle: (500 - 6) / 2 units before it');
      assert.equal(inner.length - at - 6, 247);
    });

    it('shifts the window inside the line near either end', () => {
      const line = `NEEDLE${'b'.repeat(2000)}`;
      const start = clipPreview(line, 0, 6).text;
      assert.ok(start.startsWith('NEEDLE') && start.endsWith(OMISSION_MARKER));
      const end = clipPreview(`${'a'.repeat(2000)}NEEDLE`, 2000, 2006).text;
      assert.ok(end.startsWith(OMISSION_MARKER) && end.endsWith('NEEDLE'));
      assert.equal(body(end).length, 500);
    });

    it('starts at a match longer than the window', () => {
      const line = `${'a'.repeat(100)}${'M'.repeat(700)}${'b'.repeat(100)}`;
      const { text } = clipPreview(line, 100, 800);
      assert.equal(text, `${OMISSION_MARKER}${'M'.repeat(500)}${OMISSION_MARKER}`);
    });

    it('never splits a surrogate pair at either edge', () => {
      for (let shift = 0; shift < 4; shift++) {
        const line = `${'a'.repeat(shift)}${'😀'.repeat(600)}`;
        for (const at of [1, 301, 601, 900, line.length - 2]) {
          const { text } = clipPreview(line, at, at + 2);
          assert.ok(!hasLoneSurrogate(text), `shift ${shift} at ${at}: ${JSON.stringify(text.slice(0, 3))}…${JSON.stringify(text.slice(-3))}`);
          assert.ok(body(text).length <= 500);
        }
      }
    });
  });

  describe('mapLowercaseRange', () => {
    it('maps through İ, which lowercases to two code units', () => {
      const line = 'İİ needle';
      const lower = line.toLowerCase();
      assert.equal(lower.length, line.length + 2);
      const at = lower.indexOf('needle');
      assert.deepEqual(mapLowercaseRange(line, at, at + 6), [3, 9]);
    });

    it('widens an edge inside an expansion to the whole character', () => {
      const line = 'aİb';
      // line.toLowerCase() is 'a' 'i' '\u0307' 'b': the dot alone, or the i alone, maps to İ.
      assert.deepEqual(mapLowercaseRange(line, 2, 3), [1, 2]);
      assert.deepEqual(mapLowercaseRange(line, 1, 2), [1, 2]);
      assert.deepEqual(mapLowercaseRange(line, 2, 4), [1, 3]);
    });

    it('keeps surrogate pairs whole and skips long unchanged runs', () => {
      const line = `${'😀x'.repeat(300)}İ${'y'.repeat(700)}ÄNEEDLE${'z'.repeat(10)}`;
      const lower = line.toLowerCase();
      const at = lower.indexOf('äneedle');
      const [start, end] = mapLowercaseRange(line, at, at + 7);
      assert.equal(line.slice(start, end), 'ÄNEEDLE');
    });

    it('maps an emoji match', () => {
      const line = 'İ😀İ😀';
      const lower = line.toLowerCase();
      const at = lower.lastIndexOf('😀');
      const [start, end] = mapLowercaseRange(line, at, at + 2);
      assert.deepEqual([start, end], [4, 6]);
    });
  });
});
