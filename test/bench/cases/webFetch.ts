import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { RenderMessage, RenderRequest } from '../../../src/core/web/convert/render';
import { ConvertWorkerPool, CONVERT_HEAP_LIMIT_MB } from '../../../src/core/web/convert/workerPool';
import { htmlToMarkdown } from '../../../src/core/web/convert/markdown';
import { createWebFetchTool } from '../../../src/core/web/fetch/tool';
import { startLoopbackServer } from '../../helpers/loopbackServer';
import { memorySpill } from '../../helpers/searchEnv';
import { corpusPage } from '../../helpers/webCorpus';
import { builtConvertWorker, webFetchConfig, webToolEnv } from '../../helpers/webFetchEnv';
import { flateBomb, pdfDocument } from '../../helpers/pdfFixtures';
import { articlePage, densePages } from '../../helpers/webPages';
import { MiB, summarize, type Stats } from '../measure';

/**
 * How the web_fetch benchmark measures:
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
 * - **Conversion process peak RSS**: dist/convertWorker.js forked as the pool forks it (same heap limit and
 *   serialization), given one body; its `VmHWM` from `/proc/<pid>/status` once it has answered (Linux), and
 *   before the body is sent (`baseRssMiB`). For the 5 MiB article page, the review's dense pages (5 MiB of
 *   links, a 5 MiB single table) and a PDF whose content stream inflates to 800 MB.
 * - **Parallel calls**: 14 concurrent web_fetch calls of a 20 KB page (wall time, longest stall), and three
 *   20 KB pages fetched while a 1 MiB table converts (each one's time and format: they must not wait for it).
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
  readonly memory: readonly ProcessPeak[];
  readonly concurrent: { readonly calls: number; readonly wallMs: number; readonly maxStallMs: number };
  readonly besideHeavy: { readonly heavyMs: number; readonly heavyFormat: string; readonly smallMs: readonly number[]; readonly smallFormats: readonly string[] };
  readonly extraction: readonly ExtractionFigures[];
}

/** One conversion process's memory for one body (see {@link WebFetchBench}). */
export interface ProcessPeak {
  readonly page: string;
  readonly baseRssMiB: number;
  readonly peakRssMiB: number;
  readonly conversionMs: number;
  /** What came back: the conversion mode (and parts), or the PDF's status. */
  readonly outcome: string;
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
  const memory: ProcessPeak[] = [];
  const html = (name: string, text: string) => ({ name, body: Buffer.from(text, 'utf8'), kind: 'html' as const });
  const bomb = pdfDocument([['BOMBTEXT']], { compressedFirstPage: await flateBomb('BOMBTEXT', 800 * MiB) });
  for (const probe of [html(largest.name, largest.html), ...densePages().map((p) => html(p.name, p.html)), { name: `PDF of ${(bomb.length / MiB).toFixed(1)} MiB whose content stream inflates to 800 MiB`, body: bomb, kind: 'pdf' as const }]) {
    memory.push({ page: probe.name, ...(await processPeak(worker, probe.body, probe.kind, config.webFetch.conversionTimeoutMs)) });
  }
  const concurrent = await concurrentCalls(tool, config);
  const besideHeavy = await smallBesideHeavy(tool, config);

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

  return { idleStallMs: round(idle.max / 1e6), pages: figures, memory, concurrent, besideHeavy, extraction };
}

/**
 * Converts `body` in dist/convertWorker.js forked as the pool forks it, and gives that process's peak RSS
 * before the body is sent and once it has answered, in MiB (`VmHWM`; see {@link WebFetchBench}).
 */
