import * as assert from 'node:assert/strict';
import { defaultConfig } from '../../../src/core/config';
import { isToolError } from '../../../src/core/errors';
import { workspaceSearchTool } from '../../../src/core/workspaceSearch/tool';

const parse = (input: unknown) => workspaceSearchTool.parse(input, defaultConfig());

function argumentError(input: unknown): string {
  try {
    parse(input);
  } catch (e) {
    assert.ok(isToolError(e), String(e));
    assert.equal(e.code, 'INVALID_ARGUMENT');
    return e.message;
  }
  assert.fail(`expected INVALID_ARGUMENT for ${JSON.stringify(input)}`);
}

describe('workspace_search arguments', () => {
  it('applies the defaults: case-insensitive, 100 results, the whole folder', () => {
    assert.deepEqual(parse({ query: 'needle' }), { query: 'needle', caseSensitive: false, maxResults: 100, path: undefined });
  });

  describe('query', () => {
    it('accepts 256 characters and rejects 257', () => {
      assert.equal(parse({ query: 'q'.repeat(256) }).query.length, 256);
      assert.match(argumentError({ query: 'q'.repeat(257) }), /longer than 256 characters/);
    });

    it('bounds the raw query before trimming, then searches the trimmed text', () => {
      assert.match(argumentError({ query: ` ${'q'.repeat(256)}` }), /longer than 256/);
      assert.equal(parse({ query: `  ${'q'.repeat(254)}` }).query, 'q'.repeat(254));
      assert.equal(parse({ query: '\t two words \n' }).query, 'two words');
    });

    it('rejects an empty or all-whitespace query', () => {
      assert.match(argumentError({ query: '' }), /query is empty/);
      assert.match(argumentError({ query: ' \t\n ' }), /query is empty/);
    });

    it('rejects a NUL character, as grep and glob do (a NUL-bearing file is never searched)', () => {
      assert.match(argumentError({ query: 'a\u0000b' }), /query must not contain a NUL character/);
    });

    it('counts UTF-16 code units (an emoji is two)', () => {
      assert.doesNotThrow(() => parse({ query: '😀'.repeat(128) }));
      assert.match(argumentError({ query: `${'😀'.repeat(128)}x` }), /longer than 256/);
    });

    it('requires a string', () => {
      assert.match(argumentError({}), /query: is required/);
      assert.match(argumentError({ query: 42 }), /query: must be a string/);
      assert.match(argumentError({ query: ['a'] }), /query: must be a string/);
    });

    it('keeps hostile text literal (it is never a pattern or a shell word)', () => {
      for (const query of ['-e', '--files', '$(rm -rf /)', '.*', '[', '\\']) assert.equal(parse({ query }).query, query);
    });
  });

  describe('maxResults', () => {
    const cases: [number, number][] = [
      [1, 1],
      [100, 100],
      [0, 1],
      [-7, 1],
      [101, 100],
      [1e9, 100],
      [2.9, 2],
      [0.5, 1],
      [-0, 1],
    ];
    for (const [given, used] of cases) it(`clamps ${given} to ${used}`, () => assert.equal(parse({ query: 'x', maxResults: given }).maxResults, used));

    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      it(`rejects ${bad}`, () => assert.match(argumentError({ query: 'x', maxResults: bad }), /maxResults must be a finite number/));
    }

    it('rejects non-numbers', () => {
      for (const bad of ['10', true, null, [5]]) assert.match(argumentError({ query: 'x', maxResults: bad }), /maxResults must be a finite number/);
    });
  });

  it('caseSensitive must be a boolean', () => {
    assert.equal(parse({ query: 'x', caseSensitive: true }).caseSensitive, true);
    assert.match(argumentError({ query: 'x', caseSensitive: 'yes' }), /caseSensitive: must be a boolean/);
  });

  describe('path', () => {
    it('accepts 512 characters and rejects 513', () => {
      assert.equal(parse({ query: 'x', path: 'p'.repeat(512) }).path, 'p'.repeat(512));
      assert.match(argumentError({ query: 'x', path: 'p'.repeat(513) }), /longer than 512/);
    });

    it('rejects backslashes, NUL, an empty string and non-strings', () => {
      assert.match(argumentError({ query: 'x', path: 'src\\app.ts' }), /"\/" separators/);
      assert.match(argumentError({ query: 'x', path: 'a\0b' }), /NUL/);
      assert.match(argumentError({ query: 'x', path: '' }), /path is empty/);
      assert.match(argumentError({ query: 'x', path: 3 }), /path: must be a string/);
    });
  });

  describe('the argument object', () => {
    it('rejects unknown keys', () => {
      assert.match(argumentError({ query: 'x', regex: true }), /unknown argument "regex"/);
      assert.match(argumentError({ query: 'x', include: '*.ts', glob: '*' }), /unknown arguments "include", "glob"/);
    });

    it('rejects accessor properties without calling them', () => {
      let calls = 0;
      const input = {
        get query() {
          calls++;
          return calls === 1 ? 'harmless' : '../../etc';
        },
      };
      assert.match(argumentError(input), /"query" must be a plain value, not an accessor property/);
      assert.equal(calls, 0);
      const viaDefine = Object.defineProperty({ query: 'x' }, 'maxResults', { get: () => 5, enumerable: true });
      assert.match(argumentError(viaDefine), /"maxResults" must be a plain value/);
    });

    it('rejects non-objects and non-plain objects', () => {
      for (const bad of [null, 'query', 7, ['x'], new (class Args { query = 'x'; })()]) argumentError(bad);
    });
  });
});
