/**
 * One benchmark sample of Scout, in a fresh Node process (started by `runScoutProcess` in measure.ts with
 * `node --expose-gc --import tsx`). Reads one JSON request from argv[2] and prints one JSON report line.
 *
 * - `call`: loads Scout, runs the call once on `warmupPath` (untimed, compiles the hot paths), collects
 *   garbage, then times `parse` + `run` of the real call and reports wall ms and the process's peak RSS
 *   before and after it (`process.resourceUsage().maxRSS`, the kernel's high-water mark).
 * - `cancel`: starts grep calls and aborts each `delaysMs[i]` ms after it started, once its rg runs; reports
 *   when rg had exited (polling `/proc/<pid>/stat`) and when the call settled.
 * - `first-touch`: times the first touch of fresh memory (`firstTouchCost` in measure.ts).
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeSpillFile } from '../../src/cli/env';
import { defaultConfig } from '../../src/core/config';
import { isToolError } from '../../src/core/errors';
import { findTool } from '../../src/core/registry';
import type { Logger, RunSummary, SpillWriter, ToolEnv, ToolOutput } from '../../src/core/tool';
import { listByParallelWalk } from './cases/globPlan';
import { BENCH_RG, firstTouchCost, type FirstTouchCost } from './measure';
import { outputDigest } from './outputDigest';
import { profiled, type ProfileSummary } from './profile';

/** What is run: a registry tool, or the glob plan under study (see cases/globPlan.ts). */
export type Subject = 'grep' | 'glob' | 'glob-plan';

export interface CallRequest {
  readonly mode: 'call';
  readonly subject: Subject;
  /** The tool input (for `glob-plan`, only `path` is read). */
  readonly input: { readonly pattern?: string; readonly path?: string };
  /** The workspace folder. */
  readonly root: string;
  /** A small subtree for the untimed warm-up call (same input, this path); none: no warm-up. */
  readonly warmupPath?: string;
  /** Profile the timed call (the profiler slows it; use the wall time of unprofiled samples). */
  readonly profile?: boolean;
}

export interface CancelRequest {
  readonly mode: 'cancel';
  readonly input: { readonly pattern: string };
  readonly root: string;
  /** One sample per entry: ms after the call started at which it is aborted (once its rg is running). */
  readonly delaysMs: readonly number[];
}

/** Times the first touch of fresh memory (`firstTouchCost`), away from the driver, whose resident size rg's spawns pay for. */
export interface FirstTouchRequest {
  readonly mode: 'first-touch';
}

export type ChildRequest = CallRequest | CancelRequest | FirstTouchRequest;

export interface CallReport {
  readonly wallMs: number;
  /** CPU time (user + system, all threads) this process used during the call, ms. */
  readonly cpuMs: number;
  /** The part of `cpuMs` spent in the kernel (system time), ms. */
  readonly systemCpuMs: number;
  /**
   * Minor page faults this process took during the call (`process.resourceUsage().minorPageFault`): mostly the
   * first touch of memory it had not used before, each paid in the kernel (see `firstTouchCost` in measure.ts).
   */
  readonly minorFaults: number;
  /**
   * The call's wall time split at rg's spawn and exit (seen by wrapping `child_process.spawn`), ms: before rg
   * (argument parsing, path resolution, spawn), rg running, and after rg exited (the last output, sorting,
   * formatting, spilling). Absent when the call spawned no process.
   */
  readonly phases?: { readonly beforeRgMs: number; readonly rgMs: number; readonly afterRgMs: number };
  /** RSS just before the timed call (after GC), bytes. */
  readonly rssBeforeBytes: number;
  /** The process's peak RSS before / after the timed call, bytes. */
  readonly maxRssBeforeBytes: number;
  readonly maxRssAfterBytes: number;
  /** Peak RSS during the call minus RSS before it, bytes (an upper bound when `newPeak` is false). */
  readonly callPeakRssBytes: number;
  /** True when the call raised the process's high-water mark, so `callPeakRssBytes` is exact. */
  readonly newPeak: boolean;
  readonly summary?: RunSummary;
  /** Characters of the final text (what the model sees). */
  readonly textChars: number;
  /** Bytes written by the spill writer (the complete result). */
  readonly spillBytes: number;
  /** `outputDigest` of the call's text, saved result and value (taken after the timed call). */
  readonly outputSha256?: string;
  readonly error?: { readonly code: string; readonly message: string };
  readonly profile?: ProfileSummary;
}

