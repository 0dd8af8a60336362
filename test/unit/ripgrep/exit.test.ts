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
    return { exitCode: r.status!, stderr: r.stderr.toString(), stderrTruncated: false };
  }

  function code(exit: RipgrepExit, names: PatternArguments): ToolErrorCode | 'found' | 'none' {
    try {
      return interpretExit(exit, names);
    } catch (e) {
      assert.ok(isToolError(e));
      return e.code;
    }
  }

  const grepNames = (regex: string, glob?: string): PatternArguments => ({ regex: { name: 'pattern', value: regex }, ...(glob ? { glob: { name: 'include', value: glob } } : {}) });

  const table: [string, string[], PatternArguments, ToolErrorCode | 'found' | 'none'][] = [
    ['a match is found', ['--json', '--regexp=needle', '--', '.'], grepNames('needle'), 'found'],
    ['nothing matches (exit 1 is a successful empty search)', ['--json', '--regexp=zzz', '--', '.'], grepNames('zzz'), 'none'],
    ['an unclosed class [', ['--json', '--regexp=[', '--', '.'], grepNames('['), 'SEARCH_INVALID_PATTERN'],
    ['an unclosed group (', ['--json', '--regexp=(', '--', '.'], grepNames('('), 'SEARCH_INVALID_PATTERN'],
    ['look-around', ['--json', '--regexp=a(?=b)', '--', '.'], grepNames('a(?=b)'), 'SEARCH_INVALID_PATTERN'],
    ['a backreference', ['--json', '--regexp=(a)\\1', '--', '.'], grepNames('(a)\\1'), 'SEARCH_INVALID_PATTERN'],
    ['a literal newline', ['--json', '--regexp=a\nb', '--', '.'], grepNames('a\nb'), 'SEARCH_INVALID_PATTERN'],
    ['a regex over the size limit', ['--json', '--regexp=\\w{5000}{5000}', '--', '.'], grepNames('\\w{5000}{5000}'), 'SEARCH_INVALID_PATTERN'],
    ['an invalid include glob', ['--json', '--regexp=x', '--glob=[', '--', '.'], grepNames('x', '['), 'SEARCH_INVALID_PATTERN'],
    ['an invalid glob pattern', ['--files', '--glob=a[', '--', '.'], { glob: { name: 'pattern', value: 'a[' } }, 'SEARCH_INVALID_PATTERN'],
    ['a missing search path', ['--json', '--regexp=x', '--', 'missing'], grepNames('x'), 'SEARCH_FAILED'],
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

  it('reports other exit statuses as SEARCH_FAILED with the stderr tail', () => {
    assert.throws(
      () => interpretExit({ exitCode: 3, stderr: 'x'.repeat(10) + 'tail', stderrTruncated: true }, grepNames('x')),
      (e) => isToolError(e) && e.code === 'SEARCH_FAILED' && /exit status 3/.test(e.message) && /\[stderr truncated\] …x+tail/.test(e.message),
    );
  });
});
