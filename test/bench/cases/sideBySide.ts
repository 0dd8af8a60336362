import { alternate, middleHalf, MiB, ripgrepResources, runScoutProcess, summarize, timeRipgrep, type CaseContext, type RipgrepResources, type RipgrepSample } from '../measure';
import type { ProfileSummary } from '../profile';
import type { Side } from '../report';
import type { CallReport, CallRequest } from '../scoutProcess';

/** Scout and an rg baseline, measured in alternation on the same tree (see measure.ts for the method). */
export interface SideBySide {
  readonly scout: readonly CallReport[];
  readonly rg: readonly { readonly timed: RipgrepSample; readonly toFile: RipgrepSample; readonly resources: RipgrepResources | undefined }[];
  readonly scoutSide: Side;
  readonly rgSide: Side;
  /** rg with the same argv writing its stdout to a file: how fast rg goes with no reader at all. */
  readonly rgToFileSide: Side;
  /** Median Scout wall ms / median rg wall ms. */
  readonly ratio: number;
  /** Median bytes rg wrote to stdout. */
  readonly rawBytes: number;
  /** The first Scout error, if any sample failed (the figures are then not comparable). */
  readonly error?: string;
  /** Sentences about the samples: the wall-time split, CPU times, measurement caveats. */
  readonly notes: readonly string[];
}

/**
 * Runs `request` in fresh Scout processes and `rgArgv` as the baseline, `ctx.runs` times each after
 * `ctx.warmup` discarded rounds. The baseline the targets use drains rg's stdout from a pipe, as a shell
 * pipeline would; each round also times rg writing to a file, the fastest rg can go with no reader at all.
 */
export async function sideBySide(ctx: CaseContext, request: CallRequest, rgArgv: readonly string[], labels: { scout: string; rg: string }): Promise<SideBySide> {
  const { a: scout, b: rg } = await alternate(
    ctx.runs,
    ctx.warmup,
    () => runScoutProcess(request),
    async () => ({ timed: await timeRipgrep(rgArgv, ctx.root), toFile: await timeRipgrep(rgArgv, ctx.root, undefined, 'file'), resources: await ripgrepResources(rgArgv, ctx.root) }),
  );
  const failed = scout.find((s) => s.error);
  const scoutWall = summarize(scout.map((s) => s.wallMs));
  const rgWall = summarize(rg.map((r) => r.timed.wallMs));
  const rgToFileWall = summarize(rg.map((r) => r.toFile.wallMs));
  const rgResources = rg.map((r) => r.resources).filter((u): u is RipgrepResources => u !== undefined);
  const rgRss = rgResources.map((u) => u.peakRssBytes);
  const notes: string[] = [];
  const medianOf = (values: number[]): string => summarize(values).median.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const cpu = `CPU time, median: Scout's process ${medianOf(scout.map((s) => s.cpuMs))} ms during the call (${medianOf(scout.map((s) => s.systemCpuMs))} ms of it in the kernel, ${medianOf(scout.map((s) => s.minorFaults))} minor page faults; rg's not included)`;
  notes.push(rgResources.length ? `${cpu}; rg ${medianOf(rgResources.map((u) => u.cpuMs))} ms, ${medianOf(rgResources.map((u) => u.minorFaults))} minor page faults.` : `${cpu}.`);
  const phases = scout.map((s) => s.phases).filter((p) => p !== undefined);
  if (phases.length === scout.length) {
    const median = (pick: (p: (typeof phases)[number]) => number): string => summarize(phases.map(pick)).median.toFixed(0);
    notes.unshift(
      `Scout's wall time split, medians: ${median((p) => p.beforeRgMs)} ms before rg starts · ${median((p) => p.rgMs)} ms while rg runs (rg alone: ${rgWall.median.toFixed(0)} ms) · ${median((p) => p.afterRgMs)} ms after rg exits.`,
    );
  }
  // The machine's speed drifts between rounds (other virtual machines on the host): a call set against the rg
  // run beside it shows how much of a ratio's distance from a target is that drift.
  const perRound = scout.map((s, i) => s.wallMs / rg[i]!.timed.wallMs);
  const spread = middleHalf(perRound);
  const rounds = summarize(perRound);
  notes.push(
    `Per round, Scout/rg (each call against the rg run beside it): median ${rounds.median.toFixed(2)}×, middle half ${spread.low.toFixed(2)}–${spread.high.toFixed(2)}×, all ${rounds.min.toFixed(2)}–${rounds.max.toFixed(2)}×.`,
  );
  notes.push(
    `rg writing its stdout to a file (no reader): ${rgToFileWall.median.toFixed(0)} ms, ${((rgToFileWall.median / rgWall.median) * 100).toFixed(0)}% of its time into a drained pipe; Scout/that: ${(scoutWall.median / rgToFileWall.median).toFixed(2)}×.`,
  );
  const noPeak = scout.filter((s) => !s.newPeak).length;
  if (noPeak) notes.push(`${noPeak} of ${scout.length} Scout calls did not raise their process's RSS high-water mark, so their call Δ is an upper bound.`);
  if (!rgRss.length) notes.push('rg peak RSS not measured: /usr/bin/time (GNU time) is not installed.');
  return {
    scout,
    rg,
    scoutSide: {
      label: labels.scout,
      wallMs: scoutWall,
      callRssMiB: summarize(scout.map((s) => s.callPeakRssBytes / MiB)),
      peakRssMiB: summarize(scout.map((s) => s.maxRssAfterBytes / MiB)),
    },
    rgSide: { label: labels.rg, wallMs: rgWall, ...(rgRss.length ? { peakRssMiB: summarize(rgRss.map((b) => b / MiB)) } : {}) },
    rgToFileSide: { label: "rg, the same argv, stdout to a file", wallMs: rgToFileWall },
    ratio: scoutWall.median / rgWall.median,
    rawBytes: summarize(rg.map((r) => r.timed.stdoutBytes)).median,
    ...(failed ? { error: `Scout failed: ${failed.error!.code}: ${failed.error!.message}` } : {}),
    notes,
  };
}

/** One more Scout call of `request`, profiled, when a target was missed or `--profile` asks for it. */
export async function profileIf(ctx: CaseContext, missed: boolean, request: CallRequest): Promise<ProfileSummary | undefined> {
  if (!missed && !ctx.profileAlways) return undefined;
  ctx.log('  profiling one Scout call…');
  return (await runScoutProcess({ ...request, profile: true })).profile;
}

/** `n` bytes as MB (10^6), as the issue states the 20 MB cap. */
export function mb(n: number): string {
  return `${(n / 1e6).toFixed(2)} MB`;
}

/** The argv as one line: the model-visible part of the rg command. */
export function argvLine(argv: readonly string[]): string {
  return `\`rg ${argv.join(' ')}\``;
}
