/**
 * Globs models write that rg reads otherwise, found in testing: each
 * used to answer "No files found" (or list the wrong files) with no note. Real rg, real files.
 */
import * as assert from 'node:assert/strict';
import { createGlobTool, type GlobValue } from '../../../src/core/search/glob';
import { createGrepTool, type GrepValue } from '../../../src/core/search/grep';
import type { ToolOutput } from '../../../src/core/tool';
import type { WorkspaceFolderRef } from '../../../src/core/workspace/folders';
import { folder, runTool, toolFailure } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

const budget = { maxFiles: 1000, timeMs: 600_000, maxRetryChecks: 16, maxListings: 4 };
const globTool = createGlobTool(budget);
const grepTool = createGrepTool(budget);

const files = (out: ToolOutput<GlobValue>) => [...out.value.paths].sort();
const grepFiles = (out: ToolOutput<GrepValue>) => [...new Set(out.value.matches.map((m) => m.path))].sort();
/** The note lines of a result: `[…]` lines after the listing. */
const notes = (text: string) => text.split('\n').filter((l) => l.startsWith('['));

describe('rereading globs that found nothing', function () {
  this.timeout(60_000);
  let root: string;
  let folders: WorkspaceFolderRef[];
  before(() => {
    root = makeTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': 'dist/\n',
      'package.json': '{}\n',
      'sub/package.json': '{}\n',
      'packages/web/package.json': '{}\n',
      'src/lib/util.ts': 'export const util = "needle";\n',
      'src/lib/deep/more.ts': 'needle\n',
      'src/app.ts': 'needle\n',
      'foo/bar/x.txt': 'needle in foo/bar\n',
      'foo/y.txt': 'needle\n',
      'bar/z.txt': 'needle at the top\n',
      '.github/workflows/ci.yml': 'needle\n',
      'x/nested/deep/n.txt': 'needle\n',
      'app/[id]/page.tsx': 'export default "needle";\n',
      'app/[id]/layout.tsx': 'needle\n',
      'app/i/other.tsx': 'not under [id]\n',
      'app/(marketing)/[...slug]/page.tsx': 'needle\n',
      'app/(marketing)/about/page.tsx': 'needle\n',
      'dist/lib/bundle.js': 'needle\n',
    });
    folders = [folder(root)];
  });
  after(() => removeTree(root));

  describe('2. a glob with "/" and a path', () => {
    it('glob: "lib/*.ts" with path "src" reads as "src/lib/*.ts", and says so', async () => {
      const out = await runTool(globTool, { pattern: 'lib/*.ts', path: 'src' }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [['src/lib/util.ts'], 'src/lib/*.ts']);
      assert.deepEqual(notes(out.text), ['[pattern "lib/*.ts" matched nothing from the workspace folder (a glob with "/" is matched from there), so it was read relative to path, as "src/lib/*.ts".]']);
    });

    it('grep: include "bar/*.txt" with path "foo" reads as "foo/bar/*.txt"', async () => {
      const out = await runTool(grepTool, { pattern: 'needle', path: 'foo', include: 'bar/*.txt' }, { folders });
      assert.deepEqual([grepFiles(out), out.value.readAs], [['foo/bar/x.txt'], 'foo/bar/*.txt']);
      assert.match(out.text, /\[include "bar\/\*\.txt" matched nothing from the workspace folder \(a glob with "\/" is matched from there\), so it was read relative to path, as "foo\/bar\/\*\.txt"\.\]/);
    });

    it('keeps the workspace-folder meaning when it finds files ("src/**/*.ts" with path "src"; "*/lib/*.ts" with path "src")', async () => {
      const out = await runTool(globTool, { pattern: 'src/**/*.ts', path: 'src' }, { folders });
      assert.deepEqual([out.value.readAs, out.value.paths.length], [undefined, 3]);
      const grep = await runTool(grepTool, { pattern: 'needle', path: 'src', include: '*/lib/*.ts' }, { folders });
      assert.deepEqual([grep.value.readAs, grepFiles(grep)], [undefined, ['src/lib/util.ts']]);
    });

    it('still explains an empty result when neither reading finds a file', async () => {
      const out = await runTool(globTool, { pattern: 'lib/*.rs', path: 'src' }, { folders });
      assert.equal(out.text, 'No files found');
    });
  });

  describe('3. bracket folders with wildcards (read literally when the folder exists, even though "app/i" matches the class)', () => {
    const table: [string, string, string[]][] = [
      ['app/[id]/*.tsx', 'app/[[]id]/*.tsx', ['app/[id]/layout.tsx', 'app/[id]/page.tsx']],
      ['app/[id]/**', 'app/[[]id]/**', ['app/[id]/layout.tsx', 'app/[id]/page.tsx']],
      ['app/(marketing)/[...slug]/*.tsx', 'app/(marketing)/[[]...slug]/*.tsx', ['app/(marketing)/[...slug]/page.tsx']],
    ];
    for (const [pattern, readAs, expected] of table) {
      it(`glob ${JSON.stringify(pattern)} reads the brackets literally, as ${JSON.stringify(readAs)}`, async () => {
        const out = await runTool(globTool, { pattern }, { folders });
        assert.deepEqual([files(out), out.value.readAs], [expected, readAs]);
        const folderName = pattern.slice(0, pattern.lastIndexOf('/'));
        assert.deepEqual(notes(out.text), [
          `[pattern ${JSON.stringify(pattern)} starts with the folder ${JSON.stringify(folderName)}, so its brackets were read literally, as ${JSON.stringify(readAs)} (in a glob, [ ] is a character class).]`,
        ]);
      });
    }

    it('grep include "app/[id]/*.tsx" the same, and under path', async () => {
      const out = await runTool(grepTool, { pattern: 'needle', include: 'app/[id]/*.tsx' }, { folders });
      assert.deepEqual([grepFiles(out), out.value.readAs], [['app/[id]/layout.tsx', 'app/[id]/page.tsx'], 'app/[[]id]/*.tsx']);
      const under = await runTool(globTool, { pattern: '[id]/*.tsx', path: 'app' }, { folders });
      assert.deepEqual([files(under), under.value.readAs], [['app/[id]/layout.tsx', 'app/[id]/page.tsx'], 'app/[[]id]/*.tsx']);
    });

    it('keeps rg\'s class when it finds files ("app/[i]/*.tsx" matches app/i)', async () => {
      const out = await runTool(globTool, { pattern: 'app/[i]/*.tsx' }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [['app/i/other.tsx'], undefined]);
    });
  });

  describe('4. a leading "./"', () => {
    it('"./package.json" is the top-level package.json only, as "/package.json"', async () => {
      const out = await runTool(globTool, { pattern: './package.json' }, { folders });
      assert.deepEqual([out.value.paths, out.value.readAs], [['package.json'], '/package.json']);
      assert.deepEqual(notes(out.text), ['[pattern "./package.json" was read as "/package.json": a leading "./" anchors it at the workspace folder.]']);
    });

    it('"./*.json" lists the top level only; "./package.json" with path "sub" finds sub/package.json', async () => {
      assert.deepEqual((await runTool(globTool, { pattern: './*.json' }, { folders })).value.paths, ['package.json']);
      const under = await runTool(globTool, { pattern: './package.json', path: 'sub' }, { folders });
      assert.deepEqual([under.value.paths, under.value.readAs], [['sub/package.json'], 'sub/package.json']);
    });

    it('grep include "./package.json" the same', async () => {
      const out = await runTool(grepTool, { pattern: '\\{', include: './package.json' }, { folders });
      assert.deepEqual(grepFiles(out), ['package.json']);
    });
  });

  describe('5. folder names below the top level', () => {
    const table: [string, string, string[]][] = [
      ['lib', '**/lib/**', ['src/lib/deep/more.ts', 'src/lib/util.ts']],
      ['workflows', '**/workflows/**', ['.github/workflows/ci.yml']],
      ['nested/deep', '**/nested/deep/**', ['x/nested/deep/n.txt']],
      ['**/lib', '**/lib/**', ['src/lib/deep/more.ts', 'src/lib/util.ts']],
      ['**/lib/', '**/lib/**', ['src/lib/deep/more.ts', 'src/lib/util.ts']],
      ['src/**/', 'src/**', ['src/app.ts', 'src/lib/deep/more.ts', 'src/lib/util.ts']],
    ];
    for (const [pattern, readAs, expected] of table) {
      it(`glob ${JSON.stringify(pattern)} lists the files under the folders it names, read as ${JSON.stringify(readAs)}`, async () => {
        const out = await runTool(globTool, { pattern }, { folders });
        assert.deepEqual([files(out).filter((p) => !p.startsWith('dist/')), out.value.readAs], [expected, readAs]);
        const what = pattern.endsWith('/') ? 'matches folders only' : 'matched no file and names folders';
        assert.deepEqual(notes(out.text), [`[pattern ${JSON.stringify(pattern)} ${what}, so it was read as ${JSON.stringify(readAs)}: every file under the folders it names.]`]);
      });
    }

    // "{lib,workflows}" was a bare "No files found", though each name alone lists its folders' files.
    it('glob "{lib,workflows}", a brace list of folder names, lists the files under each', async () => {
      const out = await runTool(globTool, { pattern: '{lib,workflows}' }, { folders });
      const listed = out.value.paths.filter((p) => !p.startsWith('dist/')).sort();
      assert.deepEqual([listed, out.value.readAs], [['.github/workflows/ci.yml', 'src/lib/deep/more.ts', 'src/lib/util.ts'], '**/{lib,workflows}/**']);
    });

    // " package.json" (a space typed before it) was a bare "No files found".
    it('reads a glob with white space at its ends without it, and says so', async () => {
      const spaced = await runTool(globTool, { pattern: ' package.json' }, { folders });
      assert.deepEqual([spaced.value.paths.length, spaced.value.readAs], [3, 'package.json']);
      assert.deepEqual(notes(spaced.text), ['[pattern " package.json" matched nothing with the white space at its ends, so it was read without it, as "package.json".]']);
    });

    it('glob "**/" lists every file', async () => {
      const out = await runTool(globTool, { pattern: '**/' }, { folders });
      assert.deepEqual([out.value.readAs, out.value.paths.length], ['**', 18]);
    });

    it('grep include "lib" searches the files under every lib folder, ignored ones still skipped', async () => {
      const out = await runTool(grepTool, { pattern: 'needle', include: 'lib' }, { folders });
      assert.deepEqual([grepFiles(out), out.value.readAs], [['src/lib/deep/more.ts', 'src/lib/util.ts'], '**/lib/**']);
    });

    it('leaves a name that finds files or names nothing as it was: "package.json" lists them all, "nosuch" is just empty', async () => {
      assert.equal((await runTool(globTool, { pattern: 'package.json' }, { folders })).value.paths.length, 3);
      assert.equal((await runTool(globTool, { pattern: 'nosuch' }, { folders })).text, 'No files found');
    });
  });

  describe('16. small ones', () => {
    it('a leading "/" naming nothing in the folder is an empty result that says why, not "outside"', async () => {
      const out = await runTool(globTool, { pattern: '/nothere.ts' }, { folders });
      assert.equal(
        out.text,
        `No files found\n\n[pattern "/nothere.ts" starts with "/", which anchors it at the workspace folder ${root}, and that folder has no entry "nothere.ts". Glob lists only files inside the workspace folder: drop the "/" to match at any depth.]\nPaths are relative to ${root}.`,
      );
    });

    it('path "src/*" says path is never a glob and what to send instead', async () => {
      const glob = await toolFailure(globTool, { pattern: '*.ts', path: 'src/*' }, { folders });
      assert.equal(glob.code, 'INVALID_ARGUMENT');
      assert.equal(glob.message, 'path "src/*" does not exist in the workspace. path names one file or folder and is never a glob: put the glob in pattern instead, e.g. path "src" and pattern "*".');
      const grep = await toolFailure(grepTool, { pattern: 'x', path: '**/*.ts' }, { folders });
      assert.equal(grep.message, 'path "**/*.ts" does not exist in the workspace. path names one file or folder and is never a glob: put the glob in include instead, e.g. include "**/*.ts".');
    });

    it('a folder literally named with glob syntax is still a path ("app/[id]")', async () => {
      assert.equal((await runTool(globTool, { pattern: '*', path: 'app/[id]' }, { folders })).value.paths.length, 2);
    });

    it('path "src " (a trailing space) is read as "src", as a glob\'s trailing space is, with a note', async () => {
      const out = await runTool(globTool, { pattern: '*.ts', path: 'src ' }, { folders });
      assert.deepEqual(files(out), ['src/app.ts', 'src/lib/deep/more.ts', 'src/lib/util.ts']);
      assert.deepEqual(notes(out.text), ['[path "src " was read as "src": no entry has the white space around it in its name.]']);
      assert.equal((await runTool(grepTool, { pattern: 'needle', path: ' src/app.ts' }, { folders })).value.matches.length, 1);
    });

    it('an include error names "an include"', async () => {
      const error = await toolFailure(grepTool, { pattern: 'x', include: '/../x/*.ts' }, { folders });
      assert.match(error.message, /Give an include relative to the folder/);
    });
  });

  describe('17. multi-root: a pattern starting with another folder\'s name', () => {
    let other: string;
    let roots: WorkspaceFolderRef[];
    before(() => {
      other = makeTree({ 'src/main.ts': 'needle in ws\n', 'docs/a.md': 'x\n' });
      roots = [folder(root, 'app'), folder(other, 'ws')];
    });
    after(() => removeTree(other));

    it('glob "ws/src" lists that folder\'s src, as path "ws/src" would', async () => {
      const out = await runTool(globTool, { pattern: 'ws/src' }, { folders: roots });
      assert.deepEqual([out.value.workdir, out.value.paths, out.value.readAs], [other, ['src/main.ts'], 'src/**']);
      assert.deepEqual(notes(out.text), ['[pattern "ws/src" starts with the name of workspace folder "ws", so it was read in that folder as "src/**", a directory in it.]']);
      const star = await runTool(globTool, { pattern: 'ws/**/*.md' }, { folders: roots });
      assert.deepEqual([star.value.workdir, star.value.paths], [other, ['docs/a.md']]);
    });

    it('grep include "ws/src/*.ts" searches that folder', async () => {
      const out = await runTool(grepTool, { pattern: 'needle', include: 'ws/src/*.ts' }, { folders: roots });
      assert.deepEqual([out.value.workdir, grepFiles(out)], [other, ['src/main.ts']]);
    });

    it('the first folder wins when it has an entry of that name, and path keeps its meaning', async () => {
      const out = await runTool(globTool, { pattern: 'src/*.ts' }, { folders: [folder(root, 'app'), folder(other, 'src')] });
      assert.deepEqual([out.value.workdir, out.value.paths], [root, ['src/app.ts']]);
    });
  });
});
