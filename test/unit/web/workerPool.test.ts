import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createWebFetchTool } from '../../../src/core/web/fetch/tool';
import { ConvertWorkerPool, MAX_CONVERT_WORKERS, type RenderResult } from '../../../src/core/web/convert/workerPool';
import type { ConvertedMessage, RenderMessage, RenderRequest } from '../../../src/core/web/convert/render';
import type { ReadyMessage } from '../../../src/core/web/convert/workerReady';
import type { DuckDuckGoPage } from '../../../src/core/web/search/providers/duckduckgoPage';
import { pdfDocument } from '../../helpers/pdfFixtures';
import { builtConvertWorker, webToolEnv } from '../../helpers/webFetchEnv';
import { articlePage } from '../../helpers/webPages';

type Request = Omit<RenderRequest, 'deadline'>;

const request = (html: string, rawChars = 200_000, contentType = 'text/html'): Request => ({
  bytes: Buffer.from(html, 'utf8'),
  contentType,
  kind: 'html',
  sniffMarkup: true,
  url: 'https://example.com/',
  rawChars,
  extractMainContent: true,
});

/** The Markdown of a converted HTML page, or why there is none. */
function markdownOf(result: RenderResult): string {
  const page = result.page;
  if (page?.kind === 'html' && page.conversion.mode === 'markdown') return page.conversion.markdown;
  return `(no Markdown: ${JSON.stringify(page ?? result.failure)})`;
}

/** The stand-in worker of fixtures/stallingConvertWorker.js: it stalls on request, so tests control time. */
const STALLING_WORKER = path.join(__dirname, 'fixtures', 'stallingConvertWorker.js');

