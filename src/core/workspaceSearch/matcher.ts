import { clipPreview, mapLowercaseRange } from './preview';
import type { TextKind } from './reader';
import { SimdByteSearch } from './simdSearch';

/** One matching line of one file. */
export interface LineMatch {
  /** 1-based line number (lines end at `\n`; a `\r` before it is not part of the line). */
  readonly line: number;
  /** 1-based UTF-16 code-unit column of the line's first match (VS Code's column unit). */
  readonly column: number;
  /** The line, clipped around the first match (see {@link clipPreview}). */
  readonly preview: string;
  readonly clipped: boolean;
}

/** The matching lines of one file, up to a limit. */
export interface FileMatches {
  readonly lines: LineMatch[];
  /** True when another matching line follows the last one returned. */
  readonly more: boolean;
}

/** Finds the next occurrence at or after a position: [offset, length], or undefined. */
type Finder = (from: number) => readonly [number, number] | undefined;

const NEWLINE = 0x0a;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/**
 * The only characters outside ASCII whose lowercase holds ASCII letters: `İ` (U+0130 → `i` U+0307) and the
 * Kelvin sign (U+212A → `k`), as UTF-8. A unit test checks every code point.
 */
const LOWERCASES_TO_ASCII = [Buffer.from('\u0130'), Buffer.from('\u212a')];

/**
 * Literal, line-by-line substring search (seed 003): never a regular expression, never across lines, one
 * result per matching line.
 *
 * Case: by default query and text are compared after `String.prototype.toLowerCase` (Unicode's
 * locale-independent lowercase mapping, not case folding: `ß` does not match `SS`, and `İ` becomes `i̇`, so
 * `istanbul` does not find `İstanbul`); `caseSensitive` compares exactly.
 *
 * Unicode normalisation (Scout's choice; the seed is silent): text is never normalised, so columns and
 * previews index the original line. The query is searched in both its NFC and its NFD form instead, so `é`
 * typed precomposed finds precomposed (NFC) and decomposed (NFD) text alike. Text mixing the two forms
 * inside one match is not found, and a base letter finds the same letter inside a decomposed character
 * (`e` finds the `e` of an NFD `é`), as plain substring search does.
 *
 * Speed: the file's UTF-8 bytes are searched in place, without decoding, whenever that is exact (see
 * {@link SimdByteSearch}): case-sensitive queries byte for byte (UTF-8 is self-synchronising, so byte
 * equality is text equality), and ASCII queries ignoring ASCII case (only ASCII lowercases to the ASCII
 * letters of such a query, save `İ` and `K`, whose presence sends the file down the decoding path). Other
 * queries decode the file, lowercase it once and map positions back; but first the byte search looks for
 * the longest ASCII run of each form ignoring ASCII case (`caf` of `café`), and a file holding none of
 * them (nor `İ` or `K`, where they could supply its letters) cannot match and is not decoded. Only
 * matching lines are decoded, for their previews.
 */
export class LiteralLineMatcher {
  /** The searched forms of the query (lowercased unless case-sensitive), none holding a line break. */
  private readonly forms: readonly string[];
  /** UTF-8 length of each form when the byte search serves this query (see above), else undefined. */
  private readonly byteLengths: readonly number[] | undefined;
  /** For the other queries, the longest ASCII run of each form; undefined when some form has none. */
  private readonly asciiRuns: readonly string[] | undefined;
  private readonly bytes: SimdByteSearch;

  /** @param query the trimmed query (1–256 code units). */
  constructor(
    query: string,
    private readonly caseSensitive: boolean,
  ) {
    this.forms = [...new Set([query.normalize('NFC'), query.normalize('NFD')].map((q) => (caseSensitive ? q : q.toLowerCase())))]
      // A query holding a line break can never lie inside one line.
      .filter((q) => !q.includes('\n'));
    const byteSearch = caseSensitive || (this.forms.length === 1 && /^[\x00-\x7f]*$/.test(this.forms[0]!));
    const runs = byteSearch ? [] : this.forms.map(longestAsciiRun);
    this.asciiRuns = runs.length > 0 && runs.every((run) => run.length > 0) ? runs : undefined;
    const needles = (byteSearch ? this.forms : (this.asciiRuns ?? [])).map((q) => Buffer.from(q));
    this.byteLengths = byteSearch ? needles.map((n) => n.length) : undefined;
    this.bytes = new SimdByteSearch(needles, !caseSensitive);
  }

  /**
   * A buffer of `size` bytes to read the next file into: {@link match} searches it in place. Valid until
   * the next call.
   */
  readBuffer(size: number): Buffer {
    return this.bytes.readBuffer(size);
  }

  /**
   * Finds the lines of a file that contain the query, in order, at most `limit` of them. `bytes` must
   * already be valid UTF-8 without NUL (`kind` from `classifyText`); a leading byte-order mark is not part
   * of line 1. Work is linear in the file up to the last line returned.
   */
  match(bytes: Buffer, kind: TextKind, limit: number): FileMatches {
    if (limit <= 0 || this.forms.length === 0) return { lines: [], more: false };
    const start = kind === 'utf8' && bytes.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0;
    if (this.byteLengths && (this.caseSensitive || kind === 'ascii' || !mayLowercaseToAscii(this.forms[0]!, bytes))) {
      const find = earliest(this.byteLengths.map((length, k) => [(from: number) => this.bytes.indexOf(k, bytes, from), length] as const));
      return scanBytes(bytes, start, limit, find);
    }
    if (this.asciiRuns?.every((run, k) => this.bytes.indexOf(k, bytes, start) === -1 && !mayLowercaseToAscii(run, bytes))) return { lines: [], more: false };
    return scanText(bytes.toString('utf8', start), this.forms, limit);
  }
}

