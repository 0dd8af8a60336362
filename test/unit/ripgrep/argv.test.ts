import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { globArgv, grepArgv, pruneToDirectory, VCS_DIRECTORIES, withNoRequireGit } from '../../../src/core/ripgrep/argv';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

const VCS_EXCLUDES = ['--glob=!.git', '--glob=!.svn', '--glob=!.hg', '--glob=!.bzr', '--glob=!.jj', '--glob=!.sl'];

/** Every model value appears only as `--flag=value` or as the one path after `--`. */
function assertNoModelFlag(argv: string[], values: string[]): void {
  const dashdash = argv.indexOf('--');
  assert.equal(argv.lastIndexOf('--'), dashdash, 'exactly one -- separator');
  assert.equal(dashdash, argv.length - 2, '-- comes right before the single path');
  for (const value of values) {
    for (const [i, arg] of argv.entries()) {
      if (arg === value && i !== dashdash + 1) assert.fail(`model value ${JSON.stringify(value)} is a bare argument at ${i}`);
    }
  }
}

describe('ripgrep argv', () => {
  describe('globArgv', () => {
    const table: [string, string, string, string[]][] = [
      ['plain pattern, whole workdir', '*.ts', '.', ['--no-config', '--files', '--null', '--glob=*.ts', '--sort=modified', '--no-ignore', '--hidden', ...VCS_EXCLUDES, '--', '.']],
      ['leading-dash pattern', '-1', '.', ['--no-config', '--files', '--null', '--glob=-1', '--sort=modified', '--no-ignore', '--hidden', ...VCS_EXCLUDES, '--', '.']],
      ['flag-like pattern', '--pre=x', '.', ['--no-config', '--files', '--null', '--glob=--pre=x', '--sort=modified', '--no-ignore', '--hidden', ...VCS_EXCLUDES, '--', '.']],
      ['leading-dash directory', '*', '-dir', ['--no-config', '--files', '--null', '--glob=*', '--sort=modified', '--no-ignore', '--hidden', ...VCS_EXCLUDES, '--', '-dir']],
      ['shell metacharacters', '$(touch PWNED)', 'a;b', ['--no-config', '--files', '--null', '--glob=$(touch PWNED)', '--sort=modified', '--no-ignore', '--hidden', ...VCS_EXCLUDES, '--', 'a;b']],
    ];
    for (const [name, pattern, searchPath, expected] of table) {
      it(name, () => {
        const argv = globArgv(pattern, searchPath);
        assert.deepEqual(argv, expected);
        assertNoModelFlag(argv, [pattern, searchPath]);
      });
    }
    it('excludes exactly the seed VCS directories', () => {
      assert.deepEqual([...VCS_DIRECTORIES], ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl']);
    });
  });

  describe('grepArgv', () => {
    const table: [string, string, string, string[]][] = [
      ['pattern only', 'TODO', '.', ['--no-config', '--json', '--crlf', '--regexp=TODO', '--', '.']],
      ['leading-dash pattern', '-1', '.', ['--no-config', '--json', '--crlf', '--regexp=-1', '--', '.']],
      ['flag-like pattern', '--pre=x', 'src', ['--no-config', '--json', '--crlf', '--regexp=--pre=x', '--', 'src']],
      ['leading-dash path', 'x', '-dir', ['--no-config', '--json', '--crlf', '--regexp=x', '--', '-dir']],
      ['a pattern naming a carriage return (no --crlf, which rg refuses with it)', '\\r$', '.', ['--no-config', '--json', '--regexp=\\r$', '--', '.']],
    ];
    for (const [name, pattern, searchPath, expected] of table) {
      it(name, () => {
        const argv = grepArgv(pattern, searchPath);
        assert.deepEqual(argv, expected);
        assertNoModelFlag(argv, [pattern, searchPath]);
      });
    }

    it('selects files by name with a type, never with a whitelisting --glob (a --glob=!.* would also drop whitelisted hidden folders)', () => {
      const argv = grepArgv('TODO', '.', { fileNameGlob: '*.{ts,tsx}', pruneGlobs: pruneToDirectory(['src']) });
      assert.deepEqual(argv.slice(0, 4), ['--no-config', '--json', '--type-add=scoutinclude:*.{ts,tsx}', '--type=scoutinclude']);
      assert.ok(!argv.includes('--glob=!.*'));
      assert.deepEqual(argv.filter((a) => a.startsWith('--glob=') && !a.startsWith('--glob=!')), [], 'every --glob is an exclusion');
      assertNoModelFlag(argv, ['TODO', '.']);
    });

    it('counts what the rules skip with --no-ignore --hidden, VCS metadata still excluded and no dot-file exclusion', () => {
      assert.deepEqual(grepArgv('x', '.', { fileNameGlob: '*.ts' }, { output: 'files-with-matches', includeSkipped: true }), [
        '--no-config', '--files-with-matches', '--null', '--no-ignore', '--hidden', ...VCS_EXCLUDES, '--type-add=scoutinclude:*.ts', '--type=scoutinclude', '--crlf', '--regexp=x', '--', '.',
      ]);
      assert.deepEqual(grepArgv('x', 'src', {}, { output: 'files' }), ['--no-config', '--files', '--null', '--', 'src']);
    });

    it('adds --no-require-git and --no-ignore-parent after --no-config, for a workdir outside any git repository', () => {
      assert.deepEqual(withNoRequireGit(grepArgv('x', '.')), ['--no-config', '--no-require-git', '--no-ignore-parent', '--json', '--crlf', '--regexp=x', '--', '.']);
    });

    it('lists only the hidden names the walk reaches with a type that selects nothing', () => {
      assert.deepEqual(grepArgv('', '.', { hiddenNamesOnly: true }, { output: 'files' }), ['--no-config', '--files', '--null', '--type-add=scoutvisible:[!.]*', '--type-not=scoutvisible', '--', '.']);
    });
  });

  describe('pruneToDirectory', () => {
    it('excludes every other name at each level by its first differing character, as shorter and as longer names', () => {
      assert.deepEqual(pruneToDirectory(['src', 'lib']), [
        '--glob=!/[!s]*', '--glob=!/s[!r]*', '--glob=!/s', '--glob=!/sr[!c]*', '--glob=!/sr', '--glob=!/src?*',
        '--glob=!/src/[!l]*', '--glob=!/src/l[!i]*', '--glob=!/src/l', '--glob=!/src/li[!b]*', '--glob=!/src/li', '--glob=!/src/lib?*',
      ]);
    });

    it('escapes glob syntax in names and prunes nothing for non-ASCII or very long paths', () => {
      assert.deepEqual(pruneToDirectory(['[id]']), ['--glob=!/[![]*', '--glob=!/[[][!i]*', '--glob=!/[[]', '--glob=!/[[]i[!d]*', '--glob=!/[[]i', '--glob=!/[[]id[!]]*', '--glob=!/[[]id', '--glob=!/[[]id]?*']);
      assert.deepEqual(pruneToDirectory(['café']), []);
      assert.deepEqual(pruneToDirectory(['a'.repeat(201)]), []);
      assert.deepEqual(pruneToDirectory([]), []);
    });

    it('makes rg walk only the wanted directory, whatever its siblings are called, and never brings back an ignored one', () => {
      const siblings = ['s', 'sr', 'src', 'srcx', 'srd', 'xsrc', 'src.ts', '[id]', '[id]x', '[i', 'a b', 'a', 'ignored'];
      const root = makeTree({
        ...Object.fromEntries(siblings.map((name) => [`${name}/f`, 'x'])),
        'top.txt': 'x',
        'src/lib/deep.ts': 'x',
        'src/lib2/g': 'x',
        'a b/c d/e': 'x',
        'ignored/inner/f': 'x',
        'docs/ notes/n.md': 'x',
        'docs/notes/m.md': 'x',
        'docs/end /e.md': 'x',
        'docs/end/e.md': 'x',
        '.ignore': 'ignored/\n',
      });
      try {
        const list = (dirs: string[]) => {
          const r = spawnSync(RG_PATH, ['--no-config', '--files', ...pruneToDirectory(dirs), '--', '.'], { cwd: root, encoding: 'utf8' });
          return r.stdout.split('\n').filter(Boolean).map((p) => p.slice(2)).sort();
        };
        assert.deepEqual(list(['src']), ['src/f', 'src/lib/deep.ts', 'src/lib2/g']);
        assert.deepEqual(list(['src', 'lib']), ['src/lib/deep.ts']);
        assert.deepEqual(list(['[id]']), ['[id]/f']);
        assert.deepEqual(list(['a b', 'c d']), ['a b/c d/e']);
        assert.deepEqual(list(['ignored']), [], 'an ignored directory stays ignored');
        // rg trims a glob's trailing white space: "!/docs/ " would read as "!/docs/" and prune all of docs.
        assert.deepEqual(list(['docs', ' notes']), ['docs/ notes/n.md']);
        assert.deepEqual(list(['docs', 'end ']), ['docs/end /e.md']);
      } finally {
        removeTree(root);
      }
    });
  });
});
