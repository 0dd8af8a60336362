import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A live process: its pid and argv (from `/proc/<pid>/cmdline`). */
export interface ProcessInfo {
  readonly pid: number;
  readonly argv: string[];
  readonly cwd: string | undefined;
}

/** Every live (not zombie) process whose argv or cwd satisfies `test`, read from /proc (Linux only). */
export function findProcesses(test: (p: ProcessInfo) => boolean): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
      let cwd: string | undefined;
      try {
        cwd = readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        cwd = undefined;
      }
      const info = { pid: Number(entry), argv, cwd };
      if (test(info)) out.push(info);
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Processes whose working directory is `dir` or below it (where the tools run rg). */
export function processesUnder(dir: string): ProcessInfo[] {
  return findProcesses((p) => p.cwd !== undefined && (p.cwd === dir || p.cwd.startsWith(`${dir}/`)));
}

/**
 * Sends `signal` to each of `processes`. A process that ended after it was listed (ESRCH) is already what
 * the caller wants, so only other errors are thrown.
 */
export function killProcesses(processes: readonly ProcessInfo[], signal: NodeJS.Signals | number): void {
  for (const p of processes) {
    try {
      process.kill(p.pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}