/** The longest stretch of `text` without characters outside ASCII (the first of equals). */
function longestAsciiRun(text: string): string {
  return text.split(/[^\x00-\x7f]+/).reduce((longest, run) => (run.length > longest.length ? run : longest), '');
}

/** True when `bytes` holds a character outside ASCII whose lowercase could supply a letter of `needle`. */
function mayLowercaseToAscii(needle: string, bytes: Buffer): boolean {
  return (needle.includes('i') && bytes.includes(LOWERCASES_TO_ASCII[0]!)) || (needle.includes('k') && bytes.includes(LOWERCASES_TO_ASCII[1]!));
}

/** Combines per-form searches into one that returns the earliest occurrence (the longest on a tie). */
function earliest(forms: readonly (readonly [search: (from: number) => number, length: number])[]): Finder {
  const next = forms.map(() => -2);
  return (from) => {
    let at = -1;
    let length = 0;
    forms.forEach(([search, formLength], k) => {
      if (next[k]! !== -1 && next[k]! < from) next[k] = search(from);
      const found = next[k]!;
      if (found >= 0 && (at < 0 || found < at || (found === at && formLength > length))) {
        at = found;
        length = formLength;
      }
    });
    return at < 0 ? undefined : [at, length];
  };
}

/**
 * The byte-offset scan: `find` works on offsets into `bytes`, lines are found with `Buffer#indexOf`, and
 * only the lines that match are decoded, to build their previews.
 */
function scanBytes(bytes: Buffer, start: number, limit: number, find: Finder): FileMatches {
  const newline = (from: number) => bytes.indexOf(NEWLINE, from);
  const lines: LineMatch[] = [];
  let lineStart = start;
  let lineNumber = 1;
  for (;;) {
    const found = find(lineStart);
    if (!found) return { lines, more: false };
    if (lines.length === limit) return { lines, more: true };
    const [at, length] = found;
    for (let nl = newline(lineStart); nl !== -1 && nl < at; nl = newline(lineStart)) {
      lineStart = nl + 1;
      lineNumber++;
    }
    const end = newline(at);
    const lineEnd = end === -1 ? bytes.length : end;
    const contentEnd = lineEnd > lineStart && bytes[lineEnd - 1] === 0x0d ? lineEnd - 1 : lineEnd;
    const line = bytes.toString('utf8', lineStart, contentEnd);
    const column = bytes.toString('utf8', lineStart, at).length;
    const matched = bytes.toString('utf8', at, at + length).length;
    const preview = clipPreview(line, column, column + matched);
    lines.push({ line: lineNumber, column: column + 1, preview: preview.text, clipped: preview.clipped });
    if (end === -1) return { lines, more: false };
    lineStart = end + 1;
    lineNumber++;
  }
}

/**
 * The decoded-text scan, for case-insensitive queries the byte paths cannot serve. The text is lowercased
 * once as a whole; where that keeps its length every offset maps 1:1 (no code point lowercases to fewer
 * code units), otherwise line starts are tracked in both strings and each match is mapped back with
 * {@link mapLowercaseRange}.
 */
function scanText(text: string, needles: readonly string[], limit: number): FileMatches {
  const lines: LineMatch[] = [];
  const hay = text.toLowerCase();
  const aligned = hay.length === text.length;
  const find = earliest(needles.map((n) => [(from: number) => hay.indexOf(n, from), n.length] as const));
  let hayLineStart = 0;
  let textLineStart = 0;
  let lineNumber = 1;
  for (;;) {
    const found = find(hayLineStart);
    if (!found) return { lines, more: false };
    if (lines.length === limit) return { lines, more: true };
    const [at, length] = found;
    for (let nl = hay.indexOf('\n', hayLineStart); nl !== -1 && nl < at; nl = hay.indexOf('\n', hayLineStart)) {
      hayLineStart = nl + 1;
      if (!aligned) textLineStart = text.indexOf('\n', textLineStart) + 1;
      lineNumber++;
    }
    if (aligned) textLineStart = hayLineStart;
    const hayEnd = hay.indexOf('\n', at);
    const hayLineEnd = hayEnd === -1 ? hay.length : hayEnd;
    const textEnd = aligned ? hayEnd : text.indexOf('\n', textLineStart);
    let line = text.slice(textLineStart, textEnd === -1 ? text.length : textEnd);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const offset = at - hayLineStart;
    const [from, to] = aligned ? [offset, offset + length] : mapLowercaseRange(line, offset, offset + length);
    const preview = clipPreview(line, from, Math.min(to, line.length));
    lines.push({ line: lineNumber, column: from + 1, preview: preview.text, clipped: preview.clipped });
    if (hayEnd === -1) return { lines, more: false };
    hayLineStart = hayLineEnd + 1;
    textLineStart = textEnd + 1;
    lineNumber++;
  }
}
