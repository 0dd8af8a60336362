import type { CaseContext, Stats } from '../measure';
import type { CaseResult } from '../report';
import { benchWorkspaceSearch, type Timing } from './workspaceSearch';

const stats = (t: Timing): Stats => ({ n: t.runs, median: t.medianMs, min: t.minMs, max: t.maxMs });
const single = (v: number): Stats => ({ n: 1, median: v, min: v, max: v });

/**
 * The `workspace_search` case (measured by `benchWorkspaceSearch` in workspaceSearch.ts on its own 2,000-file
 * corpus, since the tool's budgets cap what it scans) in this script's table format.
 * Targets: Scout/rg ≤ 2× and peak RSS < 150 MiB.
 */
export async function workspaceSearchCase(ctx: CaseContext): Promise<CaseResult> {
  ctx.log(`workspace-search: ${ctx.runs} runs after 1 warm-up…`);
  const r = await benchWorkspaceSearch({ runs: ctx.runs, profile: ctx.profileAlways });
  return {
    id: 'workspace-search',
    title: 'workspace_search, literal query over its budget-filling corpus',
    facts: [
      `corpus ${r.corpus.root}: ${r.corpus.files.toLocaleString('en-US')} files, ${(r.corpus.bytes / 2 ** 20).toFixed(0)} MiB`,
      `query \`${r.corpus.query}\`: Scout ${r.scout.matchCount} matches (scanned ${r.scout.scannedFiles} files${r.scout.truncated ? ', truncated' : ''}), rg ${r.ripgrep.matches} in ${r.ripgrep.filesWithMatches} files`,
      'baseline `rg -F -i --count-matches`',
      `${ctx.runs} runs after 1 warm-up, all Scout runs in one process`,
    ],
    sides: [
      { label: 'Scout `workspace_search`, in-process call', wallMs: stats(r.scout), peakRssMiB: single(r.scout.peakRssMiB) },
      { label: 'rg -F -i --count-matches', wallMs: stats(r.ripgrep) },
    ],
    checks: [
      { what: 'Scout/rg, median wall', measured: r.ratio, limit: r.targets.ratio, unit: '×', met: r.ratio <= r.targets.ratio },
      { what: 'Scout process peak RSS', measured: r.scout.peakRssMiB, limit: r.targets.peakRssMiB, unit: 'MiB', strict: true, met: r.scout.peakRssMiB < r.targets.peakRssMiB },
    ],
    notes: [
      `Peak RSS is the whole Scout process (Node runtime included; ${r.scout.baselineRssMiB} MiB before the first search).`,
      ...(r.profile ? ['The profile is of one scan run on the main thread of that process (the same code the worker runs), after a warm-up scan.'] : []),
    ],
    ...(r.profile ? { profile: r.profile } : {}),
  };
}
