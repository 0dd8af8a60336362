import * as assert from 'node:assert/strict';
import { sampleAcrossTopLevel, topLevelEntry } from '../../../src/core/search/sample';

describe('sampleAcrossTopLevel', () => {
  it('names the entry directly under the root', () => {
    assert.equal(topLevelEntry('src/a/b.ts', '.'), 'src');
    assert.equal(topLevelEntry('README.md', '.'), 'README.md');
    assert.equal(topLevelEntry('src/a/b.ts', 'src'), 'a');
    assert.equal(topLevelEntry('src/b.ts', 'src'), 'b.ts');
    assert.equal(topLevelEntry('-dir/x/y', '-dir'), 'x');
    assert.equal(topLevelEntry('app/(auth)/users/[id]/page.tsx', 'app/(auth)'), 'users');
    assert.equal(topLevelEntry('srcx/a.ts', 'src'), 'srcx', 'a sibling sharing the prefix is not under it');
    if (process.platform !== 'win32') assert.equal(topLevelEntry('a\\b/c', '.'), 'a\\b', 'a backslash is a file-name character on POSIX');
  });

  it('one group: the page is the head, so the plain footer applies', () => {
    const paths = Array.from({ length: 10 }, (_, i) => `src/f${i}.ts`);
    const sample = sampleAcrossTopLevel(paths, '.', 4);
    assert.deepEqual(sample.indices, [0, 1, 2, 3]);
    assert.deepEqual([sample.groupsTotal, sample.groupsReached, sample.equalsHead], [1, 1, true]);
  });

  it('groups of one path (a flat directory): the page is the head too', () => {
    const paths = Array.from({ length: 10 }, (_, i) => `f${i}.ts`);
    const sample = sampleAcrossTopLevel(paths, '.', 3);
    assert.deepEqual(sample.indices, [0, 1, 2]);
    assert.deepEqual([sample.groupsTotal, sample.groupsReached, sample.equalsHead], [10, 3, true]);
  });

  it('many groups: round-robin takes each group in turn and keeps list order', () => {
    // a0 b0 c0 a1 b1 c1 a2 …, interleaved by mtime
    const paths = ['a/0', 'a/1', 'a/2', 'b/0', 'b/1', 'c/0', 'c/1', 'c/2', 'c/3'];
    const sample = sampleAcrossTopLevel(paths, '.', 5);
    assert.deepEqual(sample.indices.map((i) => paths[i]), ['a/0', 'a/1', 'b/0', 'b/1', 'c/0']);
    assert.deepEqual([sample.groupsTotal, sample.groupsReached, sample.equalsHead], [3, 3, false]);
  });

  it('skewed groups: a huge group does not crowd out the small ones', () => {
    const paths = [...Array.from({ length: 1000 }, (_, i) => `vendor/${i}`), 'src/a', 'src/b', 'docs/x', 'README.md'];
    const sample = sampleAcrossTopLevel(paths, '.', 10);
    const picked = sample.indices.map((i) => paths[i]!);
    for (const p of ['src/a', 'src/b', 'docs/x', 'README.md']) assert.ok(picked.includes(p), `${p} is in the page`);
    assert.equal(picked.filter((p) => p.startsWith('vendor/')).length, 6);
    assert.deepEqual(picked.slice(0, 6), ['vendor/0', 'vendor/1', 'vendor/2', 'vendor/3', 'vendor/4', 'vendor/5']);
    assert.deepEqual([sample.groupsTotal, sample.groupsReached, sample.equalsHead], [4, 4, false]);
  });

  it('more groups than the cap: reaches only cap groups, in first-appearance order', () => {
    const paths = Array.from({ length: 30 }, (_, i) => `d${i}/file`).concat(['d0/second']);
    const sample = sampleAcrossTopLevel(paths, '.', 5);
    assert.deepEqual(sample.indices, [0, 1, 2, 3, 4]);
    assert.deepEqual([sample.groupsTotal, sample.groupsReached], [30, 5]);
  });

  it('groups beneath an explicit root, not by its own prefix', () => {
    const paths = ['pkg/a/1', 'pkg/a/2', 'pkg/a/3', 'pkg/b/1'];
    const sample = sampleAcrossTopLevel(paths, 'pkg', 2);
    assert.deepEqual(sample.indices.map((i) => paths[i]), ['pkg/a/1', 'pkg/b/1']);
    assert.deepEqual([sample.groupsTotal, sample.groupsReached, sample.equalsHead], [2, 2, false]);
  });

  it('handles an empty list and a cap larger than the list', () => {
    assert.deepEqual(sampleAcrossTopLevel([], '.', 5), { indices: [], groupsTotal: 0, groupsReached: 0, equalsHead: true });
    assert.deepEqual(sampleAcrossTopLevel(['a/1', 'b/1'], '.', 5).indices, [0, 1]);
  });
});
