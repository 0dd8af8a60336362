import { Transform, type TransformCallback } from 'node:stream';
import { JSONRPCMessageSchema, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { describeMessageIssues } from './diagnostics';

/** A line of input that was too long to read, and so was dropped unread. */
export interface OverlongLine {
  /** Its length in bytes, without the line feed. */
  readonly bytes: number;
  /** The `id` of the JSON-RPC request it holds, when one was found (so it can be answered), else undefined. */
  readonly id: RequestId | undefined;
}

/**
 * The server's stdin, line by line, before the SDK's stdio transport reads it. The transport keeps the
 * unread input in one buffer and, when that buffer would pass its limit (10 MiB), throws it away and closes
 * the connection: one long line ended the server. This stream passes on each line of at most `maxLineBytes`
 * bytes whole (with its line feed) as one chunk, so the transport's buffer never holds more than one line;
 * drops blank lines (nothing but spaces, tabs or a carriage return), which are no message; and drops a longer
 * line as it streams in, holding none of it, reporting it to `onOverlong` once its line feed arrives, with
 * the request id read from the line on the way ({@link TopLevelIdScanner}). A last line without a line feed
 * is dropped at the end, as the transport would never read it either.
 *
 * Its readable side is in object mode so that lines are never merged into one chunk.
 */
export class InputLines extends Transform {
  /** The current line so far, while it is within the limit. */
  private held: Buffer[] = [];
  private lineBytes = 0;
  /** Set once the current line passed the limit: it sees the rest of the line instead of `held`. */
  private scanner: TopLevelIdScanner | undefined;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onOverlong: (line: OverlongLine) => void,
    /**
     * Gets each line that holds no JSON-RPC message ({@link UnreadableLine}), which is then dropped; without
     * it such lines pass on. The SDK's transport reports these lines to its own error handler only and answers
     * nothing, not even a request with a usable id, so its client would wait for its own timeout.
     */
    private readonly onUnreadable?: (line: UnreadableLine) => void,
  ) {
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const lineFeed = chunk.indexOf(0x0a, start);
      this.addToLine(chunk.subarray(start, lineFeed < 0 ? chunk.length : lineFeed));
      if (lineFeed < 0) break;
      this.endLine();
      start = lineFeed + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    done();
  }

  private addToLine(segment: Buffer): void {
    if (segment.length === 0) return;
    this.lineBytes += segment.length;
    if (this.scanner) {
      this.scanner.feed(segment);
    } else if (this.lineBytes > this.maxLineBytes) {
      this.scanner = new TopLevelIdScanner();
      for (const held of this.held) this.scanner.feed(held);
      this.scanner.feed(segment);
      this.held = [];
    } else {
      this.held.push(segment);
    }
  }

  private endLine(): void {
    if (this.scanner) {
      this.onOverlong({ bytes: this.lineBytes, id: this.scanner.id });
    } else if (!isBlank(this.held, this.lineBytes)) {
      const line = Buffer.concat([...this.held, LINE_FEED]);
      const problem = this.onUnreadable && unreadable(line);
      if (problem) this.onUnreadable!({ bytes: this.lineBytes, ...problem });
      else this.push(line);
    }
    this.held = [];
    this.lineBytes = 0;
    this.scanner = undefined;
  }
}

const LINE_FEED = Buffer.from('\n');

/** A line that holds no JSON-RPC message: what {@link InputLines} tells its `onUnreadable`. */
export interface UnreadableLine {
  /** Its length in bytes, without the line feed. */
  readonly bytes: number;
  /**
   * `parse`: not JSON; `not-object`: JSON, but an array (a batch) or a bare value; `invalid`: an object that is
   * not a JSON-RPC 2.0 message as the SDK reads one (`reason` says why).
   */
  readonly problem: 'parse' | 'not-object' | 'invalid';
  /** For `invalid`: the SDK's first complaint, one line. */
  readonly reason?: string;
  /** For `invalid`: its `id` when that is a string or an integer (so the answer can name it). */
  readonly id?: RequestId;
}

/** Why `line` (UTF-8 JSON text) holds no message the SDK reads, or undefined when it holds one. */
function unreadable(line: Buffer): Omit<UnreadableLine, 'bytes'> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return { problem: 'parse' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'not-object' };
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (checked.success) return undefined;
  const id = (value as { id?: unknown }).id;
  const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? { id } : {};
  return { problem: 'invalid', reason: describeMessageIssues(checked.error.issues), ...usableId };
}

