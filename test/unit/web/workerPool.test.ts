import * as assert from 'node:assert/strict';
import { fork, spawn } from 'node:child_process';
import * as path from 'node:path';
import { ConvertWorkerPool, MAX_CONVERT_WORKERS, SMALL_REQUEST_BYTES, WALL_BACKSTOP_FACTOR, type RenderResult } from '../../../src/core/web/convert/workerPool';
import type { ConvertedMessage, RenderMessage, RenderRequest } from '../../../src/core/web/convert/render';
import type { ReadyMessage } from '../../../src/core/web/convert/workerReady';
import type { DuckDuckGoPage } from '../../../src/core/web/search/providers/duckduckgoPage';
import { MAX_PDF_STREAM_BYTES } from '../../../src/core/web/convert/pdfText';
import { flateBomb, pdfDocument } from '../../helpers/pdfFixtures';
import { builtConvertWorker } from '../../helpers/webFetchEnv';
import { articlePage } from '../../helpers/webPages';

type Request = Omit<RenderRequest, 'cpuBudgetMs'>;

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

/** What the stand-in echoed about the request it got (its 'decoded' text). */
function echoOf(result: RenderResult): { bytes: number; cpuBudgetMs: number; pid: number } {
  return JSON.parse(result.text) as { bytes: number; cpuBudgetMs: number; pid: number };
}

