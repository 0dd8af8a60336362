import * as os from 'node:os';
import { Worker } from 'node:worker_threads';
import { ToolError } from '../../errors';
import { bytesForChars, cutAtCodePoint } from '../../codePoints';
import type { CharsetSource } from '../http/charset';
import { displayText } from './displayText';
import type { ConvertedPage, RenderMessage, RenderRequest, WorkerTaskRequest } from './render';
import { isReady, type ReadyMessage } from './workerReady';

/** What the worker produced for one body, or what Scout fell back to. */
export interface RenderResult {
  /** The start of the decoded source (at most `rawChars`), display-safe; '' for a PDF, or when nothing was decoded. */
  readonly text: string;
  /** The body held more text than `text`. */
  readonly truncated: boolean;
  readonly charset: string;
  readonly charsetSource: CharsetSource | 'fallback';
  /** The whole body converted; null when the worker could not finish (see `failure`). */
  readonly page: ConvertedPage | null;
  /** Why `page` is null: the time budget ran out, or the worker died. */
  readonly failure?: WorkerFailure;
}

/** Why a worker gave no answer: the time budget ran out, or the worker died. */
export type WorkerFailure = 'timeout' | 'worker-error';

/**
 * Heap limit of one conversion worker. A page whose DOM grows past it kills only the worker (the call then
 * returns raw text), never the extension host. Converting a whole 5 MiB page (the download cap) stays below it
 * (see the web-fetch case of `npm run bench` for the worker's peak RSS).
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 512 };

/**
 * The worker is asked to have answered this share of the time budget before the pool stops it, so it can
 * skip work it has no time for and still post its result.
 */
const WORKER_DEADLINE_SHARE = 0.9;

/**
 * Most conversion workers alive at once in one pool (Scout's choice): one per core, leaving a core for the
 * extension host, and never more than 4 (each costs tens of MB and ~100 ms of start-up on the calling thread;
 * a 20 KB page converts in tens of ms, so more workers would buy little). At least 1.
 */
export const MAX_CONVERT_WORKERS = Math.max(1, Math.min(os.availableParallelism() - 1 || 1, 4));

/** A request waiting for, or running on, a worker. */
interface Task {
  /** Posts the request to `worker`, which the pool has just given it. */
  start(worker: Worker): void;
}

/** An idle worker and the timer that retires it. */
interface IdleWorker {
  readonly worker: Worker;
  readonly timer: NodeJS.Timeout;
}

/**
 * Runs decode-and-convert requests in `worker_threads` workers (dist/convertWorker.js) so parsing and
 * conversion never block the calling thread.
 *
 * At most `maxWorkers` workers exist at once (busy, idle, or terminated but not yet exited); further requests
 * wait in a FIFO queue. A worker that answered is reused: it waits unreferenced (it never keeps a process
 * alive) for the next request and is retired after `idleMs` without one. A worker that died or was terminated
 * is replaced by a new one when a request needs it.
 *
 * Time budget: `timeoutMs` is measured from the call, so time spent queued counts against it. A call therefore
 * settles within its budget whatever the load: if the budget runs out while queued, the request never starts;
 * if it runs out while converting, the worker is terminated. Either way the decoded source is returned raw (or,
 * if even decoding had not finished, the bytes decoded as UTF-8 here). The caller's `signal` applies as well:
 * cancelling removes a queued request without starting anything, or terminates the worker running it.
 *
 * The same workers run the other DOM tasks of the web tools ({@link ConvertWorkerPool.task}, e.g. parsing a
 * DuckDuckGo result page for web_search); web_fetch and web_search share one pool ({@link sharedConvertWorkerPool}).
 */
export class ConvertWorkerPool {
  /** Every worker thread that has not exited yet. */
  private readonly workers = new Set<Worker>();
  /** Idle workers, the most recently used last (taken first, so surplus ones retire). */
  private readonly idle: IdleWorker[] = [];
  private readonly queue: Task[] = [];
  /** Workers that have loaded their script and said so ({@link ReadyMessage}). */
  private readonly loaded = new WeakSet<Worker>();
  /** For a worker that has not said so yet: how to send it the request it was given. */
  private readonly waiting = new Map<Worker, () => void>();

  /**
   * @param scriptPath absolute path of dist/convertWorker.js
   * @param idleMs how long an idle worker waits for the next request before it exits
   * @param maxWorkers most workers alive at once (at least 1)
   */
  constructor(
    readonly scriptPath: string,
    private readonly idleMs = 60_000,
    private readonly maxWorkers = MAX_CONVERT_WORKERS,
  ) {}

  /** Worker threads alive now (busy, idle, or terminated but not yet exited); never more than `maxWorkers`. */
  get size(): number {
    return this.workers.size;
  }

