import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * ms the reader waits after a small read before it reads again, so rg's next writes pile up and come in one
 * read. One ms stays within what the socket holds at rg's fastest (about 50 KB of `--json` a ms on the
 * bench's broad search; Linux's default send buffer is about 200 KB, less the bookkeeping of each write).
 */
const PACE_MS = 1;

/** The socket's name in its private folder. */
const SOCKET_NAME = 'stdout';

/**
 * The longest socket path used, in bytes: a Unix socket address holds 104 bytes on macOS and 108 on Linux,
 * both counting a final NUL, and Node's libuv cuts a longer one short (binding a name outside the private
 * folder), so a longer path is never tried.
 */
const MAX_SOCKET_PATH_BYTES = 103;

/** The name `mkdtemp` gives a pair's folder: {@link FOLDER_PREFIX} and six characters. */
const FOLDER_PREFIX = 'scout-rg-';
const FOLDER_NAME = /^scout-rg-[A-Za-z0-9]{6}$/;

/**
 * ms after which a pair's folder is taken for one left behind: a folder lives only while its pair is made
 * (milliseconds), so one this old belongs to a process killed in between.
 */
const STALE_FOLDER_MS = 10 * 60 * 1000;

/** Bytes one read takes at most. */
const READ_BYTES = 256 * 1024;

/**
 * A read of at least this many bytes is followed by the next one at once: the socket held that much, so rg
 * may be waiting for room, and a pause would stall it.
 */
const LARGE_READ_BYTES = 64 * 1024;

/**
 * rg's stdout as a Unix-domain stream socket that Scout reads in batches.
 *
 * Why not the pipe `spawn` makes: rg's search threads write each file's results with a write of their own
 * (thousands of writes of a few hundred bytes), and a stream Node reads wakes this thread for every one.
 * Measured on 2 cores with 7.45 MB of `--json` output, that cost Node about 150 ms of CPU in 4,500 reads,
 * taken from rg's own two threads. Reading with `onread` into one buffer and pausing a millisecond after a
 * small read takes the same bytes in about 150 reads, at about a third of the CPU, and rg runs faster too.
 *
 * What a pipe guarantees still holds: when Scout's process dies, the kernel closes its end and rg's next write
 * fails (EPIPE, or ECONNRESET when unread bytes were left), so rg cannot outlive Scout writing; and rg
 * blocks once the socket is full, so nothing past what Scout reads is ever held anywhere.
 *
 * The pair is made by listening on a name in a fresh private folder (`mkdtemp`, mode 0700, so only this
 * user can connect), connecting once, and removing the folder before rg starts.
 */
export interface StdoutSocket {
  /** rg's end, for `spawn`'s `stdio`. Call {@link releaseRgEnd} once rg holds its own copy. */
  readonly rgEnd: net.Socket;
  /** Closes this process's copy of rg's end, so the reader sees the end of the output once rg exits. */
  releaseRgEnd(): void;
  /**
   * Starts reading. `onChunk` gets each read's bytes in order, as a view of the reader's one buffer that the
   * next read overwrites, so it is valid only during the call; `onEnd` once every holder of rg's end closed it
   * and all was read; `onError` a failed read. None is called after {@link close}.
   */
  read(onChunk: (chunk: Buffer) => void, onEnd: () => void, onError: (e: Error) => void): void;
  /** Reads on without pauses: rg has exited and what is left is taken at once. */
  drain(): void;
  /** Stops reading and closes both ends; rg's next write fails. */
  close(): void;
}

/**
 * Makes the socket pair, or returns undefined where none can be made (Windows, a temporary folder that
 * cannot take one, or a path too long for a socket name): rg then writes to a pipe, which is slower but
 * gives the same bytes.
 */
