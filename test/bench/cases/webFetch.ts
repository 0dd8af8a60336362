import { spawn } from 'node:child_process';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { ConvertWorkerPool } from '../../../src/core/web/convert/workerPool';
import { htmlToMarkdown } from '../../../src/core/web/convert/markdown';
import { createWebFetchTool } from '../../../src/core/web/fetch/tool';
import { startLoopbackServer } from '../../helpers/loopbackServer';
import { memorySpill } from '../../helpers/searchEnv';
import { corpusPage } from '../../helpers/webCorpus';
import { builtConvertWorker, webFetchConfig, webToolEnv } from '../../helpers/webFetchEnv';
import { articlePage } from '../../helpers/webPages';
import { MiB, summarize, type Stats } from '../measure';

/**
 * How the web_fetch benchmark measures (issues 4, 11 and 15):
 *
 * - **Call time**: `tool.parse` + `tool.run` of web_fetch against a page served from a loopback server in
 *   this process (the page is pre-encoded, so serving it costs a memcpy), with the real conversion worker
 *   (dist/convertWorker.js) and a spill writer that keeps the complete result in memory (the host's own cost
 *   of saving it, an untitled document or a file, is not web_fetch's). The first call of each page is
 *   reported apart (`coldMs`: worker start-up and JIT warm-up); the rest are warm, as in a long-running
 *   extension host whose worker stays warm.
 * - **Conversion time**: the worker's decode-and-convert of the same whole body alone
 *   (`ConvertWorkerPool.render`, message round trip included), warm.
 * - **Longest event-loop stall**: `perf_hooks.monitorEventLoopDelay` (1 ms resolution) enabled around each
 *   call on this (the calling) thread; the maximum over all calls of the page. This is what the extension
 *   host would feel. `idleStallMs` is the same measure with nothing running, the machine's noise floor;
 *   `mainThreadBusyMs` (event-loop utilisation) is the calling thread's own work, which load does not inflate.
 * - **Worker peak RSS** (5 MiB page): a fresh `node` process that does nothing but start dist/convertWorker.js
 *   and have it convert the page, so its peak RSS (`process.resourceUsage().maxRSS`) is the worker's plus a
 *   bare Node main thread (`baseRssMiB`, measured before the worker starts).
 * - **Token saving of main-content extraction**: Markdown characters with `extractMainContent` on and off
 *   for three generated article pages; tokens are estimated as characters / 4.
 */
export interface WebFetchBench {
  /**
   * Longest event-loop delay over one second with nothing running, measured the same way: the noise floor
   * of this machine (scheduling, timers), to read the per-page stalls against.
   */
  readonly idleStallMs: number;
  readonly pages: readonly PageFigures[];
  readonly workerMemory: { readonly page: string; readonly baseRssMiB: number; readonly peakRssMiB: number; readonly conversionMs: number; readonly format: string };
  readonly extraction: readonly ExtractionFigures[];
}

export interface PageFigures {
  readonly name: string;
  readonly htmlChars: number;
  readonly bytes: number;
  readonly coldMs: number;
  readonly callMs: Stats;
  readonly conversionMs: Stats;
  readonly maxStallMs: number;
  /**
   * The same measure around the conversions alone (the calling thread only posts the body and receives the
   * result): the floor that the machine's load and the worker's own CPU use set under `maxStallMs`.
   */
  readonly conversionStallMs: number;
  /** Median time the calling thread's event loop was busy during one warm call (`eventLoopUtilization().active`). */
  readonly mainThreadBusyMs: number;
  readonly outputChars: number;
  /** Characters of the complete result saved by the spill writer; 0 when the result fit. */
  readonly spilledChars: number;
  readonly format: string;
  readonly truncated: boolean;
}

export interface ExtractionFigures {
  readonly page: string;
  readonly wholeTokens: number;
  readonly extractedTokens: number;
  /** Share of tokens extraction saves, in percent. */
  readonly savedPercent: number;
}

/** The pages whose calls are timed, smallest first. */
export function benchPages(): { name: string; html: string }[] {
  return [
    { name: '200,000-character article page', html: articlePage(199_000, 21).html },
    { name: '1.3 MB article page', html: articlePage(1_300_000, 22).html },
    { name: '1.3 MB news page, 900 KB of head scripts', html: corpusPage('news', 23, { headChars: 900_000, articleChars: 15_000, comments: 40 }).html },
    { name: '5 MiB article page', html: articlePage(5 * MiB - 300, 24).html },
  ];
}

