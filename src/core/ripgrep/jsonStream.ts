import { ToolError } from '../errors';
import { RecordSplitter } from './records';
import { latin1Slice, utf8Slice } from './bufferSlices';
import { hostAdvice } from '../hostAdvice';

/**
 * rg's encoding of arbitrary bytes in `--json` output: `{ text }` when the bytes are valid UTF-8, otherwise
 * `{ bytes }` holding them in base64 (rg's "arbitrary data" object).
 */
export type RgData = { readonly text: string; readonly bytes?: undefined } | { readonly bytes: string; readonly text?: undefined };

/** One submatch: byte offsets `[start, end)` into the UTF-8 (or raw) bytes of the matched line. */
export interface RgSubmatch {
  readonly start: number;
  readonly end: number;
}

/**
 * Receives one rg `match` message, reduced to what the search tools use (positional, so no intermediate
 * object is made per match):
 * - `path`: the file as rg printed it. Consecutive matches in one file share the same object, so identity
 *   comparison is a cheap "same file as before" test.
 * - `line`: the matched line without its trailing CR/LF, decoded lossily (U+FFFD) when it is not UTF-8.
 * - `lineNumber`: 1-based (0 if rg printed none, which Scout's argv never causes).
 * - `submatches`: byte offsets into the line's bytes. A line with one match gets a frozen array shared by every
 *   line with the same offsets ({@link oneSubmatch}).
 * - `lineBase64`: the exact bytes of a non-UTF-8 line (terminator included), base64; the offsets refer to
 *   them. Undefined for a UTF-8 line.
 */
export type MatchHandler = (path: RgData, line: string, lineNumber: number, submatches: readonly RgSubmatch[], lineBase64: string | undefined) => void;

// rg (serde_json) writes every message on one line with fields in a fixed order; begin/end/match/context
// objects start with their type, the summary starts with "data". The reader checks these byte prefixes so it
// parses only what it uses, and reads match messages in that fixed layout without building the whole JSON
// object, falling back to JSON.parse for anything laid out differently.
const MATCH_PREFIX = bytes('{"type":"match",');
const TYPE_PREFIX = bytes('{"type":"');
const PATH_TEXT = bytes('{"type":"match","data":{"path":{"text":"');
const PATH_BYTES = bytes('{"type":"match","data":{"path":{"bytes":"');
const AFTER_PATH = bytes('},"lines":{');
const TEXT_KEY = bytes('"text":"');
const BYTES_KEY = bytes('"bytes":"');
const AFTER_LINES = bytes('},"line_number":');
const ABSOLUTE_OFFSET = bytes(',"absolute_offset":');
const SUBMATCHES = bytes(',"submatches":[');
const MATCH_TEXT = bytes('{"match":{"text":"');
const MATCH_BYTES = bytes('{"match":{"bytes":"');
const AFTER_MATCH = bytes('},"start":');
const END_KEY = bytes(',"end":');
const CLOSE = bytes(']}}');
/** Where the `t` of "text" or the `b` of "bytes" is in {@link PATH_TEXT} / {@link PATH_BYTES}. */
const PATH_KEY_AT = '{"type":"match","data":{"path":{"'.length;
/** Where the `t` of "text" or the `b` of "bytes" is in {@link MATCH_TEXT} / {@link MATCH_BYTES}. */
const MATCH_KEY_AT = '{"match":{"'.length;
const NULL = bytes('null');
/** How rg's summary message, its last, starts (the summary has no leading type). */
const SUMMARY_PREFIX = bytes('{"data":{"elapsed_total":');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// Buffers, not plain Uint8Arrays, so byte comparisons against rg's output Buffers stay monomorphic.
function bytes(s: string): Buffer {
  return Buffer.from(s, 'latin1');
}

/**
 * A streaming reader of `rg --json` output (the JSON Lines format of ripgrep's `--json` flag).
 *
 * Feed stdout chunks with {@link push} as they arrive and call {@link end} once rg has exited. Lines are
 * split on `\n` bytes before decoding, so chunks may end anywhere, including inside a UTF-8 character.
 * `match` lines are handed to `onMatch`; `begin`, `end` and `context` lines are recognised by their prefix
 * and skipped; any other line must be a JSON object with a `type` (the `summary`), or the output is
 * malformed. Offsets stay byte offsets, as rg reports them.
 *
 * @throws ToolError SEARCH_FAILED from `push`/`end` when a line is not valid rg JSON.
 */
