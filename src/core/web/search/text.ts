import { showControlPictures } from '../../controlCharacters';

/**
 * Cleaning of the text fields search providers return: Brave wraps matched words in
 * `<strong>`, APIs leave HTML entities in snippets, any field may hold line breaks, and a hostile provider may
 * send terminal escape sequences or bidi overrides. Everything shown to the model goes through
 * {@link cleanText} (JSON APIs) or {@link plainLine} (text already decoded by a DOM).
 */

/**
 * Inline formatting tags search APIs put in titles and snippets. Only these are removed, so text that merely
 * contains `<` (`a<b and c>d`, `Vec<T>`) is kept as written.
 */
const FORMATTING_TAG = /<\/?(?:strong|b|em|i|u|mark|span|small|sub|sup|code|br|wbr)(?:\s[^<>]*)?\/?>/gi;

/** Named references seen in search snippets; any other name is left as written. */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  shy: '',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  sbquo: '\u201a',
  ldquo: '\u201c',
  rdquo: '\u201d',
  bdquo: '\u201e',
  laquo: '\u00ab',
  raquo: '\u00bb',
  middot: '\u00b7',
  bull: '\u2022',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  deg: '\u00b0',
  euro: '\u20ac',
  pound: '\u00a3',
  yen: '\u00a5',
  cent: '\u00a2',
  sect: '\u00a7',
  para: '\u00b6',
  times: '\u00d7',
  divide: '\u00f7',
  plusmn: '\u00b1',
  frac12: '\u00bd',
};

const ENTITY = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

/**
 * Decodes character references in ONE pass, so `&amp;amp;` becomes `&amp;` (never `&`): numeric references
 * (`&#39;`, `&#x27;`; a zero, surrogate or out-of-range code point gives U+FFFD as in HTML's rules) and the
 * names in {@link NAMED_ENTITIES}.
 */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
    const codePoint = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    const valid = codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
    return valid ? String.fromCodePoint(codePoint) : '\ufffd';
  });
}

/**
 * `text` as one line of plain, printable text: every run of whitespace (line breaks, tabs, no-break spaces,
 * U+2028/U+2029) as one space, trimmed, and every other unsafe character (ESC and the other C0 controls, C1
 * controls such as CSI and NEL, bidi controls) shown by `showControlPictures` (ESC as ␛, U+202E as
 * `\u202e`), so it cannot move a terminal's cursor, reorder what is displayed, or break the line.
 */
export function plainLine(text: string): string {
  return showControlPictures(text.replace(/\s+/g, ' ').trim());
}

/**
 * A provider's text field as plain one-line text: formatting tags removed (before decoding, so an escaped
 * `&lt;b&gt;` stays visible as `<b>`), entities decoded once, then {@link plainLine} (so `&#27;` cannot
 * smuggle an ESC in). A non-string gives ''.
 */
export function cleanText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return plainLine(decodeEntities(value.replace(FORMATTING_TAG, ' ')));
}

/**
 * A result date for display: an ISO 8601 date or date-time (`2024-03-05T10:00:00Z`) becomes `2024-03-05`; a
 * short free-form wording (`3 days ago`, at most 40 characters) is kept cleaned; anything else gives ''.
 */
export function displayDate(value: unknown): string {
  const text = cleanText(value);
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ]|$)/.exec(text);
  if (iso) return iso[1]!;
  return text.length <= 40 ? text : '';
}

/** `value` when it is a string, else ''. */
export function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** `value` when it is an array, else [] (`null` and missing fields give an empty list, never an exception). */
export function listField(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `value` when it is a plain JSON object, else undefined. */
export function objectField(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
