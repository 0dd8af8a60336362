import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { isToolError, type ToolErrorCode } from '../../../src/core/errors';
import { interpretExit, type PatternArguments } from '../../../src/core/ripgrep/exit';
import type { RipgrepExit } from '../../../src/core/ripgrep/process';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

describe('interpretExit (rg exit status and stderr)', () => {
  let root: string;
  before(() => (root = makeTree({ 'a.txt': 'needle\n' })));
  after(() => removeTree(root));

  /** Runs the real rg and returns its exit as runRipgrep would. */
  function rg(...args: string[]): RipgrepExit {
    const r = spawnSync(RG_PATH, ['--no-config', ...args], { cwd: root });
    return { exitCode: r.status!, stderr: r.stderr.toString(), stderrTruncated: false, searchPaths: args.includes('--') ? args.slice(args.indexOf('--') + 1) : [] };
  }

  function code(exit: RipgrepExit, names: PatternArguments): ToolErrorCode | 'success' {
    try {
      interpretExit(exit, names);
      return 'success';
    } catch (e) {
      assert.ok(isToolError(e));
      return e.code;
    }
  }

  const grepNames = (regex: string, glob?: string): PatternArguments => ({ regex: { name: 'pattern', value: regex }, ...(glob ? { glob: { name: 'include', value: glob } } : {}) });

  const table: [string, string[], PatternArguments, ToolErrorCode | 'success'][] = [
    ['a match is found', ['--json', '--regexp=needle', '--', '.'], grepNames('needle'), 'success'],
    ['nothing matches (exit 1 is a successful empty search)', ['--json', '--regexp=zzz', '--', '.'], grepNames('zzz'), 'success'],
    ['an unclosed class [', ['--json', '--regexp=[', '--', '.'], grepNames('['), 'SEARCH_INVALID_PATTERN'],
    ['an unclosed group (', ['--json', '--regexp=(', '--', '.'], grepNames('('), 'SEARCH_INVALID_PATTERN'],
    ['look-around', ['--json', '--regexp=a(?=b)', '--', '.'], grepNames('a(?=b)'), 'SEARCH_INVALID_PATTERN'],
    ['a backreference', ['--json', '--regexp=(a)\\1', '--', '.'], grepNames('(a)\\1'), 'SEARCH_INVALID_PATTERN'],
    ['a literal newline', ['--json', '--regexp=a\nb', '--', '.'], grepNames('a\nb'), 'SEARCH_INVALID_PATTERN'],
    ['a regex over the size limit', ['--json', '--regexp=\\w{5000}{5000}', '--', '.'], grepNames('\\w{5000}{5000}'), 'SEARCH_INVALID_PATTERN'],
    ['an invalid include glob', ['--json', '--regexp=x', '--glob=[', '--', '.'], grepNames('x', '['), 'SEARCH_INVALID_PATTERN'],
    ['an invalid glob pattern', ['--files', '--glob=a[', '--', '.'], { glob: { name: 'pattern', value: 'a[' } }, 'SEARCH_INVALID_PATTERN'],
    ['a NUL byte in the pattern', ['--json', '--regexp=\\x00', '--', '.'], grepNames('\\x00'), 'SEARCH_INVALID_PATTERN'],
    ['a missing search path (a per-path problem: the search succeeds without it)', ['--json', '--regexp=x', '--', 'missing'], grepNames('x'), 'success'],
    ['an unknown flag (rg too old or not rg)', ['--json', '--no-such-flag', '--regexp=x', '--', '.'], grepNames('x'), 'SEARCH_FAILED'],
  ];
  for (const [name, args, names, expected] of table) {
    it(`${name} → ${expected}`, () => assert.equal(code(rg(...args), names), expected));
  }

  it('names the argument and quotes rg in the invalid-pattern message', () => {
    assert.throws(
      () => interpretExit(rg('--json', '--regexp=[', '--', '.'), grepNames('[')),
      (e) => isToolError(e) && /^ripgrep rejected pattern "\[" as a regular expression:\n/.test(e.message) && /unclosed character class/.test(e.message),
    );
    assert.throws(() => interpretExit(rg('--json', '--regexp=x', '--glob=*.{ts', '--', '.'), grepNames('x', '*.{ts')), /ripgrep rejected include "\*\.\{ts" as a glob/);
  });

  it('reports other exit statuses as SEARCH_FAILED, quoting rg without its quoted parts', () => {
    assert.throws(
      () => interpretExit({ exitCode: 3, stderr: "rg: something odd about 'a secret line' here\n", stderrTruncated: false, searchPaths: ['.'] }, grepNames('x')),
      (e) => isToolError(e) && e.code === 'SEARCH_FAILED' && /exit status 3/.test(e.message) && /something odd about … here/.test(e.message) && !/secret/.test(e.message),
    );
    assert.throws(
      () => interpretExit({ exitCode: 2, stderr: 'cut part\nrg: a fatal error\n', stderrTruncated: true, searchPaths: ['.'] }, grepNames('x')),
      (e) => isToolError(e) && e.code === 'SEARCH_FAILED' && /\[stderr truncated\] …cut part\nrg: a fatal error/.test(e.message),
    );
  });

  it('rewrites rg advice that names its flags into advice in terms of the tool\'s arguments', () => {
    const messages = ['a\nb', 'a(?=b)', '(a)\\1', '\\x00'].map((pattern) => {
      try {
        interpretExit(rg('--json', `--regexp=${pattern}`, '--', '.'), grepNames(pattern));
      } catch (e) {
        assert.ok(isToolError(e));
        return e.message;
      }
      assert.fail(`${pattern} was accepted`);
    });
    for (const message of messages) {
      assert.doesNotMatch(message, /--multiline|-U\b|--pcre2|--text|-a for short|\bflag\b/, message);
    }
    assert.match(messages[0]!, /grep matches one line at a time, so a pattern cannot match a line break/);
    assert.match(messages[1]!, /without the look-around or backreference/);
    assert.match(messages[3]!, /pattern that matches NUL \(\\x00\) never matches/);
  });
});
