import { isAscii, isUtf8 } from 'node:buffer';
import { concatAll } from '../arrays';
import { latin1Slice, utf8Slice } from './bufferSlices';

/** One path of rg's NUL-separated output: its text, and its exact bytes (base64) when they are not UTF-8. */
export interface ListedPath {
  /** The path, decoded lossily (U+FFFD) when it is not UTF-8. */
  readonly path: string;
  /** The exact bytes of a name that is not valid UTF-8, base64; undefined otherwise. */
  readonly base64?: string;
}

/**
 * Decodes the path `out[start, end)` of `rg --files --null` (or `--files-with-matches --null`) output, `strip`
 * leading bytes dropped (see `outputPrefixLength` in search/target.ts).
 */
export function decodePath(out: Buffer, start: number, end: number, strip: number): ListedPath {
  const from = Math.min(start + strip, end);
  const path = out.toString('utf8', from, end);
  return path.includes('\uFFFD') && !isUtf8(view(out, from, end)) ? { path, base64: out.toString('base64', from, end) } : { path };
}

/** Consecutive paths of a {@link PathList}, decoded together. */
export interface PathRun {
  /** How many paths the run holds (it follows the previous run in {@link PathList.paths}). */
  readonly count: number;
  /**
   * The run's paths joined by line feeds, when the decoder had it at no cost: the run was UTF-8 and no path in
   * it holds a line feed (so splitting `joined` at line feeds gives the paths back). Undefined otherwise.
   */
  readonly joined?: string;
  /** True when the run's bytes were all ASCII (so are its paths). */
  readonly ascii: boolean;
}

/** `rg --files --null` output, decoded (see {@link PathListReader}). */
export interface PathList {
  /** Every path in rg's order, `strip` bytes dropped; lossy (U+FFFD) where a name is not UTF-8. */
  readonly paths: string[];
  /** The paths whose names are not UTF-8: their index in `paths` and their exact bytes, base64. */
  readonly nonUtf8Paths: { index: number; base64: string }[];
  /** `paths` cut into the runs it was decoded in, in order; their counts add up to `paths.length`. */
  readonly runs: readonly PathRun[];
  /** False when the output did not end with a NUL byte (so it was not rg's list, or was cut). */
  readonly endsWithNul: boolean;
}

/**
 * Bytes of output gathered before they are decoded as one run: above V8's largest regular heap object, so the
 * run's text and its joined form are made in the large-object space, which garbage collection never copies
 * (the plain stretches between names that are not plain can be smaller).
 */
const RUN_BYTES = 256 * 1024;
/**
 * Ranges that are not plain as a whole are halved until this size; below it, each record is checked on its own.
 * Each check makes a view of the buffer ({@link view}), which costs more than the check itself, so a small
 * leaf pays: with 60 names that are not UTF-8 in 3.6 MB of output, 2 KiB leaves cost each such name about 44
 * checks and 256 bytes about 20–24. In a loop of the reader alone that took a quarter off its reads, and with
 * rg printing, 8% off the time from rg's first byte to its exit (views were Buffers then; leaves of 64 bytes
 * or 1 KiB gave no gain with the cheaper views).
 */
const SMALLEST_HALVED_RUN = 256;

/**
 * A streaming decoder of `rg --files --null` output: paths each ended by a NUL byte, `strip` leading bytes
 * dropped from each (see `outputPrefixLength`). Feed stdout chunks with {@link push} as they arrive, then call
 * {@link end}.
 *
 * Chunks are gathered into runs of {@link RUN_BYTES} and decoded up to their last NUL: a run that is ASCII (checked natively) is read as
 * Latin-1, one that is UTF-8 as UTF-8, and its records are split with the engine's own string operations, so
 * no JavaScript runs per path. In a run that is not UTF-8, or holds a name with a line feed, the records that
 * are neither are found (see {@link findUnplainRecords}) and decoded one by one: names that are not valid UTF-8
 * are decoded lossily (U+FFFD) and also listed with their exact bytes. The plain records between them are
 * decoded as runs of their own, so a few such names do not break the list into small runs. The paths of a
 * plain run are substrings of its joined text.
 */
