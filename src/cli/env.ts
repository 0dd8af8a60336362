import { closeSync, lstatSync, openSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { KEYED_WEB_SEARCH_PROVIDERS, webSearchKeyEnvVar, webSearchSecretName } from '../core/config';
import { isExecutableFile, locateRipgrep, packagedRipgrepRoot, platformPackage } from '../core/ripgrep/locate';
import { SpillError } from '../core/spill';
import type { Logger, SpillText, SpillWriter, ToolName } from '../core/tool';
import type { WorkspaceFolderRef } from '../core/workspace/folders';
import { tempFolderAdvice } from './advice';

// What a host outside VS Code gives the tools (the one-shot CLI and the MCP server, `node dist/cli.js mcp`):
// ripgrep found once, complete results in temp files, API keys from the environment, diagnostics on stderr.

/** The workspace folder for directory `dir` (made absolute), named after its last segment. */
export function folderAt(dir: string): WorkspaceFolderRef {
  const absolute = path.resolve(dir);
  return { name: path.basename(absolute) || absolute, path: absolute };
}

/**
 * The rg binary to spawn, found on the first call and remembered: `rgPath` (`--rg`, checked by the caller) as
 * given, else the binary of the `@vscode/ripgrep` dependency, else rg on PATH. Where it came from is logged
 * (info), skipped candidates as warnings. Lazy, so a host whose calls never run rg needs none.
 *
 * @throws ToolError from `locateRipgrep` when there is no rg at all (the calling tool's error).
 */
export function ripgrepLocator(rgPath: string | undefined, log: Logger): () => string {
  let found: string | undefined;
  return () => {
    if (found === undefined && rgPath !== undefined) {
      found = path.resolve(rgPath);
      log.info(`using ripgrep ${found} (--rg)`);
    }
    if (found === undefined) {
      const located = locateRipgrep({
        packageRoot: packagedRipgrepRoot(),
        platform: process.platform,
        arch: process.arch,
        pathEnv: process.env.PATH,
        exists: isExecutableFile,
      });
      for (const skipped of located.skipped) log.warn(`ripgrep not found at ${skipped}`);
      log.info(`using ripgrep ${located.path} (${located.source === 'package' ? `bundled ${platformPackage(process.platform, process.arch)}` : 'found on PATH'})`);
      found = located.path;
    }
    return found;
  };
}

/**
 * A web search API key outside VS Code: the secret `scout.webSearch.<provider>.apiKey` is read from the
 * environment variable `SCOUT_<PROVIDER>_API_KEY`; undefined for any other name or an empty variable.
 */
export function environmentSecret(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const provider = KEYED_WEB_SEARCH_PROVIDERS.find((p) => webSearchSecretName(p) === name);
  return (provider && env[webSearchKeyEnvVar(provider)]?.trim()) || undefined;
}

/** Spill files this process wrote: part of each name, so two spills in one millisecond get two files. */
let spillsWritten = 0;

/** How long a spill file is kept: older ones are deleted when the next spill is written. */
const SPILL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * The OS temp folder as an absolute path: `os.tmpdir()` (`TMPDIR`, else the system's) resolved against the
 * process's working directory, so a relative `TMPDIR` (`TMPDIR=tmp`) gives the same folder in a file's plain
 * path as in its `file:` URI, and neither is read against the workspace folder the result's paths are relative to.
 */
export function tempFolder(): string {
  return path.resolve(os.tmpdir());
}

/**
 * Saves a complete over-cap result as a new file `scout-spill-<tool>-<ms>-<pid>-<n>.txt` (mode 600) under `dir`, the
 * OS temp folder by default ({@link tempFolder}: the CLI's spill), and returns its absolute path. First deletes this
 * user's own spill files there last modified more than {@link SPILL_MAX_AGE_MS} ago (regular files only, never
 * a symlink; failures are ignored). The text is written piece by piece as it is made ({@link writeText}), so
 * it is never held whole; a file left incomplete by a failed write is removed.
 *
 * @throws TempFolderError when the folder refuses the file (missing, read-only, not a folder, full). Whatever
 *   making the text threw, as it is.
 */
export function writeSpillFile(text: SpillText, tool: ToolName, dir = tempFolder()): string {
  deleteOldSpills(dir, Date.now() - SPILL_MAX_AGE_MS);
  const file = path.join(dir, `scout-spill-${tool}-${Date.now()}-${process.pid}-${++spillsWritten}.txt`);
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (e) {
    throw folderRefused(dir, e);
  }
  try {
    writeText(fd, text);
  } catch (e) {
    closeSync(fd);
    unlinkSync(file);
    throw isSystemError(e) ? folderRefused(dir, e) : e;
  }
  closeSync(fd);
  return file;
}

/** True when `e` is an error of the operating system (Node sets its `syscall`), not one of making the text. */
function isSystemError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * A temporary folder that refused a spill file. `message` names the folder and the OS error, as a clause:
 * `the temporary folder /tmp/gone cannot be written to (ENOENT: no such file or directory)`.
 */
export class TempFolderError extends Error {
  override readonly name = 'TempFolderError';
}

/** The {@link TempFolderError} of `dir`: the OS error as {@link systemErrorReason} gives it. */
function folderRefused(dir: string, e: unknown): TempFolderError {
  return new TempFolderError(`the temporary folder ${dir} cannot be written to (${systemErrorReason(e)})`);
}

/**
 * An OS error's code and description without the tail Node adds, which names the system call and any path:
 * `ENOENT: no such file or directory` from `ENOENT: no such file or directory, open '/tmp/x'`, and
 * `ENOSPC: no space left on device` from `ENOSPC: no space left on device, write`.
 */
export function systemErrorReason(e: unknown): string {
  return e instanceof Error ? e.message.replace(/, \w+(?: '[\s\S]*)?$/, '') : String(e);
}

/** Bytes of encoded text gathered in {@link writeText} before they are written. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/**
 * Bytes one `write` system call takes at most. On Linux 6.18 with ext4 (the machine of docs/benchmarks.md), writing
 * 3.6 MB to a new file in writes of 64 KiB took about 1 ms, and in writes of 128 KiB or more 8 to 11 ms, in
 * the kernel (why larger writes cost more there was not pinned down). Elsewhere the extra system calls cost a
 * few microseconds per megabyte.
 */
const WRITE_BYTES = 64 * 1024;

/**
 * Writes `text` to the open file `fd` as UTF-8, piece by piece: pieces are encoded into one buffer of
 * {@link WRITE_BUFFER_BYTES} (a piece too long for it is encoded on its own), and written out in writes of at
 * most {@link WRITE_BYTES} each time it fills.
 *
 * @throws the file system's error.
 */
export function writeText(fd: number, text: SpillText): void {
  const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
  let used = 0;
  const write = (bytes: Buffer, end: number): void => {
    for (let done = 0; done < end; ) done += writeSync(fd, bytes, done, Math.min(WRITE_BYTES, end - done));
  };
  const flush = (): void => {
    write(buffer, used);
    used = 0;
  };
  for (const piece of text) {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    if (piece.length * 3 > WRITE_BUFFER_BYTES - used) flush();
    if (piece.length * 3 > WRITE_BUFFER_BYTES) {
      const bytes = Buffer.from(piece, 'utf8');
      write(bytes, bytes.length);
    } else {
      used += buffer.write(piece, used, 'utf8');
    }
  }
  flush();
}

/**
 * The CLI's {@link SpillWriter}: {@link writeSpillFile}, located by its `file:` URI.
 *
 * @throws SpillError when the temporary folder refuses the file: the folder, the OS error and what to set,
 *   which the footer shows.
 */
export const tempFileSpill: SpillWriter = async (text, meta) => {
  let file: string;
  try {
    file = writeSpillFile(text, meta.tool);
  } catch (e) {
    throw e instanceof TempFolderError ? new SpillError(`${e.message}; to have it saved, ${tempFolderAdvice(false)}.`) : e;
  }
  return { uri: pathToFileURL(file).href, hint: `It is a plain text file at ${file}; read it to see every result.` };
};

function deleteOldSpills(dir: string, before: number): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^scout-spill-.*\.txt$/.test(name));
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const stat = lstatSync(file);
      if (stat.isFile() && stat.uid === process.getuid?.() && stat.mtimeMs < before) unlinkSync(file);
    } catch {
      // gone already, or not ours to delete
    }
  }
}

/** Diagnostics on stderr as `[level] message`: warnings and errors always, info and trace with `verbose`. */
export function stderrLogger(verbose: boolean): Logger {
  const write = (level: string) => (message: string) => void process.stderr.write(`[${level}] ${message}\n`);
  const quiet = (): void => undefined;
  return { trace: verbose ? write('trace') : quiet, info: verbose ? write('info') : quiet, warn: write('warn'), error: write('error') };
}
