/**
 * glob and grep on a workspace shaped like a real repository (see `makeRealisticWorkspace`): node_modules, dist/
 * and logs ignored by .gitignore, dot folders and dot-files at every level, a .git folder whose config holds
 * a token. Each test is one of the issue's points, with the input that broke it.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ExplainBudget } from '../../../src/core/search/explain';
import { createGlobTool, type GlobValue } from '../../../src/core/search/glob';
import { createGrepTool, type GrepValue } from '../../../src/core/search/grep';
import type { ToolOutput } from '../../../src/core/tool';
import type { WorkspaceFolderRef } from '../../../src/core/workspace/folders';
import { folder, runTool, toolFailure } from '../../helpers/searchEnv';
import { makeRealisticWorkspace, makeTree, removeTree, type RealisticWorkspace } from '../../helpers/tree';

/** A budget no test can reach by time: the counts stop only at `maxFiles`. */
const GENEROUS: ExplainBudget = { maxFiles: 1000, timeMs: 600_000, maxRetryChecks: 16, maxListings: 4 };

const globTool = createGlobTool(GENEROUS);
const grepTool = createGrepTool(GENEROUS);



const grepFiles = (out: ToolOutput<GrepValue>) => [...new Set(out.value.matches.map((m) => m.path))].sort();
const globFiles = (out: ToolOutput<GlobValue>) => [...out.value.paths].sort();

