import * as assert from 'node:assert/strict';
import { runAllOrFail } from '../../../src/core/web/search/batch';

/** Resolves when `signal` aborts, after `settleMs` more, recording what it saw. */
function waitForAbort(signal: AbortSignal, seen: string[], settleMs: number): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener('abort', () => {
      seen.push('first saw abort');
      setTimeout(() => {
        seen.push('first settled');
        reject(new Error('aborted'));
      }, settleMs);
    });
  });
}

describe('web_search batch', () => {
  it('resolves every result in item order', async () => {
    const results = await runAllOrFail([30, 10, 20], (ms) => new Promise<number>((r) => setTimeout(() => r(ms), ms)), new AbortController().signal);
    assert.deepEqual(results, [30, 10, 20]);
  });

  it('aborts the siblings on the first failure, waits for them to settle, and rejects with that failure', async () => {
    const seen: string[] = [];
    const failure = new Error('second query failed');
    const pending = runAllOrFail(
      ['first', 'second', 'third'],
      async (item, signal) => {
        if (item === 'first') return waitForAbort(signal, seen, 50);
        if (item === 'second') {
          await new Promise((r) => setTimeout(r, 20));
          throw failure;
        }
        await new Promise((r) => setTimeout(r, 40));
        throw new Error('third failed later');
      },
      new AbortController().signal,
    );
    await assert.rejects(pending, (e) => e === failure);
    assert.deepEqual(seen, ['first saw abort', 'first settled']);
  });

  it('passes the parent abort on to every task', async () => {
    const parent = new AbortController();
    const seen: string[] = [];
    const pending = runAllOrFail(['a', 'b'], (_, signal) => waitForAbort(signal, seen, 0), parent.signal);
    parent.abort();
    await assert.rejects(pending, /aborted/);
    assert.equal(seen.filter((s) => s === 'first saw abort').length, 2);
  });
});
