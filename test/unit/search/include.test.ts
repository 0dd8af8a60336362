import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { isToolError } from '../../../src/core/errors';
import { keepTrailingWhiteSpace, matchesPath, parseRipgrepGlob } from '../../../src/core/ripgrep/globs';
import { globTool } from '../../../src/core/search/glob';
import { grepTool, type GrepValue } from '../../../src/core/search/grep';
import { callGuard } from '../../../src/core/search/include';
import type { ToolOutput } from '../../../src/core/tool';
import { folder, RG_PATH, runTool, searchEnv, type SearchEnvOptions } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

function grep(input: unknown, options: SearchEnvOptions): Promise<ToolOutput<GrepValue>> {
  const env = searchEnv(options);
  return grepTool.run(grepTool.parse(input, env.config), env);
}

const files = (out: ToolOutput<GrepValue>) => [...new Set(out.value.matches.map((m) => m.path))].sort();

/** `x*a*a*…*a/*.txt` with `stars` stars; against `x` + 40 `a` + `b` a backtracking regex tries every split of the `a`s. */
const starGlob = (stars: number) => `x${'*a'.repeat(stars)}/*.txt`;
const FORTY_A = `x${'a'.repeat(40)}b`;

describe('grep include', function () {
  this.timeout(60_000);

  describe('the glob matcher runs in time linear in the path', () => {
    it('answers 16 stars against a folder named x + 40 a + b at once (hours with a backtracking RegExp)', async () => {
      const started = Date.now();
      const glob = parseRipgrepGlob(starGlob(16));
      assert.equal(matchesPath(glob, `${FORTY_A}/f.txt`), false);
      assert.equal(matchesPath(glob, `x${'a'.repeat(40)}/f.txt`), true);
      const root = makeTree({ [`${FORTY_A}/f.txt`]: 'needle\n', [`x${'a'.repeat(20)}/g.txt`]: 'needle\n' });
      try {
        const out = await grep({ pattern: 'needle', include: starGlob(16) }, { folders: [folder(root)] });
        assert.deepEqual(files(out), [`x${'a'.repeat(20)}/g.txt`]);
      } finally {
        removeTree(root);
      }
      // The one bound on time in the suite, generous: what took hours must take well under a few seconds.
      assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
    });

    it('stops a long match when the call is cancelled or past its deadline (the guard runs inside the loop)', () => {
      const glob = parseRipgrepGlob(`**/${'*a'.repeat(200)}*.txt`);
      const longPath = `${'a/'.repeat(2000)}${'ab'.repeat(500)}.txt`;
      const cancelled = new AbortController();
      cancelled.abort();
      assert.throws(() => matchesPath(glob, longPath, undefined, callGuard(cancelled.signal, 30_000)), (e: unknown) => isToolError(e) && e.code === 'SEARCH_ABORTED' && /cancelled/.test(e.message));
      let clock = 0;
      const guard = callGuard(new AbortController().signal, 1000, () => clock);
      clock = 1001;
      assert.throws(() => matchesPath(glob, longPath, undefined, guard), (e: unknown) => isToolError(e) && e.code === 'SEARCH_ABORTED' && /within 1000 ms/.test(e.message));
      clock = 0;
      assert.equal(typeof matchesPath(glob, longPath, undefined, callGuard(new AbortController().signal, 1000, () => clock)), 'boolean');
    });

    it('ends a grep call cancelled while its include is being matched, with SEARCH_ABORTED', async () => {
      const long = 'ab'.repeat(100);
      const root = makeTree(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`d${i}/${long}${i}.txt`, 'needle\n'])));
      try {
        // The signal reads as aborted from the moment rg's output is being filtered: the two checks before rg
        // starts see it live, every later read (the match guard's) sees the cancel.
        let reads = 0;
        let armed = false;
        const signal = new AbortController().signal;
        Object.defineProperty(signal, 'aborted', { get: () => armed && ++reads > 2 });
        const env = searchEnv({ folders: [folder(root)], signal });
        env.log.trace = (m) => {
          if (m.startsWith('grep: ')) armed = true;
        };
        const args = grepTool.parse({ pattern: 'needle', include: `d*/${'*a'.repeat(30)}*.txt` }, env.config);
        await assert.rejects(grepTool.run(args, env), (e: unknown) => isToolError(e) && e.code === 'SEARCH_ABORTED' && /cancelled/.test(e.message));
      } finally {
        removeTree(root);
      }
    });
  });

  describe('include only narrows: exactly the files grep searches without it, filtered by the glob', () => {
    let root: string;
    before(() => {
      root = makeTree({
        '.ignore': '!/.github/\n!.eslintrc.yml\n',
        '.github/workflows/ci.yml': 'runs-on: ubuntu\n',
        '.github/workflows/release.yml': 'runs-on: macos\n',
        '.eslintrc.yml': 'runs-on: lint\n',
        '.hidden.yml': 'runs-on: hidden\n',
        'src/.h.yml': 'runs-on: hidden too\n',
        'a.yml': 'runs-on: top\n',
        '.x.': 'runs-on: dot both ends\n',
        'notes.': 'runs-on: dot at the end\n',
        'docs/ notes/n.md': 'runs-on: space first\n',
        'docs/end /e.md': 'runs-on: space last\n',
        'docs/other.md': 'runs-on: other\n',
      });
    });
    after(() => removeTree(root));

    it('keeps a hidden folder and a hidden file an .ignore whitelists, and leaves other hidden files out', async () => {
      const all = files(await grep({ pattern: 'runs-on' }, { folders: [folder(root)] }));
      assert.ok(all.includes('.github/workflows/ci.yml') && all.includes('.eslintrc.yml') && !all.includes('.hidden.yml'), all.join());
      const yml = files(await grep({ pattern: 'runs-on', include: '*.yml' }, { folders: [folder(root)] }));
      assert.deepEqual(yml, ['.eslintrc.yml', '.github/workflows/ci.yml', '.github/workflows/release.yml', 'a.yml']);
      assert.deepEqual(files(await grep({ pattern: 'runs-on', include: '.github/**/*.yml' }, { folders: [folder(root)] })), ['.github/workflows/ci.yml', '.github/workflows/release.yml']);
    });

    it('still names a skipped hidden file that matches, when nothing else does', async () => {
      const out = await grep({ pattern: 'runs-on: hidden$', include: '*.yml' }, { folders: [folder(root)] });
      assert.deepEqual(out.value.matches, []);
      assert.match(out.text, /\[1 file that grep skipped \(hidden, or ignored by [^)]*\) has matching lines\. .*"\.hidden\.yml"/);
      assert.match(out.text, /grep searched 4 files under the workspace folder matching include "\*\.yml"/);
    });

    it('finds names ending with "." and names that start and end with it (not hidden for rg)', async () => {
      assert.deepEqual(files(await grep({ pattern: 'runs-on', include: '*.' }, { folders: [folder(root)] })), ['.x.', 'notes.']);
      assert.deepEqual(files(await grep({ pattern: 'runs-on', include: '.*' }, { folders: [folder(root)] })), ['.eslintrc.yml', '.x.']);
    });

    it('walks into a nested folder whose name starts or ends with a space', async () => {
      assert.deepEqual(files(await grep({ pattern: 'runs-on', include: 'docs/ notes/*.md' }, { folders: [folder(root)] })), ['docs/ notes/n.md']);
      assert.deepEqual(files(await grep({ pattern: 'runs-on', include: 'docs/end /*.md' }, { folders: [folder(root)] })), ['docs/end /e.md']);
    });

  });

  // A name ending in white space, copied from a listing, found nothing or another file: rg drops a --glob
  // value's trailing white space (it reads it as a gitignore line).
  describe('a glob ending in white space', () => {
    let root: string;
    before(() => (root = makeTree({ 'a.md': 'needle\n', 'a.md ': 'needle\n', 'a.md\u0085': 'needle\n', 'a.md\uFEFF': 'needle\n' })));
    after(() => removeTree(root));
    const rgFiles = (glob: string) =>
      execFileSync(RG_PATH, ['--no-config', '--files', '--null', `--glob=${glob}`, '--', '.'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean).map((p) => p.slice(2)).sort();

    it('is given to rg with that white space kept, U+0085 among it and U+FEFF not', () => {
      assert.deepEqual(rgFiles('a.md '), ['a.md'], 'rg alone drops the space');
      assert.equal(keepTrailingWhiteSpace('a.md '), 'a.md{ }');
      assert.equal(keepTrailingWhiteSpace('a.md\\ '), 'a.md\\ ', 'an escaped space, which rg keeps, is left as it is');
      assert.equal(keepTrailingWhiteSpace('a.md\uFEFF'), 'a.md\uFEFF');
      for (const name of ['a.md', 'a.md ', 'a.md\u0085', 'a.md\uFEFF']) {
        assert.deepEqual(rgFiles(keepTrailingWhiteSpace(name)), [name], JSON.stringify(name));
        const parsed = parseRipgrepGlob(name);
        assert.deepEqual(['a.md', 'a.md ', 'a.md\u0085', 'a.md\uFEFF'].filter((p) => matchesPath(parsed, p)), [name], `Scout's matcher agrees: ${JSON.stringify(name)}`);
      }
    });

    it('finds that name in glob and as include, and only it', async () => {
      const out = await runTool(globTool, { pattern: 'a.md ' }, { folders: [folder(root)] });
      assert.deepEqual(out.value.paths, ['a.md ']);
      assert.deepEqual(files(await grep({ pattern: 'needle', include: 'a.md ' }, { folders: [folder(root)] })), ['a.md ']);
    });
  });

  // include was ignored when path is a file: "No matches found" for a search that never filtered as asked, and
  // matches from a file the include leaves out.
  describe('path is a file: include is applied to it', () => {
    let root: string;
    before(() => (root = makeTree({ 'notes.md': 'needle\n', 'src/a.ts': 'needle\n', 'docs/Readme.MD': 'needle\n' })));
    after(() => removeTree(root));

    it('does not search a file include leaves out, and says so and what to do', async () => {
      const out = await grep({ pattern: 'needle', path: 'notes.md', include: '*.ts' }, { folders: [folder(root)] });
      assert.deepEqual(out.value.matches, []);
      assert.equal(
        out.text,
        `No matches found\n\n[include "*.ts" does not match the file given as path, "notes.md", so it was not searched. Call grep again without include to search that file.]\nPaths are relative to ${root}.`,
      );
      const other = await grep({ pattern: 'nothing', path: 'src/a.ts', include: 'docs/**' }, { folders: [folder(root)] });
      assert.match(other.text, /^No matches found\n\n\[include "docs\/\*\*" does not match the file given as path, "src\/a\.ts", so it was not searched\./);
    });

    it('searches a file include matches, as written or in a further reading, with its note', async () => {
      assert.deepEqual(files(await grep({ pattern: 'needle', path: 'src/a.ts', include: '*.ts' }, { folders: [folder(root)] })), ['src/a.ts']);
      assert.deepEqual(files(await grep({ pattern: 'needle', path: 'src/a.ts', include: 'src' }, { folders: [folder(root)] })), ['src/a.ts']);
      const folded = await grep({ pattern: 'needle', path: 'docs/Readme.MD', include: '*.md' }, { folders: [folder(root)] });
      assert.deepEqual([files(folded), folded.value.readAs], [['docs/Readme.MD'], '*.[mM][dD]']);
      assert.match(folded.text, /\[include "\*\.md" matched nothing as written \(globs are case-sensitive\), so it was read case-insensitively/);
    });
  });

  describe('.gitignore outside a git repository', () => {
    it('applies, as in VS Code search: grep skips a .gitignored dist/ in a folder that is not a git repository', async () => {
      const root = makeTree({ '.gitignore': 'dist/\n', 'dist/bundle.js': 'needle\n', 'src/a.js': 'needle\n' });
      try {
        assert.throws(() => execFileSync('git', ['rev-parse', '--git-dir'], { cwd: root, stdio: 'pipe' }), 'the folder is not inside a git repository');
        assert.deepEqual(files(await grep({ pattern: 'needle' }, { folders: [folder(root)] })), ['src/a.js']);
        assert.deepEqual(files(await grep({ pattern: 'needle', include: '*.js' }, { folders: [folder(root)] })), ['src/a.js']);
        assert.deepEqual(files(await grep({ pattern: 'needle', path: 'dist' }, { folders: [folder(root)] })), ['dist/bundle.js'], 'named as path, it is searched');
      } finally {
        removeTree(root);
      }
    });

    it('applies none above the workspace folder, as in VS Code search: a .gitignore in the folder that holds it hides nothing', async () => {
      const outer = makeTree({ '.gitignore': '*.log\nws/src/\n', 'ws/app.log': 'needle\n', 'ws/src/a.js': 'needle\n', 'ws/.gitignore': 'dist/\n', 'ws/dist/b.js': 'needle\n' });
      try {
        assert.throws(() => execFileSync('git', ['rev-parse', '--git-dir'], { cwd: outer, stdio: 'pipe' }), 'the folder is not inside a git repository');
        const ws = { folders: [folder(`${outer}/ws`)] };
        assert.deepEqual(files(await grep({ pattern: 'needle' }, ws)), ['app.log', 'src/a.js']);
        assert.deepEqual(files(await grep({ pattern: 'needle', include: '*.log' }, ws)), ['app.log']);
      } finally {
        removeTree(outer);
      }
    });
  });
});
