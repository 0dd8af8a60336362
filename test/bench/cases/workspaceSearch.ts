import { execFile, fork, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { CORPUS_QUERY, defaultCorpusDir, ensureCorpus, type CorpusManifest } from './workspaceSearchCorpus';
import type { ProfileSummary } from '../profile';
import type { MemoryReply, ProfileReply, RunReply } from './workspaceSearchProcess';
import { BENCH_RG } from '../measure';

/** Wall-time figures of repeated runs, in ms. */
export interface Timing {
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

/** What {@link benchWorkspaceSearch} measured. */
export interface WorkspaceSearchBench {
  readonly corpus: CorpusManifest;
  /** `workspace_search` run in process (a fresh Node process running the bundled code, after one warm-up run). */
  readonly scout: Timing & {
    /** The first run, which also starts the search worker. */
    readonly firstRunMs: number;
    /** Peak resident set size of that process in MiB (Node runtime and the worker thread included). */
    readonly peakRssMiB: number;
    /** Resident set size before the first search, in MiB: the part of the peak that is not the search. */
    readonly baselineRssMiB: number;
    readonly matchCount: number;
    readonly scannedFiles: number;
    readonly readBytes: number;
    readonly truncated: boolean;
  };
  /** `rg -F -i --count-matches <query> .` over the same tree, spawn to exit (after one warm-up run). */
  readonly ripgrep: Timing & { readonly matches: number; readonly filesWithMatches: number };
  /** scout.medianMs / ripgrep.medianMs; the target is at most 2. */
  readonly ratio: number;
  /** The targets (the Scout/rg ratio; peak RSS), and whether they were met. */
  readonly targets: { readonly ratio: 2; readonly peakRssMiB: 150; readonly met: boolean };
  /** Where one scan's time goes, when asked for or when a target was missed. */
  readonly profile?: ProfileSummary;
}

const REPO = path.resolve(__dirname, '..', '..', '..');
/** The rg every bench case runs (see measure.ts). */
export const BENCH_RIPGREP = BENCH_RG;

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const medianMs = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { runs: samples.length, medianMs: round(medianMs), minMs: round(sorted[0]!), maxMs: round(sorted[sorted.length - 1]!) };
}

const round = (n: number) => Math.round(n * 10) / 10;

function runRipgrep(root: string): Promise<{ ms: number; matches: number; files: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile(BENCH_RIPGREP, ['-F', '-i', '--count-matches', CORPUS_QUERY, '.'], { cwd: root, maxBuffer: 1 << 24 }, (error, stdout) => {
      const ms = performance.now() - started;
      if (error && error.code !== 1) return reject(error);
      const lines = stdout.split('\n').filter(Boolean);
      resolve({ ms, matches: lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(':') + 1)), 0), files: lines.length });
    });
  });
}

/**
 * Bundles the benchmark child and the search worker as Scout ships them (esbuild, like esbuild.mjs), so the
 * measured process holds no TypeScript loader. Returns the child script's path.
 */
async function bundleChild(): Promise<string> {
  const outdir = path.join(os.tmpdir(), 'scout-bench-workspace-search');
  await esbuild.build({
    entryPoints: {
      workspaceSearchProcess: path.join(__dirname, 'workspaceSearchProcess.ts'),
      workspaceSearchWorker: path.join(REPO, 'src', 'core', 'workspaceSearch', 'worker.ts'),
    },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
  });
  return path.join(outdir, 'workspaceSearchProcess.js');
}

/** Sends one message to the child and waits for its reply. */
function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`benchmark child exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (reply) => {
      child.off('exit', onExit);
      resolve(reply as T);
    });
    child.send(message);
  });
}

/**
 * The `workspace_search` benchmark case: scans the generated 2,000-file, ~60 MiB corpus (made
 * once under `~/.cache/scout-bench`, see {@link ensureCorpus}) with Scout and with
 * `rg -F -i --count-matches`, `runs` times each, alternating, after a warm-up run (so both read from the page cache), and
 * returns median / min / max wall times, Scout's peak RSS and the ratio of the medians. Scout runs in a
 * fresh Node process from an esbuild bundle, timed around `workspaceSearchTool.run` (its worker thread
 * stays warm between runs, as in the extension host); rg is timed from spawn to exit. With `profile` (or when
 * the ratio target is missed) it adds a CPU profile of one scan.
 */
export async function benchWorkspaceSearch(options: { corpusDir?: string; runs?: number; profile?: boolean } = {}): Promise<WorkspaceSearchBench> {
  const runs = options.runs ?? 9;
  const corpus = await ensureCorpus(options.corpusDir ?? defaultCorpusDir());
  const child = fork(await bundleChild(), [corpus.root, CORPUS_QUERY], { execArgv: ['--enable-source-maps'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    // Warm-up: page cache for both, worker start-up and JIT for Scout.
    await runRipgrep(corpus.root);
    const first = await ask<RunReply>(child, { run: true });
    // Alternate the two so load from elsewhere on the machine hits both alike.
    const rg: { ms: number; matches: number; files: number }[] = [];
    const scout: RunReply[] = [];
    for (let r = 0; r < runs; r++) {
      rg.push(await runRipgrep(corpus.root));
      scout.push(await ask<RunReply>(child, { run: true }));
    }
    const scoutTiming = timing(scout.map((r) => r.ms));
    const rgTiming = timing(rg.map((r) => r.ms));
    const ratio = Math.round((scoutTiming.medianMs / rgTiming.medianMs) * 100) / 100;
    const profile = options.profile || ratio > 2 ? (await ask<ProfileReply>(child, { profile: true })).profile : undefined;
    const memory = await ask<MemoryReply>(child, { done: true });
    const peakRssMiB = round(memory.peakRssKiB / 1024);
    const last = scout[scout.length - 1]!;
    return {
      corpus,
      scout: {
        ...scoutTiming,
        firstRunMs: round(first.ms),
        peakRssMiB,
        baselineRssMiB: round(memory.baselineRssKiB / 1024),
        matchCount: last.matchCount,
        scannedFiles: last.scannedFiles,
        readBytes: last.readBytes,
        truncated: last.truncated,
      },
      ripgrep: { ...rgTiming, matches: rg[0]!.matches, filesWithMatches: rg[0]!.files },
      ratio,
      targets: { ratio: 2, peakRssMiB: 150, met: ratio <= 2 && peakRssMiB < 150 },
      ...(profile ? { profile } : {}),
    };
  } finally {
    if (child.exitCode === null) child.kill();
  }
}