export interface CancelSample {
  /** ms from the start of the call to `abort()`. */
  readonly abortedAtMs: number;
  /** ms from `abort()` until rg's /proc entry showed it exited (zombie or reaped). */
  readonly rgExitedMs: number;
  /** ms from `abort()` until the call's promise settled (rg reaped, pipes closed). */
  readonly settledMs: number;
  /** The error code the call ended with (SEARCH_ABORTED expected), or 'completed' if it finished first. */
  readonly outcome: string;
}

export interface CancelReport {
  readonly samples: readonly CancelSample[];
}

export type ChildReport<R extends ChildRequest> = R extends CallRequest ? CallReport : R extends CancelRequest ? CancelReport : FirstTouchCost;

/** Spawns and exits of child processes during the timed call, for `CallReport.phases`. */
const spawned: { at: number; exitedAt?: number }[] = [];
const childProcess = require('node:child_process') as typeof import('node:child_process');
const originalSpawn = childProcess.spawn;
// Scout's modules call `spawn` through this exports object at call time (CommonJS interop), so this sees them.
(childProcess as { spawn: unknown }).spawn = function (this: unknown, ...args: Parameters<typeof originalSpawn>) {
  const record: { at: number; exitedAt?: number } = { at: performance.now() };
  const child = originalSpawn.apply(this, args);
  spawned.push(record);
  child.once('exit', () => (record.exitedAt = performance.now()));
  return child;
};

const log: Logger = {
  trace() {},
  info() {},
  warn: (m) => process.stderr.write(`[scout warn] ${m}\n`),
  error: (m) => process.stderr.write(`[scout error] ${m}\n`),
};

const spillDir = mkdtempSync(path.join(os.tmpdir(), 'scout-bench-spill-'));
let spillBytes = 0;
let spillFile: string | undefined;
/** The CLI's spill writer (the text streamed to a new file piece by piece), in a folder of the benchmark's own. */
const spill: SpillWriter = async (text, meta) => {
  const file = writeSpillFile(text, meta.tool, spillDir);
  spillBytes += statSync(file).size;
  spillFile = file;
  return { uri: pathToFileURL(file).href, hint: 'Read that file to see every result.' };
};

function env(root: string, signal: AbortSignal): ToolEnv {
  return { folders: [{ name: 'corpus', path: root }], config: defaultConfig(), signal, log, ripgrepPath: BENCH_RG, spill };
}

interface Outcome {
  summary: RunSummary;
  text: string;
  output?: ToolOutput;
}

async function call(subject: Subject, input: CallRequest['input'], root: string, signal = new AbortController().signal): Promise<Outcome> {
  if (subject === 'glob-plan') {
    const names = await listByParallelWalk(BENCH_RG, path.resolve(root, input.path ?? '.'), signal);
    return { summary: { files: names.length, truncated: false }, text: '' };
  }
  const tool = findTool(subject)!;
  const config = defaultConfig();
  const output = await tool.run(tool.parse(input, config), env(root, signal));
  return { summary: output.summary, text: output.text, output };
}

const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with --expose-gc');
  collect();
  collect();
};

