import { Worker } from 'node:worker_threads';
import { ToolError } from '../../errors';
import { bytesForChars, cutAtCodePoint } from '../codePoints';
import type { CharsetSource } from '../http/charset';
import type { Conversion } from './markdown';
import type { RenderMessage, RenderRequest, WorkerTaskRequest } from './render';

/** What the worker produced for one body, or what Scout fell back to. */
export interface RenderResult {
  /** The decoded source text (at most `maxChars`). */
  readonly text: string;
  /** The body held more text than `text`. */
  readonly truncated: boolean;
  readonly charset: string;
  readonly charsetSource: CharsetSource | 'fallback';
  /** The HTML conversion; null for a text body, or when the worker could not finish (see `failure`). */
  readonly conversion: Conversion | null;
  /** Why no conversion exists for an HTML body: the time budget ran out, or the worker died. */
  readonly failure?: WorkerFailure;
}

/** Why a worker gave no answer: the time budget ran out, or the worker died. */
export type WorkerFailure = 'timeout' | 'worker-error';

/**
 * Heap limit of one conversion worker. A page whose DOM grows past it kills only the worker (the call then
 * returns raw text), never the extension host. Converting the 200,000 characters a call may convert peaks far
 * below it.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 512 };

/**
 * Runs decode-and-convert requests in `worker_threads` workers (dist/convertWorker.js) so parsing and
 * conversion never block the calling thread.
 *
 * Each request gets a time budget; when it runs out, the worker is terminated and the decoded source is
 * returned raw (or, if even decoding had not finished, the bytes decoded as UTF-8 here). Cancellation
 * terminates the worker too. One finished worker is kept warm (unreferenced, so it never keeps a process
 * alive) for `idleMs`, which spares the next call the bundle's start-up and JIT warm-up; concurrent calls
 * use extra workers that exit when done. The same workers run the other DOM tasks of the web tools
 * ({@link ConvertWorkerPool.task}, e.g. parsing a DuckDuckGo result page for web_search).
 */
export class ConvertWorkerPool {
  private idle: Worker | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  /**
   * @param scriptPath absolute path of dist/convertWorker.js
   * @param idleMs how long a warm worker waits for the next request before it exits
   */
  constructor(
    readonly scriptPath: string,
    private readonly idleMs = 60_000,
  ) {}

  /**
   * Decodes and (for HTML) converts one body within `timeoutMs`.
   * @throws ToolError WEB_ABORTED when `signal` aborts
   */
  render(request: RenderRequest, timeoutMs: number, signal: AbortSignal): Promise<RenderResult> {
    let decoded: Extract<RenderMessage, { type: 'decoded' }> | undefined;
    const source = (): Pick<RenderResult, 'text' | 'truncated' | 'charset' | 'charsetSource'> =>
      decoded ? { text: decoded.text, truncated: decoded.truncated, charset: decoded.charset, charsetSource: decoded.charsetSource } : decodeUtf8(request);
    // Only the bytes that can hold `maxChars` characters go to the worker: copied once into their own
    // buffer, which is transferred (posting a view would clone its whole underlying buffer).
    const limit = bytesForChars(request.maxChars);
    let message: RenderRequest = request;
    let transfer: ArrayBuffer[] = [];
    if (request.bytes.length > limit) {
      const prefix = new Uint8Array(request.bytes.subarray(0, limit)); // a copy (Buffer#slice would share memory)
      message = { ...request, bytes: prefix, moreBytes: true };
      transfer = [prefix.buffer];
    }
    return this.exchange<RenderMessage, RenderResult>(message, transfer, timeoutMs, signal, {
      reply: (m) => {
        if (m.type === 'decoded') {
          decoded = m;
          return undefined;
        }
        return { ...source(), conversion: m.conversion };
      },
      fallBack: (failure) => ({ ...source(), conversion: null, failure }),
    });
  }

