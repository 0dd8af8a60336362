import { fork, type ChildProcess, type Serializable } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import { ToolError } from '../../errors';
import { bytesForChars, cutAtCodePoint } from '../../codePoints';
import type { CharsetSource } from '../http/charset';
import { displayText, markPageLines } from './displayText';
import type { ConvertedPage, RenderMessage, RenderRequest, WorkerTaskRequest } from './render';
import { isReady, type ReadyMessage } from './workerReady';

/** What the conversion process produced for one body, or what Scout fell back to. */
export interface RenderResult {
  /**
   * The decoded source, display-safe: the whole of it when the conversion process decoded it, else (it never
   * reached one) its start, at most `rawChars`, decoded here; '' for a PDF, or when nothing was decoded.
   */
  readonly text: string;
  /** The body held more text than `text`. */
  readonly truncated: boolean;
  readonly charset: string;
  readonly charsetSource: CharsetSource | 'fallback';
  /** Nothing declared the charset and the body is not plain ASCII: `charset` is a guess. */
  readonly charsetAssumed: boolean;
  /** The whole body converted; null when the conversion did not finish (see `failure`). */
  readonly page: ConvertedPage | null;
  /** Why `page` is null. */
  readonly failure?: WorkerFailure;
  /** When `page` is null for a PDF: the text of each page read before the process was stopped, marker first. */
  readonly pdfPagesRead?: readonly string[];
  /**
   * When the process was stopped for its budget: the ms it ran (wall clock) and the CPU time it used (undefined
   * where the pool cannot read a process's CPU time).
   */
  readonly usage?: { readonly wallMs: number; readonly cpuMs: number | undefined };
  /** ms the request waited for a free conversion process. */
  readonly waitedMs: number;
}

/**
 * Why a conversion process gave no answer: it used up its time budget (`timeout`: its CPU time, or, where the
 * pool cannot read CPU time, the wall-clock backstop), the wall-clock backstop ran out before it had used its
 * CPU budget (`overloaded`: the machine was too busy to give it the processor), it died (`worker-error`), or
 * every process stayed busy with other requests for as long as the request may wait (`busy`).
 */
export type WorkerFailure = 'timeout' | 'overloaded' | 'worker-error' | 'busy';

/**
 * A rendering's budget is CPU time, so the same page converts the same way on a busy machine; this many times
 * the budget in wall-clock time stops a process whatever its CPU time (Scout's choice: a machine 4 times
 * oversubscribed still converts what a quiet one does, and a stuck process never outlives this).
 */
export const WALL_BACKSTOP_FACTOR = 4;

/** How often the pool reads a running conversion process's CPU time (ms). */
const CPU_POLL_MS = 200;

/**
 * CPU time (user and system, in ms) the process `pid` has used, or undefined where it cannot be read. The
 * pool's default is {@link procCpuTimeMs}; tests pass their own.
 */
export type CpuTimeReader = (pid: number) => number | undefined;

/**
 * A process's CPU time from Linux's /proc/<pid>/stat (utime + stime, in clock ticks of 1/100 s: USER_HZ is 100
 * on every architecture Node runs on); undefined on other systems or when the file cannot be read. A read of
 * a few hundred bytes from procfs, cheap enough for the calling thread every {@link CPU_POLL_MS}.
 */