const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** Runs the web_fetch benchmark case; `runs` warm calls per page after one cold call. */
export async function benchWebFetch(options: { runs?: number } = {}): Promise<WebFetchBench> {
  const runs = options.runs ?? 9;
  const pages = benchPages();
  const bodies = new Map(pages.map((p, i) => [`/page${i}`, Buffer.from(p.html, 'utf8')]));
  const server = await startLoopbackServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bodies.get(req.url ?? '')));
  const worker = builtConvertWorker();
  const tool = createWebFetchTool(worker);
  const pool = new ConvertWorkerPool(worker);
  const config = webFetchConfig();
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  idle.disable();
  const figures: PageFigures[] = [];
  try {
    for (const [i, page] of pages.entries()) {
      const url = server.url(`/page${i}`);
      const bytes = bodies.get(`/page${i}`)!;
      const call = async (): Promise<{ ms: number; stallMs: number; busyMs: number; text: string; spilledChars: number; format: string; truncated: boolean }> => {
        const spill = memorySpill();
        const delay = monitorEventLoopDelay({ resolution: 1 });
        delay.enable();
        const utilization = performance.eventLoopUtilization();
        const start = performance.now();
        const out = await tool.run(tool.parse({ url }, config), { ...webToolEnv(config), spill });
        const ms = performance.now() - start;
        const busyMs = performance.eventLoopUtilization(utilization).active;
        delay.disable();
        return { ms, stallMs: delay.max / 1e6, busyMs, text: out.text, spilledChars: spill.texts[0]?.length ?? 0, format: out.value.format, truncated: out.value.truncated };
      };
      const cold = await call();
      const warm = [];
      for (let r = 0; r < runs; r++) warm.push(await call());
      const conversions: number[] = [];
      const conversionDelay = monitorEventLoopDelay({ resolution: 1 });
      for (let r = 0; r < runs; r++) {
        conversionDelay.enable();
        const start = performance.now();
        await pool.render(
          { bytes: Buffer.from(bytes), contentType: 'text/html; charset=utf-8', kind: 'html', sniffMarkup: true, url, rawChars: config.webFetch.fetchMaxOutputChars, extractMainContent: true },
          config.webFetch.conversionTimeoutMs,
          new AbortController().signal,
        );
        conversions.push(performance.now() - start);
        conversionDelay.disable();
      }
      figures.push({
        name: page.name,
        htmlChars: page.html.length,
        bytes: bytes.length,
        coldMs: round(cold.ms),
        callMs: roundStats(summarize(warm.map((w) => w.ms))),
        conversionMs: roundStats(summarize(conversions)),
        maxStallMs: round(Math.max(cold.stallMs, ...warm.map((w) => w.stallMs))),
        conversionStallMs: round(conversionDelay.max / 1e6),
        mainThreadBusyMs: round(summarize(warm.map((w) => w.busyMs)).median),
        outputChars: cold.text.length,
        spilledChars: cold.spilledChars,
        format: cold.format,
        truncated: cold.truncated,
      });
    }
  } finally {
    await Promise.all([server.close(), pool.dispose()]);
  }

  const largest = pages.at(-1)!;
  const workerMemory = { page: largest.name, ...(await workerPeakRss(worker, bodies.get(`/page${pages.length - 1}`)!, config.webFetch.conversionTimeoutMs)) };

  const extraction = [
    { page: 'news article, 15 kB', html: articlePage(15_000, 31, 'City council approves new transit budget').html },
    { page: 'technical blog post, 40 kB', html: articlePage(40_000, 32, 'Profiling a slow build with flame graphs').html },
    { page: 'long-form feature, 90 kB', html: articlePage(90_000, 33, 'How undersea cables carry the internet').html },
  ].map(({ page, html }) => {
    const chars = (extractMainContent: boolean): number => {
      const c = htmlToMarkdown(html, { baseUrl: 'https://news.example/story', extractMainContent });
      return c.mode === 'markdown' ? c.markdown.length : 0;
    };
    const whole = Math.ceil(chars(false) / 4);
    const extracted = Math.ceil(chars(true) / 4);
    return { page, wholeTokens: whole, extractedTokens: extracted, savedPercent: round((1 - extracted / whole) * 100) };
  });

  return { idleStallMs: round(idle.max / 1e6), pages: figures, workerMemory, extraction };
}

/**
 * Converts `body` in dist/convertWorker.js started by a fresh, otherwise idle `node` process, and gives that
 * process's RSS before the worker starts and its peak, in MiB (see {@link WebFetchBench}).
 */
async function workerPeakRss(workerScript: string, body: Buffer, budgetMs: number): Promise<{ baseRssMiB: number; peakRssMiB: number; conversionMs: number; format: string }> {
  const script = `
    const { Worker } = require('node:worker_threads');
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c)).on('end', () => {
      const body = Buffer.concat(chunks);
      const base = process.resourceUsage().maxRSS;
      const worker = new Worker(${JSON.stringify(workerScript)}, { resourceLimits: { maxOldGenerationSizeMb: 512 } });
      const start = performance.now();
      worker.on('message', (m) => {
        if (m.type !== 'converted') return;
        const ms = performance.now() - start;
        const format = m.page.kind === 'html' ? m.page.conversion.mode : m.page.kind;
        process.stdout.write(JSON.stringify({ base, peak: process.resourceUsage().maxRSS, ms, format }));
        worker.terminate();
      });
      worker.postMessage({ bytes: new Uint8Array(body), contentType: 'text/html; charset=utf-8', kind: 'html', sniffMarkup: true, url: 'https://example.com/', rawChars: 200000, extractMainContent: true, deadline: Date.now() + ${budgetMs} });
    });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stdin.end(body);
  await new Promise<void>((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`the memory probe exited with ${code}`)))));
  const r = JSON.parse(out) as { base: number; peak: number; ms: number; format: string };
  return { baseRssMiB: round((r.base * 1024) / MiB), peakRssMiB: round((r.peak * 1024) / MiB), conversionMs: round(r.ms), format: r.format };
}

function roundStats(s: Stats): Stats {
  return { n: s.n, median: round(s.median), min: round(s.min), max: round(s.max) };
}
