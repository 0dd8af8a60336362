import * as assert from 'node:assert/strict';
import { globArgv, grepArgv, VCS_DIRECTORIES } from '../../../src/core/ripgrep/argv';

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
    const table: [string, string, string | undefined, string, string[]][] = [
      ['pattern only', 'TODO', undefined, '.', ['--no-config', '--json', '--regexp=TODO', '--', '.']],
      ['with include', 'TODO', '*.{ts,tsx}', 'src', ['--no-config', '--json', '--regexp=TODO', '--glob=*.{ts,tsx}', '--', 'src']],
      ['leading-dash pattern', '-1', undefined, '.', ['--no-config', '--json', '--regexp=-1', '--', '.']],
      ['flag-like pattern and include', '--pre=x', '--files', '.', ['--no-config', '--json', '--regexp=--pre=x', '--glob=--files', '--', '.']],
      ['leading-dash path', 'x', undefined, '-dir', ['--no-config', '--json', '--regexp=x', '--', '-dir']],
    ];
    for (const [name, pattern, include, searchPath, expected] of table) {
      it(name, () => {
        const argv = grepArgv(pattern, include, searchPath);
        assert.deepEqual(argv, expected);
        assertNoModelFlag(argv, [pattern, searchPath, ...(include ? [include] : [])]);
      });
    }
  });
});