  /**
   * Runs one task of another kind than rendering (see worker.ts) and resolves its single reply, or the
   * failure when the time budget ran out or the worker died.
   * @throws ToolError WEB_ABORTED when `signal` aborts
   */
  task<T>(request: WorkerTaskRequest, timeoutMs: number, signal: AbortSignal): Promise<{ reply: T } | { failure: WorkerFailure }> {
    return this.exchange<T, { reply: T } | { failure: WorkerFailure }>(request, [], timeoutMs, signal, {
      reply: (m) => ({ reply: m }),
      fallBack: (failure) => ({ failure }),
    });
  }

  /**
   * Posts `message` to a worker and settles with the first value `handle.reply` returns for a message from
   * it (undefined means "wait for more"), or `handle.fallBack` when `timeoutMs` runs out or the worker dies
   * (it is then terminated). Cancellation terminates the worker and rejects with WEB_ABORTED. A worker that
   * answered is kept warm for the next call.
   */
  private exchange<M, R>(
    message: unknown,
    transfer: ArrayBuffer[],
    timeoutMs: number,
    signal: AbortSignal,
    handle: { reply(message: M): R | undefined; fallBack(failure: WorkerFailure): R },
  ): Promise<R> {
    if (signal.aborted) return Promise.reject(aborted());
    const worker = this.take();
    return new Promise<R>((resolve, reject) => {
      let settled = false;
      const settle = (keepWorker: boolean): void => {
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        quiet(worker);
        if (keepWorker) this.release(worker);
        else void worker.terminate();
      };
      const onAbort = (): void => {
        if (settled) return;
        settle(false);
        reject(aborted());
      };
      const timer = setTimeout(() => {
        if (settled) return;
        settle(false);
        resolve(handle.fallBack('timeout'));
      }, timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', (m: M) => {
        if (settled) return;
        const result = handle.reply(m);
        if (result === undefined) return;
        settle(true);
        resolve(result);
      });
      const onWorkerFailure = (): void => {
        if (settled) return;
        settle(false);
        resolve(handle.fallBack('worker-error'));
      };
      worker.on('error', onWorkerFailure);
      worker.on('exit', onWorkerFailure);
      worker.postMessage(message, transfer);
    });
  }

  /** Terminates the warm worker, if any. */
  async dispose(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.idle;
    this.idle = undefined;
    await worker?.terminate();
  }

  private take(): Worker {
    const worker = this.idle ?? new Worker(this.scriptPath, { resourceLimits: RESOURCE_LIMITS });
    this.idle = undefined;
    clearTimeout(this.idleTimer);
    quiet(worker);
    worker.ref();
    return worker;
  }

  private release(worker: Worker): void {
    if (this.idle) {
      void worker.terminate();
      return;
    }
    worker.unref();
    worker.once('exit', () => {
      if (this.idle === worker) this.idle = undefined;
    });
    this.idle = worker;
    this.idleTimer = setTimeout(() => void this.dispose(), this.idleMs);
    this.idleTimer.unref();
  }
}

/**
 * Drops a worker's listeners from an earlier call, keeping one that swallows 'error': a worker that fails
 * while idle or being terminated must not raise an uncaught exception in the host.
 */
function quiet(worker: Worker): void {
  worker.removeAllListeners();
  worker.on('error', () => undefined);
}

function aborted(): ToolError {
  return new ToolError('WEB_ABORTED', 'The fetch was cancelled while its content was being converted.');
}

/** Last-resort decoding on the calling thread when the worker produced nothing: UTF-8, replacing invalid bytes. */
function decodeUtf8(request: RenderRequest): Pick<RenderResult, 'text' | 'truncated' | 'charset' | 'charsetSource'> {
  const limit = bytesForChars(request.maxChars);
  const text = new TextDecoder('utf-8').decode(request.bytes.subarray(0, limit));
  const truncated = text.length > request.maxChars || request.bytes.length > limit;
  return { text: cutAtCodePoint(text, request.maxChars), truncated, charset: 'utf-8', charsetSource: 'fallback' };
}