export async function openStdoutSocket(): Promise<StdoutSocket | undefined> {
  if (process.platform === 'win32') return undefined;
  const tmp = path.resolve(os.tmpdir());
  const prefix = path.join(tmp, FOLDER_PREFIX);
  // mkdtemp adds 6 characters; the name must fit a socket address whole, or it would be cut to a shorter path.
  if (Buffer.byteLength(`${prefix}XXXXXX${path.sep}${SOCKET_NAME}`) > MAX_SOCKET_PATH_BYTES) return undefined;
  void sweepStaleFolders(tmp);
  let dir: string;
  try {
    dir = await mkdtemp(prefix);
  } catch {
    return undefined;
  }
  const socketPath = path.join(dir, SOCKET_NAME);
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  let handlers: { onChunk: (chunk: Buffer) => void; onEnd: () => void; onError: (e: Error) => void } | undefined;
  let closed = false;
  let draining = false;
  let paceTimer: NodeJS.Timeout | undefined;
  const server = net.createServer({ pauseOnConnect: true });
  let reader: net.Socket | undefined;
  let rgEnd: net.Socket | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
    const accepted = new Promise<net.Socket>((resolve, reject) => {
      server.once('connection', (socket: net.Socket) => resolve((rgEnd = socket)));
      server.once('error', reject);
    });
    reader = net.connect({
      path: socketPath,
      onread: {
        buffer,
        callback: (bytes: number): boolean => {
          if (closed || !handlers) return false;
          // A view, not a copy: a fresh buffer per read cost a copy and the first touch of its pages, about
          // 15 ms of CPU for 19 MB of output; the consumer copies what it keeps.
          handlers.onChunk(buffer.subarray(0, bytes));
          if (closed || draining || bytes >= LARGE_READ_BYTES) return true;
          reader!.pause();
          paceTimer = setTimeout(() => {
            paceTimer = undefined;
            if (!closed) reader!.resume();
          }, PACE_MS);
          return true;
        },
      },
    });
    reader.pause();
    const connected = new Promise<void>((resolve, reject) => {
      reader!.once('connect', resolve);
      reader!.once('error', reject);
    });
    await Promise.all([accepted, connected]);
  } catch {
    reader?.destroy();
    rgEnd?.destroy();
    return undefined;
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
  const readerSocket = reader;
  const rgSocket = rgEnd!;
  // One listener for the socket's whole life: an error before `read` (none is expected) must not go unhandled.
  readerSocket.removeAllListeners('error');
  readerSocket.on('error', (e) => {
    if (!closed) handlers?.onError(e);
  });
  // This process never reads or writes rg's end (it only hands it to rg), so its errors say nothing.
  rgSocket.on('error', () => undefined);
  return {
    rgEnd: rgSocket,
    releaseRgEnd: () => rgSocket.destroy(),
    read(onChunk, onEnd, onError) {
      handlers = { onChunk, onEnd, onError };
      readerSocket.once('end', () => {
        if (!closed) onEnd();
      });
      readerSocket.resume();
    },
    drain() {
      draining = true;
      clearTimeout(paceTimer);
      if (!closed) readerSocket.resume();
    },
    close() {
      closed = true;
      clearTimeout(paceTimer);
      readerSocket.destroy();
      rgSocket.destroy();
    },
  };
}

/** The temporary folders already swept by this process (see {@link sweepStaleFolders}). */
const swept = new Set<string>();

/**
 * Removes this user's pair folders (`scout-rg-XXXXXX`) in `tmp` last changed more than {@link STALE_FOLDER_MS}
 * ago: a process killed between making a pair's folder and removing it (a few ms, but a burst of calls makes
 * many such windows) leaves one behind, holding at most a socket name. Runs once per folder per process and
 * never fails: an entry that cannot be read or removed is left alone. Only real folders owned by this user
 * are touched, never a symlink.
 *
 * @returns when the sweep is done (callers need not wait for it).
 */
export async function sweepStaleFolders(tmp: string): Promise<void> {
  if (swept.has(tmp)) return;
  swept.add(tmp);
  const names = await readdir(tmp).catch(() => [] as string[]);
  const before = Date.now() - STALE_FOLDER_MS;
  const uid = process.getuid?.();
  for (const name of names) {
    if (!FOLDER_NAME.test(name)) continue;
    const dir = path.join(tmp, name);
    const stat = await lstat(dir).catch(() => undefined);
    if (!stat?.isDirectory() || stat.mtimeMs > before || (uid !== undefined && stat.uid !== uid)) continue;
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
