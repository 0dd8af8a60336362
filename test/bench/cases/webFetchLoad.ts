import { spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createWebFetchTool } from '../../../src/core/web/fetch/tool';
import { startLoopbackServer } from '../../helpers/loopbackServer';
import { memorySpill } from '../../helpers/searchEnv';
import { builtConvertWorker, webFetchConfig, webToolEnv } from '../../helpers/webFetchEnv';
import type { CaseContext } from '../measure';
import type { CaseResult, Check } from '../report';
import { benchPages } from './webFetch';

/** CPU hogs per core while the pages are fetched again (the check: two `yes > /dev/null` per core). */
const HOGS_PER_CORE = 2;

/**
 * The `web-fetch-load` case: the same text under any load. Each page of the web_fetch case is fetched with the
 * default settings on a quiet machine, then again with {@link HOGS_PER_CORE} `yes` processes per core running
 * (output discarded); the complete results (the text the model gets and what was saved with it) must be the
 * same. The conversion budget is the conversion process's CPU time, so a busy machine slows a call down
 * without changing what it says. Target: no page whose result differs.
 */
export async function webFetchLoadCase(ctx: CaseContext): Promise<CaseResult> {
  const pages = benchPages();
  const bodies = new Map(pages.map((p, i) => [`/page${i}`, Buffer.from(p.html, 'utf8')]));
  const server = await startLoopbackServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bodies.get(req.url ?? '')));
  const tool = createWebFetchTool(builtConvertWorker());
  const config = webFetchConfig();
  const fetchAll = async (): Promise<{ text: string; ms: number; format: string }[]> => {
    const results = [];
    for (const i of pages.keys()) {
      const spill = memorySpill();
      const start = performance.now();
      const out = await tool.run(tool.parse({ url: server.url(`/page${i}`) }, config), { ...webToolEnv(config), spill });
      results.push({ text: [out.text, ...spill.texts].join('\n\n'), ms: performance.now() - start, format: out.value.format });
    }
    return results;
  };
  const hogs: ChildProcess[] = [];
  try {
    ctx.log('web-fetch-load: the pages on a quiet machine…');
    const quiet = await fetchAll();
    const cores = os.availableParallelism();
    for (let i = 0; i < cores * HOGS_PER_CORE; i++) hogs.push(spawn('yes', [], { stdio: 'ignore' }));
    ctx.log(`web-fetch-load: the same pages with ${hogs.length} \`yes\` processes running…`);
    const loaded = await fetchAll();
    const load = os.loadavg()[0]!.toFixed(1);
    const checks: Check[] = pages.map((p, i) => {
      const same = quiet[i]!.text === loaded[i]!.text;
      return { what: `${p.name}: the same result with ${HOGS_PER_CORE} \`yes\` per core running`, measured: same ? 0 : 1, limit: 0, unit: 'differing results', met: same };
    });
    return {
      id: 'web-fetch-load',
      title: 'web_fetch under load: the same text on a busy machine',
      facts: [`${cores} cores, ${hogs.length} \`yes > /dev/null\` processes; 1-minute load average at the end: ${load}`],
      sides: pages.flatMap((p, i) => [
        { label: `${p.name}: quiet (${quiet[i]!.format})`, wallMs: { n: 1, median: Math.round(quiet[i]!.ms), min: Math.round(quiet[i]!.ms), max: Math.round(quiet[i]!.ms) } },
        { label: `${p.name}: under load (${loaded[i]!.format})`, wallMs: { n: 1, median: Math.round(loaded[i]!.ms), min: Math.round(loaded[i]!.ms), max: Math.round(loaded[i]!.ms) } },
      ]),
      checks,
      notes: [],
    };
  } finally {
    for (const hog of hogs) hog.kill('SIGKILL');
    await server.close();
  }
}
