import * as assert from 'node:assert/strict';
import { concatAll } from '../../../src/core/arrays';

describe('concatAll', () => {
  it('joins any number of arrays in order, beyond what one spread call takes', () => {
    assert.deepEqual(concatAll([]), []);
    const one = [1, 2];
    const joined = concatAll([one]);
    assert.deepEqual(joined, [1, 2]);
    assert.notEqual(joined, one, 'always a new array');
    const many = Array.from({ length: 200_000 }, (_, i) => [i, -i]);
    const all = concatAll(many);
    assert.equal(all.length, 400_000);
    assert.deepEqual(all.slice(-4), [199_998, -199_998, 199_999, -199_999]);
  });
});
