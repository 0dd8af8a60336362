import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';
import { ToolError } from '../../errors';

/**
 * Why a body is shorter than what the server meant to send:
 * - `maxBytes`: the decoded body reached the cap (a large page, a decompression bomb, an endless chunked
 *   stream, or a `Content-Length` that lies upwards);
 * - `timeout`: the call's deadline passed while the body was still arriving (a server stalling after headers);
 * - `closed`: the connection closed before the announced length or the final chunk.
 */
export type BodyCut = 'maxBytes' | 'timeout' | 'closed';

/** A body read from a response: decoded bytes (never more than the cap) and why it stopped early, if it did. */
export interface ReadBody {
  readonly body: Buffer;
  readonly cut: BodyCut | null;
}

/**
 * Streams `res` through the decoders its `Content-Encoding` names (gzip / x-gzip, deflate with or without
 * the zlib wrapper, br; RFC 9110 §8.4) and collects at most `maxBytes` decoded bytes. The cap counts bytes
 * after decompression, so a small compressed bomb stops at the cap; reading stops and the socket is
 * destroyed the moment the cap is reached. Nothing is pre-allocated from `Content-Length`.
 *
 * `signal` is the call's deadline-or-cancel signal: when its reason is `timeoutReason`, the bytes read so
 * far are returned with `cut: 'timeout'`; any other abort rejects with `ToolError('WEB_ABORTED')`.
 *
 * @throws ToolError WEB_BAD_RESPONSE (unknown or corrupt content coding), WEB_ABORTED
 */
export function readBody(res: IncomingMessage, maxBytes: number, signal: AbortSignal, timeoutReason: unknown): Promise<ReadBody> {
  return new Promise<ReadBody>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    let decoders: Transform[];
    try {
      decoders = decodersFor(res.headers['content-encoding']);
    } catch (e) {
      res.destroy();
      reject(e);
      return;
    }

    const cleanup = (): void => {
      signal.removeEventListener('abort', onAbort);
      for (const d of decoders) d.destroy();
      res.destroy();
    };
    const finish = (cut: BodyCut | null): void => {
      if (done) return;
      done = true;
      cleanup();
      resolve({ body: Buffer.concat(chunks, size), cut });
    };
    const fail = (e: unknown): void => {
      if (done) return;
      done = true;
      cleanup();
      reject(e);
    };
    function onAbort(): void {
      if (signal.reason === timeoutReason) finish('timeout');
      else fail(new ToolError('WEB_ABORTED', 'The request was cancelled before the response finished.'));
    }

    const sink = decoders.at(-1) ?? res;
    sink.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - size;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += Math.max(room, 0);
        finish('maxBytes');
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    sink.on('end', () => finish(null));
    for (const d of decoders) {
      d.on('error', (e: Error) =>
        fail(new ToolError('WEB_BAD_RESPONSE', `The server sent a body that could not be decompressed (${e.message}). Try the URL again later or fetch a different page.`)),
      );
    }
    let upstream: NodeJS.ReadableStream = res;
    for (const d of decoders) upstream = upstream.pipe(d);
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

/** The decoder chain for a `Content-Encoding` value, in the order the codings must be undone. */
function decodersFor(header: string | undefined): Transform[] {
  if (!header) return [];
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  return codings.reverse().map((coding) => {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return zlib.createGunzip();
      case 'deflate':
        return new DeflateDecoder();
      case 'br':
        return zlib.createBrotliDecompress();
      default:
        throw new ToolError('WEB_BAD_RESPONSE', `The server used the content coding "${coding}", which Scout cannot decode. Fetch a different URL for the same content.`);
    }
  });
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
