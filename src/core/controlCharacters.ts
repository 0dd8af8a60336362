/**
 * Characters that change how text is laid out or read where a result is shown (a terminal, an editor tab, the
 * model's context), and the two ways Scout neutralises them in text that comes from files, names, servers or
 * models: control pictures for running text, JSON-style escapes inside quoted values.
 *
 * The set ({@link UNSAFE_CHARACTERS}):
 * - C0 controls except TAB (U+0009) and LF (U+000A), and DEL (U+007F): a CR or form feed starts a new line in
 *   VS Code's editor, ESC starts a terminal escape sequence (cursor moves, window titles, hyperlinks);
 * - C1 controls (U+0080–U+009F): NEL (U+0085) breaks lines, CSI (U+009B) starts an escape sequence on some
 *   terminals;
 * - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR, which editors and Markdown renderers break lines at;
 * - the bidirectional formatting characters of Unicode Standard Annex #9 (ALM U+061C, LRM/RLM U+200E–U+200F,
 *   embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069), which reorder what is displayed
 *   ("Trojan Source", CVE-2021-42574).
 * LF is not in the set: callers decide whether a line feed is structure (page text) or an attack (a file name).
 */
export const UNSAFE_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** {@link UNSAFE_CHARACTERS} plus LF: what may not appear raw inside one line of a result. */
const UNSAFE_IN_LINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * Characters that draw nothing, so two names that differ only by them print the same, and a name can carry
 * text no reader sees, or start with one and so slip past the check of how a line starts: Unicode's
 * Default_Ignorable_Code_Point property (DerivedCoreProperties.txt, as the JavaScript engine knows it: SOFT
 * HYPHEN U+00AD, COMBINING GRAPHEME JOINER U+034F, the Hangul fillers U+115F/U+1160/U+3164/U+FFA0, the
 * Mongolian variation selectors U+180B–U+180F, the zero-width characters U+200B–U+200F, U+2060–U+206F,
 * the variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF, BOM U+FEFF, the tag characters U+E0000–U+E007F
 * ("ASCII smuggling"), and more), plus the interlinear annotation controls U+FFF9–U+FFFB, which draw nothing
 * either.
 *
 * They are NOT in {@link UNSAFE_CHARACTERS}, and {@link showControlPictures} leaves them alone, because running
 * text needs them: ZWJ (U+200D) joins emoji sequences (woman, ZWJ, laptop is one "technologist" emoji), tag
 * characters spell subdivision flags (black flag, tags "gbsct", cancel tag is Scotland's), variation selectors
 * pick emoji or text style, and soft hyphens and joiners are ordinary in many scripts. Only a value that must
 * be read exactly (a file name, a quoted argument) treats them as unsafe: {@link breaksLine} reports them, so
 * the name is quoted, and {@link jsonQuote} escapes them (one outside the BMP as its two `\u` surrogate escapes).
 * Patterns built from this source need the `u` flag.
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}|[\ufff9-\ufffb]/u;

/**
 * A character of {@link UNSAFE_CHARACTERS} or {@link INVISIBLE}: what a name cannot show raw, line feeds apart.
 * Its source needs the `u` flag in any pattern built from it.
 */
export const UNSAFE_OR_INVISIBLE = new RegExp(`${UNSAFE_CHARACTERS.source}|${INVISIBLE.source}`, 'u');

/** {@link UNSAFE_OR_INVISIBLE}, as the characters to escape in a quoted value. */
const UNSAFE_IN_VALUE = new RegExp(UNSAFE_OR_INVISIBLE.source, 'gu');

/**
 * True when `text` cannot be printed raw as one line of a name: it holds a character of
 * {@link UNSAFE_CHARACTERS}, a line feed, or an invisible character (see {@link INVISIBLE}).
 */
export function breaksLine(text: string): boolean {
  return UNSAFE_IN_LINE.test(text) || INVISIBLE.test(text);
}

/**
 * `text` with each unsafe character made visible: C0 controls as their control pictures (U+2400 + code, so
 * ESC is ␛ and CR is ␍), DEL as ␡ (U+2421), and the others (C1, separators, bidi controls), which have no
 * picture, as `\u` and four lower-case hex digits. TAB is kept. LF is kept when `keepLineFeeds` is true
 * (multi-line page text), else shown as ␊.
 */
export function showControlPictures(text: string, keepLineFeeds = false): string {
  const pattern = keepLineFeeds ? UNSAFE_CHARACTERS : UNSAFE_IN_LINE_GLOBAL;
  return text.replace(pattern, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return unicodeEscape(code);
  });
}

const UNSAFE_IN_LINE_GLOBAL = new RegExp(UNSAFE_IN_LINE.source, 'g');

/**
 * `text` in double quotes as a person typed it, for a message to that person (VS Code's progress
 * notification): backslashes and quotes stay as typed (`"C:\\src\\*.ts"` is not doubled the way
 * {@link jsonQuote} and `JSON.stringify` double it), and control and invisible characters are made visible
 * with {@link showInvisibleCharacters}, so the message stays one true line. Not for text a program parses back.
 */
export function quoteAsTyped(text: string): string {
  return `"${showInvisibleCharacters(text)}"`;
}

const INVISIBLE_GLOBAL = new RegExp(INVISIBLE.source, 'gu');

/**
 * `text` as one line of a name or value a person must read exactly (a file path or an argument on a results
 * card, a value in a notification): {@link showControlPictures} with LF shown as ␊, and every invisible
 * character ({@link INVISIBLE}) shown as `\u` and four hex digits, the way {@link jsonQuote} escapes it (a tag
 * character as its two surrogate escapes), so `a\u200bb.ts` never reads as `ab.ts`. Running text (a matching
 * line, a page) keeps its joiners: use {@link showControlPictures} there.
 */
export function showInvisibleCharacters(text: string): string {
  return showControlPictures(text).replace(INVISIBLE_GLOBAL, (c) => Array.from(c.split(''), (unit) => unicodeEscape(unit.charCodeAt(0))).join(''));
}

/**
 * `text` as a JSON string literal (RFC 8259) in which every unsafe character is escaped, C1 and bidi
 * controls included (JSON.stringify escapes only C0, quotes and backslashes), and so is every invisible
 * character ({@link INVISIBLE}): a quoted value is read for its exact characters. The result is one line
 * of printable text that reads back to `text` with `JSON.parse`.
 */
export function jsonQuote(text: string): string {
  return escapeUnsafeInJson(JSON.stringify(text));
}

/**
 * JSON text (RFC 8259, as `JSON.stringify` writes it) with every unsafe or invisible character escaped as
 * {@link jsonQuote} escapes it. Outside strings JSON text holds only ASCII punctuation, digits, letters and
 * spaces, so each such character is inside a string, where `\uXXXX` means the same character: the text
 * still parses back (`JSON.parse`) to the same value, and shows as printable lines.
 */
export function escapeUnsafeInJson(json: string): string {
  return json.replace(UNSAFE_IN_VALUE, (c) => (c.length === 1 ? unicodeEscape(c.charCodeAt(0)) : unicodeEscape(c.charCodeAt(0)) + unicodeEscape(c.charCodeAt(1))));
}

function unicodeEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}
