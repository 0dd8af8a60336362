import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { CaseContext } from '../measure';
import type { CaseResult, Check, Side } from '../report';
import { benchWebFetch, type WebFetchBench } from './webFetch';

const REPO = path.resolve(__dirname, '..', '..', '..');

/**
 * The `web_fetch` case (issue 4, measured by `benchWebFetch` in webFetch.ts) in this script's table format.
 * It runs in a fresh Node process (this file as its entry point), so its peak RSS is its own and not the
 * bench driver's. Targets: event-loop stall < 20 ms on every page; the 200,000-character page converted in
 * < 300 ms.
 */
export async function webFetchCase(ctx: CaseContext): Promise<CaseResult> {
  ctx.log(`web-fetch: ${ctx.runs} warm calls per page after 1 cold one…`);
  const r = await new Promise<WebFetchBench>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, String(ctx.runs)], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as WebFetchBench) : reject(new Error(`web_fetch benchmark exited with ${code}`))));
  });
  const sides: Side[] = r.pages.flatMap((p) => [
    { label: `${p.name}: web_fetch call, warm`, wallMs: p.callMs, peakRssMiB: { n: 1, median: p.peakRssMiB, min: p.peakRssMiB, max: p.peakRssMiB } },
    { label: `${p.name}: conversion alone (worker)`, wallMs: p.conversionMs },
  ]);
  const checks: Check[] = [
    ...r.pages.map((p) => ({ what: `${p.name}: longest event-loop stall`, measured: p.maxStallMs, limit: r.targets.stallMs, unit: 'ms', strict: true, met: p.maxStallMs < r.targets.stallMs })),
    { what: `${r.pages[0]!.name}: conversion, median`, measured: r.pages[0]!.conversionMs.median, limit: r.targets.convert200kMs, unit: 'ms', strict: true, met: r.pages[0]!.conversionMs.median < r.targets.convert200kMs },
  ];
  return {
    id: 'web-fetch',
    title: 'web_fetch, fetch and convert from a loopback server',
    facts: [
      ...r.pages.map((p) => `${p.name}: ${p.htmlChars.toLocaleString('en-US')} chars of HTML → ${p.outputChars.toLocaleString('en-US')} chars of ${p.format}${p.truncated ? ' (truncated)' : ''}, first call ${p.coldMs} ms`),
      `${ctx.runs} warm calls per page`,
    ],
    sides,
    checks,
    notes: [
      'Peak RSS is the whole process (Node, tsx and the conversion worker), pages run smallest first.',
      `Main-content extraction saves ${r.extraction.map((e) => `${e.savedPercent}% of ~${e.wholeTokens.toLocaleString('en-US')} tokens (${e.page})`).join(', ')}.`,
    ],
  };
}

if (require.main === module) {
  void benchWebFetch({ runs: Number(process.argv[2]) || undefined }).then((r) => process.stdout.write(`${JSON.stringify(r)}\n`));
}
