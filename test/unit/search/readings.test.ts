/**
 * Patterns and globs models send that rg reads otherwise: each used to answer a bare "No matches found" or "No
 * files found" (or an error with general advice) although the workspace holds what the model meant. Each is
 * now searched the way it was meant, with one note saying exactly how. Real rg, real files.
 */
import * as assert from 'node:assert/strict';
import { createGlobTool, type GlobValue } from '../../../src/core/search/glob';
import { createGrepTool, type GrepValue } from '../../../src/core/search/grep';
import { needsPcre2, pcre2Available } from '../../../src/core/search/regexReadings';
import { caseInsensitiveGlob } from '../../../src/core/search/rereadings';
import type { ToolOutput } from '../../../src/core/tool';
import type { WorkspaceFolderRef } from '../../../src/core/workspace/folders';
import { folder, RG_PATH, runTool, toolFailure } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

const budget = { maxFiles: 1000, timeMs: 600_000, maxRetryChecks: 16, maxListings: 4 };
const globTool = createGlobTool(budget);
const grepTool = createGrepTool(budget);

const files = (out: ToolOutput<GlobValue>) => [...out.value.paths].sort();
const rows = (out: ToolOutput<GrepValue>) => out.value.matches.map((m) => `${m.path}:${m.lineNumber}`).sort();
/** The note lines of a result: `[…]` lines after the listing. */
const notes = (text: string) => text.split('\n').filter((l) => l.startsWith('['));

