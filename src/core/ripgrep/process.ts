import { spawn, type ChildProcess } from 'node:child_process';
import { ToolError } from '../errors';
import { hostAdvice } from '../hostAdvice';
import { openStdoutSocket } from './stdoutSocket';

/** One rg run: what to spawn, where, and the budgets it must stay within. */
export interface RipgrepRunOptions {
  /** Absolute path of the rg binary. */
  readonly rgPath: string;
  /** The full argument vector (see `argv.ts`); passed to `spawn` without a shell. */
  readonly args: readonly string[];
  /** rg's working directory: the workdir that output paths are relative to. */
  readonly cwd: string;
  /** The caller's cancellation; aborting it stops rg (`SEARCH_ABORTED`). */
  readonly signal: AbortSignal;
  /** ms before the run is aborted as timed out (`SEARCH_ABORTED`). */
  readonly timeoutMs: number;
  /**
   * The setting `timeoutMs` comes from (a config key: `search.timeoutMs`), which the timeout error names so the
   * user knows what raises the limit; absent for a budget of Scout's own.
   */
  readonly timeoutSetting?: string;
  /** ms between SIGTERM and SIGKILL once the run is stopped. */
  readonly graceMs: number;
  /** Bytes of stdout accepted; one more byte stops rg (`SEARCH_RAW_OUTPUT_OVERFLOW`, or see `rawOutputOverflow`). */
  readonly rawOutputMaxBytes: number;
  /**
   * What reaching `rawOutputMaxBytes` does: `fail` (the default) rejects with `SEARCH_RAW_OUTPUT_OVERFLOW`;
   * `truncate` hands on the first `rawOutputMaxBytes` bytes, stops rg, and resolves with
   * {@link RipgrepExit.stdoutCut} set (the last record is then usually cut in the middle).
   */
  readonly rawOutputOverflow?: 'fail' | 'truncate';
  /** Bytes of stderr kept (the tail). */
  readonly stderrMaxBytes: number;
  /**
   * Receives stdout in order, chunk by chunk, as rg writes it. With `stdoutReading: 'batched'` a chunk is valid
   * only during the call (the socket's read buffer is reused): copy what must outlive it. It may throw a
   * `ToolError` (for instance on malformed output): rg is then stopped and the run rejects with that error.
   */
  readonly onStdout: (chunk: Buffer) => void;
  /**
   * How stdout is read: `stream` (the default), a pipe read as the bytes arrive; or `batched`, a Unix socket
   * read in batches (see `stdoutSocket.ts`), far cheaper for output made of many small writes, as rg's
   * `--json` search threads make (one per file), but slower for one writer's long burst (a `--files` list).
   * `batched` falls back to the pipe where no socket can be made.
   */
  readonly stdoutReading?: 'stream' | 'batched';
}

/** How rg ended when it exited on its own. */
export interface RipgrepExit {
  /** rg's exit status: 0 found, 1 found nothing, 2 error (rg's documented codes); -1 when `stdoutCut` stopped it. */
  readonly exitCode: number;
  /** The last `stderrMaxBytes` bytes of stderr, decoded as UTF-8 (lossy), starting at a character boundary. */
  readonly stderr: string;
  /** True when stderr was longer than `stderrMaxBytes` and only its tail is kept. */
  readonly stderrTruncated: boolean;
  /**
   * The paths rg was given to search: the arguments after `--` (none without one). Every relative path rg's
   * messages name starts with one of them (see `stderr.ts`).
   */
  readonly searchPaths: readonly string[];
  /**
   * True when rg was stopped because its output reached `rawOutputMaxBytes` (`rawOutputOverflow: 'truncate'`):
   * `onStdout` got exactly that many bytes, and rg's list or matches go on beyond them.
   */
  readonly stdoutCut?: boolean;
}

const isWindows = process.platform === 'win32';

/** rg processes still running in this Node process; killed if Node exits first, so none is orphaned. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) signalTree(child, 'SIGKILL');
  });
}

/**
 * Sends `sig` to rg and everything it started. On POSIX rg runs as the leader of its own process group
 * (`detached`), so the group id is its pid and `kill(-pid)` reaches the whole tree. On Windows rg is
 * signalled directly: Scout never passes `--pre`, so rg starts no children there.
 */