async function runCall(request: CallRequest): Promise<CallReport> {
  if (request.warmupPath !== undefined) await call(request.subject, { ...request.input, path: request.warmupPath }, request.root);
  spillBytes = 0;
  spillFile = undefined;
  gc();
  const rssBeforeBytes = process.memoryUsage.rss();
  const maxRssBeforeBytes = process.resourceUsage().maxRSS * 1024;
  const cpuBefore = process.cpuUsage();
  const faultsBefore = process.resourceUsage().minorPageFault;
  spawned.length = 0;
  const started = performance.now();
  let outcome: Outcome | undefined;
  let error: CallReport['error'];
  let profile: ProfileSummary | undefined;
  try {
    if (request.profile) ({ result: outcome, profile } = await profiled(() => call(request.subject, request.input, request.root)));
    else outcome = await call(request.subject, request.input, request.root);
  } catch (e) {
    error = isToolError(e) ? { code: e.code, message: e.message } : { code: 'CRASH', message: String(e instanceof Error ? e.stack : e) };
  }
  const ended = performance.now();
  const wallMs = ended - started;
  const cpu = process.cpuUsage(cpuBefore);
  const minorFaults = process.resourceUsage().minorPageFault - faultsBefore;
  const rg = spawned.length === 1 && spawned[0]!.exitedAt !== undefined ? spawned[0]! : undefined;
  const maxRssAfterBytes = process.resourceUsage().maxRSS * 1024;
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    systemCpuMs: cpu.system / 1000,
    minorFaults,
    ...(rg ? { phases: { beforeRgMs: rg.at - started, rgMs: rg.exitedAt! - rg.at, afterRgMs: ended - rg.exitedAt! } } : {}),
    rssBeforeBytes,
    maxRssBeforeBytes,
    maxRssAfterBytes,
    callPeakRssBytes: Math.max(0, maxRssAfterBytes - rssBeforeBytes),
    newPeak: maxRssAfterBytes > maxRssBeforeBytes,
    ...(outcome ? { summary: outcome.summary } : {}),
    textChars: outcome?.text.length ?? 0,
    spillBytes,
    ...(outcome?.output ? { outputSha256: outputDigest(request.root, outcome.output, spillFile ? readFileSync(spillFile, 'utf8') : '') } : {}),
    ...(error ? { error } : {}),
    ...(profile ? { profile } : {}),
  };
}

/** Pids of this process's direct children whose program is `comm` (from /proc/<pid>/stat). */
function childPids(comm: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.ppid === process.pid && stat.comm === comm) out.push(Number(entry));
  }
  return out;
}

/** `comm`, state and parent pid from /proc/<pid>/stat; undefined once the pid is gone. */
function procStat(pid: number): { comm: string; state: string; ppid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  const close = text.lastIndexOf(')');
  const [state, ppid] = text.slice(close + 2).split(' ');
  return { comm: text.slice(text.indexOf('(') + 1, close), state: state!, ppid: Number(ppid) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const pause = new Int32Array(new SharedArrayBuffer(4));

async function runCancel(request: CancelRequest): Promise<CancelReport> {
  // Warm-up: one complete call, so the abort path below runs in compiled code like the rest.
  await call('grep', request.input, request.root);
  const samples: CancelSample[] = [];
  for (const delay of request.delaysMs) {
    const controller = new AbortController();
    let settled = false;
    const running = call('grep', request.input, request.root, controller.signal).then(
      () => 'completed',
      (e: unknown) => (isToolError(e) ? e.code : `CRASH ${String(e)}`),
    );
    void running.finally(() => (settled = true));
    let pid: number | undefined;
    const calledAt = performance.now();
    while (pid === undefined && !settled) {
      pid = childPids('rg')[0];
      if (pid === undefined) await sleep(1);
    }
    await sleep(Math.max(0, delay - (performance.now() - calledAt)));
    if (pid === undefined || settled || procStat(pid)?.state === 'Z') {
      samples.push({ abortedAtMs: performance.now() - calledAt, rgExitedMs: NaN, settledMs: NaN, outcome: `completed before abort: ${await running}` });
      continue;
    }
    const abortedAt = performance.now();
    controller.abort(); // Scout's abort listener signals rg synchronously, inside this call.
    // Poll every 0.1 ms without running the event loop (the kernel ends rg whether or not it runs) and
    // without spinning, which would take a core from rg on a small machine.
    let state = procStat(pid)?.state;
    while (state !== undefined && state !== 'Z') {
      Atomics.wait(pause, 0, 0, 0.1);
      state = procStat(pid)?.state;
    }
    const rgExitedMs = performance.now() - abortedAt;
    const outcome = await running;
    samples.push({ abortedAtMs: abortedAt - calledAt, rgExitedMs, settledMs: performance.now() - abortedAt, outcome });
  }
  return { samples };
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]!) as ChildRequest;
  try {
    const report = request.mode === 'call' ? await runCall(request) : request.mode === 'cancel' ? await runCancel(request) : firstTouchCost();
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    rmSync(spillDir, { recursive: true, force: true });
  }
}

void main();
