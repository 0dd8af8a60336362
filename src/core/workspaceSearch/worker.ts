/**
 * Entry of the `workspace_search` worker thread (bundled as dist/workspaceSearchWorker.js). It runs one
 * {@link scanWorkspace} per message with synchronous file-system calls, which cost a fraction of the
 * thread-pool round trips the same 10,000-odd calls would take on the extension host's event loop, and it
 * keeps the host responsive while it works. Cancellation arrives through a shared flag the scan polls
 * between file-system calls.
 */
import { parentPort } from 'node:worker_threads';
import { isToolError, type ToolErrorCode } from '../errors';
import type { ScanOutcome } from './report';
import { scanWorkspace, type ScanRequest } from './scan';

/** One search, posted by the host. */
export interface ScanJob {
  readonly request: ScanRequest;
  /** Four bytes (an Int32Array cell) the host sets to 1 to cancel. */
  readonly cancel: SharedArrayBuffer;
}

/** The worker's messages: progress, then exactly one of done / failed (a ToolError) / crashed (a bug). */
export type ScanReply =
  | { readonly type: 'progress'; readonly done: number; readonly total: number }
  | { readonly type: 'done'; readonly outcome: ScanOutcome }
  | { readonly type: 'failed'; readonly code: ToolErrorCode; readonly message: string }
  | { readonly type: 'crashed'; readonly message: string };

const port = parentPort!;
port.on('message', (job: ScanJob) => {
  const flag = new Int32Array(job.cancel);
  const post = (reply: ScanReply) => port.postMessage(reply);
  try {
    const outcome = scanWorkspace(job.request, {
      isCancelled: () => Atomics.load(flag, 0) !== 0,
      progress: (done, total) => post({ type: 'progress', done, total }),
    });
    post({ type: 'done', outcome });
  } catch (e) {
    if (isToolError(e)) post({ type: 'failed', code: e.code, message: e.message });
    else post({ type: 'crashed', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
