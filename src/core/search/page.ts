import { breaksLine, jsonQuote, UNSAFE_OR_INVISIBLE } from '../controlCharacters';
import { anyFolds, foldLookAlikes, NON_ASCII } from '../lookAlikes';

/**
 * The layout of a glob or grep result, and the rule that keeps file names from passing for its structure.
 *
 * A result is the listed lines (paths; for grep, `Line N: …` rows under each path), then a blank line, the
 * notes (`[…]`), the footer of an over-cap page (`[… not shown …]`) and the workdir note (`Paths are relative
 * to …`). An empty result starts with `No files found` or `No matches found`; a complete result that was
 * saved starts with `Scout <tool> …: …, complete result` (spill.ts); a failed call is `Error: …` then
 * `(code: …)`.
 */

/** The first line of a glob result that lists no file (seed 000). */
export const NO_FILES = 'No files found';
/** The first line of a grep result that lists no match (seed 000). */
export const NO_MATCHES = 'No matches found';

/** The starts of the lines a listed name could be mistaken for (see {@link looksLikeStructure}), as alternatives. */
const STRUCTURE_STARTS = String.raw`\[|"|line\s+\d|paths\s+are\s+relative\s+to\b|no\s+(?:files|matches)\s+found\b|scout\s+(?:glob|grep)\b|error\s*:|\(\s*code\s*:|\s`;
const STRUCTURE_START = new RegExp(`^(?:${STRUCTURE_STARTS})`, 'i');
/** {@link STRUCTURE_STARTS} at the start of any line of a text of lines, as a pattern's source. */
const ANY_LINE_STRUCTURE_START = String.raw`(?:^|\n)(?:${STRUCTURE_STARTS})`;
/**
 * What a letter or digit of {@link STRUCTURE_STARTS} may read as in text {@link foldLookAlikes} has folded: the
 * confusables skeleton writes an upright stroke (`І`, `Ι`, `1`, Arabic-Indic `١`) as `l` and a round one (`О`,
 * `٥`, Devanagari `०`) as `O`, and a number of another script or style (`٩`, `Ⅸ`, `❶`) stays what it is.
 */
const FOLDED_FORMS: Record<string, string> = { i: '[il1|]', l: '[il1|]', o: '[o0]', m: '(?:m|rn)', '\\d': '[\\p{N}lo|]' };
/** {@link STRUCTURE_START} for folded text: each letter and digit taken in any of its {@link FOLDED_FORMS}. */
const FOLDED_STRUCTURE_START = new RegExp(`^(?:${STRUCTURE_STARTS.replace(/\\d|[ilom]/g, (c) => FOLDED_FORMS[c]!)})`, 'iu');
/**
 * What {@link needsQuoting} finds in any line of a text of lines: an unsafe or invisible character (line feeds
 * apart), a line starting like a structural line, or ending in white space. Three expressions, each tried on
 * the whole text: as one alternation they took 10.7 ms on 3.5 MB of names, one in 20 of them not ASCII, and
 * apart 8.3 ms. The line starts take the flags of {@link STRUCTURE_START} (`i`, not `iu`): with `u`, the KELVIN
 * SIGN and the long s fold to `k` and `s` and count as letters, so `No files foundK` had no word end after
 * `found` and was listed raw where {@link displayPath} quotes it.
 */
const ANY_LINE_NEEDS_QUOTING = [
  new RegExp(UNSAFE_OR_INVISIBLE.source, 'iu'),
  new RegExp(ANY_LINE_STRUCTURE_START, 'i'),
  /\s(?:\n|$)/u,
];
/** {@link NON_ASCII}, to find each line that holds such a character in a text of lines. */
const NON_ASCII_GLOBAL = new RegExp(NON_ASCII.source, 'g');

/**
 * True when `line` could pass for one of a result's own lines: a note or footer (`[`), a quoted name
 * (`"`), a grep row (`Line 9:`), the workdir note, an empty result, the heading of a saved result, an error,
 * or anything with white space at either end (which looks like a blank line or another line). Case is ignored,
 * and so are look-alike spellings: a line with non-ASCII characters is compared once more as
 * {@link foldLookAlikes} reads it (`Line` with a NO-BREAK SPACE, a leading U+2800 or combining mark, Cyrillic
 * letters).
 */
export function looksLikeStructure(line: string): boolean {
  if (STRUCTURE_START.test(line) || /\s/.test(line.charAt(line.length - 1))) return true;
  return NON_ASCII.test(line) && foldedLooksLikeStructure(line);
}

/** Combining marks at the start of a line, which draw on nothing. */
const LEADING_MARKS = /^\p{M}+/u;

