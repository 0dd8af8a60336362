import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { fixture, invokeText, processes, scoutApi, SLOW_PATTERN, waitFor } from '../support';

describe('cancelling a search', () => {
  before(async () => {
    await scoutApi();
    await fixture();
  });

  it('kills rg at once, ends the call with SEARCH_ABORTED and leaves no rg process', async () => {
    // The nonce sits in an alternative that never matches, so the regex stays slow and its rg is findable.
    const nonce = `scoutcancel${Date.now().toString(36)}`;
    const rgOfThisCall = () => processes().filter((p) => p.name === 'rg' && p.argv.some((a) => a.includes(nonce)));
    const source = new vscode.CancellationTokenSource();
    const outcome = invokeText('grep', { pattern: `${SLOW_PATTERN}|${nonce}`, path: 'slow' }, source.token).then(
      (text) => ({ text }),
      (error: unknown) => ({ error }),
    );
    // Generous waits for what must happen (a busy machine only makes them longer); how fast a cancel takes
    // effect is measured by \`npm run bench -- --only cancel\`, not asserted here.
    await waitFor(() => rgOfThisCall().length > 0, 30_000, 'the rg of the search to start');
    source.cancel();

    // vscode.lm.invokeTool rejects a cancelled call with a CancellationError; Scout's own result is the run's.
    const settled = await outcome;
    assert.ok('error' in settled && settled.error instanceof Error && settled.error.name === 'Canceled', `invokeTool gave ${JSON.stringify(settled)}`);
    await waitFor(() => rgOfThisCall().length === 0, 30_000, 'rg to be killed');
    const api = await scoutApi();
    const run = await waitFor(
      () => api.runs().find((r) => JSON.stringify(r.input).includes(nonce) && r.status !== 'running'),
      30_000,
      'the call to finish',
    );
    assert.equal(run.status, 'cancelled');
    assert.match(run.text ?? '', /^Error: .*\n\(code: SEARCH_ABORTED\)$/s);
    const unreaped = processes().filter((p) => p.name === 'rg' && p.ppid === process.pid);
    assert.deepEqual(unreaped, [], 'the extension host still has rg children');
  });
});
