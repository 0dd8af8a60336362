import { unlinkSync } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * ms between two looks at the file while rg runs. Reading rg's output as it grows lets the parsing overlap
 * the search; a look costs two thread-pool calls, so 5 ms keeps it to about 200 looks a second.
 */
const POLL_MS = 5;

/** Bytes read at most in one go, so a burst of output is handed on in pieces the parser takes in its stride. */
const MAX_CHUNK_BYTES = 4 * 1024 * 1024;

/** Files made by this process so far: part of each name, so two searches never try the same one. */
let made = 0;

/**
 * A temporary file that rg writes its stdout to, read by position as it grows.
 *
 * Why not a pipe: rg's worker threads write each file's results with one `write` of their own (about 9,000
 * writes for 9,000 files), and every write to a pipe wakes Node for a read of a few hundred bytes. Measured on
 * 2 cores with 7.45 MB of `--json` output, draining a pipe took rg 325 ms and Node 90 ms of CPU; writing to a
 * file took rg 230 ms and the reader under 10 ms, because the writes cost rg no wake-ups and the reader takes
 * them in a few large reads. The file is created exclusively with mode 0600 in the OS temporary folder and
 * unlinked as soon as rg holds it (see {@link StdoutFile.unlink}), so nothing is left behind if the process dies.
 */
export interface StdoutFile {
  /** The descriptor to give rg as its stdout. rg's writes move the file offset; reads go by position and leave it. */
  readonly fd: number;
  /** Removes the file's name once rg holds the descriptor. Where that fails (Windows), `close` removes it. */
  unlink(): void;
  /**
   * Reads the file from its start as it grows, handing each new piece to `onChunk` in order, and never past
   * `limitBytes` in all. `onError` gets a failed read (not one that happens after `stop`).
   */
  follow(limitBytes: number, onChunk: (chunk: Buffer) => void, onError: (e: Error) => void): FileFollower;
  /** Closes the descriptor after any read in flight, and removes the file if `unlink` could not. Never rejects. */
  close(): Promise<void>;
}

/** A running {@link StdoutFile.follow}. */
export interface FileFollower {
  /** No more reads and no more chunks. */
  stop(): void;
  /** Stops polling and reads whatever is left up to the limit: call once the writer has exited, and once. */
  drain(): Promise<void>;
}

/**
 * Makes the file, or returns undefined when the temporary folder cannot take one (the caller then uses a pipe,
 * which is slower but needs no disk).
 */
export async function openStdoutFile(): Promise<StdoutFile | undefined> {
  // The name need not be secret: O_EXCL refuses a name someone made first (a file or a symlink), and the search
  // then reads a pipe. So no `crypto` (a search loads none of it, see the CLI start test).
  const file = path.join(os.tmpdir(), `scout-rg-${process.pid}-${++made}-${Math.random().toString(36).slice(2)}.out`);
  let handle: FileHandle;
  try {
    handle = await open(file, 'wx+', 0o600);
  } catch {
    return undefined;
  }
  let unlinked = false;
  let closed: Promise<void> | undefined;
  return {
    fd: handle.fd,
    unlink() {
      try {
        unlinkSync(file);
        unlinked = true;
      } catch {
        // Windows keeps the name of a file that is open; `close` removes it.
      }
    },
    follow: (limitBytes, onChunk, onError) => follow(handle, limitBytes, onChunk, onError),
    close() {
      closed ??= handle
        .close()
        .catch(() => undefined)
        .then(() => (unlinked ? undefined : unlink(file).catch(() => undefined)));
      return closed;
    },
  };
}

function follow(handle: FileHandle, limitBytes: number, onChunk: (chunk: Buffer) => void, onError: (e: Error) => void): FileFollower {
  let position = 0;
  let stopped = false;
  let draining = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;

  /** Reads what the file holds now, up to the limit, in pieces of at most {@link MAX_CHUNK_BYTES}. */
  const readToEnd = async (): Promise<void> => {
    const end = Math.min((await handle.stat()).size, limitBytes);
    while (!stopped && position < end) {
      const buffer = Buffer.allocUnsafe(Math.min(end - position, MAX_CHUNK_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (stopped || bytesRead === 0) return;
      position += bytesRead;
      onChunk(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
    }
  };
  const look = (): void => {
    timer = undefined;
    inFlight = readToEnd().then(
      () => {
        inFlight = undefined;
        if (!stopped && !draining) timer = setTimeout(look, POLL_MS);
      },
      (e: unknown) => {
        inFlight = undefined;
        if (!stopped && !draining) onError(e instanceof Error ? e : new Error(String(e)));
      },
    );
  };
  look();

  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    async drain() {
      draining = true;
      clearTimeout(timer);
      await inFlight;
      await readToEnd();
    },
  };
}
