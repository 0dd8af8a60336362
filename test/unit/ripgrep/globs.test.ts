import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { escapeGlobLiteral, GlobSyntaxError, keepTrailingWhiteSpace, matchesPath, parseRipgrepGlob } from '../../../src/core/ripgrep/globs';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

/** Names that exercise every part of glob syntax: separators, dots, braces, classes, commas, non-ASCII bytes. */
const FILES = [
  'a.ts', 'b.tsx', 'src/a.ts', 'src/lib/m.ts', 'src/lib/deep/x.ts', 'foo/bar/x.txt', 'foo/y.txt', 'x/bar/z.txt', '.hidden.ts', '.hid/nested.ts',
  'café.txt', 'cafe.txt', 'caf/x', 'a,b.txt', '[id]/page.tsx', '{x}.md', 'a b.txt', 'dir.ts/inner.txt', 'x/y/z/w.js', 'src.ts', 'ab', 'a/b',
  'abc/def/ghi.c', '#hash', '!bang', 'x-y.md', 'e\u0301.txt', '日本/語.txt', 'back\\slash.txt', 'star*.txt', 'q?.txt',
  'a.ts ', 'a.ts\u00a0', 'wide\u3000',
];

/** Globs rg reads in different ways, valid and invalid. */
const GLOBS = [
  '*.ts', '**/*.ts', 'src/**', '/src/*.ts', 'src/*.ts', '**/bar/*.txt', '*.{ts,tsx}', '{src,foo}/**', 'foo/**', 'src/**/*.ts', 'a*', '?.ts',
  'caf?.txt', 'caf??.txt', '[id]/*', '\\[id\\]/*', '[[]id]/*', '*.[jt]s', '[!a]*', '[!a]b', 'a[!x]b', 'a[/]b', '**', '*', '**/*', 'src/',
  'src', '/src', 'a/**/b', 'x/**/w.js', 'x/**/**/w.js', '{a,b}.ts', '{,a}.ts', '*,b.txt', 'a\\,b.txt', '{a\\,b}.txt', '{{a,b},c}.ts',
  '**/{src,foo}/**', 'src/**/', '**.ts', 'a**', '*/', '*/*', '*/*/*', '**/lib/**', 'src/{lib,x}/**/*.ts', '*.ts ', 'a.ts ', 'a.ts\u00a0', '*\u3000', 'a.ts\\ ', 'a.ts\\\u00a0', 'a.ts\\\\ ', '\\#hash', 'x-y.*',
  '[x-z]*', '[]x]*', '[-x]*', '[x-]*', '日本/*', '*/語.txt', 'e?.txt', 'e??.txt', 'e???.txt', '[é]*', 'src/lib', 'src/lib/**/*',
  '{src/lib,foo}/**', '**/x', '**/y/**', '/**', '/*', '/*.ts', 'a/', '*a*/*', '{*.ts,*.md}', '**/*.{ts,tsx}', 'back\\\\slash.txt',
  'star\\*.txt', 'star[*].txt', 'q[?].txt', '*[*]*', 'src/**/lib/*.ts', '{src,x}/*/*.ts', '*.{[jt]s,md}',
  '[z-a]', '[', '{', '}', 'a\\', '{a,{b}', '*.{ts', 'a]',
];

