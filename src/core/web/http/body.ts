import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';
import { quoteValue, ToolError } from '../../errors';

/**
 * Most content codings one response may stack in `Content-Encoding` (RFC 9110 §8.4 allows a list): the limit
 * curl (`MAX_ENCODE_STACK`) and undici apply. Real servers use one; a longer list only makes the client
 * build and run decoders (5,000 `br` entries took 15–31 s).
 */
export const MAX_CONTENT_CODINGS = 5;

/**
 * Why a body is shorter than what the server meant to send:
 * - `maxBytes`: the decoded body reached the cap (a large page, a decompression bomb, an endless chunked
 *   stream, or a `Content-Length` that lies upwards), or one intermediate decoding of a stacked
 *   `Content-Encoding` produced more than twice the cap;
 * - `timeout`: the call's deadline passed while the server was still sending the body (a server stalling
 *   after its headers, or a slow one);
 * - `decodeTimeout`: the server had sent the whole body, but the deadline passed while it was still being
 *   decompressed;
 * - `closed`: the connection closed before the announced length or the final chunk.
 */
export type BodyCut = 'maxBytes' | 'timeout' | 'decodeTimeout' | 'closed';

/** A body read from a response: decoded bytes (never more than the cap) and why it stopped early, if it did. */
export interface ReadBody {
  /**
   * The decoded bytes. This Buffer owns its ArrayBuffer alone: `byteOffset` is 0 and `buffer.byteLength`
   * equals `length` (it never comes from Node's shared allocation pool), so `body.buffer` can be transferred
   * to a worker without a copy and without taking other data along.
   */
  readonly body: Buffer;
  readonly cut: BodyCut | null;
}

/** First capacity of the decoded-body buffer; it doubles from there, up to the cap. */
const INITIAL_CAPACITY = 16 * 1024;
/** Wire bytes gathered before they are handed to the first decoder (fewer, larger decoder calls). */
const WIRE_BATCH_BYTES = 64 * 1024;
/**
 * Body chunks handled in one event-loop turn before the response is paused until the next turn. A real
 * server's chunks are kilobytes, so 1,024 of them pass the 5 MiB cap and this never triggers; one-byte
 * chunks cost one to a few microseconds each in Node's parser and stream, and one turn can bring megabytes
 * (libuv reads up to 32 × 64 KiB per poll), so without it one turn held the thread for hundreds of ms. While
 * paused, the rest of the socket read already taken (up to 10,922 one-byte chunks) and up to the stream's
 * high-water mark more are buffered; then the socket is not read until the buffer drains.
 */
export const CHUNKS_PER_TURN = 1024;

/**
 * Streams `res` through the decoders its `Content-Encoding` names (gzip / x-gzip, deflate with or without
 * the zlib wrapper, br; at most {@link MAX_CONTENT_CODINGS}; RFC 9110 §8.4) and collects at most `maxBytes`
 * decoded bytes.
 *
 * Memory stays proportional to the bytes kept, whatever the chunking: the decoded body is copied into one
 * buffer that doubles as it fills (never past `maxBytes`), so a body sent as millions of one-byte chunks
 * keeps no per-chunk object; wire bytes bound for a decoder are gathered into 64 KiB batches first. The
 * thread is not held either: after {@link CHUNKS_PER_TURN} chunks in one event-loop turn the response is
 * paused until the next turn (TCP backpressure holds the rest).
 * Nothing is pre-allocated from `Content-Length`. The cap counts bytes after decompression, so a small
 * compressed bomb stops at the cap, and each intermediate decoding of a stacked coding may produce at most
 * twice the cap; reading stops and the socket is destroyed the moment a cap is reached. The decoders are
 * built when the first body byte arrives, so a refused header or an empty body builds none.
 *
 * `signal` is the call's deadline-or-cancel signal: when its reason is `timeoutReason`, the bytes decoded
 * so far are returned with `cut: 'timeout'` (still arriving) or `'decodeTimeout'` (all arrived, still being
 * decompressed); any other abort rejects with `ToolError('WEB_ABORTED')`. `onBytes`, when given, hears the
 * number of decoded bytes kept so far after each piece.
 *
 * @throws ToolError WEB_BAD_RESPONSE (an unknown or corrupt content coding, or more than
 *   {@link MAX_CONTENT_CODINGS}), WEB_ABORTED
 */