describe('reading a call the way the model meant it', function () {
  this.timeout(60_000);
  let root: string;
  let folders: WorkspaceFolderRef[];
  before(() => {
    root = makeTree({
      'myproject/src/a.ts': 'const v = a[0];\nlet q = x.y*z;\nfoobar\nfoobaz\ncall foo( here\n',
      'myproject/src/main.ts': 'needle\n',
      'myproject/test/t.ts': 'needle\n',
      'myproject/docs/Readme.MD': 'needle\n',
      'myproject/lib/a.TS': 'needle\n',
      // The same word as macOS writes it (NFD: "e" and a combining acute accent).
      'myproject/notes/cv.txt': 'r\u0065\u0301sum\u0065\u0301 attached\n',
    });
    folders = [folder(`${root}/myproject`)];
  });
  after(() => removeTree(root));

  describe('grep: regex metacharacters meant literally', () => {
    it('"a[0]" finds the literal text, with a note naming --fixed-strings', async () => {
      const out = await runTool(grepTool, { pattern: 'a[0]' }, { folders });
      assert.deepEqual(rows(out), ['src/a.ts:1']);
      assert.deepEqual(out.value.patternReadAs, { pattern: 'a[0]', engine: 'fixed-strings' });
      assert.deepEqual(notes(out.text), ['[pattern "a[0]" matched nothing as a regex, so it was searched as literal text (--fixed-strings).]']);
    });

    it('"x.y*z" the same', async () => {
      const out = await runTool(grepTool, { pattern: 'x.y*z' }, { folders });
      assert.deepEqual(rows(out), ['src/a.ts:2']);
      assert.match(out.text, /\[pattern "x\.y\*z" matched nothing as a regex, so it was searched as literal text \(--fixed-strings\)\.\]/);
    });

    it('"foo(", which does not compile, is searched as literal text', async () => {
      const out = await runTool(grepTool, { pattern: 'foo(' }, { folders });
      assert.deepEqual(rows(out), ['src/a.ts:5']);
      assert.deepEqual(notes(out.text), ['[pattern "foo(" is not a valid regex, so it was searched as literal text (--fixed-strings).]']);
    });

    it('a regex that finds lines keeps its meaning ("x.y" matches "x.y*z" as a regex, no note)', async () => {
      const out = await runTool(grepTool, { pattern: 'a\\[0' }, { folders });
      assert.deepEqual([rows(out), out.value.patternReadAs, notes(out.text)], [['src/a.ts:1'], undefined, []]);
    });

    it('an invalid regex that is not in the files either keeps the error, and says the literal search found nothing', async () => {
      const failure = await toolFailure(grepTool, { pattern: 'nowhere(' }, { folders });
      assert.equal(failure.code, 'SEARCH_INVALID_PATTERN');
      assert.match(failure.message, /Searched as literal text, it matches nothing either\.\)$/);
    });

    it('an empty result says the literal search was tried too', async () => {
      const out = await runTool(grepTool, { pattern: 'no.such*thing' }, { folders });
      assert.equal(out.text.split('\n')[0], 'No matches found');
      assert.ok(notes(out.text).includes('[pattern "no.such*thing" was also searched as literal text (--fixed-strings): no match either.]'), out.text);
    });
  });

  describe('grep: look-around and backreferences on PCRE2', () => {
    it('the bundled rg has PCRE2, asked once and kept', async () => {
      const first = pcre2Available(RG_PATH);
      assert.equal(pcre2Available(RG_PATH), first);
      assert.equal(await first, true);
    });

    const table: [string, string[]][] = [
      ['(?<=foo)bar', ['src/a.ts:3']],
      ['(\\w)\\1', ['src/a.ts:3', 'src/a.ts:4', 'src/a.ts:5', 'src/main.ts:1']],
      ['foo(?!bar)', ['src/a.ts:4', 'src/a.ts:5']],
    ];
    for (const [pattern, expected] of table) {
      it(`${JSON.stringify(pattern)} runs on --pcre2, with a note`, async () => {
        const out = await runTool(grepTool, { pattern, path: 'src' }, { folders });
        assert.deepEqual(rows(out), expected);
        assert.deepEqual(out.value.patternReadAs, { pattern, engine: 'pcre2' });
        assert.deepEqual(notes(out.text), [`[pattern ${JSON.stringify(pattern)} uses look-around or a backreference, so it ran on ripgrep's PCRE2 engine (--pcre2).]`]);
      });
    }

    it('tells look-around and backreferences from look-alikes', () => {
      for (const p of ['(?<=a)b', '(?<!a)b', 'a(?=b)', 'a(?!b)', '(a)\\1', '(?<n>a)\\k<n>', '(a)\\g{1}']) assert.equal(needsPcre2(p), true, p);
      for (const p of ['\\\\1', '[(?=]', '(?:a)', '(?<name>a)', 'a\\(?!', '(?i)x']) assert.equal(needsPcre2(p), false, p);
    });
  });

  describe('grep: the other Unicode normalization', () => {
    it('"résumé" typed in NFC finds the NFD text, with a note', async () => {
      const out = await runTool(grepTool, { pattern: 'r\u00e9sum\u00e9' }, { folders });
      assert.deepEqual(rows(out), ['notes/cv.txt:1']);
      assert.deepEqual(out.value.patternReadAs, { pattern: 'r\u0065\u0301sum\u0065\u0301', engine: 'rust' });
      assert.deepEqual(notes(out.text), ['[pattern "r\u00e9sum\u00e9" matched nothing as typed, so it was searched in Unicode NFD form (grep compares bytes; macOS writes NFD).]']);
    });
  });

  describe('glob and include: case', () => {
    it('glob "*.md" finds "Readme.MD" case-insensitively, with a note', async () => {
      const out = await runTool(globTool, { pattern: '*.md' }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [['docs/Readme.MD'], '*.[mM][dD]']);
      assert.deepEqual(notes(out.text), ['[pattern "*.md" matched nothing as written (globs are case-sensitive), so it was read case-insensitively, as "*.[mM][dD]".]']);
    });

    it('grep include "*.md" the same', async () => {
      const out = await runTool(grepTool, { pattern: 'needle', include: '*.md' }, { folders });
      assert.deepEqual([rows(out), out.value.readAs], [['docs/Readme.MD:1'], '*.[mM][dD]']);
      assert.match(out.text, /\[include "\*\.md" matched nothing as written \(globs are case-sensitive\), so it was read case-insensitively/);
    });

    it('glob "*.ts" with path "lib" finds "a.TS"', async () => {
      const out = await runTool(globTool, { pattern: '*.ts', path: 'lib' }, { folders });
      assert.deepEqual(files(out), ['lib/a.TS']);
    });

    it('folds letters outside classes and escapes only', () => {
      assert.equal(caseInsensitiveGlob('src/[a-z]*.Ts'), '[sS][rR][cC]/[a-z]*.[tT][sS]');
      assert.equal(caseInsensitiveGlob('\\a*.{md,x}'), '\\a*.{[mM][dD],[xX]}');
      assert.equal(caseInsensitiveGlob('*.[!]]'), undefined);
    });
  });

  describe('glob and include: lists', () => {
    it('glob "src/**|test/**" reads as "{src/**,test/**}"', async () => {
      const out = await runTool(globTool, { pattern: 'src/**|test/**' }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [['src/a.ts', 'src/main.ts', 'test/t.ts'], '{src/**,test/**}']);
      assert.deepEqual(notes(out.text), ['[pattern "src/**|test/**" matched nothing as one glob, so it was read as the list "{src/**,test/**}" (a glob gives alternatives in braces).]']);
    });

    it('glob "*.ts *.md" reads as "*.{ts,md}"', async () => {
      const out = await runTool(globTool, { pattern: '*.ts *.md' }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [['src/a.ts', 'src/main.ts', 'test/t.ts'], '*.{ts,md}']);
    });

    it('a part without "/" keeps matching at any depth beside one with "/"', async () => {
      const out = await runTool(globTool, { pattern: 'test/*|*.TS' }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [['lib/a.TS', 'test/t.ts'], '{test/*,**/*.TS}']);
    });

    it('a list whose parts hold braces reads as one flat alternation, and one with an absolute part is not read as a list', async () => {
      const out = await runTool(globTool, { pattern: '*.{ts,MD}|lib/*' }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [['docs/Readme.MD', 'lib/a.TS', 'src/a.ts', 'src/main.ts', 'test/t.ts'], '{**/*.ts,**/*.MD,lib/*}']);
      const absolute = await runTool(globTool, { pattern: `nope/**|${root}/myproject/lib/*` }, { folders });
      assert.doesNotMatch(absolute.text, /read as the list/);
    });

    it('grep include "src/**|test/**" the same', async () => {
      const out = await runTool(grepTool, { pattern: 'needle', include: 'src/**|test/**' }, { folders });
      assert.deepEqual([rows(out), out.value.readAs], [['src/main.ts:1', 'test/t.ts:1'], '{src/**,test/**}']);
    });

    it('a list that finds nothing either names braces', async () => {
      const out = await runTool(globTool, { pattern: 'nope/**|zip/**' }, { folders });
      assert.equal(out.text.split('\n')[0], 'No files found');
      assert.ok(notes(out.text).includes('[pattern "nope/**|zip/**" is read as one glob ("|" and spaces are literal), and as the list "{nope/**,zip/**}" it matches nothing either. For several globs use braces: "{a,b}".]'), out.text);
    });
  });

  describe('glob and include: the path a value spells', () => {
    it('"**/<absolute workspace path>/src/*.ts" reads as "src/*.ts"', async () => {
      for (const pattern of [`**${root}/myproject/src/*.ts`, `**/${root}/myproject/src/*.ts`]) {
        const out = await runTool(globTool, { pattern }, { folders });
        assert.deepEqual([files(out), out.value.readAs], [['src/a.ts', 'src/main.ts'], 'src/*.ts'], pattern);
        assert.match(notes(out.text)[0]!, /so it was read as "src\/\*\.ts", relative to the workspace folder, whose path it holds\.\]$/);
      }
    });

    it('"myproject/src/*.ts" in a single-root workspace named myproject reads as "src/*.ts"', async () => {
      const out = await runTool(globTool, { pattern: 'myproject/src/*.ts' }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [['src/a.ts', 'src/main.ts'], 'src/*.ts']);
      assert.deepEqual(notes(out.text), ['[pattern "myproject/src/*.ts" matched nothing as written, so it was read as "src/*.ts", relative to the workspace folder "myproject", which it starts with.]']);
    });

    it('"src\\main.ts" and "C:\\ws\\myproject\\src\\main.ts" read "\\" as "/"', async () => {
      const out = await runTool(globTool, { pattern: 'src\\main.ts' }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [['src/main.ts'], 'src/main.ts']);
      assert.deepEqual(notes(out.text), ['[pattern "src\\\\main.ts" matched nothing as written, so it was read as "src/main.ts", each backslash read as "/".]']);
      const drive = await runTool(globTool, { pattern: 'C:\\ws\\myproject\\src\\main.ts' }, { folders });
      assert.deepEqual([files(drive), drive.value.readAs], [['src/main.ts'], 'src/main.ts']);
    });

    it('grep include "src\\main.ts" the same', async () => {
      const out = await runTool(grepTool, { pattern: 'needle', include: 'src\\main.ts' }, { folders });
      assert.deepEqual([rows(out), out.value.readAs], [['src/main.ts:1'], 'src/main.ts']);
    });

    it('a leading "\\" stays an escape ("\\*.ts" is the literal name "*.ts")', async () => {
      const out = await runTool(globTool, { pattern: '\\*.ts' }, { folders });
      assert.equal(out.text, 'No files found');
    });
  });
});

