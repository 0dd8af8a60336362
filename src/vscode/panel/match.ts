/**
 * Where a search matched inside one line, so a card row can show a window on the matches and the editor can
 * select the first one. No `vscode` import.
 *
 * A file may have changed since the search, so the editor looks for the matched text again in the current
 * line rather than trusting old columns. A regex is never run here: a ripgrep pattern is a Rust regex that
 * JavaScript would read differently, and a backtracking engine could stall the extension host on a pattern
 * rg runs in linear time. grep's matched text (from rg's submatch offsets) and workspace_search's query are
 * literals.
 */
import { showControlPictures } from '../../core/controlCharacters';
import { mapLowercaseRange } from '../../core/workspaceSearch/preview';

/** How to find the match again: a literal with its case rule. */
export interface MatchHint {
  readonly literal: string;
  readonly caseSensitive: boolean;
}

/** A half-open range `[start, end)` in UTF-16 code units of the line. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Converts ranges of UTF-8 byte offsets in `text` (as ripgrep reports submatches) to UTF-16 positions, in
 * one pass over `text` whatever the number of ranges. A range whose start or end falls inside a character or
 * past the end of `text` (a line cut short for storage) is left out. The result is sorted by start.
 */
export function utf8RangesToUtf16(text: string, ranges: readonly LineRange[]): LineRange[] {
  const wanted = [...new Set(ranges.flatMap((r) => (r.end >= r.start ? [r.start, r.end] : [])))].sort((a, b) => a - b);
  const at = new Map<number, number>();
  let next = 0;
  let bytes = 0;
  let i = 0;
  while (next < wanted.length) {
    // An offset passed over lies inside a character: it maps to nothing.
    while (next < wanted.length && wanted[next]! < bytes) next++;
    if (next < wanted.length && wanted[next] === bytes) at.set(wanted[next++]!, i);
    if (i >= text.length) break;
    const code = text.codePointAt(i)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code >= 0x10000 ? 2 : 1;
  }
  const out: LineRange[] = [];
  for (const r of ranges) {
    const start = at.get(r.start);
    const end = at.get(r.end);
    if (start !== undefined && end !== undefined && end >= start) out.push({ start, end });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Every occurrence of `hint.literal` in `line`, left to right and not overlapping, at most `limit` of them.
 * Case-insensitive matching compares `toLowerCase` forms (as workspace_search does) and maps positions back
 * to `line` where lowercasing changed its length (`İ`); the literal is also looked for in its NFC and NFD
 * forms, so `é` typed either way finds both spellings, again as workspace_search does.
 */
export function findAll(line: string, hint: MatchHint, limit = Infinity): LineRange[] {
  if (hint.literal === '' || limit <= 0) return [];
  const forms = [...new Set([hint.literal, hint.literal.normalize('NFC'), hint.literal.normalize('NFD')])];
  const haystack = hint.caseSensitive ? line : line.toLowerCase();
  const needles = hint.caseSensitive ? forms : [...new Set(forms.map((f) => f.toLowerCase()))];
  const mapBack = haystack.length === line.length ? undefined : (start: number, end: number) => mapLowercaseRange(line, start, end);
  const found: LineRange[] = [];
  for (let from = 0; found.length < limit; ) {
    let best: LineRange | undefined;
    for (const needle of needles) {
      const at = haystack.indexOf(needle, from);
      if (at >= 0 && (!best || at < best.start || (at === best.start && at + needle.length > best.end))) best = { start: at, end: at + needle.length };
    }
    if (!best) break;
    const [start, end] = mapBack ? mapBack(best.start, best.end) : [best.start, best.end];
    found.push({ start, end });
    from = best.end;
  }
  return found;
}

/** The first occurrence of `hint.literal` in `line` by the rules of {@link findAll}, or undefined. */
export function findMatch(line: string, hint: MatchHint): LineRange | undefined {
  return findAll(line, hint, 1)[0];
}

/** The range of `line` without its leading and trailing whitespace (the whole line when it is blank). */
export function trimmedRange(line: string): LineRange {
  const start = line.length - line.trimStart().length;
  const end = line.trimEnd().length;
  return end > start ? { start, end } : { start: 0, end: line.length };
}

/** UTF-16 code units of the line kept before the first match when a row's window does not start at the line's start. */
export const CONTEXT_BEFORE_MATCH = 24;

/**
 * UTF-16 code units (after the indentation) a row shows from the line's start: a line whose first match ends
 * within them is shown from its start, so a short line is shown whole. About what a results panel beside the
 * editor shows of a row; only a match further in moves the window.
 */
export const WHOLE_LINE_CHARS = 80;

/** A line preview as a card row shows it, and where the matches are in it. */
export interface LinePreview {
  readonly text: string;
  /** Each match inside the window, sorted and not overlapping, in positions of `text`. */
  readonly highlights: readonly LineRange[];
}

/**
 * A window of `line` for a card row: at most `max` UTF-16 code units of it, without leading and trailing
 * whitespace, with `…` on each side where text was left out. A line whose first match ends within
 * {@link WHOLE_LINE_CHARS} units of its text is shown from its start (a short line whole, never as
 * `…cript>alert(1)</script> NEEDLE`). In a longer line whose first of `ranges` ends further in, the window
 * starts {@link CONTEXT_BEFORE_MATCH} units before that match, so the match is near the row's left edge
 * however narrow the panel is. Every range inside the window (clipped to it) is returned as a highlight.
 * Window edges never split a surrogate pair.
 *
 * Unsafe characters (see `controlCharacters.ts`: controls, line separators, bidi controls) are shown as
 * control pictures or `\uXXXX`, piece by piece, so a file's text cannot reorder or break the row; the
 * highlights are given in positions of that shown text.
 *
 * @param ranges match ranges in `line` (UTF-16 code units, half-open), in any order
 */
export function previewLine(line: string, max: number, ranges: readonly LineRange[] = []): LinePreview {
  const text = line.trimEnd();
  const lead = text.length - text.trimStart().length;
  const sorted = [...ranges].filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const first = sorted[0];
  let start = lead;
  if (first && first.end - lead > WHOLE_LINE_CHARS && first.start - lead > CONTEXT_BEFORE_MATCH) start = first.start - CONTEXT_BEFORE_MATCH;
  start = avoidSplit(text, start);
  const end = avoidSplit(text, Math.min(text.length, start + max));
  // Cut points: the window's edges and each highlight's edges, clipped to the window.
  const inside: LineRange[] = [];
  for (const r of sorted) {
    const from = Math.max(r.start, start, inside.length ? inside[inside.length - 1]!.end : start);
    const to = Math.min(r.end, end);
    if (to > from) inside.push({ start: from, end: to });
  }
  let shown = start > lead ? '…' : '';
  const highlights: LineRange[] = [];
  let cursor = start;
  for (const r of inside) {
    shown += showControlPictures(text.slice(cursor, r.start));
    const piece = showControlPictures(text.slice(r.start, r.end));
    highlights.push({ start: shown.length, end: shown.length + piece.length });
    shown += piece;
    cursor = r.end;
  }
  shown += showControlPictures(text.slice(cursor, end));
  if (end < text.length) shown += '…';
  return { text: shown, highlights };
}

/** `text` cut to at most `max` UTF-16 code units, never splitting a surrogate pair, with `…` when cut. */
export function cutText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, avoidSplit(text, max))}…` : text;
}

function avoidSplit(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}
