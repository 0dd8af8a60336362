import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';

/**
 * Most bytes of one line the MCP SDK's stdio transports read: a longer line (a message, serialized as JSON, plus
 * its newline) makes the reader drop its buffer and, in the SDK's client, close the connection. The same limit
 * holds on both sides (10 MiB in SDK 1.x), so it bounds what Scout reads as well as what it may write.
 */
export const STDIO_LINE_MAX_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/**
 * Most bytes of one JSON-RPC message Scout writes (its JSON, UTF-8): 8 MiB, well under
 * {@link STDIO_LINE_MAX_BYTES}, so a client built on the SDK, or with a similar buffer, always takes it whole.
 */
export const MESSAGE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Bytes of a message's JSON that are not the text of the one resource part it carries: the JSON-RPC envelope,
 * the part's URI and MIME type, and the client's request id (which the answer repeats).
 */
const ENVELOPE_ALLOWANCE_BYTES = 64 * 1024;

/** Most bytes of JSON string a complete result's part holds, so a `resources/read` answer fits {@link MESSAGE_MAX_BYTES}. */
export const PART_MAX_JSON_BYTES = MESSAGE_MAX_BYTES - ENVELOPE_ALLOWANCE_BYTES;

/** The bytes `message` takes on the wire as the transports write it: its JSON, UTF-8 encoded (without the newline). */
export function messageBytes(message: unknown): number {
  return Buffer.byteLength(JSON.stringify(message), 'utf8');
}

/**
 * The UTF-8 bytes `text` takes inside a JSON string, as `JSON.stringify` writes it (without the two quotes):
 * `"` and `\` take 2, the control characters under U+0020 take 2 (`\n`, `\t`, …) or 6 (`\u0001`), a lone
 * surrogate takes 6 (`\udc00`), and every other code point its UTF-8 length. Escapes make a text's JSON longer
 * than the text: a result's length in UTF-16 code units does not bound its message.
 */
export function jsonStringBytes(text: string): number {
  return scanJsonString(text, 0, Infinity).bytes;
}

/**
 * Cuts `text` into parts whose JSON strings ({@link jsonStringBytes}) take at most `maxBytes` each; joined in
 * order, the parts are `text`. A part ends after the last line feed that fits, so lines stay whole, unless a
 * single line is longer than `maxBytes`: that line is cut at a code point (never inside a surrogate pair).
 * An empty text is one empty part.
 *
 * @param maxBytes at least 6, the most one code point takes.
 * @throws RangeError when `maxBytes` is below 6.
 */
export function splitJsonParts(text: string, maxBytes: number): string[] {
  if (!(maxBytes >= 6)) throw new RangeError(`a part must hold at least 6 bytes of JSON, not ${maxBytes}`);
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    const { end, lineEnd } = scanJsonString(text, start, maxBytes);
    const cut = end === text.length || lineEnd <= start ? end : lineEnd;
    parts.push(text.slice(start, cut));
    start = cut;
  }
  return parts.length > 0 ? parts : [''];
}

/**
 * Walks `text` from `start` while the JSON string bytes stay within `maxBytes` (the rules of
 * {@link jsonStringBytes}). Returns where it stopped (`end`, never inside a surrogate pair), the bytes of
 * `text[start, end)`, and the index just after the last line feed before `end` (`start` when there is none).
 */
function scanJsonString(text: string, start: number, maxBytes: number): { end: number; bytes: number; lineEnd: number } {
  let bytes = 0;
  let lineEnd = start;
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let cost: number;
    let width = 1;
    if (c < 0x80) {
      if (c === 0x22 || c === 0x5c) cost = 2;
      else if (c >= 0x20) cost = 1;
      else cost = c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    } else if (c < 0x800) {
      cost = 2;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        cost = 4;
        width = 2;
      } else {
        cost = 6;
      }
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      cost = 6;
    } else {
      cost = 3;
    }
    if (bytes + cost > maxBytes) break;
    bytes += cost;
    i += width;
    if (c === 0x0a) lineEnd = i;
  }
  return { end: i, bytes, lineEnd };
}
