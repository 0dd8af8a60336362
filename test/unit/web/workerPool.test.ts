import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createWebFetchTool } from '../../../src/core/web/fetch/tool';
import { ConvertWorkerPool, MAX_CONVERT_WORKERS, type RenderResult } from '../../../src/core/web/convert/workerPool';
import type { RenderRequest } from '../../../src/core/web/convert/render';
import type { DuckDuckGoPage } from '../../../src/core/web/search/providers/duckduckgoPage';
import { builtConvertWorker, webToolEnv } from '../../helpers/webFetchEnv';
import { articlePage } from '../../helpers/webPages';

const request = (html: string, maxChars = 200_000): RenderRequest => ({
  bytes: Buffer.from(html, 'utf8'),
  contentType: 'text/html',
  kind: 'html',
  sniffMarkup: true,
  url: 'https://example.com/',
  maxChars,
  extractMainContent: true,
});

describe('web/convert ConvertWorkerPool', function () {
  this.timeout(20_000);
  const pool = new ConvertWorkerPool(builtConvertWorker());
  after(() => pool.dispose());

  it('decodes and converts in a worker, and serves calls one after another', async () => {
    const first = await pool.render(request('<h2>One</h2>'), 10_000, new AbortController().signal);
    const second = await pool.render(request('<h2>Two</h2>'), 10_000, new AbortController().signal);
    assert.deepEqual([first.conversion?.markdown, second.conversion?.markdown], ['## One', '## Two']);
    assert.equal(first.charset, 'utf-8');
  });

  it('serves concurrent calls', async () => {
    const signal = new AbortController().signal;
    const results = await Promise.all(['a', 'b', 'c'].map((t) => pool.render(request(`<p>${t}</p>`), 10_000, signal)));
    assert.deepEqual(results.map((r) => r.conversion?.markdown), ['a', 'b', 'c']);
  });

  it('stops the worker when the caller cancels, settling the call in the same turn', async () => {
    const controller = new AbortController();
    const outcome = pool.render(request(articlePage(1_300_000, 5).html, 1_000_000), 120_000, controller.signal).then(
      () => 'converted',
      (e: { code?: string }) => e.code,
    );
    await new Promise((resolve) => setTimeout(resolve, 20)); // the conversion has started
    controller.abort();
    const settled = await Promise.race([outcome, new Promise((resolve) => setImmediate(() => resolve('still pending')))]);
    assert.equal(settled, 'WEB_ABORTED');
  });

  it('returns the body decoded as UTF-8 when the worker cannot run', async () => {
    const broken = new ConvertWorkerPool('/nonexistent/convertWorker.js');
    const result = await broken.render(request('<p>ok ✓</p>'), 5000, new AbortController().signal);
    assert.deepEqual([result.failure, result.text, result.conversion, result.charsetSource], ['worker-error', '<p>ok ✓</p>', null, 'fallback']);
  });

  describe('worker bound and queue', () => {
    const never = new AbortController().signal;
    const pools: ConvertWorkerPool[] = [];
    const boundedPool = (maxWorkers: number): ConvertWorkerPool => {
      const created = new ConvertWorkerPool(builtConvertWorker(), 60_000, maxWorkers);
      pools.push(created);
      return created;
    };
    after(() => Promise.all(pools.map((p) => p.dispose())));

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
      const pool = boundedPool(2);
      const calls = Array.from({ length: 9 }, (_, i) => pool.render(request(`<h2>Page ${i}</h2>`), 30_000, never));
      assert.deepEqual([pool.size, pool.queued], [2, 7]);
      const { results, maxSize } = await watchSize(pool, calls);
      assert.deepEqual(results.map((r) => r.conversion?.markdown), Array.from({ length: 9 }, (_, i) => `## Page ${i}`));
      assert.equal(maxSize, 2);
      assert.deepEqual([pool.size, pool.queued], [2, 0]); // both kept warm for the next calls
    });

    it('removes a queued request cancelled before it starts without running it', async () => {
      const pool = boundedPool(1);
      const big = request(articlePage(1_300_000, 6).html, 1_000_000);
      let firstDone = false;
      const first = pool.render(big, 30_000, never).then((r) => ((firstDone = true), r));
      const controller = new AbortController();
      const queued = pool.render(request('<h2>Never</h2>'), 30_000, controller.signal);
      assert.equal(pool.queued, 1);
      controller.abort();
      await assert.rejects(queued, { code: 'WEB_ABORTED' });
      assert.deepEqual([firstDone, pool.queued, pool.size], [false, 0, 1]);
      const next = pool.render(request('<h2>Next</h2>'), 30_000, never);
      assert.ok((await first).conversion !== null);
      assert.equal((await next).conversion?.markdown, '## Next');
      assert.equal(pool.size, 1);
    });

    it('terminates an over-budget conversion with raw text while requests queued behind it complete', async () => {
      const pool = boundedPool(1);
      const slow = articlePage(1_300_000, 7).html;
      const calls: Promise<RenderResult>[] = [
        pool.render(request(slow, 1_000_000), 50, never),
        pool.render(request('<h2>Second</h2>'), 30_000, never),
        pool.render(request('<h2>Third</h2>'), 30_000, never),
      ];
      const { results, maxSize } = await watchSize(pool, calls);
      const [over, second, third] = results;
      assert.equal(over!.failure, 'timeout');
      assert.equal(over!.conversion, null);
      assert.ok(slow.startsWith(over!.text.slice(0, 1000)) && over!.text.length > 0);
      assert.deepEqual([second!.conversion?.markdown, third!.conversion?.markdown], ['## Second', '## Third']);
      assert.equal(maxSize, 1);
    });

    it('gives up a request whose budget runs out while it is still queued', async () => {
      const pool = boundedPool(1);
      let firstDone = false;
      const first = pool.render(request(articlePage(1_300_000, 8).html, 1_000_000), 120_000, never).finally(() => (firstDone = true));
      const starved = await pool.render(request('<p>late ✓</p>'), 30, never);
      assert.equal(firstDone, false, 'the starved request waited for the conversion ahead of it');
      assert.deepEqual([starved.failure, starved.text, starved.charsetSource, pool.queued], ['timeout', '<p>late ✓</p>', 'fallback', 0]);
      assert.ok((await first).conversion !== null);
    });

    it('keeps one reused worker answering many sequential requests', async () => {
      const pool = boundedPool(1);
      for (let i = 0; i < 20; i++) {
        const result = await pool.render(request(`<h3>Run ${i}</h3>`), 30_000, never);
        assert.equal(result.conversion?.markdown, `### Run ${i}`);
        assert.equal(pool.size, 1);
      }
      const page = '<div id="links"><div class="result"><a class="result__a" href="https://example.org/a">A</a></div></div>';
      const parsed = await pool.task<DuckDuckGoPage>({ task: 'duckduckgoPage', html: page, pageUrl: 'https://html.duckduckgo.com/html/' }, 30_000, never);
      assert.deepEqual('reply' in parsed ? parsed.reply.results.map((r) => r.url) : parsed, ['https://example.org/a']);
      assert.equal(pool.size, 1);
    });

    it('replaces a worker that died', async () => {
      const pool = boundedPool(1);
      const controller = new AbortController();
      const cancelled = pool.render(request(articlePage(1_300_000, 9).html, 1_000_000), 30_000, controller.signal);
      setTimeout(() => controller.abort(), 20);
      await assert.rejects(cancelled, { code: 'WEB_ABORTED' });
      const after = await pool.render(request('<h2>After</h2>'), 30_000, never);
      assert.equal(after.conversion?.markdown, '## After');
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
});