describe('web/convert ConvertWorkerPool', function () {
  this.timeout(30_000);
  const never = new AbortController().signal;
  const pools: ConvertWorkerPool[] = [];
  const poolOf = (script: string, maxWorkers = MAX_CONVERT_WORKERS, clock: ConstructorParameters<typeof ConvertWorkerPool>[3] = {}): ConvertWorkerPool => {
    const created = new ConvertWorkerPool(script, 60_000, maxWorkers, clock);
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

  describe('handing the body over (the calling thread never decodes it)', () => {
    it("sends every byte of the body to the conversion process, leaving the caller's buffer intact", async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      for (const bytes of [Buffer.alloc(3 * 1024 * 1024, 0x61), Buffer.alloc(10_000, 0x62).subarray(100, 5100), Buffer.from('<p>small</p>')]) {
        const length = bytes.length;
        const result = await pool.render({ ...request('', 200_000, 'x-test/echo'), bytes }, 10_000, never);
        assert.equal(bytes.length, length);
        assert.equal(echoOf(result).bytes, length);
      }
    });

    it('tells the process its CPU budget: 90 % of the budget, in its own CPU time', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const result = await pool.render(request('<p>x</p>', 200_000, 'x-test/echo'), 10_000, never);
      assert.equal(echoOf(result).cpuBudgetMs, 9000);
    });
  });

  describe('time budget and failures (controlled by a worker that stalls)', () => {
    /** A pool of one stand-in worker that has loaded, so a budget is spent waiting on it, not starting it. */
    async function warmStallingPool(): Promise<ConvertWorkerPool> {
      const pool = poolOf(STALLING_WORKER, 1);
      await pool.render(request('<p>warm-up</p>'), 60_000, never);
      return pool;
    }

    it('returns the whole decoded source when the wall-clock backstop stops a process that got no CPU time, calling the machine busy', async () => {
      // The stand-in idles: in 4 × 500 ms of wall-clock time it uses almost none of its 500 ms of CPU time,
      // as a conversion does on a machine too busy to run it.
      const pool = await warmStallingPool();
      const before = await pool.render(request('<p>before</p>', 200_000, 'x-test/echo'), 10_000, never);
      const result = await pool.render(request('<p>raw \u2407 text</p>', 9, 'x-test/decode-then-stall'), 500, never);
      const { usage, ...rest } = result;
      assert.deepEqual({ ...rest, waitedMs: 0 }, { text: '<p>raw \u2407 text</p>', truncated: false, charset: 'utf-8', charsetSource: 'header', charsetAssumed: false, page: null, failure: 'overloaded', waitedMs: 0 });
      assert.ok(usage && usage.wallMs >= 500 * WALL_BACKSTOP_FACTOR - 50 && usage.cpuMs !== undefined && usage.cpuMs < 500, JSON.stringify(usage));
      const next = await pool.render(request('<p>next</p>', 200_000, 'x-test/echo'), 10_000, never);
      assert.equal(next.failure, undefined, 'a fresh process took the next request');
      assert.notEqual(echoOf(next).pid, echoOf(before).pid);
    });

    it('stops a process once it has used its CPU budget, long before the wall-clock backstop (controlled CPU clock)', async () => {
      // The CPU reader says the process used 60 s of CPU time by the first reading after the request was sent.
      let readings = 0;
      const pool = poolOf(STALLING_WORKER, 1, { cpuTimeOf: () => (readings++ === 0 ? 1000 : 61_000), cpuPollMs: 10 });
      const result = await pool.render(request('<p>lost</p>', 200_000, 'x-test/stall'), 60_000, never);
      assert.deepEqual([result.failure, result.text, result.page, result.usage?.cpuMs], ['timeout', '', null, 60_000]);
      assert.ok(result.usage!.wallMs < 60_000, String(result.usage!.wallMs));
    });

    it('falls back on the wall-clock backstop where CPU time cannot be read, saying how long it ran', async () => {
      const pool = poolOf(STALLING_WORKER, 1, { cpuTimeOf: () => undefined });
      await pool.render(request('<p>warm-up</p>'), 60_000, never);
      const result = await pool.render(request('<p>lost</p>', 200_000, 'x-test/stall'), 100, never);
      assert.deepEqual([result.failure, result.text, result.page, result.usage?.cpuMs], ['timeout', '', null, undefined]);
      assert.ok(result.usage!.wallMs >= 100 * WALL_BACKSTOP_FACTOR - 50, String(result.usage!.wallMs));
    });

    it('keeps the pages of a PDF read before its process was stopped', async () => {
      const pool = poolOf(STALLING_WORKER, 1, { cpuTimeOf: () => undefined });
      await pool.render(request('<p>warm-up</p>'), 60_000, never);
      const result = await pool.render({ ...request('', 200_000, 'x-test/pages-then-stall'), kind: 'pdf' }, 200, never);
      assert.deepEqual([result.failure, result.pdfPagesRead], ['timeout', ['--- Page 1 of 3 ---\n\none', '--- Page 2 of 3 ---\n\ntwo']]);
    });

    it('gives up a request that waits for a process longer than its budget, decoding its start here', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const busy = new AbortController();
      const large = (html: string, contentType?: string): Request => ({ ...request(html, 200_000, contentType), bytes: Buffer.alloc(SMALL_REQUEST_BYTES + 1, html) });
      const first = pool.render(large('<p>first</p>', 'x-test/stall'), 60_000, busy.signal);
      const starved = await pool.render({ ...large('x'), bytes: Buffer.from(`<p>late ✓ \u0007</p>${' '.repeat(SMALL_REQUEST_BYTES)}`), rawChars: 15 }, 50, never);
      assert.deepEqual([starved.failure, starved.text, starved.charsetSource, starved.page], ['busy', '<p>late ✓ \u2407</p>', 'fallback', null]);
      assert.equal(pool.queued, 0);
      busy.abort();
      await assert.rejects(first, { code: 'WEB_ABORTED' });
    });

    it('starts the conversion budget when a process takes the request, not when it was queued', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const busy = new AbortController();
      const large = (contentType?: string): Request => ({ ...request('', 200_000, contentType), bytes: Buffer.alloc(SMALL_REQUEST_BYTES + 1, 0x61) });
      const first = pool.render(large('x-test/stall'), 60_000, busy.signal);
      const second = pool.render(large('x-test/echo'), 60_000, never);
      assert.equal(pool.queued, 1);
      const released = Date.now();
      busy.abort(); // the first request ends now; only then does the second one start
      await assert.rejects(first, { code: 'WEB_ABORTED' });
      const result = await second;
      assert.equal(echoOf(result).cpuBudgetMs, 0.9 * 60_000, 'the whole budget is left');
      assert.ok(result.waitedMs >= 0 && released > 0);
    });

    it('removes a queued request cancelled before it starts without running it', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const busy = new AbortController();
      const large = (contentType?: string): Request => ({ ...request('', 200_000, contentType), bytes: Buffer.alloc(SMALL_REQUEST_BYTES + 1, 0x61) });
      const first = pool.render(large('x-test/stall'), 60_000, busy.signal);
      const controller = new AbortController();
      const queued = pool.render(large(), 60_000, controller.signal);
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

    it('keeps the body when the process cannot load its script (it was never sent), and decodes its start here', async () => {
      const broken = poolOf('/nonexistent/convertWorker.js');
      const result = await broken.render(request('<p>ok ✓</p>'), 5000, never);
      assert.deepEqual([result.failure, result.text, result.page, result.charsetSource], ['worker-error', '<p>ok ✓</p>', null, 'fallback']);
    });

    it('keeps converting small pages while a large one holds every other process (parallel fetches once starved)', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const busy = new AbortController();
      const heavy = pool.render({ ...request('', 200_000, 'x-test/stall'), bytes: Buffer.alloc(SMALL_REQUEST_BYTES + 1, 0x61) }, 60_000, busy.signal);
      const small = await Promise.all(['a', 'b', 'c'].map((t) => pool.render(request(`<p>${t}</p>`, 200_000, 'x-test/echo'), 60_000, never)));
      assert.deepEqual(
        small.map((r) => [r.failure, r.page?.kind, echoOf(r).bytes]),
        [
          [undefined, 'text', 8],
          [undefined, 'text', 8],
          [undefined, 'text', 8],
        ],
      );
      assert.equal(pool.size, 2, 'one process for the large page, one for the small ones');
      busy.abort();
      await assert.rejects(heavy, { code: 'WEB_ABORTED' });
    });

    it('fails only the request whose conversion process dies (as V8 aborts one out of memory), and starts a new one for the next', async () => {
      const pool = poolOf(STALLING_WORKER, 1);
      const first = await pool.render(request('<p>one</p>', 200_000, 'x-test/echo'), 10_000, never);
      const died = await pool.render(request('<p>fatal</p>', 200_000, 'x-test/die'), 60_000, never);
      assert.deepEqual([died.failure, died.page], ['worker-error', null]);
      const next = await pool.render(request('<p>two</p>', 200_000, 'x-test/echo'), 10_000, never);
      assert.equal(next.failure, undefined);
      assert.notEqual(echoOf(next).pid, echoOf(first).pid);
    });

    it('keeps the calling process up when a conversion process really runs V8 out of memory, and returns the decoded source', async () => {
      // The input that broke it: a dense 5 MiB page ran a worker thread out of memory, and V8
      // aborted the whole process. Here the conversion process fills its 512 MB heap for real.
      const pool = poolOf(STALLING_WORKER, 1);
      const source = '<p>page text before the conversion ran out of memory</p>';
      const result = await pool.render(request(source, 200_000, 'x-test/oom'), 120_000, never);
      assert.deepEqual([result.failure, result.page, result.text], ['worker-error', null, source]);
      const next = await pool.render(request('<p>next</p>', 200_000, 'x-test/echo'), 10_000, never);
      assert.equal(next.failure, undefined);
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

    it('runs more concurrent conversions than processes, never holding more than the bound (maxWorkers, and one for small pages)', async () => {
      const pool = poolOf(builtConvertWorker(), 2);
      const calls = Array.from({ length: 9 }, (_, i) => pool.render(request(`<h2>Page ${i}</h2>`), 30_000, never));
      assert.deepEqual([pool.size, pool.queued], [3, 6]);
      const { results, maxSize } = await watchSize(pool, calls);
      assert.deepEqual(results.map(markdownOf), Array.from({ length: 9 }, (_, i) => `## Page ${i}`));
      assert.equal(maxSize, 3);
      assert.deepEqual([pool.size, pool.queued], [3, 0]); // all kept warm for the next calls
    });

    it('runs at most maxWorkers large requests at once, however many are queued', async () => {
      const pool = poolOf(STALLING_WORKER, 2);
      const busy = new AbortController();
      const calls = Array.from({ length: 4 }, () => pool.render({ ...request('', 200_000, 'x-test/stall'), bytes: Buffer.alloc(SMALL_REQUEST_BYTES + 1, 0x61) }, 60_000, busy.signal));
      assert.deepEqual([pool.size, pool.queued], [2, 2]);
      busy.abort();
      await Promise.all(calls.map((c) => assert.rejects(c, { code: 'WEB_ABORTED' })));
    });

    it('resolves dispose() in a process that has nothing else to wait for (idle processes are unreferenced)', async () => {
      // The input that broke it: the bench's last `await pool.dispose()`, after which its process ended silently.
      const script = [
        `const { ConvertWorkerPool } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/core/web/convert/workerPool'))});`,
        `const pool = new ConvertWorkerPool(${JSON.stringify(builtConvertWorker())});`,
        "pool.render({ bytes: Buffer.from('<p>x</p>'), contentType: 'text/html', kind: 'html', sniffMarkup: true, url: 'https://example.com/', rawChars: 100, extractMainContent: false }, 30000, new AbortController().signal)",
        "  .then(() => pool.dispose()).then(() => process.stdout.write('disposed, ' + pool.size + ' processes left'));",
      ].join('\n');
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const code = await new Promise((resolve) => child.on('close', resolve));
      assert.deepEqual([code, out], [0, 'disposed, 0 processes left']);
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

  });

  describe('PDF in the worker (pdf.js)', () => {
    /** Sends one request straight to a fresh conversion process, with a deadline the test chooses, and returns its reply. */
    async function convertDirectly(bytes: Buffer, cpuBudgetMs: number, pages: string[] = []): Promise<ConvertedMessage['page']> {
      const worker = fork(builtConvertWorker(), [], { serialization: 'advanced', execArgv: [], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
      try {
        const message: RenderRequest = { bytes, contentType: 'application/pdf', kind: 'pdf', sniffMarkup: false, url: 'https://example.com/a.pdf', rawChars: 1000, extractMainContent: true, cpuBudgetMs };
        const reply = new Promise<ConvertedMessage>((resolve, reject) => {
          worker.on('message', (m: RenderMessage | ReadyMessage) => {
            if (m.type === 'ready') worker.send(message as never);
            else if (m.type === 'pdf-page') pages.push(m.text);
            else if (m.type === 'converted') resolve(m);
          });
          worker.once('error', reject);
        });
        return (await reply).page;
      } finally {
        worker.kill('SIGKILL');
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
          unreadPages: [],
          garbledPages: [],
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

    it('reads no page stream past its decode limit: a page that inflates to 80 MiB is reported unread, the others are read (such a page once took 1.76 GB)', async () => {
      // The input that broke it, scaled down: a content stream of a few kB that inflates past MAX_PDF_STREAM_BYTES
      // (the bench measures the process's peak on an 800 MiB one).
      const bomb = await flateBomb('BOMBTEXT', MAX_PDF_STREAM_BYTES + 16 * 1024 * 1024);
      const pdf = pdfDocument([['BOMBTEXT'], ['Page two is ordinary text.']], { compressedFirstPage: bomb });
      assert.ok(pdf.length < 200_000, `${pdf.length} bytes`);
      const pool = poolOf(builtConvertWorker(), 1);
      const result = await pool.render({ ...request(''), bytes: pdf, contentType: 'application/pdf', kind: 'pdf' }, 120_000, never);
      assert.equal(result.page?.kind, 'pdf');
      const read = result.page?.kind === 'pdf' ? result.page.pdf : undefined;
      assert.equal(read?.status, 'text');
      if (read?.status !== 'text') return;
      assert.deepEqual([read.text, read.pagesRead, read.unreadPages.map((p) => p.page)], [
        '--- Page 1 of 2 ---\n\n(The text of this page could not be read: a stream on this page decodes to more than 64 MiB, more than Scout reads from one stream.)\n\n--- Page 2 of 2 ---\n\nPage two is ordinary text.',
        2,
        [1],
      ]);
      assert.match(read.unreadPages[0]!.error, /decodes to more than 64 MiB/);
    });

    it('stops reading pages at its CPU budget, keeping what it read (controlled budget: none left)', async () => {
      const page = await convertDirectly(pdfDocument([['one'], ['two'], ['three']]), 0);
      assert.deepEqual(page, { kind: 'pdf', pdf: { status: 'text', text: '--- Page 1 of 3 ---\n\none', pageCount: 3, pagesRead: 1, stoppedBy: 'deadline', unreadPages: [], garbledPages: [] } });
    });

    it('posts each page as it is read, before the whole text', async () => {
      const pages: string[] = [];
      await convertDirectly(pdfDocument([['one'], ['two']]), 60_000, pages);
      assert.deepEqual(pages, ['--- Page 1 of 2 ---\n\none', '--- Page 2 of 2 ---\n\ntwo']);
    });
  });
});
