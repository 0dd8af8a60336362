import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CorpusManifest } from './corpus';
import type { ChildReport, ChildRequest } from './scoutProcess';
import { RG_PATH } from '../helpers/searchEnv';

/**
 * How the benchmark measures, in one place:
 *
 * - **Wall time, Scout**: `tool.parse` + `tool.run`, from the call to the final text, timed with
 *   `performance.now()` inside a fresh Node process (one per sample, see `scoutProcess.ts`). Before the timed
 *   call the process loads Scout and runs the same call once on a small subtree, so V8 has compiled the hot
 *   paths as it has in a long-running extension host; that warm-up is not timed.
 * - **Wall time, rg**: spawn to `close`, from this process, with the spawn options Scout uses (own process
 *   group, no `RIPGREP_CONFIG_PATH`) and stdout piped here and read to nothing — the same pipe Scout reads.
 * - **Peak RSS, Scout**: `process.resourceUsage().maxRSS` of the sample's process (the kernel's high-water
 *   mark, from getrusage). The call's own share is that peak minus the RSS just before the call (after a full
 *   GC); it is exact when the call set a new high-water mark, which the report checks and flags otherwise.
 * - **Peak RSS, CPU and minor page faults, rg**: GNU `/usr/bin/time -f '%M %U %S %R'` (wait4's `ru_maxrss`,
 *   CPU times and `ru_minflt`) around a separate rg run, interleaved with the timed ones, so the wrapper never
 *   adds to rg's wall time. Absent when `/usr/bin/time` is missing.
 * - **CPU and minor page faults, Scout**: `process.cpuUsage()` and `process.resourceUsage().minorPageFault` over
 *   the call (all threads of the process; rg's not included). A call that makes megabytes of text pays a fault
 *   for each page it uses for the first time, and what a fault costs depends on the machine, so the bench
 *   measures it once per run ({@link firstTouchCost}, in a process of its own).
 * - Samples alternate Scout and baseline (and which goes first), after `warmup` discarded rounds of each, so
 *   both read a warm page cache and drift hits both alike.
 */

/** Median and spread of some samples. */
export interface Stats {
  readonly n: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** Median, min and max of `values` (at least one). */
export function summarize(values: readonly number[]): Stats {
  if (values.length === 0) throw new Error('no samples');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { n: sorted.length, median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/**
 * The middle half of `values` (at least one): the lower and upper quartiles, each the median of its half
 * (the middle value of an odd count left out of both halves).
 */
export function middleHalf(values: readonly number[]): { readonly low: number; readonly high: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length >> 1;
  if (half === 0) return { low: sorted[0]!, high: sorted[0]! };
  return { low: summarize(sorted.slice(0, half)).median, high: summarize(sorted.slice(sorted.length - half)).median };
}

export const MiB = 1024 * 1024;
const REPO = path.resolve(__dirname, '..', '..');
/** The rg the benchmarks run: the unit tests' rg, the binary `@vscode/ripgrep` installs for this machine. */
export const BENCH_RG = RG_PATH;
const GNU_TIME = '/usr/bin/time';

/** One rg run: wall ms (spawn to close), stdout bytes drained, exit status. */
export interface RipgrepSample {
  readonly wallMs: number;
  readonly stdoutBytes: number;
  readonly exitCode: number | null;
}

/** The spawn environment Scout gives rg (see `runRipgrep`): the parent's, without `RIPGREP_CONFIG_PATH`. */
function ripgrepEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.RIPGREP_CONFIG_PATH;
  return env;
}

/**
 * Runs `rg argv` in `cwd` and times it from spawn to `close`: with `stdout` `pipe` (the default) rg's stdout is
 * piped to this process and discarded (counted); with `file` rg writes it to a temporary file, which is
 * measured and removed afterwards (rg with no reader at all). Rejects on exit status 2 or
 * a signal (rg's error statuses), so a broken baseline is loud.
 */
export function timeRipgrep(argv: readonly string[], cwd: string, rgPath = BENCH_RG, stdout: 'pipe' | 'file' = 'pipe'): Promise<RipgrepSample> {
  return new Promise((resolve, reject) => {
    const file = stdout === 'file' ? path.join(mkdtempSync(path.join(os.tmpdir(), 'scout-bench-out-')), 'stdout') : undefined;
    const fd = file ? openSync(file, 'w') : undefined;
    const started = performance.now();
    const child = spawn(rgPath, [...argv], { cwd, env: ripgrepEnv(), stdio: ['ignore', fd ?? 'pipe', 'pipe'], detached: true });
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdoutBytes += chunk.length));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (file) {
        stdoutBytes = statSync(file).size;
        closeSync(fd!);
        rmSync(path.dirname(file), { recursive: true, force: true });
      }
      if (code !== 0 && code !== 1) reject(new Error(`rg exited with ${code}: ${stderr.slice(0, 500)}`));
      else resolve({ wallMs, stdoutBytes, exitCode: code });
    });
  });
}

/** True when GNU time is installed, so rg's peak RSS can be read. */
export const canMeasureRipgrepRss = existsSync(GNU_TIME);

/**
 * What GNU time reports for one rg run: peak RSS (`%M`, from wait4), CPU time (`%U` + `%S`) and minor page
 * faults (`%R`).
 */