function signalTree(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (isWindows) child.kill(sig);
    else process.kill(-child.pid, sig);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** The turn the latest queued rg spawn waits for (see {@link nextSpawnTurn}). */
let spawnTurn: Promise<void> = Promise.resolve();

/**
 * Resolves on a turn of the event loop of its own, after the turns of the spawns queued before it.
 * `spawn` holds the main thread while the OS forks (about 7–9 ms each from a large Node process, measured
 * here), so a burst of searches started in one turn (32 concurrent tool calls) would stall the extension
 * host for the sum; one spawn per turn keeps each pause to a single fork, with other events in between.
 */
function nextSpawnTurn(): Promise<void> {
  const turn = spawnTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  spawnTurn = turn;
  return turn;
}

/**
 * Runs rg once and streams its stdout to `onStdout`, within the budgets of seed 000.
 *
 * rg is spawned without a shell, with stdin closed, in its own process group. Its stdout is a Unix socket read
 * in batches or a pipe (see `stdoutReading`). Stopping it (caller abort,
 * `timeoutMs`, stdout over `rawOutputMaxBytes`, or `onStdout` throwing) sends SIGTERM to the group, then
 * SIGKILL after `graceMs`; stdout is no longer read from the moment of the stop, so at most one read
 * beyond the cap is ever held. The promise settles only once rg has exited (or, should a process ignore
 * SIGKILL, `graceMs` after it), so no rg outlives the call; rg processes still running when Node exits are
 * killed by an exit hook.
 *
 * @returns rg's exit status and stderr tail for any exit status (the caller interprets 0/1/2, see `exit.ts`).
 * With `rawOutputOverflow: 'truncate'`, reaching `rawOutputMaxBytes` is no failure: rg is stopped the same
 * way and the run resolves once it has exited, with `stdoutCut` set.
 *
 * @throws ToolError SEARCH_ABORTED (cancelled or timed out), SEARCH_RAW_OUTPUT_OVERFLOW, SEARCH_FAILED (rg
 *   could not be started or was killed by a signal), or whatever `onStdout` threw.
 */
export async function runRipgrep(options: RipgrepRunOptions): Promise<RipgrepExit> {
  const { signal } = options;
  if (signal.aborted) throw searchCancelledError();
  const socket = options.stdoutReading === 'batched' ? await openStdoutSocket() : undefined;
  await nextSpawnTurn();
  if (signal.aborted) {
    socket?.close();
    throw searchCancelledError();
  }
  installExitHook();

  return new Promise<RipgrepExit>((resolve, reject) => {
    const env = { ...process.env };
    delete env.RIPGREP_CONFIG_PATH;
    let child: ChildProcess;
    try {
      child = spawn(options.rgPath, [...options.args], {
        cwd: options.cwd,
        env,
        stdio: ['ignore', socket ? socket.rgEnd : 'pipe', 'pipe'],
        detached: !isWindows,
        windowsHide: true,
        shell: false,
      });
    } catch (e) {
      socket?.close();
      reject(launchError(options.rgPath, e));
      return;
    }
    socket?.releaseRgEnd();

    let failure: ToolError | undefined;
    /** Set once stdout reached the cap in `truncate` mode: rg is being stopped, and what was read stands. */
    let cut = false;
    let settled = false;
    let stdoutBytes = 0;
    /** Set once all of stdout was read (the socket's end; a pipe's is part of `close`). */
    let stdoutEnded = !socket;
    /** rg's exit status, kept by `close` until the socket's end arrives. */
    let exited: { code: number | null; sig: NodeJS.Signals | null } | undefined;
    const stderrTail = new TailBuffer(options.stderrMaxBytes);
    let killTimer: NodeJS.Timeout | undefined;
    let backstopTimer: NodeJS.Timeout | undefined;

    const cleanup = (): void => {
      settled = true;
      socket?.close();
      live.delete(child);
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      clearTimeout(backstopTimer);
      signal.removeEventListener('abort', onAbort);
    };
    const exitOf = (code: number | null): RipgrepExit => ({
      exitCode: code ?? -1,
      stderr: stderrTail.text(),
      stderrTruncated: stderrTail.truncated,
      searchPaths: options.args.includes('--') ? options.args.slice(options.args.indexOf('--') + 1) : [],
      ...(cut ? { stdoutCut: true } : {}),
    });
    /** Stops reading stdout and ends rg (SIGTERM, then SIGKILL); once only. */
    const terminate = (): void => {
      if (killTimer) return;
      child.stdout?.removeAllListeners('data');
      child.stdout?.destroy();
      socket?.close();
      signalTree(child, 'SIGTERM');
      killTimer = setTimeout(() => {
        signalTree(child, 'SIGKILL');
        backstopTimer = setTimeout(() => {
          if (settled) return;
          cleanup();
          child.stderr?.destroy();
          if (failure) reject(failure);
          else resolve(exitOf(null));
        }, options.graceMs);
      }, options.graceMs);
    };
    const stop = (error: ToolError): void => {
      if (failure || settled) return;
      failure = error;
      terminate();
    };
    const deliver = (chunk: Buffer): void => {
      try {
        options.onStdout(chunk);
      } catch (e) {
        stop(e instanceof ToolError ? e : new ToolError('SEARCH_FAILED', `Reading ripgrep's output failed: ${String(e)}`));
      }
    };
    const onAbort = (): void => stop(searchCancelledError());
    const timeoutTimer = setTimeout(() => stop(searchTimeoutError(options.timeoutMs, options.timeoutSetting)), options.timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });

    if (child.pid !== undefined) live.add(child);

    /** Takes the next bytes of stdout, in order: hands them on, or stops rg at the cap. */
    const accept = (chunk: Buffer): void => {
      if (failure || cut) return;
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.rawOutputMaxBytes) {
        if (options.rawOutputOverflow !== 'truncate') {
          stop(rawOutputOverflowError(options.rawOutputMaxBytes));
          return;
        }
        cut = true;
        terminate();
        deliver(chunk.subarray(0, chunk.length - (stdoutBytes - options.rawOutputMaxBytes)));
        return;
      }
      deliver(chunk);
    };
    /** Settles the run once rg has exited and all of its stdout was taken (or reading it was given up). */
    const finish = (): void => {
      if (settled || !exited || !(stdoutEnded || failure || cut)) return;
      const { code, sig } = exited;
      cleanup();
      if (failure) reject(failure);
      else if (code === null && !cut) reject(new ToolError('SEARCH_FAILED', `ripgrep was killed by signal ${sig ?? 'unknown'} before it finished. Try the search again.`));
      else resolve(exitOf(cut ? null : code));
    };
    if (socket) {
      socket.read(
        accept,
        () => {
          stdoutEnded = true;
          finish();
        },
        (e) => stop(new ToolError('SEARCH_FAILED', `Reading ripgrep's output failed: ${e.message}`)),
      );
    } else {
      child.stdout!.on('data', accept);
    }
    child.stderr!.on('data', (chunk: Buffer) => stderrTail.push(chunk));

    child.on('error', (e) => {
      // Launch failures (ENOENT, EACCES) arrive here; `close` may not follow when no process was made.
      if (settled) return;
      if (child.pid === undefined) {
        cleanup();
        reject(launchError(options.rgPath, e));
      } else {
        stop(new ToolError('SEARCH_FAILED', `ripgrep failed: ${e.message}`));
      }
    });
    child.on('close', (code, sig) => {
      if (settled) return;
      exited = { code, sig };
      socket?.drain();
      finish();
    });
  });
}

