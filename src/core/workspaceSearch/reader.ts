import { isAscii, isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { isWithin } from '../workspace/folders';
import { throwIfCancelled, type CancellationCheck } from './cancellation';
import { WORKSPACE_SEARCH_LIMITS as LIMITS } from './limits';
import type { DiscoveredFile } from './traversal';

/**
 * Why a discovered file was not searched; each one counts in the report's `skippedFiles`.
 * - `vanished`: gone (or its directory gone) by the time it was opened.
 * - `changed`: no longer the file that was discovered: now a symlink, no longer the file its canonical
 *   path names, or grown past its checked size while being read.
 * - `outside`: its canonical path left the search root (a directory above it was replaced by a symlink).
 * - `notRegular`: now a FIFO, socket, device or directory.
 * - `tooLarge`: over 2 MiB (seed 003).
 * - `unreadable`: open, metadata or read failed (permissions, I/O error).
 * - `binary`: holds a NUL byte (seed 003); UTF-16 text lands here or in `invalidUtf8`.
 * - `invalidUtf8`: not valid UTF-8 (seed 003).
 */
export type SkipReason = 'vanished' | 'changed' | 'outside' | 'notRegular' | 'tooLarge' | 'unreadable' | 'binary' | 'invalidUtf8';

/** A skipped file. */
export interface Skipped {
  readonly skipped: SkipReason;
}

/** A file descriptor opened for reading, checked to be the regular file inside the search root it was found as. */
export interface OpenedFile {
  readonly fd: number;
  /** Size in bytes when it was checked (`fstat`). */
  readonly size: number;
}

/**
 * `O_NOFOLLOW`: a file swapped for a symlink after discovery fails to open (ELOOP) instead of being
 * followed. `O_NONBLOCK`: opening a file swapped for a FIFO returns at once instead of waiting for a writer
 * (no effect on regular files). Both are absent on Windows, where the checks after opening still apply.
 */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * How an opened file's canonical path is found. `procfs` (Linux): the kernel's own path of the open
 * descriptor, read from `/proc/self/fd/<fd>` (one call, and it names exactly the file that was opened).
 * `realpath` (elsewhere, or without /proc): `realpath` of the discovered path, then `stat` of the result
 * must show the descriptor's device and inode, so a swap between the open and the check is caught too.
 */
export type CanonicalPathMethod = 'procfs' | 'realpath';

/** `procfs` when this process can read its descriptors' paths from /proc, `realpath` otherwise. */
export function defaultCanonicalPathMethod(): CanonicalPathMethod {
  try {
    return fs.readlinkSync('/proc/self/fd/0').length > 0 ? 'procfs' : 'realpath';
  } catch {
    return 'realpath';
  }
}

/**
 * Opens a discovered file and re-checks it right before it is read (seed 003): it must still be a regular
 * file of at most 2 MiB whose canonical path lies inside `rootPath` (the search root's realpath), found
 * for the descriptor itself (see {@link CanonicalPathMethod}). So a file replaced by a symlink, or one below
 * a directory replaced by a symlink, is never read, even when the swap happens between discovery and
 * reading. Cancellation is checked after the open and after each metadata call. The caller owns (and must
 * close) the returned descriptor.
 *
 * @throws ToolError WORKSPACE_SEARCH_ABORTED (the descriptor is closed first)
 */
export function openCheckedFile(file: DiscoveredFile, rootPath: string, isCancelled: CancellationCheck, method: CanonicalPathMethod): OpenedFile | Skipped {
  let fd: number;
  try {
    fd = fs.openSync(file.absPath, OPEN_FLAGS);
  } catch (e) {
    return { skipped: openFailure(e) };
  }
  let keep = false;
  try {
    throwIfCancelled(isCancelled);
    // Device and inode numbers need bigint to compare exactly; a size compared with 2 MiB does not.
    const opened = fs.fstatSync(fd, { bigint: method === 'realpath' });
    throwIfCancelled(isCancelled);
    if (!opened.isFile()) return { skipped: 'notRegular' };
    if (opened.size > LIMITS.maxFileBytes) return { skipped: 'tooLarge' };
    if (method === 'procfs') {
      if (!isCanonicalPathWithin(rootPath, fs.readlinkSync(`/proc/self/fd/${fd}`))) return { skipped: 'outside' };
    } else {
      let canonical: string;
      try {
        canonical = fs.realpathSync.native(file.absPath);
      } catch {
        return { skipped: 'vanished' };
      }
      throwIfCancelled(isCancelled);
      if (!isWithin(rootPath, canonical)) return { skipped: 'outside' };
      const named = fs.statSync(canonical, { bigint: true, throwIfNoEntry: false });
      if (!named) return { skipped: 'vanished' };
      if (named.dev !== opened.dev || named.ino !== opened.ino) return { skipped: 'changed' };
    }
    throwIfCancelled(isCancelled);
    keep = true;
    return { fd, size: Number(opened.size) };
  } catch (e) {
    if (typeof (e as NodeJS.ErrnoException).syscall === 'string') return { skipped: 'unreadable' };
    throw e;
  } finally {
    if (!keep) fs.closeSync(fd);
  }
}

/**
 * `isWithin` for two canonical Linux paths (a realpath and the kernel's name of a descriptor): without `.`,
 * `..`, repeated or trailing separators, the prefix test is exact, and it costs a fraction of
 * `path.relative` (once per file read).
 */
function isCanonicalPathWithin(root: string, canonical: string): boolean {
  return canonical === root || canonical.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** Closes a file opened by {@link openCheckedFile} that will not be read. */
export function closeOpenedFile(file: OpenedFile): void {
  try {
    fs.closeSync(file.fd);
  } catch {
    // already closed; nothing else to release
  }
}

function openFailure(e: unknown): SkipReason {
  switch ((e as NodeJS.ErrnoException).code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'vanished';
    case 'ELOOP':
    case 'EMLINK': // FreeBSD's O_NOFOLLOW error
      return 'changed';
    default:
      return 'unreadable';
  }
}

/**
 * Bytes a read of a file of `size` bytes reserves against the 64 MiB budget: the size, capped at 2 MiB, plus
 * one byte that detects a file which grew after it was checked (seed 003: "may read an additional byte").
 */
export function readReservation(size: number): number {
  return Math.min(size, LIMITS.maxFileBytes) + 1;
}

/** The outcome of a bounded read: the bytes, or why there are none, and what the read cost. */
export type ReadResult = ({ readonly bytes: Buffer } | Skipped) & {
  /** Bytes returned by the operating system, whatever the outcome (adds up to the report's `readBytes`). */
  readonly bytesRead: number;
  /** Budget consumed: the bytes read on success, the whole reservation on failure (seed 003). */
  readonly consumed: number;
};

/**
 * Reads an opened file in 64 KiB chunks into `scratch` (at least {@link readReservation} bytes, reused
 * between files), then closes it. A short read once the checked size is reached is taken as end of file
 * (regular files return short reads only there). Reading the reserved extra byte means the file grew
 * while it was read: the read fails as `changed` (`tooLarge` past 2 MiB). Cancellation is checked after
 * every chunk. The returned bytes are a view of `scratch`, valid until its next use.
 *
 * @throws ToolError WORKSPACE_SEARCH_ABORTED (the descriptor is closed first)
 */
export function readOpenedFile(file: OpenedFile, scratch: Buffer, isCancelled: CancellationCheck): ReadResult {
  const reservation = readReservation(file.size);
  let got = 0;
  try {
    for (;;) {
      const want = Math.min(LIMITS.readChunkBytes, reservation - got);
      if (want === 0) return { skipped: got > LIMITS.maxFileBytes ? 'tooLarge' : 'changed', bytesRead: got, consumed: reservation };
      let bytesRead: number;
      try {
        bytesRead = fs.readSync(file.fd, scratch, got, want, got);
      } catch {
        return { skipped: 'unreadable', bytesRead: got, consumed: reservation };
      }
      got += bytesRead;
      throwIfCancelled(isCancelled);
      if (bytesRead === 0 || (bytesRead < want && got >= file.size)) break;
    }
  } finally {
    fs.closeSync(file.fd);
  }
  return { bytes: scratch.subarray(0, got), bytesRead: got, consumed: got };
}

/** How a file's bytes may be treated as text. */
export type TextKind = 'ascii' | 'utf8';

/**
 * Applies seed 003's content rules to a file's bytes: a NUL byte makes it `binary`; anything but valid
 * UTF-8 is `invalidUtf8` (`buffer.isUtf8` is the same strict check a fatal `TextDecoder` makes, without
 * building a string). Valid files are `ascii` (every byte below 0x80) or `utf8`.
 */
export function classifyText(bytes: Buffer): TextKind | Skipped {
  if (bytes.indexOf(0) !== -1) return { skipped: 'binary' };
  if (isAscii(bytes)) return 'ascii';
  return isUtf8(bytes) ? 'utf8' : { skipped: 'invalidUtf8' };
}