describe('glob and grep on a realistic workspace', function () {
  this.timeout(60_000);
  let ws: RealisticWorkspace;
  let folders: WorkspaceFolderRef[];
  before(() => {
    ws = makeRealisticWorkspace();
    folders = [folder(ws.root)];
  });
  after(() => ws.remove());
  const note = () => `Paths are relative to ${ws.root}.`;

  describe('1. absolute patterns', () => {
    it('reads an absolute glob pattern inside the folder relative to it, and says so', async () => {
      const out = await runTool(globTool, { pattern: `${ws.root}/src/**/*.ts` }, { folders });
      assert.deepEqual(globFiles(out), ['src/app.ts', 'src/lib/.generated.ts', 'src/lib/util.ts']);
      assert.equal(out.value.readAs, 'src/**/*.ts');
      assert.ok(out.text.endsWith(`\n\n[pattern ${JSON.stringify(`${ws.root}/src/**/*.ts`)} is an absolute path in the workspace folder, so it was read relative to that folder as "src/**/*.ts".]\n${note()}`), out.text);
    });

    it('anchors an absolute pattern of a file directly in the folder, and accepts the folder as given (a symlink)', async () => {
      const link = `${ws.root}-link`;
      symlinkSync(ws.root, link);
      try {
        const out = await runTool(globTool, { pattern: `${link}/*.json` }, { folders: [folder(link)] });
        assert.deepEqual(out.value.paths, ['package.json'], 'not node_modules/left-pad/package.json');
        assert.equal(out.value.readAs, '/*.json');
      } finally {
        removeTree(link);
      }
    });

    it('reads an absolute grep include the same way', async () => {
      const out = await runTool(grepTool, { pattern: 'needle', include: `${ws.root}/src/**/*.ts` }, { folders });
      assert.deepEqual(grepFiles(out), ['src/app.ts']);
      assert.equal(out.value.readAs, 'src/**/*.ts');
    });

    it('keeps rg\'s meaning of a leading "/" whose first segment is in the folder: anchored, no note', async () => {
      const out = await runTool(globTool, { pattern: '/src/*.ts' }, { folders });
      assert.deepEqual(out.value.paths, ['src/app.ts']);
      assert.equal(out.value.readAs, undefined);
      assert.equal(out.text, `src/app.ts\n\n${note()}`);
    });

    it('refuses an absolute pattern outside the folder with an error naming the folder, the same whether it exists', async () => {
      const answers = [];
      for (const pattern of ['/../**/*.ts', '/./x', `${path.dirname(ws.root)}/**/*.ts`, `${path.dirname(ws.root)}/no-such-place/**`]) {
        const error = await toolFailure(globTool, { pattern }, { folders });
        assert.equal(error.code, 'PATH_OUTSIDE_WORKSPACE');
        assert.ok(error.message.includes(`outside the workspace folder ${ws.root}`), error.message);
        answers.push(error.message.replace(JSON.stringify(pattern), '<pattern>'));
      }
      assert.equal(new Set(answers).size, 1, answers.join('\n'));
      assert.equal((await toolFailure(grepTool, { pattern: 'x', include: `${path.dirname(ws.root)}/x/*.conf` }, { folders })).code, 'PATH_OUTSIDE_WORKSPACE');
      assert.match((await toolFailure(grepTool, { pattern: 'x', include: '/../*.conf' }, { folders })).message, /Give an include relative to the folder/);
    });

    it('reads a leading "/" naming nothing in the folder as rg does: an empty result that says so, the same whether the path exists outside', async () => {
      const answers = new Set<string>();
      for (const [pattern, first] of [['/nothere.ts', 'nothere.ts'], ['/etc/**/*.conf', 'etc'], ['/no/such/place/**', 'no']]) {
        const out = await runTool(globTool, { pattern }, { folders });
        assert.deepEqual(out.value.paths, []);
        answers.add(out.text.replace(JSON.stringify(pattern), '<pattern>').replace(JSON.stringify(first), '<first>'));
      }
      assert.deepEqual([...answers], [
        `No files found\n\n[pattern <pattern> starts with "/", which anchors it at the workspace folder ${ws.root}, and that folder has no entry <first>. Glob lists only files inside the workspace folder: drop the "/" to match at any depth.]\n${note()}`,
      ]);
      const grep = await runTool(grepTool, { pattern: 'needle', include: '/etc/*.conf' }, { folders });
      assert.match(grep.text, /^No matches found\n\n\[include "\/etc\/\*\.conf" starts with "\/", which anchors it at the workspace folder [^\n]*\. Grep searches only files inside the workspace folder: drop the "\/" to match at any depth\.\]\n/);
    });

    describe('in a multi-root workspace', () => {
      let other: string;
      before(() => (other = makeTree({ 'lib/core.ts': 'export const needle = 1;\n' })));
      after(() => removeTree(other));

      it('searches the folder an absolute pattern lies in when path is omitted', async () => {
        const out = await runTool(globTool, { pattern: `${other}/lib/*.ts` }, { folders: [folder(ws.root, 'app'), folder(other, 'other')] });
        assert.deepEqual([out.value.workdir, out.value.paths], [other, ['lib/core.ts']]);
      });

      it('refuses an absolute pattern in another folder than path, naming both', async () => {
        const error = await toolFailure(globTool, { pattern: `${other}/lib/*.ts`, path: 'app/src' }, { folders: [folder(ws.root, 'app'), folder(other, 'other')] });
        assert.equal(error.code, 'INVALID_ARGUMENT');
        assert.match(error.message, /is in workspace folder "other", but path "app\/src" is in workspace folder "app"/);
      });
    });
  });

  describe('2. directory patterns', () => {
    for (const pattern of ['src', 'src/', './src', `${'./'}src/`]) {
      it(`lists the files under the directory for ${JSON.stringify(pattern)}, read as "src/**"`, async () => {
        const out = await runTool(globTool, { pattern }, { folders });
        assert.deepEqual(globFiles(out), ['src/app.ts', 'src/lib/.generated.ts', 'src/lib/util.ts']);
        assert.equal(out.value.readAs, 'src/**');
        assert.ok(out.text.includes(`\n[pattern ${JSON.stringify(pattern)} names a directory, so it was read as "src/**": every file under it.]\n`), out.text);
      });
    }

    it('reads "src/lib", and "lib" under path "src", as "src/lib/**"', async () => {
      assert.deepEqual(globFiles(await runTool(globTool, { pattern: 'src/lib' }, { folders })), ['src/lib/.generated.ts', 'src/lib/util.ts']);
      const under = await runTool(globTool, { pattern: 'lib', path: 'src' }, { folders });
      assert.deepEqual([under.value.readAs, globFiles(under)], ['src/lib/**', ['src/lib/.generated.ts', 'src/lib/util.ts']]);
    });

    it('reads a grep include naming a directory the same way, still without ignored files', async () => {
      const out = await runTool(grepTool, { pattern: '.', include: 'packages/api' }, { folders });
      assert.deepEqual([out.value.readAs, grepFiles(out)], ['packages/api/**', ['packages/api/src/server.ts']]);
    });

    it('reads a route folder or file with brackets literally ("app/[id]")', async () => {
      const root = makeTree({ 'app/[id]/page.tsx': 'export default 1;\n', 'app/i/page.tsx': 'no\n' });
      try {
        const dir = await runTool(globTool, { pattern: 'app/[id]' }, { folders: [folder(root)] });
        assert.deepEqual([dir.value.readAs, dir.value.paths], ['app/[[]id]/**', ['app/[id]/page.tsx']]);
        const file = await runTool(globTool, { pattern: 'app/[id]/page.tsx' }, { folders: [folder(root)] });
        assert.deepEqual([file.value.readAs, file.value.paths], ['app/[[]id]/page.tsx', ['app/[id]/page.tsx']]);
        assert.match(file.text, /names a file, so it was read literally as "app\/\[\[\]id\]\/page\.tsx"/);
      } finally {
        removeTree(root);
      }
    });

    it('leaves a glob, or a name that is no directory, as it is', async () => {
      assert.equal((await runTool(globTool, { pattern: 'src/*' }, { folders })).value.readAs, undefined);
      assert.equal((await runTool(globTool, { pattern: 'package.json' }, { folders })).value.readAs, undefined);
      assert.equal((await runTool(globTool, { pattern: 'nosuchdir' }, { folders })).text, 'No files found');
    });
  });

  describe('3. empty results explain themselves', () => {
    it('names every skipped folder with matches and a path that reaches them, each checked by running it', async () => {
      const out = await runTool(grepTool, { pattern: 'onlyskipped' }, { folders });
      assert.deepEqual(out.value.matches, []);
      const lines = out.text.split('\n');
      assert.equal(lines[0], 'No matches found');
      assert.match(out.text, /\[11 files that grep skipped \(hidden, or ignored by \.gitignore, \.ignore or \.rgignore rules\) have matching lines\. To search them, call grep again with the same pattern, and path /);
      assert.doesNotMatch(out.text, /These counts stopped/);
      // The advice is exact: every path it names finds the matches it promised.
      const suggested = [...out.text.matchAll(/path ("[^"]+") \((\d+) files?, (hidden|ignored)\)/g)].map((m) => [JSON.parse(m[1]!) as string, Number(m[2]), m[3]] as const);
      const rest = /For the other (\d+), give the file itself as path \(with the same pattern\), e\.g\. ("[^"]+")/.exec(out.text);
      assert.ok(suggested.length >= 5, out.text);
      let found = 0;
      for (const [p, files, kind] of suggested) {
        const retry = await runTool(grepTool, { pattern: 'onlyskipped', path: p }, { folders });
        assert.equal(grepFiles(retry).length, files, `path ${p}`);
        assert.equal(kind, p.split('/').some((s) => s.startsWith('.')) ? 'hidden' : 'ignored');
        found += files;
      }
      if (rest) {
        const retry = await runTool(grepTool, { pattern: 'onlyskipped', path: JSON.parse(rest[2]!) }, { folders });
        assert.equal(grepFiles(retry).length, 1);
        found += Number(rest[1]);
      }
      assert.equal(found, 11);
    });

    it('in a multi-root workspace, names the skipped folders with the folder name, so the retry reaches them', async () => {
      const first = makeTree({ 'a.txt': 'x\n' });
      try {
        const roots = [folder(first, 'first'), folder(ws.root, 'app')];
        const out = await runTool(grepTool, { pattern: 'onlyskipped', path: 'app/foo' }, { folders: roots });
        assert.match(out.text, /\[1 file that grep skipped \(hidden, or ignored by \.gitignore, \.ignore or \.rgignore rules\) has matching lines\. To search it, call grep again with the same pattern, and path "app\/foo\/bar" \(1 file, ignored\)\.\]/);
        assert.deepEqual(grepFiles(await runTool(grepTool, { pattern: 'onlyskipped', path: 'app/foo/bar' }, { folders: roots })), ['foo/bar/x.txt']);
        const glob = await runTool(globTool, { pattern: '*.md', path: 'app/src' }, { folders: roots });
        assert.match(glob.text, /e\.g\. "docs\/guide\.md": set path to "app" to list them\.\]/);
        assert.deepEqual((await runTool(globTool, { pattern: '*.md', path: 'app' }, { folders: roots })).value.paths, ['docs/guide.md']);
      } finally {
        removeTree(first);
      }
    });

    it('says whether include matched no file, or matched files whose text did not match', async () => {
      const none = await runTool(grepTool, { pattern: 'needle', include: '*.rs' }, { folders });
      assert.equal(none.text, `No matches found\n\n[No file under the workspace folder matches include "*.rs" (hidden files, and files ignored by .gitignore, .ignore or .rgignore rules, are not searched), so nothing was searched.]\n${note()}`);
      const some = await runTool(grepTool, { pattern: 'absent', include: '*.md', path: 'docs' }, { folders });
      assert.equal(some.text, `No matches found\n\n[grep searched 1 file under "docs" matching include "*.md"; none has a line matching the pattern.]\n${note()}`);
    });

    it('counts within the budget and says when a count was cut short (maxFiles, not a clock)', async () => {
      const tool = createGrepTool({ maxFiles: 2, timeMs: 600_000, maxRetryChecks: 16, maxListings: 1 });
      const out = await runTool(tool, { pattern: 'onlyskipped' }, { folders });
      assert.match(out.text, /\[at least 2 files that grep skipped \(hidden, or ignored by \.gitignore, \.ignore or \.rgignore rules\) have matching lines\./);
      assert.match(out.text, /\n\[These counts stopped at Scout's limits \(2 files per count or 600,000 ms in all\), so there may be more\.\]\n/);
    });

    it('measures nothing with no time budget, and nothing for a result that is not empty', async () => {
      const noTime = createGrepTool({ maxFiles: 1000, timeMs: 0, maxRetryChecks: 16, maxListings: 4 });
      assert.equal((await runTool(noTime, { pattern: 'onlyskipped' }, { folders })).text, 'No matches found');
      const found = await runTool(grepTool, { pattern: 'needle|onlyskipped' }, { folders });
      assert.doesNotMatch(found.text, /skipped/);
    });

    it('returns exactly "No matches found" when nothing was skipped either', async () => {
      assert.equal((await runTool(grepTool, { pattern: 'no line anywhere has this' }, { folders })).text, 'No matches found');
    });

    it('glob: points to matches outside path, with the exact retry (omit path)', async () => {
      const out = await runTool(globTool, { pattern: '*.md', path: 'src' }, { folders });
      assert.equal(out.text, `No files found\n\n[No file under "src" matches, but 1 file elsewhere in the workspace folder does, e.g. "docs/guide.md": omit path to list them.]\n${note()}`);
      assert.equal((await runTool(globTool, { pattern: '*.md' }, { folders })).value.paths.length, 1);
    });
  });

  describe('4. include never overrides ignore or hidden rules', () => {
    // Every non-empty line matches ".", so the files listed are exactly the files grep searched.
    const table: [string, string[]][] = [
      ['*.ts', ['packages/api/src/server.ts', 'src/app.ts', 'src/lib/util.ts']],
      ['foo/**', ['foo/y.txt']],
      ['**/bar/*.txt', []],
      ['*.{ts,js}', ['packages/api/src/server.ts', 'src/app.ts', 'src/lib/util.ts']],
      ['{src,dist}/**/*.{ts,js}', ['src/app.ts', 'src/lib/util.ts']],
      ['*.log', []],
      ['packages/*/build/**', []],
      ['node_modules/**', []],
      ['.hid/*', []],
      ['.github/**', []],
      ['*.yml', []],
      ['.env', []],
      ['.hidden.ts', []],
      ['*', ['docs/guide.md', 'foo/y.txt', 'package.json', 'packages/api/src/server.ts', 'src/app.ts', 'src/lib/util.ts']],
    ];
    for (const [include, expected] of table) {
      it(`include ${JSON.stringify(include)} searches only files rg walks: ${expected.length ? expected.join(', ') : 'none'}`, async () => {
        const out = await runTool(grepTool, { pattern: '.', include }, { folders });
        assert.deepEqual(grepFiles(out), expected);
        assert.doesNotMatch(JSON.stringify(out.value), new RegExp(ws.token));
      });
    }

    it('top-level .hidden.ts and .hid/nested.ts are both skipped by "*.ts", and both searched when path names them', async () => {
      const walked = grepFiles(await runTool(grepTool, { pattern: 'onlyskipped|needle', include: '*.ts' }, { folders }));
      assert.ok(!walked.includes('.hidden.ts') && !walked.includes('.hid/nested.ts'), walked.join());
      assert.deepEqual(grepFiles(await runTool(grepTool, { pattern: 'onlyskipped', path: '.hid', include: '*.ts' }, { folders })), ['.hid/nested.ts']);
      assert.deepEqual(grepFiles(await runTool(grepTool, { pattern: 'onlyskipped', path: '.hidden.ts', include: '*.ts' }, { folders })), ['.hidden.ts']);
      assert.deepEqual(grepFiles(await runTool(grepTool, { pattern: 'onlyskipped', path: 'dist', include: '*.js' }, { folders })), ['dist/app.js']);
    });
  });

  describe('8. VCS metadata stays out', () => {
    before(() => {
      mkdirSync(path.join(ws.root, 'vendor/lib/.hg'), { recursive: true });
      writeFileSync(path.join(ws.root, 'vendor/lib/.hg/hgrc'), `[paths]\ndefault = https://${ws.token}@hg.example/\n`);
      symlinkSync('.git', path.join(ws.root, 'meta'));
    });

    const paths = ['.git', '.git/', './.git', '.git/config', 'src/../.git', 'meta', 'meta/config', 'vendor/lib/.hg', '.svn/entries', '.jj', '.sl/x'];
    for (const p of paths) {
      it(`refuses path ${JSON.stringify(p)} for glob and grep, saying why`, async () => {
        for (const [tool, input] of [[globTool, { pattern: '*', path: p }], [grepTool, { pattern: 'url', path: p }]] as const) {
          const error = await toolFailure(tool, input, { folders });
          assert.equal(error.code, 'INVALID_ARGUMENT', `${tool.name} ${p}: ${error.message}`);
          assert.match(error.message, /version-control metadata that glob and grep never list or search/);
          assert.ok(!error.message.includes(ws.token));
        }
      });
    }

    it('refuses an absolute path into .git as path, pattern or include', async () => {
      for (const [tool, input] of [
        [globTool, { pattern: '*', path: `${ws.root}/.git` }],
        [globTool, { pattern: `${ws.root}/.git/config` }],
        [globTool, { pattern: '.git/**' }],
        [grepTool, { pattern: 'url', include: '.git/**' }],
        [grepTool, { pattern: 'url', include: `${ws.root}/.git` }],
      ] as const) {
        assert.equal((await toolFailure(tool, input, { folders })).code, 'INVALID_ARGUMENT', JSON.stringify(input));
      }
    });

    it('never lists or searches VCS metadata while walking, whatever the pattern or include', async () => {
      const everything = await runTool(globTool, { pattern: '*' }, { folders });
      assert.ok(!everything.value.paths.some((p) => /(^|\/)\.(git|hg)\//.test(p)), everything.value.paths.join());
      for (const include of ['*', '**', 'config', '*rc']) {
        const out = await runTool(grepTool, { pattern: 'url|default', include }, { folders });
        assert.ok(!out.text.includes(ws.token), `include ${include}`);
      }
    });
  });

  describe('10. one answer for every outside path', () => {
    it('gives glob and grep the same error for an outside path that exists and one that does not', async () => {
      const outside = makeTree({ 'secret.txt': 'x' });
      symlinkSync(outside, path.join(ws.root, 'escape'));
      try {
        for (const tool of [globTool, grepTool]) {
          const answers = new Set<string>();
          for (const p of [outside, `${outside}/secret.txt`, `${outside}/no-such`, '/no/such/dir', 'escape', 'escape/secret.txt', 'escape/no-such', '../no-such']) {
            const error = await toolFailure(tool, { pattern: 'x', path: p }, { folders });
            answers.add(`${error.code} ${error.message.replace(JSON.stringify(p), '<path>')}`);
          }
          assert.equal(answers.size, 1, [...answers].join('\n'));
          assert.match([...answers][0]!, /^PATH_OUTSIDE_WORKSPACE /);
        }
      } finally {
        removeTree(outside);
      }
    });
  });
});
