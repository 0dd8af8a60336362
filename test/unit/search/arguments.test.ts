import * as assert from 'node:assert/strict';
import * as z from 'zod/mini';
import { isToolError } from '../../../src/core/errors';
import { includeProblem } from '../../../src/core/search/arguments';
import { globInputSchema, globTool } from '../../../src/core/search/glob';
import { grepInputSchema, grepTool } from '../../../src/core/search/grep';
import { searchConfig } from '../../helpers/searchEnv';

const config = searchConfig();

function argumentError(parse: () => unknown): string {
  try {
    parse();
  } catch (e) {
    assert.ok(isToolError(e), String(e));
    assert.equal(e.code, 'INVALID_ARGUMENT');
    return e.message;
  }
  assert.fail('expected INVALID_ARGUMENT');
}

describe('glob and grep arguments', () => {
  describe('include: one positive glob', () => {
    const accepted = ['*.ts', '*.{ts,tsx}', 'src/**/*.test.ts', '{a,b}/{c,d}.md', '[,]x', '\\,literal', 'a[!b]c', '[],x]', 'file name.txt', 'x!'];
    for (const glob of accepted) it(`accepts ${JSON.stringify(glob)}`, () => assert.equal(includeProblem(glob), undefined));

    const rejected: [string, RegExp][] = [
      ['*.ts,*.tsx', /ONE glob, not a comma-separated list.*\*\.\{ts,tsx\}/],
      ['*.ts, *.js', /comma-separated/],
      ['{a,b},c', /comma-separated/],
      ['[a],b', /comma-separated/],
      ['!*.test.ts', /exclusion/],
      ['!node_modules', /exclusion/],
      ['', /must not be blank/],
      ['   ', /must not be blank/],
      ['a\0b', /NUL/],
      ['*'.repeat(10_001), /longer than 10000 characters/],
    ];
    for (const [glob, message] of rejected) {
      it(`rejects ${JSON.stringify(glob)}`, () => assert.match(argumentError(() => grepTool.parse({ pattern: 'x', include: glob }, config)), message));
    }
  });

  it('accepts the documented shapes', () => {
    assert.deepEqual(globTool.parse({ pattern: '**/*.md', path: 'docs' }, config), { pattern: '**/*.md', path: 'docs' });
    assert.deepEqual(grepTool.parse({ pattern: '-1' }, config), { pattern: '-1' });
    assert.deepEqual(grepTool.parse({ pattern: 'TODO', path: '-dir', include: '*.ts' }, config), { pattern: 'TODO', path: '-dir', include: '*.ts' });
  });

  const invalid: [string, unknown, RegExp][] = [
    ['a missing pattern', {}, /^pattern: is required/],
    ['a blank pattern', { pattern: '  ' }, /^pattern must not be blank/],
    ['a NUL in the pattern', { pattern: 'a\0' }, /NUL/],
    ['a non-string pattern', { pattern: 3 }, /^pattern: must be a string/],
    ['an empty path', { pattern: 'x', path: '' }, /^path must not be blank/],
    ['a NUL in the path', { pattern: 'x', path: 'a\0b' }, /NUL/],
    ['an unknown key', { pattern: 'x', head_limit: 10 }, /unknown argument "head_limit"/],
    ['an array instead of an object', ['x'], /JSON object/],
    ['a null path', { pattern: 'x', path: null }, /^path: must be a string/],
    ['a pattern too long for an argv string', { pattern: 'x'.repeat(200_000) }, /^pattern is longer than 10000 characters/],
    ['a path too long', { pattern: 'x', path: 'a/'.repeat(6000) }, /^path is longer than 10000 characters/],
  ];
  for (const [name, input, message] of invalid) {
    it(`rejects ${name} for both tools`, () => {
      assert.match(argumentError(() => globTool.parse(input, config)), message);
      assert.match(argumentError(() => grepTool.parse(input, config)), message);
    });
  }

  it('rejects include on glob as an unknown argument', () => {
    assert.match(argumentError(() => globTool.parse({ pattern: '*', include: '*.ts' }, config)), /unknown argument "include"/);
  });

  it('describes every property for the model', () => {
    for (const [name, schema] of [['glob', globInputSchema], ['grep', grepInputSchema]] as const) {
      const json = z.toJSONSchema(schema) as { properties: Record<string, { description?: string }> };
      for (const [key, property] of Object.entries(json.properties)) {
        assert.ok((property.description ?? '').length > 40, `${name}.${key} has a description`);
      }
    }
  });
});