describe('ripgrep globs in TypeScript (parseRipgrepGlob, matchesPath)', function () {
  this.timeout(60_000);
  let root: string;
  before(() => (root = makeTree(Object.fromEntries(FILES.map((f) => [f, 'x'])))));
  after(() => removeTree(root));

  /** What rg lists for `--glob=<glob>` over the tree (hidden and ignored included), or its error. */
  function rgLists(args: string[]): string[] | Error {
    const r = spawnSync(RG_PATH, ['--no-config', '--files', '--no-ignore', '--hidden', ...args, '--', '.'], { cwd: root, encoding: 'utf8' });
    if (r.status === 2) return new Error(r.stderr);
    return r.stdout.split('\n').filter(Boolean).map((p) => p.slice(2)).sort();
  }

  it('matches exactly the files rg matches, and rejects exactly the globs rg rejects', () => {
    // As every search gives it to rg: with its trailing white space kept (rg would drop it).
    for (const glob of GLOBS) {
      const theirs = rgLists([`--glob=${keepTrailingWhiteSpace(glob)}`]);
      let mine: string[] | Error;
      try {
        const parsed = parseRipgrepGlob(glob);
        mine = FILES.filter((f) => matchesPath(parsed, f)).sort();
      } catch (e) {
        assert.ok(e instanceof GlobSyntaxError, String(e));
        mine = e;
      }
      if (theirs instanceof Error || mine instanceof Error) {
        assert.equal(mine instanceof Error, theirs instanceof Error, `${glob}: rg ${theirs instanceof Error ? 'rejects' : 'accepts'} it`);
      } else {
        assert.deepEqual(mine, theirs, glob);
      }
    }
  });

  it('derives a file-name type that selects a superset of the matches, and exactly them when it says so', () => {
    let typed = 0;
    for (const glob of GLOBS) {
      let parsed;
      try {
        parsed = parseRipgrepGlob(glob);
      } catch {
        continue;
      }
      if (!parsed.fileName) continue;
      typed++;
      const selected = rgLists([`--type-add=scoutinclude:${parsed.fileName.glob}`, '--type=scoutinclude']);
      assert.ok(!(selected instanceof Error), `${glob}: rg rejects the type ${parsed.fileName.glob}`);
      const matched = FILES.filter((f) => matchesPath(parsed, f)).sort();
      for (const file of matched) assert.ok(selected.includes(file), `${glob}: the type ${parsed.fileName.glob} leaves out ${file}`);
      if (parsed.fileName.exact) assert.deepEqual(selected, matched, `${glob}: the type ${parsed.fileName.glob} is not exact`);
    }
    assert.ok(typed > 30, `only ${typed} globs got a type`);
  });

  it('escapes a literal name so that rg matches exactly that name, trailing white space kept', () => {
    for (const file of FILES) {
      const listed = rgLists([`--glob=${keepTrailingWhiteSpace(`/${escapeGlobLiteral(file)}`)}`]);
      assert.deepEqual(listed, [file], file);
    }
  });

  it('finds the literal leading directories and the file-name part', () => {
    const parts = (glob: string) => {
      const parsed = parseRipgrepGlob(glob);
      return [parsed.literalDirectories, parsed.fileName, parsed.matchesEverything, parsed.onlyDirectories];
    };
    assert.deepEqual(parts('src/lib/**/*.test.ts'), [['src', 'lib'], { glob: '*.test.ts', exact: false }, false, false]);
    assert.deepEqual(parts('foo/**'), [['foo'], undefined, false, false]);
    assert.deepEqual(parts('*.{ts,tsx}'), [[], { glob: '*.{ts,tsx}', exact: true }, false, false]);
    assert.deepEqual(parts('**/bar/*.txt'), [[], { glob: '*.txt', exact: false }, false, false]);
    assert.deepEqual(parts('[id]/page.tsx'), [[], { glob: 'page.tsx', exact: false }, false, false]);
    assert.deepEqual(parts('app/page.tsx'), [['app'], { glob: 'page.tsx', exact: false }, false, false]);
    assert.deepEqual(parts('*'), [[], undefined, true, false]);
    assert.deepEqual(parts('**'), [[], undefined, true, false]);
    assert.deepEqual(parts('src/'), [[], { glob: 'src', exact: true }, false, true]);
    assert.deepEqual(parts('a:b.ts'), [[], undefined, false, false], 'a ":" cannot go into --type-add');
    assert.deepEqual(parts('x[!a]y'), [[], undefined, false, false], 'a negated class can match "/"');
  });
});
