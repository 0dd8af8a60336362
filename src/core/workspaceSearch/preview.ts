import { WORKSPACE_SEARCH_LIMITS as LIMITS } from './limits';

/** The marker standing for text left out of a clipped preview (one UTF-16 code unit, not counted in the 500). */
export const OMISSION_MARKER = '…';

/** A matched line as shown in the report. */
export interface Preview {
  readonly text: string;
  /** True when part of the line was left out. */
  readonly clipped: boolean;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * Clips `line` to at most `maxLength` UTF-16 code units (default 500, seed 003) around the match at
 * [`start`, `end`) (UTF-16 offsets into `line`): the window is centred on the match, or starts at it when the
 * match alone is longer, and is shifted to fit inside the line. A window edge never splits a surrogate
 * pair (the window shrinks by one unit instead). {@link OMISSION_MARKER} is added on each side where text was
 * left out. A line that fits is returned unchanged.
 */
export function clipPreview(line: string, start: number, end: number, maxLength: number = LIMITS.maxPreviewLength): Preview {
  if (line.length <= maxLength) return { text: line, clipped: false };
  const matchLength = end - start;
  let from = matchLength >= maxLength ? start : start - Math.floor((maxLength - matchLength) / 2);
  from = Math.max(0, Math.min(from, line.length - maxLength));
  let to = from + maxLength;
  if (from > 0 && isLowSurrogate(line.charCodeAt(from)) && isHighSurrogate(line.charCodeAt(from - 1))) from++;
  if (to < line.length && isHighSurrogate(line.charCodeAt(to - 1)) && isLowSurrogate(line.charCodeAt(to))) to--;
  return {
    text: `${from > 0 ? OMISSION_MARKER : ''}${line.slice(from, to)}${to < line.length ? OMISSION_MARKER : ''}`,
    clipped: true,
  };
}

/** Code units examined at once while skipping text whose lowercase keeps its length. */
const SKIP_CHUNK = 256;

/**
 * Maps a range of `line.toLowerCase()` back to `line`, for lines where lowercasing changed the length
 * (`İ` U+0130 lowercases to two code units, `i` + U+0307). Offsets are UTF-16 code units. A range edge that
 * falls inside the lowercase expansion of one original character widens to that whole character, so the
 * result never splits a character or a surrogate pair. Runs of text whose lowercase keeps its length are
 * skipped 256 units at a time; relies on no code point lowercasing to fewer code units (true of Unicode's
 * lowercase mappings; a unit test checks every code point).
 *
 * @returns [start, end) in `line`
 */
export function mapLowercaseRange(line: string, lowerStart: number, lowerEnd: number): [number, number] {
  let original = 0;
  let lowered = 0;
  let start = -1;
  while (original < line.length) {
    const target = start < 0 ? lowerStart : lowerEnd;
    let chunkEnd = Math.min(line.length, original + SKIP_CHUNK);
    if (chunkEnd < line.length && isHighSurrogate(line.charCodeAt(chunkEnd - 1))) chunkEnd--;
    const chunkLength = chunkEnd - original;
    if (chunkLength > 0 && lowered + chunkLength <= target && line.slice(original, chunkEnd).toLowerCase().length === chunkLength) {
      original = chunkEnd;
      lowered += chunkLength;
    } else {
      const codePoint = line.codePointAt(original)!;
      const width = codePoint > 0xffff ? 2 : 1;
      const loweredWidth = codePoint < 0x80 ? 1 : String.fromCodePoint(codePoint).toLowerCase().length;
      if (start < 0 && lowerStart < lowered + loweredWidth) start = original;
      original += width;
      lowered += loweredWidth;
    }
    if (start >= 0 && lowerEnd <= lowered) return [start, original];
  }
  return [start < 0 ? line.length : start, line.length];
}