/** True when the line is empty or holds only spaces, tabs and carriage returns. */
function isBlank(segments: readonly Buffer[], bytes: number): boolean {
  // A blank line is short; anything long is a message (or a mistake the transport reports).
  if (bytes > 64) return false;
  return segments.every((s) => s.every((b) => b === 0x20 || b === 0x09 || b === 0x0d));
}

/** Most bytes of an id's JSON text that {@link TopLevelIdScanner} keeps; a longer id is not recovered. */
const ID_MAX_BYTES = 1024;

/**
 * Finds the `id` of a JSON-RPC message in its text as it streams past, in constant memory: the value of the
 * key `id` of the top-level object (a string or an integer, the ids JSON-RPC allows), wherever it stands (the
 * SDK's client writes it last, after `params`). Strings and nesting are tracked byte by byte, so an `id` inside
 * `params` or inside a string is never taken for it. A later top-level `id` wins, as in `JSON.parse`.
 */
export class TopLevelIdScanner {
  private started = false;
  private notAnObject = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1, the next string is a key. */
  private expectKey = false;
  /** The bytes of the key being read (only its start: enough to tell `id`), while `readingKey`. */
  private key = '';
  private readingKey = false;
  private lastKey = '';
  /** After `"id":`, the value's text is being collected (`valueBytes`), or is about to be. */
  private capturing = false;
  private valueBytes: number[] = [];
  private found: RequestId | undefined;

  /** The id found so far. */
  get id(): RequestId | undefined {
    return this.found;
  }

  feed(bytes: Uint8Array): void {
    for (const b of bytes) this.step(b);
  }

  private step(b: number): void {
    if (this.notAnObject) return;
    if (!this.started) {
      if (isSpace(b)) return;
      this.started = true;
      if (b !== 0x7b) this.notAnObject = true;
      else {
        this.depth = 1;
        this.expectKey = true;
      }
      return;
    }
    if (this.capturing && this.collectValue(b)) return;
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === 0x5c) this.escaped = true;
      else if (b === 0x22) {
        this.inString = false;
        if (this.readingKey) {
          this.readingKey = false;
          this.lastKey = this.key;
        }
      } else if (this.readingKey && this.key.length < 3) this.key += String.fromCharCode(b);
      return;
    }
    if (b === 0x22) {
      this.inString = true;
      if (this.depth === 1 && this.expectKey) {
        this.readingKey = true;
        this.expectKey = false;
        this.key = '';
      }
    } else if (b === 0x7b || b === 0x5b) {
      this.depth += 1;
    } else if (b === 0x7d || b === 0x5d) {
      this.depth -= 1;
    } else if (this.depth === 1 && b === 0x2c) {
      this.expectKey = true;
    } else if (this.depth === 1 && b === 0x3a && this.lastKey === 'id') {
      this.capturing = true;
      this.valueBytes = [];
    }
  }

  /**
   * Collects the text of the `id` value byte by byte; returns false when `b` is not part of it (the normal
   * scan then handles `b`). A string value is collected through its closing quote, a number through its last
   * digit; any other value (null, an object, …) is no id.
   */
  private collectValue(b: number): boolean {
    const value = this.valueBytes;
    if (value.length === 0) {
      if (isSpace(b)) return true;
      if (b !== 0x22 && b !== 0x2d && !(b >= 0x30 && b <= 0x39)) {
        this.capturing = false;
        return false;
      }
    } else if (value[0] === 0x22) {
      if (b === 0x22 && !endsWithOddBackslashes(value)) {
        value.push(b);
        this.finishValue();
        return true;
      }
    } else if (!(b === 0x2d || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45 || (b >= 0x30 && b <= 0x39))) {
      this.finishValue();
      return false;
    }
    if (value.length >= ID_MAX_BYTES) {
      // Too long for an id worth answering: the normal scan takes over, inside the string if it is one.
      this.capturing = false;
      if (value[0] === 0x22) {
        this.inString = true;
        this.escaped = endsWithOddBackslashes(value);
      }
      return false;
    }
    value.push(b);
    return true;
  }

  private finishValue(): void {
    this.capturing = false;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(this.valueBytes).toString('utf8'));
    } catch {
      return;
    }
    if (typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))) this.found = value;
  }
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** True when the collected string text ends in an odd run of backslashes (the next quote is escaped). */
function endsWithOddBackslashes(value: readonly number[]): boolean {
  let n = 0;
  for (let i = value.length - 1; i > 0 && value[i] === 0x5c; i--) n++;
  return n % 2 === 1;
}
