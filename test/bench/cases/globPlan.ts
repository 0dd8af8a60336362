import { stat, statSync } from 'node:fs';
import { defaultConfig } from '../../../src/core/config';
import { globArgv } from '../../../src/core/ripgrep/argv';
import { interpretExit } from '../../../src/core/ripgrep/exit';
import { runRipgrep } from '../../../src/core/ripgrep/process';
import { RecordSplitter } from '../../../src/core/ripgrep/records';

/**
 * The candidate "faster plan" for glob's mtime order: rg's `--sort=modified` makes rg walk on one
 * thread, so instead run glob's own argv without `--sort=modified` (a parallel walk) and sort here.
 * Each path is `stat`ed as soon as rg prints it (libuv's thread pool, overlapping the walk), then the list
 * is sorted by modification time in nanoseconds, oldest first; a path whose stat fails counts as oldest,
 * as in rg. Equal times are ordered by path bytes: rg keeps its walk order there (a stable sort of a
 * single-threaded walk, i.e. directory-listing order), which a parallel walk cannot reproduce.
 *
 * @param root the directory listed (rg runs there on `.`).
 * @returns file names relative to `root`, raw bytes (names need not be UTF-8), oldest first.
 */
export async function listByParallelWalk(rgPath: string, root: string, signal: AbortSignal): Promise<Buffer[]> {
  const config = defaultConfig().search;
  const argv = globArgv('*', '.').filter((arg) => arg !== '--sort=modified');
  const entries: { name: Buffer; mtimeNs: bigint }[] = [];
  const prefix = Buffer.from(`${root}/`);
  let pending = 0;
  let walkDone = false;
  let statsDone!: () => void;
  const allStatted = new Promise<void>((resolve) => (statsDone = resolve));
  const settle = (): void => {
    if (--pending === 0 && walkDone) statsDone();
  };
  const splitter = new RecordSplitter(0, (buf, start, end) => {
    const entry = { name: Buffer.from(buf.subarray(start + 2, end)), mtimeNs: -1n }; // drop rg's "./"
    entries.push(entry);
    pending++;
    stat(Buffer.concat([prefix, entry.name]), { bigint: true }, (error, s) => {
      if (!error) entry.mtimeNs = s.mtimeNs;
      settle();
    });
  });
  const exit = await runRipgrep({
    rgPath,
    args: argv,
    cwd: root,
    signal,
    timeoutMs: config.timeoutMs,
    graceMs: config.graceMs,
    rawOutputMaxBytes: config.rawOutputMaxBytes,
    stderrMaxBytes: config.stderrMaxBytes,
    onStdout: (chunk) => splitter.push(chunk),
  });
  splitter.end();
  interpretExit(exit, {});
  walkDone = true;
  if (pending === 0) statsDone();
  await allStatted;
  entries.sort((a, b) => (a.mtimeNs < b.mtimeNs ? -1 : a.mtimeNs > b.mtimeNs ? 1 : Buffer.compare(a.name, b.name)));
  return entries.map((e) => e.name);
}

/** How the plan's order compares with rg's `--sort=modified` order on one tree. */
export interface OrderComparison {
  readonly files: number;
  /** Same paths in the same order. */
  readonly identical: boolean;
  /** Same set of paths. */
  readonly samePaths: boolean;
  /** Positions holding a different path. */
  readonly differingPositions: number;
  /** The two orders give the same sequence of modification times: they differ only among equal times. */
  readonly differOnlyWithinTies: boolean;
  /** Distinct modification times shared by two or more files, and the files sharing them. */
  readonly tieGroups: number;
  readonly filesInTies: number;
}

/**
 * Lists `root` both ways, untimed, and compares the orders. Uses glob's exact argv for rg's order.
 */
export async function compareWithSortedWalk(rgPath: string, root: string): Promise<OrderComparison> {
  const config = defaultConfig().search;
  const sorted: Buffer[] = [];
  const splitter = new RecordSplitter(0, (buf, start, end) => sorted.push(Buffer.from(buf.subarray(start + 2, end))));
  const exit = await runRipgrep({
    rgPath,
    args: globArgv('*', '.'),
    cwd: root,
    signal: new AbortController().signal,
    timeoutMs: config.timeoutMs,
    graceMs: config.graceMs,
    rawOutputMaxBytes: config.rawOutputMaxBytes,
    stderrMaxBytes: config.stderrMaxBytes,
    onStdout: (chunk) => splitter.push(chunk),
  });
  splitter.end();
  interpretExit(exit, {});
  const plan = await listByParallelWalk(rgPath, root, new AbortController().signal);

  const key = (b: Buffer): string => b.toString('latin1');
  const mtimes = new Map<string, bigint>();
  const prefix = Buffer.from(`${root}/`);
  for (const name of sorted) {
    try {
      mtimes.set(key(name), statSync(Buffer.concat([prefix, name]), { bigint: true }).mtimeNs);
    } catch {
      mtimes.set(key(name), -1n);
    }
  }
  let differing = 0;
  let sameTimes = sorted.length === plan.length;
  for (let i = 0; i < Math.max(sorted.length, plan.length); i++) {
    const a = sorted[i];
    const b = plan[i];
    if (!a || !b || !a.equals(b)) differing++;
    if (a && b && mtimes.get(key(a)) !== mtimes.get(key(b))) sameTimes = false;
  }
  const samePaths = sorted.length === plan.length && plan.every((p) => mtimes.has(key(p)));
  const perTime = new Map<bigint, number>();
  for (const t of mtimes.values()) perTime.set(t, (perTime.get(t) ?? 0) + 1);
  const ties = [...perTime.values()].filter((n) => n > 1);
  return {
    files: sorted.length,
    identical: differing === 0,
    samePaths,
    differingPositions: differing,
    differOnlyWithinTies: samePaths && sameTimes,
    tieGroups: ties.length,
    filesInTies: ties.reduce((a, b) => a + b, 0),
  };
}