export function readBody(res: IncomingMessage, maxBytes: number, signal: AbortSignal, timeoutReason: unknown, onBytes?: (decodedBytes: number) => void): Promise<ReadBody> {
  let codings: string[];
  try {
    codings = contentCodings(res.headers['content-encoding']);
  } catch (e) {
    res.destroy();
    return Promise.reject(e);
  }
  return new Promise<ReadBody>((resolve, reject) => {
    const body = new GrowingBuffer(maxBytes);
    const pauses = new Pauses(res);
    let chunksThisTurn = 0;
    let decoders: Transform[] | undefined;
    let wire: WireBatcher | undefined;
    let wireEnded = false;
    let done = false;

    const cleanup = (): void => {
      signal.removeEventListener('abort', onAbort);
      pauses.dispose();
      wire?.dispose();
      for (const d of decoders ?? []) d.destroy();
      res.destroy();
    };
    const finish = (cut: BodyCut | null): void => {
      if (done) return;
      done = true;
      cleanup();
      resolve({ body: body.take(), cut });
    };
    const fail = (e: unknown): void => {
      if (done) return;
      done = true;
      cleanup();
      reject(e);
    };
    function onAbort(): void {
      if (signal.reason === timeoutReason) finish(wireEnded && decoders !== undefined ? 'decodeTimeout' : 'timeout');
      else fail(new ToolError('WEB_ABORTED', 'The request was cancelled before the response finished.'));
    }
    const keep = (chunk: Buffer): void => {
      if (done) return;
      if (!body.append(chunk)) finish('maxBytes');
      else onBytes?.(body.length);
    };

    /** The decoder chain, wired to `keep`; built on the first body byte. */
    const buildDecoders = (): Transform[] => {
      const chain = codings.map(decoderFor);
      chain.forEach((d, i) => {
        d.on('error', (e: Error) =>
          fail(new ToolError('WEB_BAD_RESPONSE', `The server sent a body that could not be decompressed (${e.message}). Try the URL again later or fetch a different page.`)),
        );
        const next = chain[i + 1];
        if (next === undefined) {
          d.on('data', keep);
          d.on('end', () => finish(null));
        } else {
          let produced = 0;
          d.on('data', (chunk: Buffer) => {
            produced += chunk.length;
            if (produced > 2 * maxBytes) finish('maxBytes');
          });
          d.pipe(next);
        }
      });
      return chain;
    };

    res.on('data', (chunk: Buffer) => {
      if (done) return;
      if (++chunksThisTurn === CHUNKS_PER_TURN) {
        pauses.hold('turn');
        setImmediate(() => {
          chunksThisTurn = 0;
          pauses.release('turn');
        });
      }
      if (codings.length === 0) return keep(chunk);
      if (!decoders) {
        decoders = buildDecoders();
        wire = new WireBatcher(decoders[0]!, pauses);
      }
      wire!.write(chunk);
    });
    res.on('end', () => {
      wireEnded = true;
      if (wire) wire.end();
      else finish(null);
    });
    // A premature close is reported on 'close'; the 'error' it also raises carries nothing more.
    res.on('error', () => undefined);
    res.on('close', () => {
      if (done) return;
      if (signal.aborted) onAbort();
      else if (!res.complete) finish('closed');
    });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The content codings a `Content-Encoding` value lists, in the order they must be undone (last applied
 * first); `identity` and empty list members are dropped, names compared without case.
 *
 * @throws ToolError WEB_BAD_RESPONSE for more than {@link MAX_CONTENT_CODINGS} codings or a coding Scout
 *   cannot decode (anything but gzip, x-gzip, deflate and br); the message names the header
 */
export function contentCodings(header: string | undefined): string[] {
  if (!header) return [];
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length > MAX_CONTENT_CODINGS) {
    throw new ToolError(
      'WEB_BAD_RESPONSE',
      `The server's Content-Encoding header lists ${codings.length.toLocaleString('en-US')} content codings (${quoteValue(header)}); Scout undoes at most ${MAX_CONTENT_CODINGS}, as curl and undici do. Fetch a different URL for the same content.`,
    );
  }
  const unknown = codings.find((c) => !KNOWN_CODINGS.has(c));
  if (unknown !== undefined) {
    throw new ToolError('WEB_BAD_RESPONSE', `The server's Content-Encoding header names the content coding ${quoteValue(unknown)}, which Scout cannot decode. Fetch a different URL for the same content.`);
  }
  return codings.reverse();
}

const KNOWN_CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

function decoderFor(coding: string): Transform {
  if (coding === 'br') return zlib.createBrotliDecompress();
  if (coding === 'deflate') return new DeflateDecoder();
  return zlib.createGunzip();
}

/**
 * Bytes kept in one buffer that grows by doubling, up to a cap: appending copies, so the caller's chunk
 * (often a slice of a socket's read buffer) is not retained, and n appends cost O(log n) allocations.
 */
export class GrowingBuffer {
  private bytes = Buffer.allocUnsafeSlow(0);
  private size = 0;

  /** @param max the most bytes kept, in bytes */
  constructor(private readonly max: number) {}

  /** Bytes kept so far. */
  get length(): number {
    return this.size;
  }

  /**
   * Appends `chunk`, or as much of it as fits under the cap.
   * @returns false when `chunk` did not fit whole (the cap is reached)
   */
  append(chunk: Uint8Array): boolean {
    const take = Math.min(chunk.length, this.max - this.size);
    if (this.size + take > this.bytes.length) {
      const capacity = Math.min(this.max, Math.max(this.size + take, this.bytes.length * 2, INITIAL_CAPACITY));
      const grown = Buffer.allocUnsafeSlow(capacity);
      this.bytes.copy(grown, 0, 0, this.size);
      this.bytes = grown;
    }
    this.bytes.set(take === chunk.length ? chunk : chunk.subarray(0, take), this.size);
    this.size += take;
    return take === chunk.length;
  }

  /**
   * The bytes kept, as a Buffer that owns its ArrayBuffer alone (`byteOffset` 0, `buffer.byteLength` equal
   * to `length`, never from Node's shared pool): transferable to a worker as it is. The buffer is handed
   * over, not copied, when it is exactly full; call once.
   */
  take(): Buffer {
    if (this.size === this.bytes.length) return this.bytes;
    const exact = Buffer.allocUnsafeSlow(this.size);
    this.bytes.copy(exact, 0, 0, this.size);
    return exact;
  }
}

/** Why the response is paused: the current turn's chunk budget is spent, or the first decoder is full. */
type PauseReason = 'turn' | 'decoder';

/** Pauses a response while any reason holds, and resumes it when the last is released (unless disposed). */
class Pauses {
  private readonly held = new Set<PauseReason>();
  private disposed = false;

  constructor(private readonly source: IncomingMessage) {}

  hold(reason: PauseReason): void {
    this.held.add(reason);
    this.source.pause();
  }

  release(reason: PauseReason): void {
    this.held.delete(reason);
    if (this.held.size === 0 && !this.disposed) this.source.resume();
  }

  dispose(): void {
    this.disposed = true;
  }
}

/**
 * Hands wire bytes to a decoder in batches of up to {@link WIRE_BATCH_BYTES}: chunks are copied into the
 * current batch, which is written when full or once the current I/O callback is over (`setImmediate`), so a
 * body sent in one-byte chunks costs one decoder call per 64 KiB instead of one per byte. When the decoder
 * asks for a pause, the response is paused until it drains.
 */
class WireBatcher {
  private batch: Buffer | undefined;
  private size = 0;
  private scheduled: NodeJS.Immediate | undefined;
  private waitingForDrain = false;

  constructor(
    private readonly decoder: Transform,
    private readonly pauses: Pauses,
  ) {}

  write(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      this.batch ??= Buffer.allocUnsafeSlow(WIRE_BATCH_BYTES);
      const copied = chunk.copy(this.batch, this.size, offset);
      this.size += copied;
      offset += copied;
      if (this.size === WIRE_BATCH_BYTES) this.flush();
    }
    if (this.size > 0) this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes what is batched and ends the decoder's input. */
  end(): void {
    this.flush();
    this.decoder.end();
  }

  dispose(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.batch = undefined;
  }

  private flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.size === 0 || this.decoder.destroyed) return;
    const out = this.batch!.subarray(0, this.size);
    this.batch = undefined;
    this.size = 0;
    if (!this.decoder.write(out) && !this.waitingForDrain) {
      this.waitingForDrain = true;
      this.pauses.hold('decoder');
      this.decoder.once('drain', () => {
        this.waitingForDrain = false;
        this.pauses.release('decoder');
      });
    }
  }
}

