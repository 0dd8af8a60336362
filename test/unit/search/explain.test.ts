/**
 * Empty results that explain themselves, on trees of the size a real repository has: a
 * node_modules of hundreds of packages next to a dist of 500 files, `.ignore`/`.rgignore` rules,
 * binary files, and a multi-root workspace. Budgets are parameters; no assertion depends on a clock.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ExplainBudget } from '../../../src/core/search/explain';
import { createGlobTool } from '../../../src/core/search/glob';
import { createGrepTool, type GrepValue } from '../../../src/core/search/grep';
import type { ToolOutput } from '../../../src/core/tool';
import { folder, runTool } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

/** Counts stop at files and checks only: the time budget is out of reach. */
const budget = (overrides: Partial<ExplainBudget> = {}): ExplainBudget => ({ maxFiles: 1000, timeMs: 600_000, maxRetryChecks: 8, maxListings: 4, ...overrides });

const grepFiles = (out: ToolOutput<GrepValue>) => [...new Set(out.value.matches.map((m) => m.path))].sort();
/** The `path "…" (n files, …)` suggestions of a skipped-files note. */
const suggestions = (text: string) => [...text.matchAll(/path ("[^"]+") \(((?:at least )?[\d,]+) files?, (hidden|ignored)\)/g)].map((m) => `${JSON.parse(m[1]!)} ${m[2]} ${m[3]}`);

describe('empty results explained in large trees', function () {
  this.timeout(120_000);

  describe('6. a node_modules of 400 packages and a dist of 500 files', () => {
    let root: string;
    before(() => {
      root = makeTree({ '.git/HEAD': 'ref: refs/heads/main\n', '.gitignore': 'node_modules/\ndist/\n', 'src/index.ts': 'export {};\n' });
      for (let p = 0; p < 400; p++) {
        for (const sub of ['lib', 'lib/internal', 'esm', 'esm/internal']) {
          const dir = path.join(root, 'node_modules', `pkg-${String(p).padStart(3, '0')}`, sub);
          mkdirSync(dir, { recursive: true });
          writeFileSync(path.join(dir, 'index.js'), 'module.exports = "needle_nm";\n');
        }
      }
      mkdirSync(path.join(root, 'dist'));
      for (let f = 0; f < 500; f++) writeFileSync(path.join(root, 'dist', `chunk-${f}.js`), 'var x = "needle_dist";\n');
    });
    after(() => removeTree(root));

    it('suggests node_modules alone, with a count it says was cut short, and no nested folders or files', async () => {
      const out = await runTool(createGrepTool(budget()), { pattern: 'needle_nm' }, { folders: [folder(root)] });
      assert.equal(
        out.text,
        `No matches found\n\n[at least 1,000 files that grep skipped (hidden, or ignored by .gitignore, .ignore or .rgignore rules) have matching lines. To search them, call grep again with the same pattern, and path "node_modules" (at least 1,000 files, ignored).]\n[These counts stopped at Scout's limits (1,000 files per count or 600,000 ms in all), so there may be more.]\nPaths are relative to ${root}.`,
      );
    });

    it('gives the same answer on every run (counts in path order)', async () => {
      const tool = createGrepTool(budget({ maxFiles: 300 }));
      const texts = new Set<string>();
      for (let run = 0; run < 4; run++) texts.add((await runTool(tool, { pattern: 'needle_nm|needle_dist' }, { folders: [folder(root)] })).text);
      assert.equal(texts.size, 1, [...texts].join('\n---\n'));
    });

    it('mentions dist next to node_modules, even though node_modules alone fills the file budget', async () => {
      const out = await runTool(createGrepTool(budget()), { pattern: 'needle_dist|needle_nm' }, { folders: [folder(root)] });
      assert.deepEqual(suggestions(out.text), ['dist 500 ignored', 'node_modules at least 1,000 ignored']);
      assert.doesNotMatch(out.text, /give the file itself/);
      const retry = await runTool(createGrepTool(budget()), { pattern: 'needle_dist|needle_nm', path: 'dist' }, { folders: [folder(root)], search: { grepMaxMatches: 1000 } });
      assert.equal(grepFiles(retry).length, 500, 'the count of dist is exact');
    });

    it('stays within its check budget, and says so when it ran out of checks', async () => {
      const out = await runTool(createGrepTool(budget({ maxRetryChecks: 1 })), { pattern: 'needle_dist|needle_nm' }, { folders: [folder(root)] });
      assert.deepEqual(suggestions(out.text), ['dist 500 ignored']);
      assert.match(out.text, /For the other 500, give the file itself as path \(with the same pattern\), e\.g\. "node_modules\/pkg-000\/esm\/index\.js"\./);
      assert.match(out.text, /\[These counts stopped at Scout's limits \(1,000 files per count or 600,000 ms in all, 1 folder check\), so there may be more\.\]/);
    });

    it('still descends where a folder\'s search does not reach its files (a hidden file in an ignored folder)', async () => {
      const tree = makeTree({ '.git/HEAD': 'x', '.gitignore': 'build/\n', 'build/out.js': 'needle_b\n', 'build/.cache/c.js': 'needle_b\n', 'src/.env.local': 'needle_b\n' });
      try {
        const out = await runTool(createGrepTool(budget()), { pattern: 'needle_b' }, { folders: [folder(tree)] });
        assert.deepEqual(suggestions(out.text), ['build 1 ignored', 'build/.cache 1 hidden']);
        assert.match(out.text, /For the other 1, give the file itself as path \(with the same pattern\), e\.g\. "src\/\.env\.local"\./);
      } finally {
        removeTree(tree);
      }
    });
  });

  describe('12. .ignore and .rgignore rules are named as such', () => {
    it('says "ignored by .gitignore, .ignore or .rgignore rules", never "git-ignored", for a folder a .ignore file keeps out', async () => {
      const root = makeTree({ '.ignore': 'generated/\n', '.rgignore': 'snapshots/\n', 'generated/a.ts': 'needle_i\n', 'snapshots/s.txt': 'needle_i\n', 'src/b.ts': 'x\n' });
      try {
        const out = await runTool(createGrepTool(budget()), { pattern: 'needle_i' }, { folders: [folder(root)] });
        assert.match(out.text, /^No matches found\n\n\[2 files that grep skipped \(hidden, or ignored by \.gitignore, \.ignore or \.rgignore rules\) have matching lines\./);
        assert.deepEqual(suggestions(out.text), ['generated 1 ignored', 'snapshots 1 ignored']);
        const include = await runTool(createGrepTool(budget()), { pattern: 'needle_i', include: '*.rs' }, { folders: [folder(root)] });
        assert.match(include.text, /\(hidden files, and files ignored by \.gitignore, \.ignore or \.rgignore rules, are not searched\)/);
        for (const text of [out.text, include.text]) assert.doesNotMatch(text, /git-ignored/);
      } finally {
        removeTree(root);
      }
    });
  });

  describe('13. binary files', () => {
    it('says that binary files holding matches were not searched, and the path that searches one', async () => {
      const root = makeTree({ 'assets/blob.bin': Buffer.from('abc\0def needle_bin\n'), 'assets/early.bin': Buffer.from('needle_bin first\n\0rest\n'), 'src/a.ts': 'x\n' });
      try {
        const out = await runTool(createGrepTool(budget()), { pattern: 'needle_bin' }, { folders: [folder(root)] });
        assert.equal(
          out.text,
          `No matches found\n\n[2 binary files under the workspace folder (holding a NUL byte) have matching text; grep does not search binary files while walking a folder. To search one, give it as path, e.g. "assets/blob.bin".]\nPaths are relative to ${root}.`,
        );
        const named = await runTool(createGrepTool(budget()), { pattern: 'needle_bin', path: 'assets/blob.bin' }, { folders: [folder(root)] });
        assert.deepEqual(grepFiles(named), ['assets/blob.bin'], 'a binary file named as path is searched');
        assert.match(named.text, /^assets\/blob\.bin\nLine 1: abc\u2400def needle_bin\n/);
      } finally {
        removeTree(root);
      }
    });
  });

  describe('17. multi-root: a call without path searches the first folder', () => {
    let first: string;
    let second: string;
    before(() => {
      first = makeTree({ 'a.ts': 'nothing\n' });
      second = makeTree({ 'src/only_here.ts': 'needle_second\n', 'src/also.ts': 'needle_second\n' });
    });
    after(() => [first, second].forEach(removeTree));

    it('grep: names the other folder that has matches and the path that reaches it', async () => {
      const folders = [folder(first, 'web'), folder(second, 'api')];
      const out = await runTool(createGrepTool(budget()), { pattern: 'needle_second' }, { folders });
      assert.equal(
        out.text,
        `No matches found\n\n[path was omitted, so only workspace folder "web" was searched. Workspace folder "api" (2 files) has matches: to search one, call grep again with the same pattern and path "api".]\nPaths are relative to ${first} (workspace folder "web").`,
      );
      assert.equal((await runTool(createGrepTool(budget()), { pattern: 'needle_second', path: 'api' }, { folders })).value.matches.length, 2);
      const withPath = await runTool(createGrepTool(budget()), { pattern: 'needle_second', path: 'web' }, { folders });
      assert.equal(withPath.text, 'No matches found', 'a path the model chose is not second-guessed');
    });

    it('glob: the same', async () => {
      const folders = [folder(first, 'web'), folder(second, 'api')];
      const out = await runTool(createGlobTool(budget()), { pattern: '*only_here*' }, { folders });
      assert.match(out.text, /\[path was omitted, so only workspace folder "web" was searched\. Workspace folder "api" \(1 file\) has matches: to list the files of one, call glob again with the same pattern and path "api"\.\]/);
    });
  });
});
