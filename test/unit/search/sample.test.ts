import * as assert from 'node:assert/strict';
import { sampleAcrossBranches, sampleAcrossTopLevel, topLevelEntry } from '../../../src/core/search/sample';
import { seededRandom } from '../../helpers/seededRandom';

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

describe('sampleAcrossTopLevel against a plain reference (differential)', () => {
  /** The sample as the seed describes it, computed the obvious way: every group's whole list, then rounds. */
  function reference(paths: readonly string[], root: string, cap: number) {
    const groups = new Map<string, number[]>();
    paths.forEach((p, i) => {
      const key = topLevelEntry(p, root);
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    const picked: number[] = [];
    const lists = [...groups.values()];
    for (let round = 0; picked.length < cap && lists.some((l) => l.length > round); round++) {
      for (const list of lists) if (picked.length < cap && list.length > round) picked.push(list[round]!);
    }
    const reached = lists.filter((l) => picked.includes(l[0]!)).length;
    return { indices: picked.sort((a, b) => a - b), groupsTotal: groups.size, groupsReached: reached };
  }

  it('picks the same paths for runs of one folder, several roots and caps', () => {
    const random = seededRandom(15);
    const entries = ['src', 'docs', 'packages', 'a', 'README.md', 'sr', 'srcx', 'pkg'];
    for (let trial = 0; trial < 300; trial++) {
      const root = ['.', 'pkg', 'src'][trial % 3]!;
      const n = Math.floor(random() * 60);
      const paths: string[] = [];
      for (let i = 0; i < n; i++) {
        // Runs of the same entry (as one big folder gives in modification order), and strays.
        const entry = random() < 0.6 && paths.length ? topLevelEntry(paths[paths.length - 1]!, root) : entries[Math.floor(random() * entries.length)]!;
        const under = root === '.' || random() < 0.2 ? '' : `${root}/`;
        paths.push(random() < 0.15 ? `${under}${entry}` : `${under}${entry}/f${i}.ts`);
      }
      const cap = 1 + Math.floor(random() * 12);
      const got = sampleAcrossTopLevel(paths, root, cap);
      const want = reference(paths, root, cap);
      assert.deepEqual({ indices: got.indices, groupsTotal: got.groupsTotal, groupsReached: got.groupsReached }, want, JSON.stringify({ paths, root, cap }));
    }
  });

  it('picks the same paths when many entries interleave, more than the recently met folders it tries first', () => {
    const random = seededRandom(24);
    // Entries whose names are prefixes of one another, files right under the root, and folder names that are
    // also file names, so a folder test that matched too much or a slot that held the wrong group would show.
    const entries = Array.from({ length: 14 }, (_, i) => `e${i}`).concat(['e1x', 'e', 'README.md']);
    for (let trial = 0; trial < 200; trial++) {
      const root = ['.', 'pkg'][trial % 2]!;
      const under = root === '.' ? '' : `${root}/`;
      const hot = entries.slice(0, 2 + Math.floor(random() * entries.length));
      const paths = Array.from({ length: Math.floor(random() * 400) }, (_, i) => {
        const entry = hot[Math.floor(random() * hot.length)]!;
        return random() < 0.1 ? `${under}${entry}` : `${under}${entry}/d${i % 7}/f${i}.ts`;
      });
      const cap = 1 + Math.floor(random() * 40);
      const got = sampleAcrossTopLevel(paths, root, cap);
      assert.deepEqual({ indices: got.indices, groupsTotal: got.groupsTotal, groupsReached: got.groupsReached }, reference(paths, root, cap), JSON.stringify({ root, cap, paths }));
    }
  });

  it('picks the same paths when entries fill up: one dominant, a few large, many small and files named like them', () => {
    const random = seededRandom(31);
    // Long lists, so the first entries to get `cap` paths are tried first for thousands of paths, both where
    // the second and third of them hold many of the others and where they seldom do.
    const small = Array.from({ length: 40 }, (_, i) => `s${i}`);
    for (let trial = 0; trial < 60; trial++) {
      const root = ['.', 'pkg'][trial % 2]!;
      const under = root === '.' ? '' : `${root}/`;
      const large = trial % 3 === 0 ? [] : ['apps', 'app', 'docs'];
      const paths = Array.from({ length: 500 + Math.floor(random() * 2500) }, (_, i) => {
        const r = random();
        const entry = r < 0.6 ? 'packages' : r < 0.8 && large.length ? large[Math.floor(random() * large.length)]! : small[Math.floor(random() * small.length)]!;
        // A file right under the root whose name is a large entry's folder name with no slash, or a prefix of it.
        if (random() < 0.02) return `${under}${['packages', 'app', 'apps.md', 's1'][Math.floor(random() * 4)]!}`;
        return `${under}${entry}/d${i % 5}/f${i}.ts`;
      });
      const cap = 1 + Math.floor(random() * 30);
      const got = sampleAcrossTopLevel(paths, root, cap);
      assert.deepEqual({ indices: got.indices, groupsTotal: got.groupsTotal, groupsReached: got.groupsReached }, reference(paths, root, cap), JSON.stringify({ root, cap }));
    }
  });
});

describe('sampleAcrossBranches', () => {
  it('moves down to the deepest folder that holds every path, and no further', () => {
    const paths = ['packages/app/src/a/1.ts', 'packages/app/src/b/2.ts', 'packages/app/src/a/3.ts', 'packages/app/src/c.ts'];
    const sample = sampleAcrossBranches(paths, '.', 3);
    assert.equal(sample.root, 'packages/app/src');
    assert.deepEqual(sample.indices, [0, 1, 3]);
    assert.equal(sampleAcrossBranches(paths, 'packages', 3).root, 'packages/app/src');
  });

  it('stays at the root when the paths branch right under it', () => {
    assert.equal(sampleAcrossBranches(['src/a.ts', 'test/b.ts'], '.', 1).root, '.');
    assert.equal(sampleAcrossBranches(['pkg/src/a.ts', 'pkg/test/b.ts'], 'pkg', 1).root, 'pkg');
  });

  it('never names a folder outside the root, even for paths that are not under it', () => {
    // rg prints the search path first in every line, so only a caller's mistake gets here; the answer must
    // still be the root, not a folder of the stray paths.
    assert.equal(sampleAcrossBranches(['a/b/c.ts', 'a/b/d.ts'], 'pkg', 1).root, 'pkg');
    assert.equal(sampleAcrossBranches(['pkgx/b/c.ts', 'pkgx/b/d.ts'], 'pkg', 1).root, 'pkg');
  });
});