  /** Requests waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Decodes and converts one whole body within `timeoutMs` (counted from this call, queueing included).
   *
   * The body goes to the worker without being copied, decoded or scanned here: `request.bytes`' buffer is
   * transferred when the request starts (so `request.bytes` is empty afterwards), and the worker decodes it.
   * A buffer can be transferred only when the view covers all of it (a Node Buffer from the shared pool, or a
   * slice, does not); such a body is copied once into a buffer of its own, which is then transferred. The
   * HTTP client's bodies own their buffer, so in practice nothing is copied.
   *
   * When the budget runs out or the worker dies, the result has no page: its text is the start of the source
   * the worker decoded first, or, if the request never reached a worker, the body decoded here as UTF-8 (at
   * most `rawChars` characters). A body that reached a worker which died before decoding it gives no text.
   *
   * @throws ToolError WEB_ABORTED when `signal` aborts
   */
  render(request: Omit<RenderRequest, 'deadline'>, timeoutMs: number, signal: AbortSignal): Promise<RenderResult> {
    let decoded: Extract<RenderMessage, { type: 'decoded' }> | undefined;
    let sent = false;
    const source = (): Pick<RenderResult, 'text' | 'truncated' | 'charset' | 'charsetSource'> => {
      if (decoded) return { text: decoded.text, truncated: decoded.truncated, charset: decoded.charset, charsetSource: decoded.charsetSource };
      if (sent || request.kind === 'pdf') return { text: '', truncated: request.kind !== 'pdf', charset: '', charsetSource: 'fallback' };
      return decodeUtf8(request.bytes, request.rawChars);
    };
    const deadline = Date.now() + timeoutMs * WORKER_DEADLINE_SHARE;
    return this.exchange<RenderMessage, RenderResult>(
      () => {
        sent = true;
        const bytes = ownedBytes(request.bytes);
        return { message: { ...request, bytes, deadline } satisfies RenderRequest, transfer: [bytes.buffer] };
      },
      timeoutMs,
      signal,
      {
        reply: (m) => {
          if (m.type === 'decoded') {
            decoded = m;
            return undefined;
          }
          return { ...source(), page: m.page };
        },
        fallBack: (failure) => ({ ...source(), page: null, failure }),
      },
    );
  }

  /**
   * Runs one task of another kind than rendering (see worker.ts) and resolves its single reply, or the
   * failure when the time budget (counted from this call, queueing included) ran out or the worker died.
   * @throws ToolError WEB_ABORTED when `signal` aborts
   */
  task<T>(request: WorkerTaskRequest, timeoutMs: number, signal: AbortSignal): Promise<{ reply: T } | { failure: WorkerFailure }> {
    return this.exchange<T, { reply: T } | { failure: WorkerFailure }>(() => ({ message: request, transfer: [] }), timeoutMs, signal, {
      reply: (m) => ({ reply: m }),
      fallBack: (failure) => ({ failure }),
    });
  }