// Each of these answered a bare "No files found" (the absolute ones with a note saying they were read as
// "./src/d1/f1?.ts"), or was refused as PATH_OUTSIDE_WORKSPACE although inside, while "./src/d1/f1?.ts" worked.
describe('glob and include: "." segments and "//", which rg never matches', function () {
  this.timeout(60_000);
  let root: string;
  let folders: WorkspaceFolderRef[];
  before(() => {
    root = makeTree({ 'ws/src/d1/f1a.ts': 'needle\n', 'ws/src/d1/f1b.ts': 'needle\n', 'ws/src/d1/f100.ts': 'needle\n', 'ws/other/f1c.ts': 'needle\n' });
    folders = [folder(`${root}/ws`)];
  });
  after(() => removeTree(root));
  const found = ['src/d1/f1a.ts', 'src/d1/f1b.ts'];

  for (const pattern of ['src/./d1/f1?.ts', 'src//d1/f1?.ts', 'src/d1/./f1?.ts']) {
    it(`glob ${JSON.stringify(pattern)} finds the files of "src/d1/f1?.ts", with a note`, async () => {
      const out = await runTool(globTool, { pattern }, { folders });
      assert.deepEqual([files(out), out.value.readAs], [found, 'src/d1/f1?.ts']);
      assert.deepEqual(notes(out.text), [`[pattern ${JSON.stringify(pattern)} was read as "src/d1/f1?.ts", the path it names from the workspace folder: ripgrep matches paths without "." segments or "//".]`]);
    });
  }

  it('an absolute glob with "." inside the workspace folder, or in the path above it, is read in the folder', async () => {
    const inFolder = await runTool(globTool, { pattern: `${root}/ws/./src/d1/f1?.ts` }, { folders });
    assert.deepEqual([files(inFolder), inFolder.value.readAs], [found, 'src/d1/f1?.ts']);
    assert.deepEqual(notes(inFolder.text), [`[pattern "${root}/ws/./src/d1/f1?.ts" is an absolute path in the workspace folder, so it was read relative to that folder as "src/d1/f1?.ts".]`]);
    const above = await runTool(globTool, { pattern: `${root}/./ws/src/d1/f1?.ts` }, { folders });
    assert.deepEqual([files(above), above.value.readAs], [found, 'src/d1/f1?.ts']);
    const doubled = await runTool(globTool, { pattern: `${root}//ws/src//d1/f1?.ts` }, { folders });
    assert.deepEqual([files(doubled), doubled.value.readAs], [found, 'src/d1/f1?.ts']);
  });

  it('grep include "src/./d1/f1?.ts" the same', async () => {
    const out = await runTool(grepTool, { pattern: 'needle', include: 'src/./d1/f1?.ts' }, { folders });
    assert.deepEqual([rows(out), out.value.readAs], [['src/d1/f1a.ts:1', 'src/d1/f1b.ts:1'], 'src/d1/f1?.ts']);
    const absolute = await runTool(grepTool, { pattern: 'needle', include: `${root}/./ws/src//d1/f1?.ts` }, { folders });
    assert.deepEqual([rows(absolute), absolute.value.readAs], [['src/d1/f1a.ts:1', 'src/d1/f1b.ts:1'], 'src/d1/f1?.ts']);
  });

  it('keeps what a trailing "/" and a leading "./" mean', async () => {
    for (const [pattern, same] of [['src/./d1/', 'src/d1/'], ['src//d1//', 'src/d1/'], ['./src/./d1/f1?.ts', './src/d1/f1?.ts'], ['.//f1?.ts', './f1?.ts'], ['**//f1?.ts', '**/f1?.ts']]) {
      const [out, expected] = [await runTool(globTool, { pattern }, { folders }), await runTool(globTool, { pattern: same }, { folders })];
      assert.deepEqual([files(out), out.value.readAs], [files(expected), expected.value.readAs ?? same], pattern);
    }
    const under = await runTool(globTool, { pattern: 'src/./d1/' }, { folders });
    assert.deepEqual(files(under), ['src/d1/f100.ts', ...found]);
  });
});

