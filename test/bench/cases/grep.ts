import { grepArgv } from '../../../src/core/ripgrep/argv';
import { defaultConfig } from '../../../src/core/config';
import { BROAD_TOKEN, SELECTIVE_TOKEN } from '../corpus';
import { MiB, runsText, type CaseContext } from '../measure';
import { identityCheck } from '../outputDigest';
import type { CaseResult, Check } from '../report';
import type { CallRequest } from '../scoutProcess';
import { argvLine, mb, profileIf, sideBySide } from './sideBySide';

/**
 * grep, selective pattern: about 10,000 matching lines over the whole tree, Scout's `grep`
 * against rg run with the very argv Scout builds (`grepArgv`), stdout drained. Target: Scout/rg ≤ 1.10×.
 */
export function grepSelective(ctx: CaseContext): Promise<CaseResult> {
  return grepCase(ctx, {
    id: 'grep-selective',
    title: 'grep, selective pattern',
    pattern: ctx.selectivePattern,
    planted: ctx.corpus?.selective.visibleLines,
    ratioLimit: 1.1,
  });
}

/**
 * grep, broad pattern: raw rg output just under the 20,000,000-byte cap. Targets: Scout/rg
 * ≤ 1.15× and Scout's peak RSS for the call ≤ 2.5× the raw output size.
 */
export function grepBroad(ctx: CaseContext): Promise<CaseResult> {
  return grepCase(ctx, {
    id: 'grep-broad',
    title: 'grep, broad pattern (raw output near the cap)',
    pattern: ctx.broadPattern,
    planted: ctx.corpus?.broad.visibleLines,
    ratioLimit: 1.15,
    rssFactorLimit: 2.5,
  });
}

interface GrepCase {
  readonly id: string;
  readonly title: string;
  readonly pattern: string;
  /** Matching lines the generator planted where grep looks (generated corpus only). */
  readonly planted: number | undefined;
  readonly ratioLimit: number;
  /** Limit of (Scout's call Δ peak RSS) / (raw rg output bytes). */
  readonly rssFactorLimit?: number;
}

async function grepCase(ctx: CaseContext, c: GrepCase): Promise<CaseResult> {
  ctx.log(`${c.id}: ${runsText(ctx.runs, ctx.warmup)}…`);
  const argv = grepArgv(c.pattern, '.');
  const request: CallRequest = { mode: 'call', subject: 'grep', input: { pattern: c.pattern }, root: ctx.root, ...(ctx.warmupPath ? { warmupPath: ctx.warmupPath } : {}) };
  const r = await sideBySide(ctx, request, argv, { scout: 'Scout `grep`, in-process call', rg: "rg, Scout's argv, stdout drained" });
  const summary = r.scout[0]?.summary;
  const cap = defaultConfig().search.rawOutputMaxBytes;
  const facts = [
    argvLine(argv),
    `${summary?.matches?.toLocaleString('en-US') ?? '?'} matches in ${summary?.files?.toLocaleString('en-US') ?? '?'} files${c.planted !== undefined ? ` (${c.planted.toLocaleString('en-US')} planted)` : ''}`,
    `raw rg output ${mb(r.rawBytes)} (cap ${mb(cap)})`,
    `model text ${r.scout[0]?.textChars.toLocaleString('en-US') ?? '?'} chars, spill ${mb(r.scout[0]?.spillBytes ?? 0)}`,
    `${runsText(ctx.runs, ctx.warmup)}`,
  ];
  const checks: Check[] = [{ what: 'Scout/rg, median wall', measured: r.ratio, limit: c.ratioLimit, unit: '×', met: r.ratio <= c.ratioLimit }];
  if (c.rssFactorLimit !== undefined) {
    const factor = (r.scoutSide.callRssMiB!.median * MiB) / r.rawBytes;
    checks.push({ what: "Scout call's peak RSS Δ / raw output size", measured: factor, limit: c.rssFactorLimit, unit: '×', met: factor <= c.rssFactorLimit });
  }
  const identity = identityCheck(c.id, r.scout.map((s) => s.outputSha256), ctx.corpus !== undefined && c.pattern === (c.id === 'grep-broad' ? BROAD_TOKEN : SELECTIVE_TOKEN));
  if (identity) checks.push(identity);
  const notes = [...r.notes];
  if (c.planted !== undefined && summary?.matches !== c.planted) notes.push(`Scout reported ${summary?.matches} matches but ${c.planted} lines were planted: check the corpus.`);
  if (r.rawBytes > cap) notes.push('The raw output exceeds the cap, so Scout stops rg early: the figures compare different work.');
  const missed = checks.some((k) => !k.met);
  const profile = r.error ? undefined : await profileIf(ctx, missed, request);
  return {
    id: c.id,
    title: c.title,
    facts,
    sides: [r.scoutSide, r.rgSide, r.rgToFileSide],
    checks: r.error ? [] : checks,
    notes,
    ...(profile ? { profile } : {}),
    ...(r.error ? { error: r.error } : {}),
  };
}
