/**
 * grep's `include` only narrows: on generated trees and seeded random globs, the files grep searches with
 * `include` are exactly the files it searches without it (rg's own walk, every ignore and hidden rule
 * applied) that rg's own `--glob` matches (rg listing the whole tree with `--no-ignore --hidden`). The trees
 * hold what broke this before: hidden folders and files an `.ignore` whitelists (`!/.github/`), names with a
 * space at either end, names ending with `.` or starting and ending with it, ignored folders, and a
 * `.gitignore` outside a git repository.
 *
 * Cases: half of SCOUT_FC_RUNS (default 500: 50 trees of five globs each, 250 cases; `npm run attack:full`
 * 10,000: 5,000 cases); SCOUT_FC_SEED replays a seed. Every difference is collected and printed before the test fails.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { isToolError } from '../../../src/core/errors';
import { createGrepTool } from '../../../src/core/search/grep';
import { folder, RG_PATH, searchEnv } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

const RUNS = Number(process.env.SCOUT_FC_RUNS ?? 500);
const SEED = process.env.SCOUT_FC_SEED === undefined ? undefined : Number(process.env.SCOUT_FC_SEED);
const GLOBS_PER_TREE = 5;
const TREES = Math.max(1, Math.floor(RUNS / 2 / GLOBS_PER_TREE));

/** Folder names: hidden, whitelisted, a space at either end, ending with `.`, starting and ending with `.`. */
const DIRS = ['src', 'docs', '.github', '.hid', ' notes', 'end ', 'a.', '.x.', 'lib', 'build'];
/** File names, disjoint from {@link DIRS}. */
const FILES = ['a.yml', 'b.ts', '.h.yml', '.k.ts', 'c.', '.d.', ' s.md', 'e .md', 'x', 'R.md', 'w.yml.', 'f.t s'];
/** Lines of the root `.ignore` and `.gitignore` (no git repository: grep applies `.gitignore` anyway). */
const IGNORE_LINES = ['!/.github/', '!.h.yml', '!/src/.k.ts', '!.hid/', 'build/', '/docs/ notes/', '*.t s', '!.d.', 'lib/', '!/.x./'];

const segment = (names: readonly string[]) => fc.constantFrom(...names);
const filePath = fc.tuple(fc.array(segment(DIRS), { maxLength: 3 }), segment(FILES)).map(([dirs, name]) => [...dirs, name].join('/'));
const tree = fc.record({
  files: fc.uniqueArray(filePath, { minLength: 1, maxLength: 25 }),
  ignore: fc.subarray(IGNORE_LINES),
  gitignore: fc.subarray(IGNORE_LINES),
});

/** One segment of a glob: a literal name, or wildcards, classes and braces around parts of names. */
const globSegment = fc.oneof(
  segment([...DIRS, ...FILES]),
  fc.constantFrom('*', '?', '**', '*.yml', '*.ts', '*.', '.*', '* ', ' *', '*.md', '{src,docs}', '{*.yml,*.ts}', '[.a]*', '*[.]', '?*.', '.?*', '*.{yml,md}', '[!.]*'),
);
const glob = fc
  .tuple(fc.boolean(), fc.array(globSegment, { minLength: 1, maxLength: 3 }))
  .map(([anchored, segments]) => `${anchored ? '/' : ''}${segments.join('/')}`)
  .filter((g) => g.trim() === g && !g.startsWith('#'));

/** The files rg lists for `args` in `root`, workdir-relative. */
function rgFiles(root: string, args: string[]): Set<string> {
  const r = spawnSync(RG_PATH, ['--no-config', '--files', '--null', ...args, '--', '.'], { cwd: root, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return new Set(r.stdout.split('\0').filter(Boolean).map((p) => p.slice(2)));
}

/** grep without the counts that explain an empty result (they do not change which files are searched). */
const grepTool = createGrepTool({ maxFiles: 0, timeMs: 0, maxRetryChecks: 0, maxListings: 0 });

/** The files grep reports a match in (every file holds `needle`), or undefined when include was read otherwise. */
async function grepFiles(root: string, include?: string): Promise<Set<string> | undefined> {
  const env = searchEnv({ folders: [folder(root)] });
  const out = await grepTool.run(grepTool.parse({ pattern: 'needle', ...(include === undefined ? {} : { include }) }, env.config), env);
  if (out.value.readAs !== undefined) return undefined;
  return new Set(out.value.matches.map((m) => m.path));
}

describe('grep include: exactly the files grep searches without it, narrowed by rg\'s own --glob (differential, real rg)', function () {
  this.timeout(0);

  it(`agrees with rg on ${TREES} generated trees × ${GLOBS_PER_TREE} seeded globs`, async () => {
    const differences: string[] = [];
    let cases = 0;
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(tree, fc.array(glob, { minLength: GLOBS_PER_TREE, maxLength: GLOBS_PER_TREE }), async (t, globs) => {
        const root = makeTree({
          ...Object.fromEntries(t.files.map((f) => [f, 'needle\n'])),
          ...(t.ignore.length ? { '.ignore': `${t.ignore.join('\n')}\n` } : {}),
          ...(t.gitignore.length ? { '.gitignore': `${t.gitignore.join('\n')}\n` } : {}),
        });
        try {
          const searched = (await grepFiles(root))!;
          for (const g of globs) {
            cases++;
            let matched: Set<string>;
            try {
              matched = rgFiles(root, ['--no-ignore', '--hidden', `--glob=${g}`]);
            } catch {
              continue; // a glob rg rejects: grep must refuse it too (arguments tests)
            }
            const expected = [...searched].filter((f) => matched.has(f)).sort();
            let actual: Set<string> | undefined;
            try {
              actual = await grepFiles(root, g);
            } catch (e) {
              if (isToolError(e) && e.code !== 'SEARCH_FAILED') continue;
              throw e;
            }
            // An include that matched nothing may be read another way (a folder name, relative to path).
            if (actual === undefined) {
              if (expected.length) differences.push(`${JSON.stringify(g)} on ${JSON.stringify(t)}: read otherwise although it matches ${JSON.stringify(expected)}`);
              continue;
            }
            compared++;
            const got = [...actual].sort();
            if (JSON.stringify(got) !== JSON.stringify(expected)) differences.push(`${JSON.stringify(g)} on ${JSON.stringify(t)}: grep ${JSON.stringify(got)}, rg ${JSON.stringify(expected)}`);
          }
        } finally {
          removeTree(root);
        }
      }),
      { numRuns: TREES, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    console.log(`      include differential: ${cases} cases, ${compared} compared, ${differences.length} differences`);
    assert.deepEqual(differences.slice(0, 5), [], `${differences.length} of ${cases} cases differ`);
  });
});