describe('glob and include: ".." segments, which rg never matches', function () {
  this.timeout(60_000);
  let root: string;
  let folders: WorkspaceFolderRef[];
  before(() => {
    root = makeTree({ 'ws/top.txt': 'needle\n', 'ws/src/b.txt': 'needle\n', 'ws/src/lib/c.ts': 'needle\n', 'outside.txt': 'needle\n' });
    folders = [folder(`${root}/ws`)];
  });
  after(() => removeTree(root));

  // Each of these answered a bare "No files found" (or "No matches found"), although the value names files.
  const climbs: [string, string][] = [
    ['../*', 'pattern'],
    ['src/../../*.txt', 'pattern'],
    ['..', 'pattern'],
    ['../*', 'include'],
    ['src/../../*.txt', 'include'],
  ];
  for (const [value, name] of climbs) {
    it(`refuses ${name} ${JSON.stringify(value)}, which climbs out of the workspace folder, as PATH_OUTSIDE_WORKSPACE that says what to give`, async () => {
      const failure = name === 'pattern' ? await toolFailure(globTool, { pattern: value }, { folders }) : await toolFailure(grepTool, { pattern: 'needle', include: value }, { folders });
      assert.equal(failure.code, 'PATH_OUTSIDE_WORKSPACE');
      const tool = name === 'pattern' ? 'glob lists' : 'grep searches';
      assert.equal(
        failure.message,
        `${name} ${JSON.stringify(value)} climbs out of the workspace folder ${root}/ws with "..", and ${tool} only files inside it. Give ${name === 'pattern' ? 'a pattern' : 'an include'} relative to the folder, without "..": "src/**/*.ts" matches the .ts files under its folder "src".`,
      );
    });
  }

  it('refuses an absolute glob that climbs out through ".." the same way', async () => {
    assert.equal((await toolFailure(globTool, { pattern: `${root}/ws/../outside.txt` }, { folders })).code, 'PATH_OUTSIDE_WORKSPACE');
    assert.equal((await toolFailure(globTool, { pattern: '/src/../../outside.txt' }, { folders })).code, 'PATH_OUTSIDE_WORKSPACE');
  });

  // Refused as climbing out (PATH_OUTSIDE_WORKSPACE), although the path it names is inside the folder.
  it('reads an absolute glob whose ".." climbs out and back in as the path it names in the workspace folder', async () => {
    const back = await runTool(globTool, { pattern: `${root}/ws/../ws/src/*.txt` }, { folders });
    assert.deepEqual([files(back), back.value.readAs], [['src/b.txt'], 'src/*.txt']);
    assert.deepEqual(notes(back.text), [`[pattern "${root}/ws/../ws/src/*.txt" is an absolute path in the workspace folder, so it was read relative to that folder as "src/*.txt".]`]);
    const above = await runTool(globTool, { pattern: `${root}/../${root.split('/').pop()}/ws/src/lib/*.ts` }, { folders });
    assert.deepEqual([files(above), above.value.readAs], [['src/lib/c.ts'], 'src/lib/*.ts']);
    const grep = await runTool(grepTool, { pattern: 'needle', include: `${root}/ws/src/../*.txt` }, { folders });
    assert.deepEqual([rows(grep), grep.value.readAs], [['top.txt:1'], '/*.txt']);
    const whole = await runTool(globTool, { pattern: `${root}/ws/src/..` }, { folders });
    assert.deepEqual(files(whole), ['src/b.txt', 'src/lib/c.ts', 'top.txt']);
    assert.equal((await toolFailure(globTool, { pattern: `${root}/ws/../ws/*/../*.txt` }, { folders })).code, 'INVALID_ARGUMENT');
  });

  it('refuses path ".." for glob and grep (as before)', async () => {
    assert.equal((await toolFailure(globTool, { pattern: '*', path: '..' }, { folders })).code, 'PATH_OUTSIDE_WORKSPACE');
    assert.equal((await toolFailure(grepTool, { pattern: 'needle', path: '..' }, { folders })).code, 'PATH_OUTSIDE_WORKSPACE');
  });

  it('reads a ".." that stays inside as the path it names from the workspace folder, with a note', async () => {
    const top = await runTool(globTool, { pattern: 'src/../*.txt' }, { folders });
    assert.deepEqual([files(top), top.value.readAs], [['top.txt'], '/*.txt']);
    assert.deepEqual(notes(top.text), ['[pattern "src/../*.txt" was read as "/*.txt", the path it names from the workspace folder: ripgrep matches paths without "..".]']);
    const deeper = await runTool(globTool, { pattern: 'src/lib/../*.txt', path: 'src' }, { folders });
    assert.deepEqual([files(deeper), deeper.value.readAs], [['src/b.txt'], 'src/*.txt']);
    const grep = await runTool(grepTool, { pattern: 'needle', include: 'src/../*.txt' }, { folders });
    assert.deepEqual([rows(grep), grep.value.readAs], [['top.txt:1'], '/*.txt']);
    const folderName = await runTool(globTool, { pattern: 'src/lib/..' }, { folders });
    assert.deepEqual(files(folderName), ['src/b.txt', 'src/lib/c.ts']);
  });

  it('refuses a ".." after a wildcard or inside { } with the fix, since no glob names its parent', async () => {
    const afterStars = await toolFailure(globTool, { pattern: '**/../*.txt' }, { folders });
    assert.equal(afterStars.code, 'INVALID_ARGUMENT');
    assert.equal(
      afterStars.message,
      'pattern "**/../*.txt" has a ".." after "**", which Scout cannot resolve: ripgrep matches paths without "..", so it would match nothing. Write the folders it means instead of ".." ("src/lib/../*.ts" is "src/*.ts"), or drop the "..", and call again.',
    );
    assert.match((await toolFailure(grepTool, { pattern: 'needle', include: 'src/*/../*.ts' }, { folders })).message, /^include "src\/\*\/\.\.\/\*\.ts" has a "\.\." after "\*",/);
    assert.match((await toolFailure(globTool, { pattern: '{../top.txt,x}' }, { folders })).message, /has a "\.\." inside \{ \}, which Scout cannot resolve/);
  });

  // Each found less with no word: "{./src/*.ts,top.md}" only top.md, "src/{./a,b}/*.ts" only src/b.
  it('refuses a "." segment or a branch starting with "/" inside { }, which would match nothing, with the fix', async () => {
    const absolute = `{${folders[0]!.path}/src/*.txt,x}`;
    for (const pattern of ['{./src/*.txt,top.txt}', 'src/{./lib,x}/*.ts', '{src/lib/.,x}/*.ts', '{.}', absolute]) {
      const error = await toolFailure(globTool, { pattern }, { folders });
      assert.equal(error.code, 'INVALID_ARGUMENT', pattern);
      assert.match(error.message, /has a "\." segment or a branch starting with "\/" inside \{ \}: .* Write each branch relative to the folder \("\{\.\/src\/\*\.ts,a\.md\}" is "\{src\/\*\.ts,a\.md\}"\)/, pattern);
    }
    assert.equal((await toolFailure(grepTool, { pattern: 'needle', include: '{./src/*.txt,nothing.md}' }, { folders })).code, 'INVALID_ARGUMENT');
    // Dots that are part of a name, and "//" (read away), are no such branch.
    assert.deepEqual(files(await runTool(globTool, { pattern: '{src/*.txt,.hidden}' }, { folders })), ['src/b.txt']);
    assert.deepEqual(files(await runTool(globTool, { pattern: '*.{txt,.x}' }, { folders })).sort(), ['src/b.txt', 'top.txt']);
  });

  it('leaves names that only hold dots alone ("..." and "..x" are names, not "..")', async () => {
    assert.equal((await runTool(globTool, { pattern: 'src/...' }, { folders })).text.split('\n')[0], 'No files found');
    assert.equal((await runTool(globTool, { pattern: '..x/*' }, { folders })).text.split('\n')[0], 'No files found');
  });
});
