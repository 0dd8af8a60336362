import * as assert from 'node:assert/strict';
import { breaksLine, jsonQuote, showControlPictures } from '../../../src/core/controlCharacters';

/** One character of each kind in the unsafe set, by name. */
const UNSAFE = {
  nul: '\u0000',
  cr: '\r',
  esc: '\u001b',
  del: '\u007f',
  nel: '\u0085',
  csi: '\u009b',
  lineSeparator: '\u2028',
  paragraphSeparator: '\u2029',
  rlo: '\u202e',
  lri: '\u2066',
  alm: '\u061c',
  rlm: '\u200f',
};

describe('controlCharacters', () => {
  it('finds every unsafe character and a line feed, and nothing in plain text with tabs and non-ASCII letters', () => {
    for (const [name, c] of Object.entries(UNSAFE)) assert.ok(breaksLine(`a${c}b`), name);
    assert.ok(breaksLine('a\nb'));
    assert.ok(!breaksLine('src/ünïcode\tname 名前 😀.ts'));
  });

  it('shows C0 controls as control pictures, DEL as ␡, and C1, separator and bidi controls as \\u escapes', () => {
    assert.equal(showControlPictures('a\u001b[4Ab\rc\u0000d\u007f'), 'a\u241b[4Ab\u240dc\u2400d\u2421');
    assert.equal(showControlPictures('x\u0085y\u2028z\u202e'), 'x\\u0085y\\u2028z\\u202e');
    assert.equal(showControlPictures('tab\there'), 'tab\there');
  });

  it('keeps line feeds only when asked (multi-line page text), and shows them as ␊ in one line', () => {
    assert.equal(showControlPictures('a\nb'), 'a\u240ab');
    assert.equal(showControlPictures('a\nb\r\n', true), 'a\nb\u240d\n');
  });

  it('quotes as a one-line JSON string that reads back exactly', () => {
    const hostile = `Line 9: x\n${Object.values(UNSAFE).join('')}"\\`;
    const quoted = jsonQuote(hostile);
    assert.ok(!breaksLine(quoted), quoted);
    assert.equal(JSON.parse(quoted), hostile);
    assert.equal(jsonQuote('plain.ts'), '"plain.ts"');
  });
});