export class PathListReader {
  private readonly runs: PathRun[] = [];
  /**
   * Each run's paths, or undefined for a run with `joined`, which is split into its paths only in {@link end}:
   * while rg prints, tens of thousands of live strings made every young-generation collection copy them, and
   * rg waited on the full pipe meanwhile.
   */
  private readonly pieces: (string[] | undefined)[] = [];
  private readonly nonUtf8Paths: { index: number; base64: string }[] = [];
  private count = 0;
  /** Chunks not decoded yet (a run is decoded once {@link RUN_BYTES} are gathered), and their size. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private lastByte = -1;

  constructor(private readonly strip: number) {}

  /** Feeds the next chunk of stdout (not modified afterwards). */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.lastByte = chunk[chunk.length - 1]!;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= RUN_BYTES) this.decodePending(false);
  }

  /**
   * Ends the stream and returns every path. A last path without its NUL is decoded too, or dropped with
   * `dropUnended` (output cut at a byte cap ends in the middle of a path).
   */
  end(dropUnended = false): PathList {
    this.decodePending(!dropUnended);
    const pieces = this.pieces.map((p, i) => p ?? this.runs[i]!.joined!.split('\n'));
    const paths = pieces.length === 1 ? pieces[0]! : concatAll(pieces);
    return { paths, nonUtf8Paths: this.nonUtf8Paths, runs: this.runs, endsWithNul: this.lastByte <= 0 };
  }

  /** Decodes the chunks gathered so far up to their last NUL (all of them at the end), keeping the rest. */
  private decodePending(last: boolean): void {
    if (this.pendingBytes === 0) return;
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const end = last ? all.length : all.lastIndexOf(0) + 1;
    if (end < all.length && !last) {
      // Copy the tail so the gathered chunks are not kept alive by a small carried fragment.
      const tail = Buffer.from(all.subarray(end));
      this.pending.push(tail);
      this.pendingBytes = tail.length;
    }
    if (end === 0) return;
    if (all[end - 1] === 0) this.decodeRun(all, 0, end);
    else {
      const lastNul = all.lastIndexOf(0, end - 1) + 1;
      if (lastNul > 0) this.decodeRun(all, 0, lastNul);
      this.decodeNames(all, lastNul, end);
    }
  }

  /**
   * Decodes the records `buf[start, end)`, which ends just after a NUL: the records that are not plain (see
   * {@link findUnplainRecords}) name by name, and each stretch of plain records between them as one run.
   */
  private decodeRun(buf: Buffer, start: number, end: number): void {
    const bytes = view(buf, start, end);
    const ascii = isAscii(bytes);
    const lineFeeds = lineFeedsIn(buf, start, end);
    if (lineFeeds.length === 0 && (ascii || isUtf8(bytes))) {
      this.decodePlain(buf, start, end, ascii);
      return;
    }
    const unplain: number[] = [];
    findUnplainRecords(buf, start, end, lineFeeds, unplain);
    let from = start;
    for (let i = 0; i < unplain.length; ) {
      const first = unplain[i]!;
      let last = unplain[i + 1]!;
      // Records that are not plain and follow one another are decoded together.
      for (i += 2; i < unplain.length && unplain[i] === last; i += 2) last = unplain[i + 1]!;
      if (first > from) this.decodePlain(buf, from, first, isAscii(view(buf, from, first)));
      this.decodeNames(buf, first, last);
      from = last;
    }
    if (from < end) this.decodePlain(buf, from, end, isAscii(view(buf, from, end)));
  }

  /** Decodes the plain records `buf[start, end)` (UTF-8, no line feed; `ascii` when all ASCII) as one run. */
  private decodePlain(buf: Buffer, start: number, end: number, ascii: boolean): void {
    const text: string = ascii ? latin1Slice.call(buf, start, end - 1) : utf8Slice.call(buf, start, end - 1);
    const strip = this.strip;
    // Every record starts with the same `strip` bytes (rg prints `./` before each path under `.`), so one split
    // at the separator and those bytes drops them from all records. Splitting first and joining the parts makes
    // `joined` flat at once: a replacement builds it as a tree of pieces that every later scan must copy whole.
    // A NUL left over would mean a record without those bytes.
    const paths = text.split(strip ? `\0${text.slice(0, strip)}` : '\0');
    if (strip) paths[0] = paths[0]!.slice(strip);
    const joined = paths.join('\n');
    if (strip && joined.includes('\0')) this.add(text.split('\0').map((p) => p.slice(strip)), ascii);
    else this.add(paths, ascii, joined);
  }

  /** Decodes the records `buf[start, end)` name by name, keeping the exact bytes of those not UTF-8. */
  private decodeNames(buf: Buffer, start: number, end: number): void {
    const paths: string[] = [];
    for (let cursor = start; cursor < end; ) {
      let stop = buf.indexOf(0, cursor);
      if (stop < 0 || stop > end) stop = end;
      const { path, base64 } = decodePath(buf, cursor, stop, this.strip);
      if (base64 !== undefined) this.nonUtf8Paths.push({ index: this.count + paths.length, base64 });
      paths.push(path);
      cursor = stop + 1;
    }
    this.add(paths, false);
  }

  private add(paths: string[], ascii: boolean, joined?: string): void {
    this.pieces.push(joined === undefined ? paths : undefined);
    this.runs.push(joined === undefined ? { count: paths.length, ascii } : { count: paths.length, joined, ascii });
    this.count += paths.length;
  }
}