/**
 * `deflate` decoding that accepts both the RFC 1950 zlib wrapper (what RFC 9110 specifies) and bare RFC 1951
 * data (what some servers send instead), choosing from the first two bytes the way browsers do.
 */
class DeflateDecoder extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | undefined;
  /** Bytes held until two have arrived to tell the formats apart. */
  private head = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.inner) {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 2) return callback();
      chunk = this.head;
      this.inner = this.start(chunk);
    }
    this.inner.write(chunk, () => callback());
  }

  private start(head: Buffer): zlib.Inflate | zlib.InflateRaw {
    const zlibWrapped = head.length >= 2 && (head[0]! & 0x0f) === 8 && ((head[0]! << 8) | head[1]!) % 31 === 0; // RFC 1950 CMF/FLG check
    const inner = zlibWrapped ? zlib.createInflate() : zlib.createInflateRaw();
    inner.on('data', (out: Buffer) => this.push(out));
    inner.on('error', (e) => this.destroy(e));
    return inner;
  }

  override _flush(callback: TransformCallback): void {
    if (!this.inner) {
      if (this.head.length === 0) return callback();
      this.inner = this.start(this.head);
      this.inner.write(this.head);
    }
    this.inner.once('end', () => callback());
    this.inner.end();
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    this.inner?.destroy();
    callback(error);
  }
}