describe('web/convert ConvertWorkerPool', function () {
  this.timeout(30_000);
  const never = new AbortController().signal;
  const pools: ConvertWorkerPool[] = [];
  const poolOf = (script: string, maxWorkers = MAX_CONVERT_WORKERS): ConvertWorkerPool => {
    const created = new ConvertWorkerPool(script, 60_000, maxWorkers);
    pools.push(created);
    return created;
  };
  after(() => Promise.all(pools.map((p) => p.dispose())));

  it('decodes and converts in a worker, and serves calls one after another', async () => {
    const pool = poolOf(builtConvertWorker());
    const first = await pool.render(request('<h2>One</h2>'), 10_000, never);
    const second = await pool.render(request('<h2>Two</h2>'), 10_000, never);
    assert.deepEqual([markdownOf(first), markdownOf(second)], ['## One', '## Two']);
    assert.equal(first.charset, 'utf-8');
  });

  it('serves concurrent calls', async () => {
    const pool = poolOf(builtConvertWorker());
    const results = await Promise.all(['a', 'b', 'c'].map((t) => pool.render(request(`<p>${t}</p>`), 10_000, never)));
    assert.deepEqual(results.map(markdownOf), ['a', 'b', 'c']);
  });

  describe('handing the body over (issue 15: the calling thread neither copies nor decodes it)', () => {
    it('transfers a body that owns its buffer: the caller is left with an empty view, the worker gets every byte', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const bytes = Buffer.alloc(3 * 1024 * 1024, 0x61); // a buffer of its own, as the HTTP client's bodies are
      const result = await pool.render({ ...request(''), bytes }, 10_000, never);
      assert.equal(bytes.byteLength, 0, 'the buffer was transferred, not copied');
      assert.equal(JSON.parse(result.page?.kind === 'text' ? result.page.text : '{}').bytes, 3 * 1024 * 1024);
    });

    it('copies once a body that shares its buffer (a slice, or a small Buffer from the shared pool), leaving it intact', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const whole = Buffer.alloc(10_000, 0x62);
      for (const bytes of [whole.subarray(100, 5100), Buffer.from('<p>small</p>')]) {
        const length = bytes.length;
        const result = await pool.render({ ...request(''), bytes }, 10_000, never);
        assert.equal(bytes.length, length);
        assert.equal(JSON.parse(result.page?.kind === 'text' ? result.page.text : '{}').bytes, length);
      }
      assert.equal(whole.length, 10_000);
    });

    it('tells the worker its deadline: 90 % of the budget from the call', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const before = Date.now();
      const result = await pool.render(request('<p>x</p>'), 10_000, never);
      const { deadline } = JSON.parse(result.page?.kind === 'text' ? result.page.text : '{}') as { deadline: number };
      assert.ok(deadline >= before + 9000 && deadline <= Date.now() + 9000, String(deadline - before));
    });
  });

  describe('time budget and failures (controlled by a worker that stalls)', () => {
    /** A pool of one stand-in worker that has loaded, so a budget is spent waiting on it, not starting it. */
    async function warmStallingPool(): Promise<ConvertWorkerPool> {
      const pool = poolOf(STALLING_WORKER, 1);
      await pool.render(request('<p>warm-up</p>'), 60_000, never);
      return pool;
    }

    it('returns the decoded start of the page when the conversion outlives its budget, and stops the worker', async () => {
      const pool = await warmStallingPool();
      const result = await pool.render(request('<p>raw \u001b[2J text</p>', 9, 'x-test/decode-then-stall'), 2000, never);
      assert.deepEqual({ ...result }, { text: '<p>raw \u001b[', truncated: true, charset: 'utf-8', charsetSource: 'header', page: null, failure: 'timeout' });
      const next = await pool.render(request('<p>next</p>'), 10_000, never);
      assert.equal(next.failure, undefined, 'a fresh worker took the next request');
    });

    it('has no text when the worker stalls before decoding the body it was handed', async () => {
      const pool = await warmStallingPool();
      const result = await pool.render(request('<p>lost</p>', 200_000, 'x-test/stall'), 2000, never);
      assert.deepEqual([result.failure, result.text, result.page], ['timeout', '', null]);
    });

    it('gives up a request whose budget runs out while it is still queued, decoding its start here', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const busy = new AbortController();
      const first = pool.render(request('<p>first</p>', 200_000, 'x-test/stall'), 60_000, busy.signal);
      const starved = await pool.render(request('<p>late ✓ \u0007</p>'), 50, never);
      assert.deepEqual([starved.failure, starved.text, starved.charsetSource, starved.page], ['timeout', '<p>late ✓ \u2407</p>', 'fallback', null]);
      assert.equal(pool.queued, 0);
      busy.abort();
      await assert.rejects(first, { code: 'WEB_ABORTED' });
    });

    it('removes a queued request cancelled before it starts without running it', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const busy = new AbortController();
      const first = pool.render(request('<p>first</p>', 200_000, 'x-test/stall'), 60_000, busy.signal);
      const controller = new AbortController();
      const queued = pool.render(request('<h2>Never</h2>'), 60_000, controller.signal);
      assert.equal(pool.queued, 1);
      controller.abort();
      await assert.rejects(queued, { code: 'WEB_ABORTED' });
      assert.deepEqual([pool.queued, pool.size], [0, 1]);
      busy.abort();
      await assert.rejects(first, { code: 'WEB_ABORTED' });
    });

    it('stops the worker when the caller cancels, and replaces it for the next request', async () => {
      const pool = poolOf(builtConvertWorker(), 1);
      const controller = new AbortController();
      const stalled = poolOf(STALLING_WORKER, 1).render(request('<p>x</p>', 100, 'x-test/stall'), 60_000, controller.signal);
      const cancelled = pool.render(request(articlePage(1_300_000, 9).html), 60_000, controller.signal);
      controller.abort();
      await assert.rejects(cancelled, { code: 'WEB_ABORTED' });
      await assert.rejects(stalled, { code: 'WEB_ABORTED' });
      assert.equal(markdownOf(await pool.render(request('<h2>After</h2>'), 30_000, never)), '## After');
      assert.equal(pool.size, 1);
    });

    it('keeps the body when the worker cannot load its script (it was never sent), and decodes its start here', async () => {
      const broken = poolOf('/nonexistent/convertWorker.js');
      const result = await broken.render(request('<p>ok ✓</p>'), 5000, never);
      assert.deepEqual([result.failure, result.text, result.page, result.charsetSource], ['worker-error', '<p>ok ✓</p>', null, 'fallback']);
    });
  });

  describe('worker bound and queue', () => {
    /** Awaits `calls`, sampling `pool.size` on every turn of the event loop; resolves the results and the largest size seen. */
    async function watchSize<T>(pool: ConvertWorkerPool, calls: Promise<T>[]): Promise<{ results: T[]; maxSize: number }> {
      let maxSize = pool.size;
      let done = false;
      const sample = (): void => {
        maxSize = Math.max(maxSize, pool.size);
        if (!done) setImmediate(sample);
      };
      sample();
      const results = await Promise.all(calls);
      done = true;
      return { results, maxSize };
    }

    it('bounds the default pool between 1 and 4 workers', () => {
      assert.ok(Number.isInteger(MAX_CONVERT_WORKERS) && MAX_CONVERT_WORKERS >= 1 && MAX_CONVERT_WORKERS <= 4);
    });

    it('runs more concurrent conversions than workers, never holding more than the bound', async () => {
      const pool = poolOf(builtConvertWorker(), 2);
      const calls = Array.from({ length: 9 }, (_, i) => pool.render(request(`<h2>Page ${i}</h2>`), 30_000, never));
      assert.deepEqual([pool.size, pool.queued], [2, 7]);
      const { results, maxSize } = await watchSize(pool, calls);
      assert.deepEqual(results.map(markdownOf), Array.from({ length: 9 }, (_, i) => `## Page ${i}`));
      assert.equal(maxSize, 2);
      assert.deepEqual([pool.size, pool.queued], [2, 0]); // both kept warm for the next calls
    });

    it('keeps one reused worker answering many sequential requests', async () => {
      const pool = poolOf(builtConvertWorker(), 1);
      for (let i = 0; i < 20; i++) {
        const result = await pool.render(request(`<h3>Run ${i}</h3>`), 30_000, never);
        assert.equal(markdownOf(result), `### Run ${i}`);
        assert.equal(pool.size, 1);
      }
      const page = '<div id="links"><div class="result"><a class="result__a" href="https://example.org/a">A</a></div></div>';
      const parsed = await pool.task<DuckDuckGoPage>({ task: 'duckduckgoPage', html: page, pageUrl: 'https://html.duckduckgo.com/html/' }, 30_000, never);
      assert.deepEqual('reply' in parsed ? parsed.reply.results.map((r) => r.url) : parsed, ['https://example.org/a']);
      assert.equal(pool.size, 1);
    });

    it('measures the event-loop stall of 14 concurrent web_fetch calls of a 20 KB page', async () => {
      const page = articlePage(20_000, 10).html;
      const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/article`;
        const tool = createWebFetchTool(builtConvertWorker());
        const delay = monitorEventLoopDelay({ resolution: 1 });
        delay.enable();
        const start = performance.now();
        const outputs = await Promise.all(
          Array.from({ length: 14 }, () => {
            const env = webToolEnv(); // its own signal, as each tool call has
            return tool.run(tool.parse({ url }, env.config), env);
          }),
        );
        const elapsed = performance.now() - start;
        delay.disable();
        assert.ok(outputs.every((o) => o.value.format === 'markdown'));
        console.log(`      14 concurrent fetches of a 20 KB page: ${elapsed.toFixed(0)} ms, longest event-loop stall ${(delay.max / 1e6).toFixed(1)} ms (bound ${MAX_CONVERT_WORKERS} workers)`);
      } finally {
        server.close();
      }
    });
  });

  describe('PDF in the worker (pdf.js)', () => {
    /** Sends one request straight to a fresh worker, with a deadline the test chooses, and returns its reply. */
    async function convertDirectly(bytes: Buffer, deadline: number): Promise<ConvertedMessage['page']> {
      const worker = new Worker(builtConvertWorker());
      try {
        const message: RenderRequest = { bytes, contentType: 'application/pdf', kind: 'pdf', sniffMarkup: false, url: 'https://example.com/a.pdf', rawChars: 1000, extractMainContent: true, deadline };
        const reply = new Promise<ConvertedMessage>((resolve, reject) => {
          worker.on('message', (m: RenderMessage | ReadyMessage) => {
            if (m.type === 'ready') worker.postMessage(message);
            else if (m.type === 'converted') resolve(m);
          });
          worker.once('error', reject);
        });
        return (await reply).page;
      } finally {
        await worker.terminate();
      }
    }

    it('gives the text of each page under a page marker', async () => {
      const pool = poolOf(builtConvertWorker(), 1);
      const pdf = pdfDocument([['Scout reads PDF files.', 'Second paragraph (with parentheses).'], [], ['Last page text.']]);
      const result = await pool.render({ ...request(''), bytes: pdf, contentType: 'application/pdf', kind: 'pdf' }, 30_000, never);
      assert.deepEqual(result.page, {
        kind: 'pdf',
        pdf: {
          status: 'text',
          text: '--- Page 1 of 3 ---\n\nScout reads PDF files.\n\nSecond paragraph (with parentheses).\n\n--- Page 2 of 3 ---\n\n--- Page 3 of 3 ---\n\nLast page text.',
          pageCount: 3,
          pagesRead: 3,
          stoppedBy: null,
        },
      });
    });

    it('says a password-protected PDF is encrypted, a text-less one has no text, and junk is not a PDF', async () => {
      const pool = poolOf(builtConvertWorker(), 1);
      const pdfOf = async (bytes: Buffer) => (await pool.render({ ...request(''), bytes, contentType: 'application/pdf', kind: 'pdf' }, 30_000, never)).page;
      assert.deepEqual(await pdfOf(pdfDocument([['secret']], { encrypted: true })), { kind: 'pdf', pdf: { status: 'encrypted' } });
      assert.deepEqual(await pdfOf(pdfDocument([[], []])), { kind: 'pdf', pdf: { status: 'no-text', pageCount: 2 } });
      const junk = await pdfOf(Buffer.from('%PDF-1.7\nthis is not a PDF at all'));
      assert.equal(junk?.kind === 'pdf' && junk.pdf.status, 'invalid');
    });

    it('stops reading pages at its deadline, keeping what it read (controlled budget: a deadline already past)', async () => {
      const page = await convertDirectly(pdfDocument([['one'], ['two'], ['three']]), Date.now() - 1);
      assert.deepEqual(page, { kind: 'pdf', pdf: { status: 'text', text: '--- Page 1 of 3 ---\n\none', pageCount: 3, pagesRead: 1, stoppedBy: 'deadline' } });
    });
  });
});