export function procCpuTimeMs(pid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * V8 heap limit of one conversion process (`--max-old-space-size`, MB). Conversions are built to stay far below
 * it (see `MAX_DOM_NODES`); if one still runs out, V8 aborts that process alone, and the call returns the raw
 * text. A worker thread's `resourceLimits` could not promise that: an allocation that fails inside V8's
 * runtime aborts the whole process the thread lives in (nodejs/node#47224).
 */
export const CONVERT_HEAP_LIMIT_MB = 512;

/**
 * The process is asked to have answered this share of its time budget before the pool stops it, so it can
 * skip work it has no time for and still post its result.
 */
const WORKER_DEADLINE_SHARE = 0.9;

/**
 * Most conversion processes converting large bodies at once in one pool (Scout's choice): one per core,
 * leaving a core for the extension host, and never more than 4 (each costs tens of MB and ~100 ms to start;
 * a 20 KB page converts in tens of ms, so more would buy little). At least 1. One more process may run, for
 * small bodies only ({@link SMALL_REQUEST_BYTES}), so a heavy page never holds up the small pages beside it.
 */
export const MAX_CONVERT_WORKERS = Math.max(1, Math.min(os.availableParallelism() - 1 || 1, 4));

/**
 * Bodies up to this many bytes are small (Scout's choice: a typical article page, which converts in a few
 * hundred ms at most): they may also use the extra process kept for them.
 */
export const SMALL_REQUEST_BYTES = 512 * 1024;

/** A request waiting for, or running on, a process. */
interface Task {
  /** Whether the request is small (see {@link SMALL_REQUEST_BYTES}). */
  readonly small: boolean;
  /** Posts the request to `worker`, which the pool has just given it. */
  start(worker: ChildProcess): void;
}

/** An idle process and the timer that retires it. */
interface IdleWorker {
  readonly worker: ChildProcess;
  readonly timer: NodeJS.Timeout;
}

/** How long a request may wait for a process, and how long it may then run. */
interface Budget {
  /** ms a request may wait in the queue. */
  readonly waitMs: number;
  /**
   * ms it may run once a process took it, given how long it waited: wall-clock time, or, with `cpu`, CPU
   * time of the process (and {@link WALL_BACKSTOP_FACTOR} times as much wall-clock time).
   */
  runMs(waitedMs: number): number;
  readonly cpu?: boolean;
}

/** How a request that ran out of budget ran: see {@link RenderResult.usage}. */
type Usage = NonNullable<RenderResult['usage']>;

/**
 * Runs decode-and-convert requests in child processes (dist/convertWorker.js, started with `fork` and
 * Node's advanced serialization) so parsing and conversion never block the calling thread, and so nothing a
 * page does to a converter, not even running V8 out of memory, can take the calling process down (the
 * extension host, the MCP server, the CLI).
 *
 * At most `maxWorkers` requests with a large body run at once, and one more with a small body; further
 * requests wait in a queue, oldest first, except that a small request passes large ones that cannot start.
 * A process that answered is reused: it waits unreferenced (it never keeps the calling process alive) for
 * the next request and is retired after `idleMs` without one. A process that died or was stopped is
 * replaced by a new one when a request needs it. Every process exits when the calling process does (its IPC
 * channel closes).
 *
 * Time budget: a rendering may use `timeoutMs` of its process's CPU time, counted from when the process took
 * the request, so neither time spent queued nor a busy machine shortens a conversion (on a machine 5 times
 * oversubscribed, wall-clock budgets made large pages skip their article search); the pool reads the process's
 * CPU time every {@link CPU_POLL_MS} and stops it when the budget is used up (`timeout`), and stops it anyway
 * after {@link WALL_BACKSTOP_FACTOR} times `timeoutMs` of wall-clock time (`overloaded` if it had not used its
 * CPU budget by then). Where CPU time cannot be read (systems without /proc), the backstop alone applies.
 * Waiting is bounded apart, by the same `timeoutMs`: a request still queued then gets `failure: 'busy'`. Either way the decoded source is returned raw (the
 * whole of it, which the process posts before converting; or, if the request never reached a process, its
 * start decoded here as UTF-8). The caller's `signal` applies as well: cancelling removes a queued request
 * without starting anything, or stops the process running it.
 *
 * The same processes run the other DOM tasks of the web tools ({@link ConvertWorkerPool.task}, e.g. parsing a
 * DuckDuckGo result page for web_search); web_fetch and web_search share one pool ({@link sharedConvertWorkerPool}).
 */
export class ConvertWorkerPool {
  /** Every process that has not exited yet. */
  private readonly workers = new Set<ChildProcess>();
  /** Idle processes, the most recently used last (taken first, so surplus ones retire). */
  private readonly idle: IdleWorker[] = [];
  private readonly queue: Task[] = [];
  /** Requests running now, and how many of them are large. */
  private running = 0;
  private runningLarge = 0;
  /** Processes that have loaded their script and said so ({@link ReadyMessage}). */
  private readonly loaded = new WeakSet<ChildProcess>();
  /** For a process that has not said so yet: how to send it the request it was given. */
  private readonly waiting = new Map<ChildProcess, () => void>();

  /**
   * @param scriptPath absolute path of dist/convertWorker.js
   * @param idleMs how long an idle process waits for the next request before it exits
   * @param maxWorkers most large requests running at once (at least 1); one small request more may run
   */
  /**
   * @param clock.cpuTimeOf reads a process's CPU time (default {@link procCpuTimeMs}); `clock.cpuPollMs` how often
   */
  constructor(
    readonly scriptPath: string,
    private readonly idleMs = 60_000,
    private readonly maxWorkers = MAX_CONVERT_WORKERS,
    private readonly clock: { readonly cpuTimeOf?: CpuTimeReader; readonly cpuPollMs?: number } = {},
  ) {}

  /** Processes alive now (busy, idle, or stopped but not yet exited); never more than `maxWorkers + 1`. */
  get size(): number {
    return this.workers.size;
  }

  /** Requests waiting for a process. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Decodes and converts one whole body: it may wait `timeoutMs` for a process, then convert for `timeoutMs`
   * of the process's CPU time (see the class comment for the wall-clock backstop).
   *
   * The body goes to the process without being decoded or scanned here: the request is serialized (one copy
   * of its bytes) as it is sent. The process posts the whole decoded source first, then the conversion.
   *
   * When the budget runs out or the process dies, the result has no page: its text is the whole source the
   * process decoded first, or, if the request never reached a process, the body decoded here as UTF-8 (at
   * most `rawChars` characters). A body that reached a process which died before decoding it gives no text.
   * A PDF stopped partway gives the pages it read (`pdfPagesRead`).
   *
   * @throws ToolError WEB_ABORTED when `signal` aborts
   */
  render(request: Omit<RenderRequest, 'cpuBudgetMs'>, timeoutMs: number, signal: AbortSignal): Promise<RenderResult> {
    let decoded: Extract<RenderMessage, { type: 'decoded' }> | undefined;
    const pdfPages: string[] = [];
    let sent = false;
    const source = (): Pick<RenderResult, 'text' | 'truncated' | 'charset' | 'charsetSource' | 'charsetAssumed'> => {
      if (decoded) return { text: decoded.text, truncated: false, charset: decoded.charset, charsetSource: decoded.charsetSource, charsetAssumed: decoded.charsetAssumed };
      if (sent || request.kind === 'pdf') return { text: '', truncated: request.kind !== 'pdf', charset: '', charsetSource: 'fallback', charsetAssumed: false };
      return decodeUtf8(request.bytes, request.rawChars);
    };
    return this.exchange<RenderMessage, RenderResult>(
      request.bytes.length <= SMALL_REQUEST_BYTES,
      (runMs) => {
        sent = true;
        const message: RenderRequest = { ...request, cpuBudgetMs: runMs * WORKER_DEADLINE_SHARE };
        return message as unknown as Serializable;
      },
      { waitMs: timeoutMs, runMs: () => timeoutMs, cpu: true },
      signal,
      {
        reply: (m, waitedMs) => {
          if (m.type === 'decoded') decoded = m;
          else if (m.type === 'pdf-page') pdfPages.push(m.text);
          else return { ...source(), page: m.page, waitedMs };
          return undefined;
        },
        fallBack: (failure, waitedMs, usage) => ({
          ...source(),
          page: null,
          failure,
          waitedMs,
          ...(request.kind === 'pdf' ? { pdfPagesRead: pdfPages } : {}),
          ...(usage ? { usage } : {}),
        }),
      },
    );
  }

  /**
   * Runs one task of another kind than rendering (see worker.ts) and resolves its single reply, or the
   * failure when the time budget (counted from this call, queueing included) ran out or the process died.
   * @throws ToolError WEB_ABORTED when `signal` aborts
   */
  task<T>(request: WorkerTaskRequest, timeoutMs: number, signal: AbortSignal): Promise<{ reply: T } | { failure: WorkerFailure }> {
    return this.exchange<T, { reply: T } | { failure: WorkerFailure }>(
      request.html.length <= SMALL_REQUEST_BYTES,
      () => request as unknown as Serializable,
      { waitMs: timeoutMs, runMs: (waitedMs) => Math.max(1, timeoutMs - waitedMs) },
      signal,
      {
        reply: (m) => ({ reply: m }),
        fallBack: (failure) => ({ failure: failure === 'busy' || failure === 'overloaded' ? 'timeout' : failure }),
      },
    );
  }

  /**
   * Queues a request for a process and settles with the first value `handle.reply` returns for a message from
   * that process (undefined means "wait for more"), or `handle.fallBack` when the budget runs out (queued or
   * running; with how the process ran, when it ran out running) or the process dies. `outgoing` makes the message, given the ms it may run, when a process takes
   * the request (never, if it is cancelled or runs out of time while queued). A process that answered goes
   * back to the pool; one that timed out is stopped. Cancellation dequeues the request or stops its process,
   * and rejects with WEB_ABORTED.
   */
  private exchange<M, R>(
    small: boolean,
    outgoing: (runMs: number) => Serializable,
    budget: Budget,
    signal: AbortSignal,
    handle: { reply(message: M, waitedMs: number): R | undefined; fallBack(failure: WorkerFailure, waitedMs: number, usage?: Usage): R },
  ): Promise<R> {
    if (signal.aborted) return Promise.reject(aborted());
    const cpuTimeOf = this.clock.cpuTimeOf ?? procCpuTimeMs;
    return new Promise<R>((resolve, reject) => {
      const queuedAt = Date.now();
      let waitedMs = 0;
      let worker: ChildProcess | undefined;
      let settled = false;
      let poll: NodeJS.Timeout | undefined;
      /** When the request was sent, and the process's CPU time then. */
      let sentAt: { readonly ms: number; readonly cpuMs: number | undefined } | undefined;
      const cpuUsed = (): number | undefined => {
        if (sentAt?.cpuMs === undefined || worker?.pid === undefined) return undefined;
        const now = cpuTimeOf(worker.pid);
        return now === undefined ? undefined : Math.max(0, now - sentAt.cpuMs);
      };
      const outOfBudget = (failure: 'timeout' | 'overloaded', cpuMs: number | undefined): void => {
        const usage = { wallMs: Date.now() - (sentAt?.ms ?? Date.now()), cpuMs };
        finish(false, () => resolve(handle.fallBack(failure, waitedMs, usage)));
      };
      const finish = (keepWorker: boolean, complete: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(poll);
        signal.removeEventListener('abort', onAbort);
        if (worker === undefined) {
          this.queue.splice(this.queue.indexOf(task), 1);
        } else {
          worker.off('message', onMessage);
          worker.off('error', onFailure);
          worker.off('exit', onFailure);
          this.running--;
          if (!small) this.runningLarge--;
          if (keepWorker) this.release(worker);
          else stop(worker);
        }
        complete();
        this.dispatch();
      };
      const onMessage = (m: M | ReadyMessage): void => {
        if (isReady(m)) return;
        const result = handle.reply(m, waitedMs);
        if (result !== undefined) finish(true, () => resolve(result));
      };
      const onFailure = (): void => finish(false, () => resolve(handle.fallBack('worker-error', waitedMs)));
      const onAbort = (): void => finish(false, () => reject(aborted()));
      const task: Task = {
        small,
        start: (given) => {
          worker = given;
          waitedMs = Date.now() - queuedAt;
          clearTimeout(timer);
          const runMs = budget.runMs(waitedMs);
          timer = setTimeout(
            () => {
              if (!budget.cpu) return outOfBudget('timeout', undefined);
              const used = cpuUsed();
              outOfBudget(used !== undefined && used < runMs ? 'overloaded' : 'timeout', used);
            },
            budget.cpu ? runMs * WALL_BACKSTOP_FACTOR : runMs,
          );
          worker.on('message', onMessage);
          worker.on('error', onFailure);
          worker.on('exit', onFailure);
          const send = (): void => {
            if (settled) return;
            sentAt = { ms: Date.now(), cpuMs: budget.cpu && given.pid !== undefined ? cpuTimeOf(given.pid) : undefined };
            if (sentAt.cpuMs !== undefined) {
              poll = setInterval(() => {
                const used = cpuUsed();
                if (used !== undefined && used >= runMs) outOfBudget('timeout', used);
              }, this.clock.cpuPollMs ?? CPU_POLL_MS);
            }
            given.send(outgoing(runMs), (error) => {
              if (error) onFailure();
            });
          };
          // A new process gets the request only once it has loaded its script: one that cannot load it has
          // then taken nothing.
          if (this.loaded.has(given)) send();
          else this.waiting.set(given, send);
        },
      };
      let timer = setTimeout(() => finish(false, () => resolve(handle.fallBack('busy', Date.now() - queuedAt))), budget.waitMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(task);
      this.dispatch();
    });
  }

  /**
   * Stops the idle processes and resolves once they have exited; running requests finish (or time out) as
   * usual. Each is referenced again first: an idle process does not keep the event loop alive, so without that
   * a caller with nothing else running would end before the exit it awaits (the bench ended silently here).
   */
  async dispose(): Promise<void> {
    const idle = this.idle.splice(0);
    for (const { timer } of idle) clearTimeout(timer);
    await Promise.all(
      idle.map(({ worker }) => {
        setReferenced(worker, true);
        return stopped(worker);
      }),
    );
  }

  /**
   * Gives queued requests, oldest first, an idle process or a new one while the bounds allow: at most
   * `maxWorkers` large requests, and `maxWorkers + 1` requests in all, run at once.
   */
  private dispatch(): void {
    for (let i = 0; i < this.queue.length; ) {
      const task = this.queue[i]!;
      const room = this.running < this.maxWorkers + 1 && (task.small || this.runningLarge < this.maxWorkers);
      if (!room) {
        if (this.running >= this.maxWorkers + 1) return;
        i++;
        continue;
      }
      const worker = this.takeIdle() ?? (this.workers.size < this.maxWorkers + 1 ? this.startWorker() : undefined);
      if (worker === undefined) return; // every process is alive but not yet exited: wait for an exit
      this.queue.splice(i, 1);
      this.running++;
      if (!task.small) this.runningLarge++;
      task.start(worker);
    }
  }

  private takeIdle(): ChildProcess | undefined {
    const entry = this.idle.pop();
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    setReferenced(entry.worker, true);
    return entry.worker;
  }

  /**
   * Starts a process with the pool's own listeners, which stay for its lifetime: one swallows 'error' (a
   * process that fails while idle or being stopped must not raise an uncaught exception in the host), another
   * forgets it when it exits and lets a queued request have its place.
   *
   * It runs Node itself (`process.execPath`; in VS Code's extension host that is the editor's Electron binary,
   * which `ELECTRON_RUN_AS_NODE` makes run as Node), with the heap limit and no inherited flags (a debugger
   * port or a loader given to the calling process must not start again), its output discarded.
   */
  private startWorker(): ChildProcess {
    const worker = fork(this.scriptPath, [], {
      execPath: process.execPath,
      execArgv: [`--max-old-space-size=${CONVERT_HEAP_LIMIT_MB}`],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
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
    let gone = false;
    const forget = (): void => {
      if (gone) return;
      gone = true;
      this.waiting.delete(worker);
      this.workers.delete(worker);
      const index = this.idle.findIndex((entry) => entry.worker === worker);
      if (index >= 0) clearTimeout(this.idle.splice(index, 1)[0]!.timer);
      this.dispatch();
    };
    worker.once('exit', forget);
    // A process that could not be started at all reports 'error' and may never report 'exit'.
    worker.once('error', () => {
      if (worker.pid === undefined) forget();
    });
    return worker;
  }

  /** Parks a process that answered, unreferenced, until the next request or until `idleMs` passes. */
  private release(worker: ChildProcess): void {
    setReferenced(worker, false);
    const timer = setTimeout(() => {
      const index = this.idle.findIndex((entry) => entry.worker === worker);
      if (index >= 0) this.idle.splice(index, 1);
      stop(worker);
    }, this.idleMs);
    timer.unref();
    this.idle.push({ worker, timer });
  }
}

/** Whether `worker` (the process and its IPC channel) keeps the calling process's event loop alive. */
function setReferenced(worker: ChildProcess, referenced: boolean): void {
  if (referenced) {
    worker.ref();
    worker.channel?.ref();
  } else {
    worker.unref();
    worker.channel?.unref();
  }
}

/** Stops a process at once (SIGKILL: a conversion stuck in a loop answers no gentler signal). */
function stop(worker: ChildProcess): void {
  if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
}

/** Stops a process and resolves when it has exited. */
function stopped(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    worker.once('exit', () => resolve());
    stop(worker);
  });
}

const sharedPools = new Map<string, ConvertWorkerPool>();

/**
 * The process-wide pool for one worker script, so every web tool built on that script (web_fetch,
 * web_search) shares one bound of {@link MAX_CONVERT_WORKERS} processes (and the one for small requests).
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
 * Last-resort decoding on the calling thread when a request never reached a process: the first `maxChars`
 * characters as UTF-8, invalid bytes replaced, display-safe. Reads at most `bytesForChars(maxChars)` bytes.
 */
function decodeUtf8(bytes: Uint8Array, maxChars: number): Pick<RenderResult, 'text' | 'truncated' | 'charset' | 'charsetSource' | 'charsetAssumed'> {
  const limit = bytesForChars(maxChars);
  const text = new TextDecoder('utf-8').decode(bytes.subarray(0, limit));
  const truncated = text.length > maxChars || bytes.length > limit;
  return { text: markPageLines(displayText(cutAtCodePoint(text, maxChars))), truncated, charset: 'utf-8', charsetSource: 'fallback', charsetAssumed: false };
}
