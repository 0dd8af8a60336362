import { showControlPictures } from '../controlCharacters';
import type { RgSubmatch } from '../ripgrep/jsonStream';

/** The marker after a preview that was cut (seed 000). */
export const LINE_TRUNCATED = '(line truncated)';

/**
 * The preview of a matched line for display, at most `maxBytes` bytes of it (seed 000 `grepMaxLineBytes`).
 *
 * A line that fits is returned whole. A longer one is cut to a `maxBytes` window: the line's start when the
 * first submatch ends within it, otherwise a window centred on the first submatch, so a match deep inside a
 * long line stays visible. Window edges move inwards to UTF-8 character boundaries; a cut edge shows `…` and
 * the preview ends with ` (line truncated)`.
 *
 * Control characters are made visible by `showControlPictures`: every C0 character except TAB (so NUL, a lone
 * CR, a form feed, the ESC starting a terminal escape sequence) and DEL as its control picture, and C1,
 * line-separator and bidi controls as `\uXXXX`. A raw CR inside a line would otherwise start a new line where the result is shown (VS Code's untitled
 * spill document breaks lines at it), forging a `Line N:` row; ESC sequences would restyle a terminal. The
 * window is cut on the line's own bytes, so a shown picture (3 bytes) can make the preview longer than
 * `maxBytes`. Only the preview changes: the canonical value keeps the exact line.
 *
 * @param line the line text, terminator already stripped (lossy text for a non-UTF-8 line).
 * @param submatches rg's byte offsets into the line's bytes.
 * @param rawBytes the line's exact bytes when it was not valid UTF-8 (rg's `bytes` form); the offsets refer to
 *   them. Omit for a UTF-8 line.
 * @param pictures false leaves the control characters as they are, for a caller that shows them in many
 *   previews at once (with `showControlPictures`, line feeds kept); the cut is the same.
 */
export function previewLine(line: string, submatches: readonly RgSubmatch[], maxBytes: number, rawBytes?: Buffer, pictures = true): string {
  const shown = pictures ? showControlPictures : (text: string) => text;
  // A UTF-16 code unit takes at most 3 UTF-8 bytes, so short lines need no byte count.
  if (!rawBytes && (line.length * 3 <= maxBytes || Buffer.byteLength(line, 'utf8') <= maxBytes)) return shown(line);
  const bytes = rawBytes ?? Buffer.from(line, 'utf8');
  let length = bytes.length;
  while (length > 0 && (bytes[length - 1] === 10 || bytes[length - 1] === 13)) length--;
  if (length <= maxBytes) return shown(line);

  const first = submatches[0];
  let start = 0;
  if (first && first.end > maxBytes) {
    const matchLength = Math.min(first.end - first.start, maxBytes);
    start = Math.max(0, Math.min(length - maxBytes, first.start - Math.floor((maxBytes - matchLength) / 2)));
  }
  let end = Math.min(length, start + maxBytes);
  while (start < end && isContinuation(bytes[start]!)) start++;
  while (end > start && end < length && isContinuation(bytes[end]!)) end--;
  const text = bytes.toString('utf8', start, end);
  return `${start > 0 ? '…' : ''}${shown(text)}${end < length ? '…' : ''} ${LINE_TRUNCATED}`;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}