export interface RipgrepResources {
  readonly peakRssBytes: number;
  readonly cpuMs: number;
  readonly minorFaults: number;
}

/** Resources of one run of `rg argv` in `cwd`, stdout drained; undefined without GNU time. */
export async function ripgrepResources(argv: readonly string[], cwd: string, rgPath = BENCH_RG): Promise<RipgrepResources | undefined> {
  if (!canMeasureRipgrepRss) return undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scout-bench-time-'));
  const out = path.join(dir, 'usage');
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(GNU_TIME, ['-f', '%M %U %S %R', '-o', out, rgPath, ...argv], { cwd, env: ripgrepEnv(), stdio: ['ignore', 'pipe', 'ignore'] });
      child.stdout.resume();
      child.on('error', reject);
      child.on('close', () => resolve());
    });
    const [kib, user, system, faults] = readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    return Number.isFinite(kib) ? { peakRssBytes: kib! * 1024, cpuMs: (user! + system!) * 1000, minorFaults: faults! } : undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a first touch of fresh memory costs this process, from {@link firstTouchCost}. */
export interface FirstTouchCost {
  /** 4 KiB pages touched. */
  readonly pages: number;
  /** Minor page faults taken while touching them: one per page, fewer where the kernel maps huge pages. */
  readonly faults: number;
  /** Wall µs per page, the kernel's faults and the page's zeroing included. */
  readonly microsecondsPerPage: number;
}

/**
 * Touches one byte in each 4 KiB page of a fresh block of `bytes` and times it: what a call pays for each
 * megabyte it uses for the first time. The median of `rounds` blocks. The default size is above glibc's
 * largest threshold for serving an allocation from memory the process already has (32 MiB on 64-bit), so
 * `malloc` maps the block anew even after the process has freed large buffers.
 */
export function firstTouchCost(bytes = 40 * MiB, rounds = 5): FirstTouchCost {
  const pages = Math.ceil(bytes / 4096);
  const faults: number[] = [];
  const micros: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const block = Buffer.allocUnsafeSlow(bytes);
    const before = process.resourceUsage().minorPageFault;
    const started = performance.now();
    for (let i = 0; i < bytes; i += 4096) block[i] = 1;
    micros.push(((performance.now() - started) * 1000) / pages);
    faults.push(process.resourceUsage().minorPageFault - before);
  }
  return { pages, faults: summarize(faults).median, microsecondsPerPage: summarize(micros).median };
}

/**
 * Runs one request in a fresh Node process (`node --expose-gc --import tsx scoutProcess.ts`) and returns its
 * report. The child prints exactly one JSON line on stdout; its stderr passes through.
 */
export function runScoutProcess<R extends ChildRequest>(request: R): Promise<ChildReport<R>> {
  return new Promise((resolve, reject) => {
    const profiling = request.mode === 'call' && request.profile ? ['--enable-source-maps'] : [];
    const child = spawn(process.execPath, ['--expose-gc', ...profiling, '--import', 'tsx', path.join(__dirname, 'scoutProcess.ts'), JSON.stringify(request)], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`benchmark child exited with ${code}: ${out.slice(0, 500)}`));
      try {
        resolve(JSON.parse(out) as ChildReport<R>);
      } catch (e) {
        reject(new Error(`benchmark child printed no report: ${String(e)}: ${out.slice(0, 500)}`));
      }
    });
  });
}

/**
 * Runs `warmup` discarded rounds and then `runs` measured rounds of two sides, alternating which side goes
 * first in each round.
 */
export async function alternate<A, B>(runs: number, warmup: number, a: () => Promise<A>, b: () => Promise<B>): Promise<{ a: A[]; b: B[] }> {
  const out = { a: [] as A[], b: [] as B[] };
  for (let round = 0; round < warmup + runs; round++) {
    const keep = round >= warmup;
    if (round % 2 === 0) {
      const x = await a();
      const y = await b();
      if (keep) out.a.push(x), out.b.push(y);
    } else {
      const y = await b();
      const x = await a();
      if (keep) out.a.push(x), out.b.push(y);
    }
  }
  return out;
}

/** What every case gets from main.ts. */
export interface CaseContext {
  /** The tree searched: the generated corpus's `tree/` or `--corpus DIR`, realpath'd. */
  readonly root: string;
  /** Set when the tree is the generated corpus (its planted counts can then be checked). */
  readonly corpus?: CorpusManifest;
  readonly runs: number;
  readonly warmup: number;
  /** grep patterns: the planted tokens, or `--selective` / `--broad`. */
  readonly selectivePattern: string;
  readonly broadPattern: string;
  /** A small subtree for Scout's untimed warm-up call (see scoutProcess.ts). */
  readonly warmupPath: string | undefined;
  /** Profile one Scout call per case even when its targets are met (`--profile`). */
  readonly profileAlways: boolean;
  /** Progress lines for the person running the bench (stderr). */
  readonly log: (line: string) => void;
}

/** "7 runs after 1 warm-up round", for the facts line and progress messages. */
export function runsText(runs: number, warmup: number): string {
  return `${runs} run${runs === 1 ? '' : 's'} after ${warmup} warm-up round${warmup === 1 ? '' : 's'}`;
}
