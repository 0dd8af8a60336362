import { globArgv } from '../../../src/core/ripgrep/argv';
import { BENCH_RG, runsText, summarize, timeRipgrep, type CaseContext } from '../measure';
import type { CaseResult, Check } from '../report';
import { identityCheck } from '../outputDigest';
import type { CallRequest } from '../scoutProcess';
import { compareWithSortedWalk } from './globPlan';
import { argvLine, mb, profileIf, sideBySide } from './sideBySide';

/**
 * glob `*` over the whole tree: every file, mtime-ordered, an over-cap sampled page plus the spill
 * of the complete list, against rg with glob's own argv (`--files --sort=modified --no-ignore --hidden` and
 * the VCS excludes). Target: Scout/rg ≤ 1.10×.
 */
export async function globWhole(ctx: CaseContext): Promise<CaseResult> {
  ctx.log(`glob: ${runsText(ctx.runs, ctx.warmup)}…`);
  const argv = globArgv('*', '.');
  const request: CallRequest = { mode: 'call', subject: 'glob', input: { pattern: '*' }, root: ctx.root, ...(ctx.warmupPath ? { warmupPath: ctx.warmupPath } : {}) };
  const r = await sideBySide(ctx, request, argv, { scout: 'Scout `glob`, in-process call', rg: "rg, glob's argv, stdout drained" });
  const first = r.scout[0];
  const checks: Check[] = [{ what: 'Scout/rg, median wall', measured: r.ratio, limit: 1.1, unit: '×', met: r.ratio <= 1.1 }];
  const identity = identityCheck('glob', r.scout.map((s) => s.outputSha256), ctx.corpus !== undefined);
  if (identity) checks.push(identity);
  const profile = r.error ? undefined : await profileIf(ctx, !checks[0]!.met, request);
  return {
    id: 'glob',
    title: 'glob `*` over the whole tree (mtime order, sampled page)',
    facts: [
      argvLine(argv),
      `${first?.summary?.files?.toLocaleString('en-US') ?? '?'} files${ctx.corpus ? ` (corpus: ${ctx.corpus.files.toLocaleString('en-US')} files, less .git/)` : ''}`,
      `raw rg output ${mb(r.rawBytes)}`,
      `model text ${first?.textChars.toLocaleString('en-US') ?? '?'} chars, spill ${mb(first?.spillBytes ?? 0)}`,
      `${runsText(ctx.runs, ctx.warmup)}`,
    ],
    sides: [r.scoutSide, r.rgSide, r.rgToFileSide],
    checks: r.error ? [] : checks,
    notes: r.notes,
    ...(profile ? { profile } : {}),
    ...(r.error ? { error: r.error } : {}),
  };
}

/**
 * glob by a faster plan: `--sort=modified` makes rg walk on one thread, so measure the unsorted
 * parallel walk plus a stat pass and sort in Node (`listByParallelWalk`), check whether its order is
 * identical to rg's, and say whether glob should adopt it. Report only; no target.
 */
export async function globPlan(ctx: CaseContext): Promise<CaseResult> {
  ctx.log(`glob-plan: ${runsText(ctx.runs, ctx.warmup)}…`);
  const sortedArgv = globArgv('*', '.');
  const unsortedArgv = sortedArgv.filter((a) => a !== '--sort=modified');
  const request: CallRequest = { mode: 'call', subject: 'glob-plan', input: {}, root: ctx.root, ...(ctx.warmupPath ? { warmupPath: ctx.warmupPath } : {}) };
  const r = await sideBySide(ctx, request, sortedArgv, {
    scout: 'plan: parallel `rg --files` + stat + sort, in-process',
    rg: 'rg `--sort=modified` (glob\'s argv), stdout drained',
  });
  const walkOnly: number[] = [];
  for (let i = 0; i < ctx.runs; i++) walkOnly.push((await timeRipgrep(unsortedArgv, ctx.root)).wallMs);
  const order = await compareWithSortedWalk(BENCH_RG, ctx.root);
  const faster = r.ratio < 1;
  const verdict = faster && order.identical
    ? `Adopt: the plan is ${((1 - r.ratio) * 100).toFixed(0)}% faster and its output is identical.`
    : !faster
      ? `Keep --sort=modified: the plan is not faster here (${r.ratio.toFixed(2)}× the seed argv's time).`
      : order.differOnlyWithinTies
        ? `Not adopted as is: the plan is ${((1 - r.ratio) * 100).toFixed(0)}% faster, but its order differs among files with equal modification times (rg keeps its single-threaded walk order there, a parallel walk cannot). Adopting it means choosing path order for ties.`
        : 'Not adopted: the plan is faster but lists different files or a different time order.';
  return {
    id: 'glob-plan',
    title: 'glob, the same result by a faster plan',
    facts: [`plan: ${argvLine(unsortedArgv)} then fs.stat (bigint mtime) of each path, sort by mtime, ties by path`, `baseline: ${argvLine(sortedArgv)}`, `${runsText(ctx.runs, ctx.warmup)}`],
    sides: [r.scoutSide, r.rgSide, { label: 'walk only: `rg --files` unsorted, stdout drained', wallMs: summarize(walkOnly) }],
    checks: [],
    notes: [
      `Plan/seed argv, median wall: ${r.ratio.toFixed(2)}×.`,
      `Order: ${order.identical ? 'identical' : `not identical — ${order.differingPositions.toLocaleString('en-US')} of ${order.files.toLocaleString('en-US')} positions differ; same paths: ${order.samePaths ? 'yes' : 'no'}; same sequence of modification times: ${order.differOnlyWithinTies ? 'yes' : 'no'}`} (${order.tieGroups.toLocaleString('en-US')} timestamps shared by ${order.filesInTies.toLocaleString('en-US')} files).`,
      verdict,
      ...r.notes,
    ],
    ...(r.error ? { error: r.error } : {}),
  };
}