async function processPeak(workerScript: string, body: Buffer, kind: 'html' | 'pdf', budgetMs: number): Promise<Omit<ProcessPeak, 'page'>> {
  const child = fork(workerScript, [], { execArgv: [`--max-old-space-size=${CONVERT_HEAP_LIMIT_MB}`], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const hwm = (): number => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  try {
    return await new Promise((resolve, reject) => {
      let base = 0;
      let start = 0;
      child.on('message', (m: RenderMessage | { type: 'ready' }) => {
        if (m.type === 'ready') {
          base = hwm();
          start = performance.now();
          const request: RenderRequest = { bytes: body, contentType: kind === 'pdf' ? 'application/pdf' : 'text/html; charset=utf-8', kind, sniffMarkup: kind === 'html', url: 'https://example.com/', rawChars: 200_000, extractMainContent: true, cpuBudgetMs: budgetMs };
          child.send(request as never);
        } else if (m.type === 'converted') {
          const page = m.page;
          let outcome: string = page.kind;
          if (page.kind === 'html') outcome = page.conversion.mode === 'markdown' && page.conversion.segments ? `markdown in ${page.conversion.segments.converted} of ${page.conversion.segments.count} parts` : page.conversion.mode;
          if (page.kind === 'pdf') outcome = page.pdf.status === 'text' && page.pdf.unreadPages.length > 0 ? `pdf text, ${page.pdf.unreadPages.length} page unread (stream limit)` : `pdf ${page.pdf.status}`;
          resolve({ baseRssMiB: round(base), peakRssMiB: round(hwm()), conversionMs: round(performance.now() - start), outcome });
        }
      });
      child.on('exit', (code, signal) => reject(new Error(`the conversion process exited (${code ?? signal})`)));
    });
  } finally {
    child.kill('SIGKILL');
  }
}

/** 14 web_fetch calls of a 20 KB page at once: wall time and the calling thread's longest event-loop stall. */
async function concurrentCalls(tool: ReturnType<typeof createWebFetchTool>, config: ReturnType<typeof webFetchConfig>): Promise<WebFetchBench['concurrent']> {
  const page = articlePage(20_000, 10).html;
  const server = await startLoopbackServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  try {
    const url = server.url('/article');
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const start = performance.now();
    await Promise.all(Array.from({ length: 14 }, () => tool.run(tool.parse({ url }, config), webToolEnv(config))));
    const wallMs = performance.now() - start;
    delay.disable();
    return { calls: 14, wallMs: round(wallMs), maxStallMs: round(delay.max / 1e6) };
  } finally {
    await server.close();
  }
}

/** Three 20 KB pages fetched while a 1 MiB table converts: how long each took, and what it gave. */
async function smallBesideHeavy(tool: ReturnType<typeof createWebFetchTool>, config: ReturnType<typeof webFetchConfig>): Promise<WebFetchBench['besideHeavy']> {
  let table = '<html><body><h1>T</h1><table><tr><th>a</th><th>b</th><th>c</th></tr>';
  while (table.length < MiB) table += '<tr><td>cell</td><td>1234</td><td>x y z</td></tr>';
  const bodies: Record<string, string> = { '/heavy': `${table}</table></body></html>`, '/a': articlePage(20_000, 41).html, '/b': articlePage(20_000, 42).html, '/c': articlePage(20_000, 43).html };
  const server = await startLoopbackServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bodies[req.url ?? '']));
  try {
    const timed = async (path: string): Promise<{ ms: number; format: string }> => {
      const start = performance.now();
      const out = await tool.run(tool.parse({ url: server.url(path) }, config), webToolEnv(config));
      return { ms: round(performance.now() - start), format: out.value.format };
    };
    const heavy = timed('/heavy');
    await new Promise((resolve) => setTimeout(resolve, 200)); // the heavy page is converting
    const small = await Promise.all(['/a', '/b', '/c'].map(timed));
    const h = await heavy;
    return { heavyMs: h.ms, heavyFormat: h.format, smallMs: small.map((s) => s.ms), smallFormats: small.map((s) => s.format) };
  } finally {
    await server.close();
  }
}

function roundStats(s: Stats): Stats {
  return { n: s.n, median: round(s.median), min: round(s.min), max: round(s.max) };
}
