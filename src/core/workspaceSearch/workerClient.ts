import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ToolError } from '../errors';
import { searchCancelled } from './cancellation';
import type { ScanOutcome } from './report';
import type { ScanRequest } from './scan';
import type { ScanJob, ScanReply } from './worker';

/** ms an idle search worker is kept for the next call before it is stopped (Scout's choice). */
export const WORKER_IDLE_MS = 60_000;

/** The one idle worker kept warm (with its exit listener); a call that finds it busy starts another. */
let idle: { worker: Worker; timer: NodeJS.Timeout; onExit: () => void } | undefined;

/**
 * Starts a search worker. Bundled (dist/*.js), the worker bundle sits next to the calling bundle. Run
 * from sources (tests and benchmarks under tsx), the TypeScript entry is loaded through tsx's require
 * hook inside the worker, because loader flags do not reach worker threads.
 */
function startWorker(): Worker {
  if (!__filename.endsWith('.ts')) return new Worker(path.join(__dirname, 'workspaceSearchWorker.js'));
  const entry = JSON.stringify(path.join(__dirname, 'worker.ts'));
  return new Worker(`require(require('node:module').createRequire(${entry}).resolve('tsx/cjs/api')).register(); require(${entry});`, { eval: true });
}

function takeWorker(): Worker {
  if (!idle) return startWorker();
  const { worker, timer, onExit } = idle;
  idle = undefined;
  clearTimeout(timer);
  worker.off('exit', onExit);
  worker.ref();
  return worker;
}

/**
 * Keeps a worker that finished cleanly for the next call (unreferenced, so it never keeps a process alive),
 * or stops it when one is already kept. Listeners are removed one by one: `removeAllListeners()` would
 * also drop the hooks through which a Worker references its message port.
 */
function park(worker: Worker): void {
  if (idle) {
    void worker.terminate();
    return;
  }
  const entry = {
    worker,
    timer: setTimeout(() => void worker.terminate(), WORKER_IDLE_MS).unref(),
    onExit: () => {
      if (idle === entry) idle = undefined;
    },
  };
  worker.once('exit', entry.onExit);
  worker.unref();
  idle = entry;
}

/**
 * Runs {@link scanWorkspace} on a worker thread. Cancelling `signal` rejects at once with
 * `WORKSPACE_SEARCH_ABORTED` and raises the worker's cancel flag; the worker stops after the file-system
 * call in flight, closes what it opened, replies, and is then kept for reuse. Progress (files done of files
 * found) is reported every 250 files.
 *
 * @throws ToolError the scan's own (WORKSPACE_SEARCH_FAILED, WORKSPACE_SEARCH_ABORTED); Error when the worker crashed.
 */
export function runScanInWorker(request: ScanRequest, signal: AbortSignal, progress?: (done: number, total: number) => void): Promise<ScanOutcome> {
  if (signal.aborted) return Promise.reject(searchCancelled());
  const worker = takeWorker();
  const job: ScanJob = { request, cancel: new SharedArrayBuffer(4) };
  return new Promise<ScanOutcome>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      finish();
    };
    const detach = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onAbort = () => {
      Atomics.store(new Int32Array(job.cancel), 0, 1);
      settle(() => reject(searchCancelled()));
    };
    const onMessage = (reply: ScanReply) => {
      if (reply.type === 'progress') {
        if (!settled) progress?.(reply.done, reply.total);
        return;
      }
      detach();
      if (reply.type === 'crashed') {
        void worker.terminate();
        return settle(() => reject(new Error(`workspace_search worker failed: ${reply.message}`)));
      }
      park(worker);
      if (reply.type === 'done') settle(() => resolve(reply.outcome));
      else settle(() => reject(new ToolError(reply.code, reply.message)));
    };
    const onError = (e: Error) => {
      detach();
      settle(() => reject(e));
    };
    const onExit = (code: number) => {
      detach();
      settle(() => reject(new ToolError('WORKSPACE_SEARCH_FAILED', `the search worker stopped unexpectedly (exit code ${code}). Run the search again.`)));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(job);
  });
}