export class RgJsonReader {
  private readonly splitter: RecordSplitter;
  /** Number of `match` messages read. */
  matches = 0;
  /** The previous match's path bytes as rg printed them (the first `lastPathLength` bytes; reused). */
  private lastPathBytes = Buffer.allocUnsafe(256);
  /** -1 until a match was read by the fast reader, and after one read by `JSON.parse`. */
  private lastPathLength = -1;
  private lastPath: RgData | undefined;
  /** The match {@link readMatch} read last, handed on by {@link line}. */
  private readonly read: { path: RgData | undefined; line: string; lineNumber: number; submatches: readonly RgSubmatch[]; lineBase64: string | undefined } = {
    path: undefined,
    line: '',
    lineNumber: 0,
    submatches: NO_SUBMATCHES,
    lineBase64: undefined,
  };
  /** Set once a match line was read in full by the fast reader (see `sep`). */
  private layoutSeen = false;
  /** True from a match until rg's next `begin` or `end`: the file of the last match may still get more. */
  private fileOpen = false;

  constructor(private readonly onMatch: MatchHandler) {
    this.splitter = new RecordSplitter(0x0a, (buf, start, end) => this.line(buf, start, end));
  }

  push(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  end(): void {
    this.splitter.end();
  }

  /**
   * For output cut short (rg stopped at the raw-output cap, `end` not called): true when the file of the last
   * match read has all its matches, because rg went on to its `end` message or to another file's `begin`
   * (whole, or cut once its type can be read). False when the cut may have taken matches of that file.
   */
  lastFileWhole(): boolean {
    // A cut message that has its type already: a `begin` or `end` of rg's says the file before it is done.
    const head = this.splitter.carriedHead(TYPE_PREFIX.length + 1);
    if (head.length > TYPE_PREFIX.length && head.subarray(0, TYPE_PREFIX.length).equals(TYPE_PREFIX) && closesFile(head[TYPE_PREFIX.length]!)) return true;
    return !this.fileOpen;
  }

  /**
   * For output cut short (rg stopped at the raw-output cap, `end` not called): true when the message left
   * unfinished is rg's summary, which rg prints after every other message, so no match was lost to the cut.
   */
  cutInSummary(): boolean {
    // Every other message starts `{"type"`, so three bytes tell the summary, before its first key is whole.
    const head = this.splitter.carriedHead(SUMMARY_PREFIX.length);
    return head.length >= 3 && head.equals(SUMMARY_PREFIX.subarray(0, head.length));
  }

  private line(buf: Buffer, start: number, end: number): void {
    if (this.layoutSeen ? end - start > MATCH_PREFIX.length && buf[start + TYPE_PREFIX.length] === 0x6d /* m */ && buf[start] === 0x7b /* { */ : at(buf, start, end, MATCH_PREFIX)) {
      // The handler is called here rather than inside readMatch, so the (large) parser is not compiled again
      // whenever the engine re-optimizes the handler's allocations.
      if (this.readMatch(buf, start, end)) this.onMatch(this.read.path!, this.read.line, this.read.lineNumber, this.read.submatches, this.read.lineBase64);
      else this.handleParsed(buf, start, end);
      this.fileOpen = true;
      return;
    }
    if (at(buf, start, end, TYPE_PREFIX)) {
      if (closesFile(buf[start + TYPE_PREFIX.length]!)) this.fileOpen = false;
      return;
    }
    this.handleParsed(buf, start, end);
  }

  /**
   * Reads a match message in rg's fixed layout and hands it on; false (and nothing handed on) when the line
   * is laid out differently. Strings are skipped by jumping from quote to quote (`indexOf`, native), not byte
   * by byte; a match in the same file as the one before compares its path bytes with that one's.
   */
  private readMatch(buf: Buffer, start: number, end: number): boolean {
    const pathIsBytes = !this.key(buf, start, end, PATH_TEXT, PATH_KEY_AT);
    if (pathIsBytes && !this.key(buf, start, end, PATH_BYTES, PATH_KEY_AT)) return false;
    const pathOpen = start + (pathIsBytes ? PATH_BYTES.length : PATH_TEXT.length);
    let pathClose = this.samePathEnd(buf, pathOpen, end, pathIsBytes);
    const samePath = pathClose >= 0;
    if (!samePath) pathClose = stringEnd(buf, pathOpen, end, true);
    if (pathClose < 0 || !this.sep(buf, pathClose + 1, end, AFTER_PATH)) return false;
    const path = samePath ? this.lastPath! : this.path(buf, pathOpen, pathClose, pathIsBytes);

    let p = pathClose + 1 + AFTER_PATH.length;
    const lineIsBytes = at(buf, p, end, BYTES_KEY);
    if (!lineIsBytes && !at(buf, p, end, TEXT_KEY)) return false;
    const lineOpen = p + (lineIsBytes ? BYTES_KEY.length : TEXT_KEY.length);
    const lineClose = stringEnd(buf, lineOpen, end, true);
    if (lineClose < 0 || !this.sep(buf, lineClose + 1, end, AFTER_LINES)) return false;
    let line: string;
    let lineBase64: string | undefined;
    if (lineIsBytes) {
      lineBase64 = latin1Slice.call(buf, lineOpen, lineClose);
      line = stripTerminator(Buffer.from(lineBase64, 'base64').toString('utf8'));
    } else {
      line = decodeLineText(buf, lineOpen, lineClose);
    }

    p = lineClose + 1 + AFTER_LINES.length;
    let lineNumber = 0;
    if (at(buf, p, end, NULL)) p += NULL.length;
    else if ((lineNumber = readInt(buf, p, end)) < 0) return false;
    else p = intEnd;
    if (!this.sep(buf, p, end, ABSOLUTE_OFFSET) || readInt(buf, p + ABSOLUTE_OFFSET.length, end) < 0) return false;
    p = intEnd;
    if (!this.sep(buf, p, end, SUBMATCHES)) return false;
    p += SUBMATCHES.length;
    let submatches: RgSubmatch[] | undefined;
    let first: RgSubmatch | undefined;
    while (buf[p] !== 0x5d /* ] */) {
      const textIsBytes = !this.key(buf, p, end, MATCH_TEXT, MATCH_KEY_AT);
      if (textIsBytes && !this.key(buf, p, end, MATCH_BYTES, MATCH_KEY_AT)) return false;
      const textClose = stringEnd(buf, p + (textIsBytes ? MATCH_BYTES.length : MATCH_TEXT.length), end);
      if (textClose < 0 || !this.sep(buf, textClose + 1, end, AFTER_MATCH)) return false;
      const s = readInt(buf, textClose + 1 + AFTER_MATCH.length, end);
      if (s < 0 || !this.sep(buf, intEnd, end, END_KEY)) return false;
      const e = readInt(buf, intEnd + END_KEY.length, end);
      if (e < 0 || buf[intEnd] !== 0x7d /* } */) return false;
      if (submatches) submatches.push({ start: s, end: e });
      else if (first) submatches = [first, { start: s, end: e }];
      else first = { start: s, end: e };
      p = intEnd + 1;
      if (buf[p] === 0x2c /* , */) p++;
      if (p >= end) return false;
    }
    if (p + CLOSE.length !== end || !this.sep(buf, p, end, CLOSE)) return false;
    this.matches++;
    this.layoutSeen = true;
    const read = this.read;
    read.path = path;
    read.line = line;
    read.lineNumber = lineNumber;
    read.submatches = submatches ?? (first ? oneSubmatch(first.start, first.end) : NO_SUBMATCHES);
    read.lineBase64 = lineBase64;
    return true;
  }

  /**
   * True when `buf[p..end)` starts with the separator `lit` (punctuation and a key name between two values).
   * The first match line is checked byte for byte; once one was read, the layout is known to be rg's and only
   * a separator's first and last bytes are compared.
   */
  private sep(buf: Buffer, p: number, end: number, lit: Buffer): boolean {
    if (!this.layoutSeen) return at(buf, p, end, lit);
    const last = lit.length - 1;
    return end - p > last && buf[p] === lit[0] && buf[p + last] === lit[last];
  }

  /**
   * True when `buf[p..end)` starts with `lit`, a separator ending in a key that tells text from bytes: like
   * {@link sep}, and once the layout is known the byte at `keyAt` (`t` of "text", `b` of "bytes") is compared too.
   */
  private key(buf: Buffer, p: number, end: number, lit: Buffer, keyAt: number): boolean {
    return this.sep(buf, p, end, lit) && (!this.layoutSeen || buf[p + keyAt] === lit[keyAt]);
  }

  /**
   * When the path string opening at `open` is the previous match's path (same form, same bytes, closed by a
   * quote right after them), the index of that quote; otherwise -1.
   */
  private samePathEnd(buf: Buffer, open: number, end: number, isBytes: boolean): number {
    const length = this.lastPathLength;
    if (length < 0 || isBytes !== (this.lastPath!.bytes !== undefined)) return -1;
    const close = open + length;
    if (close >= end || buf[close] !== QUOTE || buf.compare(this.lastPathBytes, 0, length, open, close) !== 0) return -1;
    return close;
  }

  /** The path string `buf[open..close)`, decoded, remembered as the previous path. */
  private path(buf: Buffer, open: number, close: number, isBytes: boolean): RgData {
    const path: RgData = isBytes ? { bytes: latin1Slice.call(buf, open, close) } : { text: decodeString(buf, open, close) };
    const length = close - open;
    if (this.lastPathBytes.length < length) this.lastPathBytes = Buffer.allocUnsafe(Math.max(length, 2 * this.lastPathBytes.length));
    buf.copy(this.lastPathBytes, 0, open, close);
    this.lastPathLength = length;
    this.lastPath = path;
    return path;
  }

  /** The slow path: JSON.parse of the whole line; hands on a match, checks any other message has a type. */
  private handleParsed(buf: Buffer, start: number, end: number): void {
    const message = parseLine(buf, start, end) as { type?: unknown; data?: unknown };
    if (typeof message.type !== 'string') throw malformed(start, end);
    if (message.type !== 'match') return;
    const data = message.data;
    if (!isMatchData(data)) throw malformed(start, end);
    this.matches++;
    const path = data.path.text !== undefined ? { text: data.path.text } : { bytes: data.path.bytes! };
    this.lastPathLength = -1;
    const submatches = data.submatches.map((s) => ({ start: s.start, end: s.end }));
    const lineBase64 = data.lines.bytes;
    const line = lineBase64 === undefined ? data.lines.text! : Buffer.from(lineBase64, 'base64').toString('utf8');
    this.onMatch(path, stripTerminator(line), data.line_number ?? 0, submatches, lineBase64);
  }
}

/** True for the first byte of a `begin` or `end` type: after either, rg prints no more of the file before. */
function closesFile(typeByte: number): boolean {
  return typeByte === 0x62 /* b */ || typeByte === 0x65 /* e */;
}

const NO_SUBMATCHES: readonly RgSubmatch[] = Object.freeze([]);

/** Frozen one-submatch arrays by their offsets (see {@link oneSubmatch}); at most {@link MAX_SHARED_SUBMATCHES}. */
const sharedSubmatches = new Map<number, readonly RgSubmatch[]>();
const MAX_SHARED_SUBMATCHES = 4096;

/**
 * The submatches of a line with one match, `[{ start, end }]`, as one frozen array shared by every line with the
 * same offsets: matches of one pattern tend to sit at a few positions (after the usual indentations), so a
 * large result holds a few of these instead of two objects per line (fewer objects per match).
 * Frozen, so no holder can change what the others see. Offsets from 2^15 on (the key stays a small integer)
 * or a full table get a fresh array.
 */
function oneSubmatch(start: number, end: number): readonly RgSubmatch[] {
  if (start >= 0x8000 || end >= 0x8000) return Object.freeze([Object.freeze({ start, end })]);
  const key = (start << 15) | end;
  let shared = sharedSubmatches.get(key);
  if (shared === undefined) {
    shared = Object.freeze([Object.freeze({ start, end })]);
    if (sharedSubmatches.size < MAX_SHARED_SUBMATCHES) sharedSubmatches.set(key, shared);
  }
  return shared;
}

/** True when `buf[p..end)` starts with `lit`. */
function at(buf: Buffer, p: number, end: number, lit: Buffer): boolean {
  if (end - p < lit.length) return false;
  for (let i = 0; i < lit.length; i++) if (buf[p + i] !== lit[i]) return false;
  return true;
}

/** Index just after the integer last read by {@link readInt}. */
let intEnd = 0;

/** Reads a non-negative decimal integer at `p` and sets {@link intEnd}; -1 when there is none. */
function readInt(buf: Buffer, p: number, end: number): number {
  let n = 0;
  const first = p;
  for (; p < end; p++) {
    const c = buf[p]!;
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
  }
  intEnd = p;
  return p === first ? -1 : n;
}

/**
 * Index of the quote closing a JSON string whose content starts at `p`; -1 if unclosed. Jumps from quote to
 * quote with `indexOf` (memchr), skipping a quote escaped by an odd run of backslashes before it. With
 * `escapes`, also records in {@link firstEscape} the content's first backslash (-1 when none), which is all
 * the decoders need to know about escapes.
 */
function stringEnd(buf: Buffer, p: number, end: number, escapes = false): number {
  const open = p;
  for (;;) {
    const quote = buf.indexOf(QUOTE, p);
    if (quote < 0 || quote >= end) return -1;
    let before = quote - 1;
    while (before >= open && buf[before] === BACKSLASH) before--;
    if (((quote - 1 - before) & 1) === 0) {
      if (escapes) {
        const backslash = buf.indexOf(BACKSLASH, open);
        firstEscape = backslash >= 0 && backslash < quote ? backslash : -1;
      }
      return quote;
    }
    p = quote + 1;
  }
}
let firstEscape = -1;

/** The JSON string content `buf[open..close)`, just scanned by {@link stringEnd}, decoded. */
function decodeString(buf: Buffer, open: number, close: number): string {
  return firstEscape < 0 ? utf8Slice.call(buf, open, close) : (JSON.parse(utf8Slice.call(buf, open - 1, close + 1)) as string);
}

/**
 * A matched line's JSON string content `buf[open..close)`, just scanned by {@link stringEnd}, decoded and
 * without its trailing CR/LF. The common case, where the only escape is a final `\n` or `\r\n` (the first
 * backslash is that one), is decoded straight from the bytes; any other escape goes through JSON.parse.
 */
function decodeLineText(buf: Buffer, open: number, close: number): string {
  if (firstEscape < 0) return stripTerminator(utf8Slice.call(buf, open, close));
  if (buf[close - 1] === 0x6e /* n */) {
    if (firstEscape === close - 2) return utf8Slice.call(buf, open, close - 2);
    if (firstEscape === close - 4 && buf[close - 3] === 0x72 /* r */ && buf[close - 2] === BACKSLASH) return utf8Slice.call(buf, open, close - 4);
  }
  return stripTerminator(JSON.parse(utf8Slice.call(buf, open - 1, close + 1)) as string);
}

/** `text` without trailing CR and LF characters (seed 000: previews drop the line terminator). */
export function stripTerminator(text: string): string {
  let end = text.length;
  while (end > 0) {
    const c = text.charCodeAt(end - 1);
    if (c !== 10 && c !== 13) break;
    end--;
  }
  return end === text.length ? text : text.slice(0, end);
}

function parseLine(buf: Buffer, start: number, end: number): object {
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8', start, end));
  } catch {
    throw malformed(start, end);
  }
  if (typeof value !== 'object' || value === null) throw malformed(start, end);
  return value;
}

interface RawMatchData {
  path: RgData;
  lines: RgData;
  line_number: number | null;
  submatches: RgSubmatch[];
}

function isRgData(value: unknown): value is RgData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { text?: unknown; bytes?: unknown };
  return typeof v.text === 'string' || typeof v.bytes === 'string';
}

function isMatchData(value: unknown): value is RawMatchData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    isRgData(v.path) &&
    isRgData(v.lines) &&
    (typeof v.line_number === 'number' || v.line_number === null) &&
    Array.isArray(v.submatches) &&
    v.submatches.every((s: unknown) => typeof (s as RgSubmatch)?.start === 'number' && typeof (s as RgSubmatch)?.end === 'number')
  );
}

/**
 * The error for a line that is not rg's JSON. It describes the line without quoting it: the line may hold a
 * file's text (error text quotes no file contents).
 */
function malformed(start: number, end: number): ToolError {
  return new ToolError(
    'SEARCH_FAILED',
    `ripgrep produced output Scout could not read (a line of ${end - start} bytes that is not one of rg's JSON messages). This rg may be too old or not ripgrep; ${hostAdvice().ripgrepPath('ripgrep 13 or later')}.`,
  );
}
