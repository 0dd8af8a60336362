import * as assert from 'node:assert/strict';
import { breaksLine, jsonQuote, quoteAsTyped, showControlPictures, showInvisibleCharacters } from '../../../src/core/controlCharacters';

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

  it('quotes a value for a person as it was typed: backslashes not doubled (the grep notification read "\\\\bfoo\\\\b"), controls visible', () => {
    assert.equal(quoteAsTyped('\\bfoo\\b'), '"\\bfoo\\b"');
    assert.equal(quoteAsTyped('C:\\src\\*.ts'), '"C:\\src\\*.ts"');
    assert.equal(quoteAsTyped('say "hi"\r\n\u202e\u200b'), '"say "hi"\u240d\u240a\\u202e\\u200b"');
  });

  it('quotes as a one-line JSON string that reads back exactly', () => {
    const hostile = `Line 9: x\n${Object.values(UNSAFE).join('')}"\\`;
    const quoted = jsonQuote(hostile);
    assert.ok(!breaksLine(quoted), quoted);
    assert.equal(JSON.parse(quoted), hostile);
    assert.equal(jsonQuote('plain.ts'), '"plain.ts"');
  });

  describe('invisible characters', () => {
    /** One of each: tag characters (an astral pair), zero-width space and joiner, soft hyphen, word joiner, BOM, annotation controls. */
    const INVISIBLE = {
      tagA: '\u{E0041}',
      cancelTag: '\u{E007F}',
      languageTag: '\u{E0001}',
      zwsp: '\u200b',
      zwnj: '\u200c',
      zwj: '\u200d',
      softHyphen: '\u00ad',
      wordJoiner: '\u2060',
      invisibleTimes: '\u2062',
      bom: '\ufeff',
      annotationAnchor: '\ufff9',
      annotationTerminator: '\ufffb',
      // Default_Ignorable_Code_Point beyond the first list (a name starting with one
      // slipped past the check of how a line starts, and forged a footer).
      combiningGraphemeJoiner: '\u034f',
      hangulFillers: '\u115f',
      halfwidthHangulFiller: '\uffa0',
      mongolianVariationSelector: '\u180b',
      variationSelector16: '\ufe0f',
      variationSelectorSupplement: '\u{E0100}',
      inhibitSymmetricSwapping: '\u206a',
      musicalSymbolBeginBeam: '\u{1D173}',
    };

    it('makes a name holding one quoted, and escapes it (a tag as its surrogate escapes) so the quote reads back exactly', () => {
      for (const [name, c] of Object.entries(INVISIBLE)) {
        const text = `a${c}b.txt`;
        assert.ok(breaksLine(text), name);
        const quoted = jsonQuote(text);
        assert.match(quoted, /^"a(\\u[0-9a-f]{4}){1,2}b\.txt"$/, `${name}: ${quoted}`);
        assert.equal(JSON.parse(quoted), text);
      }
      assert.equal(jsonQuote('x\u{E0041}'), '"x\\udb40\\udc41"');
    });

    it('leaves running text alone: emoji ZWJ sequences and tag flags, soft hyphens, in page text and in one line', () => {
      const text = 'Dev 👩\u200d💻 from 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}, hy\u00adphen\nnext line';
      assert.equal(showControlPictures(text, true), text);
      assert.equal(showControlPictures('👩\u200d💻 flag 🏴\u{E0067}\u{E007F}'), '👩\u200d💻 flag 🏴\u{E0067}\u{E007F}');
    });

    it('shows them as \\u escapes in a name read exactly (a card path with a ZWSP read as "ab.ts" before), with the controls', () => {
      assert.equal(showInvisibleCharacters('a\u200bb.ts'), 'a\\u200bb.ts');
      assert.equal(showInvisibleCharacters('\ufeffx\u00ady\u2060z\u{E0041}'), '\\ufeffx\\u00ady\\u2060z\\udb40\\udc41');
      assert.equal(showInvisibleCharacters('a\nb\u202ec\u001b'), 'a\u240ab\\u202ec\u241b');
      assert.equal(showInvisibleCharacters('src/ünïcode name 名前 😀.ts'), 'src/ünïcode name 名前 😀.ts');
      // Every default-ignorable code point, e.g. a Hangul filler or a combining grapheme joiner at a name's start.
      assert.equal(showInvisibleCharacters('\u3164x\u034f.ts'), '\\u3164x\\u034f.ts');
    });

    it('does not flag other astral characters (emoji, CJK extension B) or a lone high surrogate from U+DB40', () => {
      assert.ok(!breaksLine('😀 𠀀.txt'));
      assert.ok(!breaksLine('\udb40.txt'));
      assert.ok(!breaksLine('Ⅻ ｆｕｌｌ ㄱ.txt'), 'visible compatibility letters next to the Hangul fillers');
    });
  });
});