/**
 * {@link looksLikeStructure} of `line` as {@link foldLookAlikes} reads it, from its ends only: the longest
 * line start (`paths are relative to`) is 21 characters, so 64 code units after any leading combining marks
 * are folded for the start, and the last 4 for white space at the end. A list of 100,000 non-ASCII names is
 * checked in a fraction of what folding all of it takes.
 */
function foldedLooksLikeStructure(line: string): boolean {
  const unmarked = line.replace(LEADING_MARKS, '');
  const start = unmarked.slice(0, 64);
  const end = line.slice(-4);
  // The start is compared as it is too: a number of another script (`Line ٩:`) reads as a digit, and folding
  // may turn it into a letter. Folding changes nothing in most non-ASCII names (CJK, for one).
  if (FOLDED_STRUCTURE_START.test(start)) return true;
  if (unmarked.length === line.length && !anyFolds(start) && !anyFolds(end)) return false;
  return FOLDED_STRUCTURE_START.test(foldLookAlikes(start)) || /\s$/.test(foldLookAlikes(end));
}

/**
 * A file path as a result's text lists it: as is, or as a JSON string (`jsonQuote`) when it holds a line feed
 * or another unsafe character (see `controlCharacters.ts`), or could pass for one of the result's own lines
 * ({@link looksLikeStructure}). A file name is chosen by whoever made the repository: with a newline it adds
 * lines of its choosing, and `[3 more files not shown: … saved at /home/u/.ssh/id_rsa …]` or `Line 9: …` on
 * its own forges a footer or a match row. Values keep the exact names.
 */
export function displayPath(path: string): string {
  return needsQuoting(path) ? jsonQuote(path) : path;
}

function needsQuoting(path: string): boolean {
  return MAY_NEED_QUOTING.test(path) && (breaksLine(path) || looksLikeStructure(path));
}

/**
 * What any name {@link needsQuoting} quotes holds: a character other than printable ASCII, a structural start,
 * or a space at the end. Most names hold none, and this one scan clears them: the five expressions of the full
 * check, {@link breaksLine}'s Unicode property among them, took about 750 ns for a name of 60 characters.
 */
const MAY_NEED_QUOTING = new RegExp(`[^\\x20-\\x7e]|^(?:${STRUCTURE_STARTS})| $`, 'i');

/** The ASCII characters {@link breaksLine} refuses, line feed apart (taken from its set, not listed again). */
const ASCII_UNSAFE = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).filter((c) => c !== '\n' && breaksLine(c));
/** The C0 controls of {@link ASCII_UNSAFE}, for a class of {@link ANY_C0_UNSAFE_OR_STRUCTURE}. */
const C0_UNSAFE = ASCII_UNSAFE.filter((c) => c < ' ');
/** The rest of {@link ASCII_UNSAFE} (DEL), searched for one by one. */
const ASCII_UNSAFE_ABOVE_C0 = ASCII_UNSAFE.filter((c) => c >= ' ');
/**
 * Any of {@link C0_UNSAFE}, or {@link STRUCTURE_START} at the start of any line. One scan finds both: the engine
 * reads every character for the line starts anyway, and the class adds little there. On the 74 plain runs of
 * a list of 50,000 paths, the whole check took 2.2–2.6 ms this way, and 3.3–3.7 ms with a search for each of
 * the 31 characters before the scan. DEL stays out of the class: with it in, the scan took 2.4 times as long.
 */
const ANY_C0_UNSAFE_OR_STRUCTURE = new RegExp(`[${C0_UNSAFE.map(escapedCharacter).join('')}]|${ANY_LINE_STRUCTURE_START}`, 'i');