  /**
   * Queues a request for a worker and settles with the first value `handle.reply` returns for a message from
   * that worker (undefined means "wait for more"), or `handle.fallBack` when `timeoutMs` runs out (queued or
   * running) or the worker dies. `outgoing` makes the message and the buffers to transfer with it when a
   * worker takes the request (never, if it is cancelled or runs out of time while queued). A worker that
   * answered goes back to the pool; one that timed out is terminated. Cancellation dequeues the request or
   * terminates its worker, and rejects with WEB_ABORTED.
   */
  private exchange<M, R>(
    outgoing: () => { message: unknown; transfer: ArrayBuffer[] },
    timeoutMs: number,
    signal: AbortSignal,
    handle: { reply(message: M): R | undefined; fallBack(failure: WorkerFailure): R },
  ): Promise<R> {
    if (signal.aborted) return Promise.reject(aborted());
    return new Promise<R>((resolve, reject) => {
      let worker: Worker | undefined;
      let settled = false;
      const finish = (keepWorker: boolean, complete: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (worker === undefined) {
          this.queue.splice(this.queue.indexOf(task), 1);
        } else {
          worker.off('message', onMessage);
          worker.off('error', onFailure);
          worker.off('exit', onFailure);
          if (keepWorker) this.release(worker);
          else void worker.terminate();
        }
        complete();
      };
      const onMessage = (m: M | ReadyMessage): void => {
        if (isReady(m)) return;
        const result = handle.reply(m);
        if (result !== undefined) finish(true, () => resolve(result));
      };
      const onFailure = (): void => finish(false, () => resolve(handle.fallBack('worker-error')));
      const onAbort = (): void => finish(false, () => reject(aborted()));
      const task: Task = {
        start: (given) => {
          worker = given;
          worker.on('message', onMessage);
          worker.on('error', onFailure);
          worker.on('exit', onFailure);
          const send = (): void => {
            if (settled) return;
            const { message, transfer } = outgoing();
            given.postMessage(message, transfer);
          };
          // A new worker gets the request only once it has loaded its script: one that cannot load it has
          // then taken nothing (a transferred body would be lost with it).
          if (this.loaded.has(given)) send();
          else this.waiting.set(given, send);
        },
      };
      const timer = setTimeout(() => finish(false, () => resolve(handle.fallBack('timeout'))), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(task);
      this.dispatch();
    });
  }

  /** Terminates the idle workers; running requests finish (or time out) as usual. */
  async dispose(): Promise<void> {
    const idle = this.idle.splice(0);
    for (const { timer } of idle) clearTimeout(timer);
    await Promise.all(idle.map(({ worker }) => worker.terminate()));
  }

  /** Gives queued requests, oldest first, an idle worker or a new one while the bound allows. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.takeIdle() ?? (this.workers.size < this.maxWorkers ? this.startWorker() : undefined);
      if (worker === undefined) return;
      this.queue.shift()!.start(worker);
    }
  }

  private takeIdle(): Worker | undefined {
    const entry = this.idle.pop();
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    entry.worker.ref();
    return entry.worker;
  }

  /**
   * Starts a worker with the pool's own two listeners, which stay for its lifetime: one swallows 'error' (a
   * worker that fails while idle or being terminated must not raise an uncaught exception in the host), the
   * other forgets the worker when it exits and lets a queued request have its place.
   */
  private startWorker(): Worker {
    const worker = new Worker(this.scriptPath, { resourceLimits: RESOURCE_LIMITS });
    this.workers.add(worker);
    worker.on('error', () => undefined);
    const onReady = (m: unknown): void => {
      if (!isReady(m)) return;
      worker.off('message', onReady);
      this.loaded.add(worker);
      const send = this.waiting.get(worker);
      this.waiting.delete(worker);
      send?.();
    };
    worker.on('message', onReady);
    worker.once('exit', () => {
      this.waiting.delete(worker);
      this.workers.delete(worker);
      const index = this.idle.findIndex((entry) => entry.worker === worker);
      if (index >= 0) clearTimeout(this.idle.splice(index, 1)[0]!.timer);
      this.dispatch();
    });
    return worker;
  }

  /** Hands a worker that answered to the next queued request, or parks it unreferenced until `idleMs` passes. */
  private release(worker: Worker): void {
    worker.unref();
    const timer = setTimeout(() => {
      const index = this.idle.findIndex((entry) => entry.worker === worker);
      if (index >= 0) this.idle.splice(index, 1);
      void worker.terminate();
    }, this.idleMs);
    timer.unref();
    this.idle.push({ worker, timer });
    this.dispatch();
  }
}

const sharedPools = new Map<string, ConvertWorkerPool>();

/**
 * The process-wide pool for one worker script, so every web tool built on that script (web_fetch,
 * web_search) shares one bound of {@link MAX_CONVERT_WORKERS} workers.
 */
export function sharedConvertWorkerPool(scriptPath: string): ConvertWorkerPool {
  let pool = sharedPools.get(scriptPath);
  if (pool === undefined) {
    pool = new ConvertWorkerPool(scriptPath);
    sharedPools.set(scriptPath, pool);
  }
  return pool;
}

function aborted(): ToolError {
  return new ToolError('WEB_ABORTED', 'The fetch was cancelled while its content was being converted.');
}

/**
 * `bytes` as a view that covers its whole `ArrayBuffer`, which can therefore be transferred: `bytes` itself
 * when it does, else a copy (a Buffer from Node's shared pool, a slice, or a view of a SharedArrayBuffer).
 */
function ownedBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes as Uint8Array<ArrayBuffer>;
  return new Uint8Array(bytes);
}

/**
 * Last-resort decoding on the calling thread when a request never reached a worker (its budget ran out while
 * queued): the first `maxChars` characters as UTF-8, invalid bytes replaced, display-safe. Reads at most
 * `bytesForChars(maxChars)` bytes.
 */
function decodeUtf8(bytes: Uint8Array, maxChars: number): Pick<RenderResult, 'text' | 'truncated' | 'charset' | 'charsetSource'> {
  const limit = bytesForChars(maxChars);
  const text = new TextDecoder('utf-8').decode(bytes.subarray(0, limit));
  const truncated = text.length > maxChars || bytes.length > limit;
  return { text: displayText(cutAtCodePoint(text, maxChars)), truncated, charset: 'utf-8', charsetSource: 'fallback' };
}
