import { runScoutProcess, summarize, type CaseContext } from '../measure';
import type { CaseResult } from '../report';

/** Abort points, ms after the call starts: spread over the broad grep's run (about half a second here). */
function abortDelays(count: number): number[] {
  return Array.from({ length: count }, (_, i) => Math.round(40 + (i * 360) / Math.max(1, count - 1)));
}

/**
 * Cancellation latency: a grep for the broad pattern over the whole tree is aborted mid-run
 * (`AbortController.abort()`, what the VS Code cancellation token fires), at points spread over the run.
 * Measured: ms until rg's /proc entry shows it exited, and ms until the call settled with SEARCH_ABORTED
 * (which needs rg reaped and its pipes closed). Target: rg gone ≤ 100 ms; checked on the slowest sample of
 * the call settling, the later of the two.
 */
export async function cancellation(ctx: CaseContext): Promise<CaseResult> {
  const delaysMs = abortDelays(Math.max(10, ctx.runs * 2));
  ctx.log(`cancel: ${delaysMs.length} aborted greps…`);
  const report = await runScoutProcess({ mode: 'cancel', input: { pattern: ctx.broadPattern }, root: ctx.root, delaysMs });
  const aborted = report.samples.filter((s) => s.outcome === 'SEARCH_ABORTED');
  const others = report.samples.filter((s) => s.outcome !== 'SEARCH_ABORTED');
  const facts = [
    `grep \`${ctx.broadPattern}\` over the whole tree, aborted ${delaysMs[0]}–${delaysMs[delaysMs.length - 1]} ms after the call started`,
    `${aborted.length} of ${report.samples.length} calls aborted mid-run`,
  ];
  if (!aborted.length) {
    return { id: 'cancel', title: 'cancellation latency', facts, sides: [], checks: [], notes: [], error: `no call was aborted mid-run: ${others.map((o) => o.outcome).join('; ')}` };
  }
  const settled = summarize(aborted.map((s) => s.settledMs));
  return {
    id: 'cancel',
    title: 'cancellation latency',
    facts,
    sides: [
      { label: 'abort → rg exited (/proc/<pid>/stat)', wallMs: summarize(aborted.map((s) => s.rgExitedMs)) },
      { label: 'abort → call settled (SEARCH_ABORTED, rg reaped)', wallMs: settled },
    ],
    checks: [{ what: 'abort → rg gone and call settled, slowest sample', measured: settled.max, limit: 100, unit: 'ms', met: settled.max <= 100 }],
    notes: others.map((o) => `A call at ${o.abortedAtMs.toFixed(0)} ms was not aborted mid-run: ${o.outcome}.`),
  };
}
