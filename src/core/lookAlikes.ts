import prototypes from 'unhomoglyph/data.json';

/**
 * How a line reads to a person, for comparing it with a tool's own line shapes: look-alike letters, spaces and
 * marks folded to what they imitate. Used by glob and grep (file names) and web_fetch (page lines).
 */

/** Per BMP code unit: 0 not known yet, 1 when {@link foldCharacter} leaves it as it is, 2 when it changes it. */
const FOLDS = new Uint8Array(0x10000);

/** True when {@link foldLookAlikes} would change `text` (a character outside the BMP is taken to). */
export function anyFolds(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code >= 0xd800 && code <= 0xdfff) return true;
    let known = FOLDS[code]!;
    if (known === 0) FOLDS[code] = known = foldCharacter(text[i]!) === text[i] ? 1 : 2;
    if (known === 2) return true;
  }
  return false;
}

/** Any non-ASCII character. */
export const NON_ASCII = /[^\x00-\x7f]/;
/**
 * Each confusable character and the prototype it imitates, from the unhomoglyph package's table (Unicode's
 * confusables.txt; every key is one code point). Looked up directly rather than through the package's
 * function, whose one regex of 6,000 alternatives took 3 s over 100,000 non-ASCII names.
 */
const PROTOTYPES = new Map<string, string>(Object.entries(prototypes as Record<string, string>));

/**
 * `text` as it reads to a person, for comparing with Scout's own line shapes: compatibility forms folded
 * (NFKD: full-width `Ｌ`, `ℒ`, ligatures, NO-BREAK SPACE and the other compatibility spaces), combining marks
 * dropped (a leading U+0301 attaches to nothing; `L̈ine` still reads "Line"), every other space and U+2800
 * (braille blank, drawn as a space) made a plain space, then each non-ASCII character replaced by its
 * confusables prototype ({@link PROTOTYPES}, Unicode TS #39 skeleton data: Cyrillic `і` and `е`, Greek
 * `Ν`). ASCII characters are left as they are, those NFKD makes too: the skeleton also maps `1` to `l` and `m`
 * to `rn`, which would hide a real `Line 1:`. The skeleton writes every letter drawn as one upright stroke
 * (Cyrillic `І`, Greek `Ι`) as `l`, so a comparison with words holding an `i` must take `l` for it too.
 */
export function foldLookAlikes(text: string): string {
  return text.replace(NON_ASCII_CHARACTER, foldCharacter);
}

/** One non-ASCII code point (a surrogate pair whole). */
const NON_ASCII_CHARACTER = /[^\x00-\x7f]/gu;

/** {@link foldLookAlikes} of each non-ASCII character met so far (at most {@link MAX_FOLDED} of them). */
const FOLDED = new Map<string, string>();
const MAX_FOLDED = 65_536;
const MARK = /\p{M}/u;
const BLANK = /[\p{Zs}\u2800]/u;

/**
 * One code point as {@link foldLookAlikes} reads it. Folding character by character gives the same text as
 * folding the whole: NFKD decomposes each character on its own, and only reorders combining marks, which are
 * dropped.
 */
function foldCharacter(c: string): string {
  let folded = FOLDED.get(c);
  if (folded !== undefined) return folded;
  folded = '';
  for (const part of c.normalize('NFKD')) {
    if (MARK.test(part)) continue;
    // What NFKD made ASCII is what the character stands for (full-width `Ｉ` is `I`): the table would go on to
    // map that `I` to `l`, as it maps the ASCII one.
    const prototype = part < '\x80' ? part : BLANK.test(part) ? ' ' : (PROTOTYPES.get(part) ?? part);
    // The table spells a look-alike of `"` as two apostrophes.
    folded += prototype === "''" ? '"' : prototype;
  }
  if (FOLDED.size < MAX_FOLDED) FOLDED.set(c, folded);
  return folded;
}
