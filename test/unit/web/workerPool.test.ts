import * as assert from 'node:assert/strict';
import { ConvertWorkerPool } from '../../../src/core/web/convert/workerPool';
import type { RenderRequest } from '../../../src/core/web/convert/render';
import { builtConvertWorker } from '../../helpers/webFetchEnv';
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

  it('stops the worker when the caller cancels', async () => {
    const controller = new AbortController();
    const pending = pool.render(request(articlePage(1_300_000, 5).html, 1_000_000), 10_000, controller.signal);
    setTimeout(() => controller.abort(), 20);
    const start = performance.now();
    await assert.rejects(pending, { code: 'WEB_ABORTED' });
    assert.ok(performance.now() - start < 1000);
  });

  it('returns the body decoded as UTF-8 when the worker cannot run', async () => {
    const broken = new ConvertWorkerPool('/nonexistent/convertWorker.js');
    const result = await broken.render(request('<p>ok ✓</p>'), 5000, new AbortController().signal);
    assert.deepEqual([result.failure, result.text, result.conversion, result.charsetSource], ['worker-error', '<p>ok ✓</p>', null, 'fallback']);
  });
});
