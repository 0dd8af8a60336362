import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WorkspaceFolderRef } from '../../src/core/workspace/folders';
import { RG_PATH } from './searchEnv';

/**
 * A two-folder workspace laid out the way a hostile repository and a hostile model would like it, next to a
 * directory it must never reveal:
 *
 * ```
 * <base>/ws           folder "ws": sources, plus names and links meant to trip a search tool
 *   src/a.ts  src/b.md  src/pipe.ts (a FIFO)  -L/x.txt  --follow/y.txt  --pre=sh/z.txt
 *   app/(auth)/[id]/page.tsx  back\slash.txt  "with space.txt"  .hidden/h.txt
 *   out -> <outside>   secret-link.txt -> <outside>/secret.txt   mid/link -> <outside>
 *   loop -> .   spin1 -> spin2 -> spin1
 * <base>/ws2          folder "ws2": one file
 * <base>/ws-secret    OUTSIDE (shares the "ws" prefix): secret.txt holding the token, and <token>.txt
 * ```
 *
 * The token is random per workspace and appears only outside, in a file's text and in a file's name, so it
 * can appear in a tool's output only if that output listed or read something outside the folders.
 */
export interface HostileWorkspace {
  readonly base: string;
  /** First folder (realpath). */
  readonly root: string;
  /** Second folder (realpath). */
  readonly second: string;
  /** The directory outside every folder. */
  readonly outside: string;
  /** The secret token planted outside. */
  readonly token: string;
  readonly folders: readonly WorkspaceFolderRef[];
  /** Removes everything. */
  remove(): void;
}

/** Makes a {@link HostileWorkspace} under the OS temp folder. */
export function makeHostileWorkspace(): HostileWorkspace {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'scout-attack-')));
  const root = path.join(base, 'ws');
  const second = path.join(base, 'ws2');
  const outside = path.join(base, 'ws-secret');
  const token = `SCOUTSECRET${randomBytes(8).toString('hex')}`;
  const files: Record<string, string> = {
    'src/a.ts': 'export const needle = 1;\n// TODO: keep the needle sharp\n',
    'src/b.md': '# Notes\n\nA needle in the notes.\n',
    '-L/x.txt': 'needle under a directory named like a flag\n',
    '--follow/y.txt': 'needle under --follow\n',
    '--pre=sh/z.txt': 'needle under --pre=sh\n',
    'app/(auth)/[id]/page.tsx': 'export default function Page() { return "needle"; }\n',
    'back\\slash.txt': 'needle behind a backslash\n',
    'with space.txt': 'needle with a space\n',
    '.hidden/h.txt': 'needle in a hidden folder\n',
  };
  for (const [rel, content] of Object.entries(files)) write(path.join(root, rel), content);
  write(path.join(second, 'lib/c.ts'), 'export const needle = 2;\n');
  write(path.join(outside, 'secret.txt'), `needle ${token}\n`);
  write(path.join(outside, `${token}.txt`), 'needle\n');
  mkdirSync(path.join(root, 'mid'));
  symlinkSync(outside, path.join(root, 'out'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link.txt'));
  symlinkSync(outside, path.join(root, 'mid', 'link'));
  symlinkSync('.', path.join(root, 'loop'));
  symlinkSync('spin2', path.join(root, 'spin1'));
  symlinkSync('spin1', path.join(root, 'spin2'));
  execFileSync('mkfifo', [path.join(root, 'src', 'pipe.ts')]);
  return {
    base,
    root,
    second,
    outside,
    token,
    folders: [
      { name: 'ws', path: root },
      { name: 'ws2', path: second },
    ],
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** One recorded rg call: its working directory and its arguments. */
export interface RecordedCall {
  readonly cwd: string;
  readonly argv: string[];
}

/** A real `rg` behind a wrapper script that records the argv of every call (see {@link recordingRipgrep}). */
export interface RecordingRipgrep {
  /** The wrapper: pass it as `ToolEnv.ripgrepPath`. */
  readonly path: string;
  /** Every call since the last {@link reset}, in order. */
  calls(): RecordedCall[];
  reset(): void;
}

/**
 * Writes, in `dir`, a `/bin/sh` script that appends its working directory, argument count and arguments
 * (NUL-separated) to a log and then `exec`s the packaged rg with the same arguments: the real binary runs,
 * and the test sees exactly the argv the tool spawned it with.
 */
export function recordingRipgrep(dir: string): RecordingRipgrep {
  const log = path.join(dir, 'rg-argv.log');
  const wrapper = path.join(dir, 'rg-recording');
  writeFileSync(log, '');
  writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\0' "$(pwd -P)" "$#" "$@" >> ${shellQuote(log)}\nexec ${shellQuote(RG_PATH)} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return {
    path: wrapper,
    calls: () => {
      const fields = readFileSync(log, 'utf8').split('\0');
      const calls: RecordedCall[] = [];
      for (let i = 0; i + 1 < fields.length; ) {
        const count = Number(fields[i + 1]);
        calls.push({ cwd: fields[i]!, argv: fields.slice(i + 2, i + 2 + count) });
        i += 2 + count;
      }
      return calls;
    },
    reset: () => writeFileSync(log, ''),
  };
}

/**
 * Writes an executable `/bin/sh` script named `name` in `dir` with `body` after the shebang: a stand-in for
 * rg (set as `ToolEnv.ripgrepPath`) that crashes, hangs or prints garbage.
 */
export function scriptRipgrep(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** `value` in single quotes for /bin/sh. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
