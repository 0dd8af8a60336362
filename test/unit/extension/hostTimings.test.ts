import * as assert from 'node:assert/strict';
import { callTimings, describeTimings, HostTimings } from '../../../src/vscode/hostTimings';

describe('host timings (where a call’s time goes in the editor)', () => {
  it('counts each part’s time, also when the work throws, and splits a call by snapshots', async () => {
    const timings = new HostTimings();
    const before = timings.snapshot();
    assert.equal(timings.measure('history', () => 42), 42);
    assert.throws(() => timings.measure('cards', () => { throw new Error('listener failed'); }), /listener failed/);
    await timings.measureAsync('spill', () => new Promise((resolve) => setTimeout(resolve, 5)));
    const after = timings.snapshot();
    assert.ok(after.spill >= 4, `spill ${after.spill}`);
    assert.ok(after.history >= 0 && after.cards >= 0);
    const split = callTimings(before, after, 100, 60);
    assert.deepEqual(split, { totalMs: 100, toolMs: 60, spillMs: after.spill, historyMs: after.history, cardsMs: after.cards });
    // A snapshot is a copy: later work does not change it.
    timings.measure('history', () => undefined);
    assert.equal(after.history, split.historyMs);
  });

  it('describes a split in one log line', () => {
    assert.equal(describeTimings({ totalMs: 812.4, toolMs: 700, spillMs: 80.2, historyMs: 2.25, cardsMs: 0.5 }), '812 ms (tool 700 ms, of which spill 80 ms; history 2.3 ms; cards 0.5 ms)');
  });
});