/**
 * `buf[start, end)` as a plain `Uint8Array` over the same memory, for the native checks (`isAscii`, `isUtf8`),
 * clamped to `buf` as `subarray` clamps. `subarray` makes a Buffer, which costs more until the engine has
 * compiled the caller: in a fresh process, 1,500 views and checks of 150 bytes took 1.7–4.7 ms that way and
 * 0.4–0.45 ms this way (once compiled, making either costs about 40 ns). A name that is not plain takes about
 * 20–24 checks (see {@link SMALLEST_HALVED_RUN}); the reader alone, on the bench corpus's output with its 60
 * such names, read its chunks and ended 0.6–1.2 ms sooner this way.
 */
function view(buf: Buffer, start: number, end: number): Uint8Array {
  const from = Math.min(Math.max(start, 0), buf.length);
  return new Uint8Array(buf.buffer, buf.byteOffset + from, Math.max(Math.min(end, buf.length) - from, 0));
}

/** The offsets of the line feeds in `buf[start, end)`, ascending (none in almost every list). */
function lineFeedsIn(buf: Buffer, start: number, end: number): number[] {
  const at: number[] = [];
  for (let lf = buf.indexOf(0x0a, start); lf >= 0 && lf < end; lf = buf.indexOf(0x0a, lf + 1)) at.push(lf);
  return at;
}

/**
 * True when `buf[start, end)` is valid UTF-8 and holds none of `lineFeeds` (the run's line feed offsets,
 * ascending), found by halving so a list with many names holding one stays fast.
 */
function isPlain(buf: Buffer, start: number, end: number, lineFeeds: readonly number[]): boolean {
  if (lineFeeds.length !== 0) {
    let low = 0;
    let high = lineFeeds.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (lineFeeds[middle]! < start) low = middle + 1;
      else high = middle;
    }
    if (low < lineFeeds.length && lineFeeds[low]! < end) return false;
  }
  return isUtf8(view(buf, start, end));
}

/**
 * Appends to `out` the bounds `[recordStart, recordEnd)` (the end just after its NUL) of every record in
 * `buf[start, end)` that is not plain: not valid UTF-8, or holding a line feed (`lineFeeds`, the run's). `end`
 * is just after a NUL. The range is halved (at a NUL) while it is larger than {@link SMALLEST_HALVED_RUN} and
 * not plain, so the native checks of whole halves clear most of it; a small range is checked record by record.
 */
function findUnplainRecords(buf: Buffer, start: number, end: number, lineFeeds: readonly number[], out: number[]): void {
  if (isPlain(buf, start, end, lineFeeds)) return;
  if (end - start > SMALLEST_HALVED_RUN) {
    const middle = buf.indexOf(0, start + ((end - start) >> 1)) + 1;
    if (middle > 0 && middle < end) {
      findUnplainRecords(buf, start, middle, lineFeeds, out);
      findUnplainRecords(buf, middle, end, lineFeeds, out);
      return;
    }
  }
  for (let cursor = start; cursor < end; ) {
    let stop = buf.indexOf(0, cursor);
    if (stop < 0 || stop >= end) stop = end - 1;
    if (!isPlain(buf, cursor, stop, lineFeeds)) out.push(cursor, stop + 1);
    cursor = stop + 1;
  }
}

/**
 * Decodes complete `rg --files --null` output at once (see {@link PathListReader}): the paths, and the names that
 * are not UTF-8 with their exact bytes.
 */
export function decodePathList(out: Buffer, strip: number): { paths: string[]; nonUtf8Paths: { index: number; base64: string }[] } {
  const reader = new PathListReader(strip);
  reader.push(out);
  const { paths, nonUtf8Paths } = reader.end();
  return { paths, nonUtf8Paths };
}