/** `c` as a regular expression writes it in a class: `\xHH`. */
function escapedCharacter(c: string): string {
  return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/**
 * True when every line of `lines` (paths joined by line feeds, none holding a line feed itself) is listed as is
 * by {@link displayPath}: the same answer as checking each path, from scans of the whole text. With `ascii`
 * (the caller knows every character is ASCII) no character is invisible, and the only white space that can end
 * a line unquoted is a space or a tab, which plain character searches find quicker than a class.
 */
export function listedAsIs(lines: string, ascii = false): boolean {
  if (!ascii) return !ANY_LINE_NEEDS_QUOTING.some((re) => re.test(lines)) && !anyNonAsciiLineFoldsToStructure(lines);
  const last = lines.charCodeAt(lines.length - 1);
  return last !== 0x20 && last !== 0x09 && !lines.includes(' \n') && !lines.includes('\t\n') && !ASCII_UNSAFE_ABOVE_C0.some((c) => lines.includes(c)) && !ANY_C0_UNSAFE_OR_STRUCTURE.test(lines);
}

/**
 * True when a line of `lines` that holds a character other than ASCII passes for a structural line once
 * folded ({@link foldedLooksLikeStructure}). Those lines are found with one search of the whole text: splitting
 * it and testing every line took 5–7 ms on 50,000 names, one in 20 of them not ASCII.
 */
function anyNonAsciiLineFoldsToStructure(lines: string): boolean {
  NON_ASCII_GLOBAL.lastIndex = 0;
  while (NON_ASCII_GLOBAL.test(lines)) {
    const at = NON_ASCII_GLOBAL.lastIndex - 1;
    const start = lines.lastIndexOf('\n', at) + 1;
    const newline = lines.indexOf('\n', at);
    const end = newline < 0 ? lines.length : newline;
    if (foldedLooksLikeStructure(lines.slice(start, end))) return true;
    NON_ASCII_GLOBAL.lastIndex = end;
  }
  return false;
}

/** What follows the quoted form of a name that is not UTF-8 (see {@link displayNonUtf8Path}). */
export const NON_UTF8_MARK = '(not UTF-8: each \\xHH is a raw byte)';

/**
 * A file path whose bytes are not valid UTF-8, as a result's text lists it: quoted like {@link displayPath}
 * quotes (JSON escapes for the UTF-8 parts), each byte that is not part of a valid UTF-8 sequence written as
 * `\xHH`, then {@link NON_UTF8_MARK}: `"latin1_\xe9.txt" (not UTF-8: each \xHH is a raw byte)`. The lossy
 * decoding (U+FFFD) would print two different names the same, and pass for the real name. A quoted UTF-8
 * name never holds `\x` (JSON doubles a backslash) nor ends with the mark, so no other name prints the same.
 * The exact bytes stay in the value (base64).
 */
export function displayNonUtf8Path(bytes: Buffer): string {
  let out = '';
  let run = 0;
  const flush = (end: number) => {
    if (end > run) out += jsonQuote(bytes.toString('utf8', run, end)).slice(1, -1);
  };
  for (let i = 0; i < bytes.length; ) {
    const length = utf8SequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    flush(i);
    out += `\\x${bytes[i]!.toString(16).padStart(2, '0')}`;
    run = ++i;
  }
  flush(bytes.length);
  return `"${out}" ${NON_UTF8_MARK}`;
}

/**
 * Length in bytes of the well-formed UTF-8 sequence starting at `bytes[i]` (Unicode Table 3-7: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 when none starts there.
 */
function utf8SequenceLength(bytes: Buffer, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/**
 * Joins a result's parts: the body lines, a blank line, then the notes, the optional footer and the workdir
 * note, one per line.
 */
export function layoutResult(body: readonly string[], notes: readonly string[], footer: string | undefined, workdirNote: string): string {
  // One join makes one flat string; concatenating to a joined body would add a copy when it is flattened.
  return body.concat('', notes, footer === undefined ? [workdirNote] : [footer, workdirNote]).join('\n');
}

/**
 * {@link layoutResult} in pieces, for a result too large to make as one string: `body` gives the body's text
 * (its lines joined by line feeds, at least one line) in pieces that concatenate to it; then come the blank
 * line, the notes, the optional footer and the workdir note. Joined, the pieces are exactly
 * `layoutResult(bodyLines, notes, footer, workdirNote)`.
 */
export function* layoutPieces(body: Iterable<string>, notes: readonly string[], footer: string | undefined, workdirNote: string): Generator<string> {
  yield* body;
  yield layoutTail(notes, footer, workdirNote);
}

/** The last piece of {@link layoutPieces}: what follows the body, from the line feed that ends its last line. */
export function layoutTail(notes: readonly string[], footer: string | undefined, workdirNote: string): string {
  return ['', ''].concat(notes, footer === undefined ? [workdirNote] : [footer, workdirNote]).join('\n');
}

/** The pieces of {@link layoutPieces} (or any pieces) as one string. */
export function joinPieces(pieces: Iterable<string>): string {
  return [...pieces].join('');
}

/**
 * An empty result: exactly `headline` (seed 000) when there is nothing to add, else `headline`, a blank line,
 * the notes and the workdir note (the notes may name paths).
 */
export function layoutEmpty(headline: string, notes: readonly string[], workdirNote: string): string {
  return notes.length === 0 ? headline : [headline, '', ...notes, workdirNote].join('\n');
}

/** `n` followed by the singular or plural noun: `1 file`, `3 files`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
