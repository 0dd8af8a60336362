/**
 * Where a search matched inside one line, so the panel can centre a preview on it and the editor can
 * select it. No `vscode` import.
 *
 * A file may have changed since the search, so the editor looks for the matched text again in the
 * current line rather than trusting old columns. A regex is never run here: a ripgrep pattern is a Rust
 * regex that JavaScript would read differently, and a backtracking engine could stall the extension host
 * on a pattern rg runs in linear time. grep's matched text (from rg's submatch offsets) and
 * workspace_search's query are literals.
 */

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
 * Converts a range of UTF-8 byte offsets in `text` (as ripgrep reports submatches) to UTF-16 positions.
 * Undefined when an offset falls inside a character or past the end.
 */
export function utf8RangeToUtf16(text: string, startByte: number, endByte: number): LineRange | undefined {
  if (endByte < startByte) return undefined;
  let bytes = 0;
  let start: number | undefined;
  for (let i = 0; i <= text.length; ) {
    if (bytes === startByte && start === undefined) start = i;
    if (bytes === endByte) return start === undefined ? undefined : { start, end: i };
    if (bytes > endByte || i === text.length) return undefined;
    const code = text.codePointAt(i)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code >= 0x10000 ? 2 : 1;
  }
  return undefined;
}

/**
 * The first occurrence of `hint.literal` in `line`, or undefined. Case-insensitive matching compares
 * lowercase forms and is used only when lowercasing keeps the line's length (so positions map back);
 * otherwise (`İ`, some ligatures) it gives undefined and the caller selects the whole line.
 */
export function findMatch(line: string, hint: MatchHint): LineRange | undefined {
  if (hint.caseSensitive) {
    const at = line.indexOf(hint.literal);
    return at < 0 ? undefined : { start: at, end: at + hint.literal.length };
  }
  const lowerLine = line.toLowerCase();
  const lowerLiteral = hint.literal.toLowerCase();
  if (lowerLine.length !== line.length || lowerLiteral.length !== hint.literal.length) return undefined;
  const at = lowerLine.indexOf(lowerLiteral);
  return at < 0 ? undefined : { start: at, end: at + hint.literal.length };
}

/** The range of `line` without its leading and trailing whitespace (the whole line when it is blank). */
export function trimmedRange(line: string): LineRange {
  const start = line.length - line.trimStart().length;
  const end = line.trimEnd().length;
  return end > start ? { start, end } : { start: 0, end: line.length };
}

/** A line preview and, when the match is visible in it, the match's range within the preview. */
export interface LinePreview {
  readonly text: string;
  readonly highlight?: LineRange;
}

/**
 * A preview of `line` at most `max` UTF-16 code units long plus `…` markers, without leading and trailing
 * whitespace, starting a little before `range` when the match lies beyond the first `max` units. Never
 * splits a surrogate pair. `highlight` is the part of `range` inside the preview, in preview positions.
 */
export function previewLine(line: string, max: number, range?: LineRange): LinePreview {
  const text = line.trimEnd();
  const lead = text.length - text.trimStart().length;
  let start = lead;
  if (range && range.end - lead > max) start = Math.max(lead, range.start - Math.floor(max / 4));
  start = avoidSplit(text, start);
  const end = avoidSplit(text, Math.min(text.length, start + max));
  const prefix = start > lead ? '…' : '';
  const preview = `${prefix}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  if (!range) return { text: preview };
  const from = Math.max(range.start, start);
  const to = Math.min(range.end, end);
  return to > from ? { text: preview, highlight: { start: from - start + prefix.length, end: to - start + prefix.length } } : { text: preview };
}

/** `text` cut to at most `max` UTF-16 code units, never splitting a surrogate pair, with `…` when cut. */
export function cutText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, avoidSplit(text, max))}…` : text;
}

function avoidSplit(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}