/**
 * The error of a search whose raw rg output passed `maxBytes` (seed 000), with what to narrow. Also used by
 * the tools when a cut output held nothing usable (see `search/overflow.ts`).
 */
export function rawOutputOverflowError(maxBytes: number): ToolError {
  return new ToolError(
    'SEARCH_RAW_OUTPUT_OVERFLOW',
    `The search produced more than ${maxBytes} bytes of raw ripgrep output (${hostAdvice().setting('search.rawOutputMaxBytes')}) and was stopped. Narrow it: a more specific pattern, a smaller path, or (for grep) an include glob; where a single line is longer than that (a minified or generated file), ask the user to raise the limit.`,
  );
}

/** The `SEARCH_ABORTED` error of a search the caller cancelled. */
export function searchCancelledError(): ToolError {
  return new ToolError('SEARCH_ABORTED', 'The search was cancelled before it finished.');
}

/**
 * The `SEARCH_ABORTED` error of a search stopped past `timeoutMs` (ms). `setting` (a config key:
 * `search.timeoutMs`), when the limit is one, is named in the host's words (`hostAdvice().setting`), so the
 * user knows what raises it.
 */
export function searchTimeoutError(timeoutMs: number, setting?: string): ToolError {
  const limit = setting === undefined ? '' : ` (${hostAdvice().setting(setting)})`;
  return new ToolError(
    'SEARCH_ABORTED',
    `The search did not finish within ${timeoutMs} ms${limit} and was stopped. Narrow it (a smaller path, a more specific pattern) and call again${setting === undefined ? '' : ', or ask the user to raise the limit'}.`,
  );
}

function launchError(rgPath: string, e: unknown): ToolError {
  const message = e instanceof Error ? e.message : String(e);
  return new ToolError('SEARCH_FAILED', `ripgrep could not be started from ${rgPath} (${message}). Check that the file exists and is executable, or ${hostAdvice().ripgrepPath('another rg binary')}.`);
}

/** Keeps the last `max` bytes of a byte stream, compacting only when twice that is held. */
class TailBuffer {
  private chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;
  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes > 2 * this.max) this.compact();
  }

  private compact(): void {
    if (this.bytes <= this.max) return;
    const all = Buffer.concat(this.chunks);
    this.chunks = [all.subarray(all.length - this.max)];
    this.bytes = this.max;
    this.truncated = true;
  }

  /** The kept tail as UTF-8, skipping a character cut in half at its start. */
  text(): string {
    this.compact();
    const all = Buffer.concat(this.chunks);
    let start = 0;
    if (this.truncated) while (start < all.length && start < 3 && (all[start]! & 0xc0) === 0x80) start++;
    return all.toString('utf8', start);
  }
}
