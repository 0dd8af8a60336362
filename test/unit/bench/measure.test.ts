import * as assert from 'node:assert/strict';
import { firstTouchCost, middleHalf, summarize } from '../../bench/measure';

describe('bench statistics', () => {
  it('gives the median and the quartiles of samples in any order', () => {
    assert.equal(summarize([3, 1, 2]).median, 2);
    assert.equal(summarize([4, 1, 3, 2]).median, 2.5);
    assert.deepEqual(middleHalf([8, 1, 7, 2, 6, 3, 5, 4]), { low: 2.5, high: 6.5 });
    // The middle value of an odd count belongs to neither half.
    assert.deepEqual(middleHalf([7, 1, 6, 2, 5, 3, 4]), { low: 2, high: 6 });
    assert.deepEqual(middleHalf([1.2]), { low: 1.2, high: 1.2 });
  });

  it('times the first touch of every page of a fresh block, and counts its faults', () => {
    const cost = firstTouchCost(undefined, 1);
    assert.equal(cost.pages, 10240);
    // One fault per page, or fewer where the kernel maps huge pages; never none for memory never touched.
    assert.ok(cost.faults >= 1 && cost.faults <= 2 * cost.pages, `${cost.faults} faults for ${cost.pages} pages`);
    assert.ok(Number.isFinite(cost.microsecondsPerPage) && cost.microsecondsPerPage > 0, String(cost.microsecondsPerPage));
  });
});
