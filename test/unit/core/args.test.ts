import * as assert from 'node:assert/strict';
import * as z from 'zod/mini';
import { parseArguments, snapshotArguments } from '../../../src/core/args';
import { isToolError } from '../../../src/core/errors';

const schema = z.strictObject({
  name: z.string().check(z.refine((s) => s !== 'bad', { message: 'name must not be "bad" (contract message).' })),
  count: z.optional(z.number().check(z.int())),
  tags: z.optional(z.array(z.string())),
});

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(isToolError(e), String(e));
    assert.equal(e.code, 'INVALID_ARGUMENT');
    return e.message;
  }
  assert.fail('expected INVALID_ARGUMENT');
}

describe('parseArguments', () => {
  it('returns the validated data', () => {
    assert.deepEqual(parseArguments(schema, { name: 'x', count: 2, tags: ['a'] }), { name: 'x', count: 2, tags: ['a'] });
  });

  it('treats undefined input as an empty object', () => {
    assert.match(message(() => parseArguments(schema, undefined)), /^name: is required \(string\)\.$/);
  });

  const notObjects: [string, unknown][] = [
    ['null', null],
    ['a string', '{"name":"x"}'],
    ['a number', 3],
    ['an array', [{ name: 'x' }]],
    ['a class instance', new (class Args { name = 'x'; })()],
    ['a Map', new Map([['name', 'x']])],
  ];
  for (const [name, input] of notObjects) {
    it(`rejects ${name}`, () => assert.match(message(() => parseArguments(schema, input)), /JSON object/));
  }

  it('accepts an object with a null prototype', () => {
    const input = Object.assign(Object.create(null), { name: 'x' });
    assert.deepEqual(parseArguments(schema, input), { name: 'x' });
  });

  it('rejects accessor properties, so a value cannot change after validation', () => {
    let reads = 0;
    const input = {
      get name() {
        reads++;
        return reads === 1 ? 'x' : 'bad';
      },
    };
    assert.match(message(() => parseArguments(schema, input)), /argument "name" must be a plain value, not an accessor property/);
    assert.equal(reads, 0, 'the getter never ran');
  });

  it('rejects accessors inside arrays and symbol keys', () => {
    const tags = ['a'];
    Object.defineProperty(tags, 0, { get: () => 'a', enumerable: true });
    assert.match(message(() => parseArguments(schema, { name: 'x', tags })), /accessor/);
    assert.match(message(() => parseArguments(schema, { name: 'x', [Symbol('s')]: 1 })), /symbol keys/);
  });

  it('snapshots: later changes to the input do not reach the parsed value', () => {
    const tags = ['a'];
    const input = { name: 'x', tags };
    const snapshot = snapshotArguments(input);
    tags.push('b');
    assert.deepEqual(snapshot.tags, ['a']);
  });

  it('names unknown keys and the known ones', () => {
    assert.equal(message(() => parseArguments(schema, { name: 'x', extra: 1 })), 'unknown argument "extra". The arguments are "name" (required), "count" and "tags". Remove it, or rename it to the one meant, and call again.');
    assert.equal(message(() => parseArguments(schema, { name: 'x', a: 1, b: 2 })), 'unknown arguments "a", "b". The arguments are "name" (required), "count" and "tags". Remove them, or rename each to the one meant, and call again.');
    assert.equal(message(() => parseArguments(z.strictObject({ url: z.string() }), { uri: 'x' })), 'unknown argument "uri". The only argument is "url" (required). Remove it, or rename it to the one meant, and call again.');
  });

  it('names a misspelt argument before the required one it leaves missing ({"q": …} for "queries")', () => {
    assert.equal(message(() => parseArguments(schema, { nmae: 'x' })), 'unknown argument "nmae". The arguments are "name" (required), "count" and "tags". Remove it, or rename it to the one meant, and call again.');
    assert.match(message(() => parseArguments(schema, { name: 5, extra: 1 })), /^unknown argument "extra"\./);
  });

  it('quotes an unknown key as a JSON string of at most 200 characters', () => {
    assert.match(message(() => parseArguments(schema, { name: 'x', 'a"\nb': 1 })), /^unknown argument "a\\"\\nb"\. /);
    assert.match(message(() => parseArguments(schema, { name: 'x', ['k'.repeat(5000)]: 1 })), new RegExp(`^unknown argument "${'k'.repeat(200)}"…\\. The arguments`));
  });

  it('names the argument on a type error', () => {
    assert.equal(message(() => parseArguments(schema, { name: 1 })), 'name: must be a string.');
    assert.match(message(() => parseArguments(schema, { name: 'x', count: 1.5 })), /^count: /);
    assert.match(message(() => parseArguments(schema, { name: 'x', tags: [1] })), /^tags\.0: must be a string\.$/);
    // The article follows the type's first letter (was "must be a array").
    assert.equal(message(() => parseArguments(schema, { name: 'x', tags: 'a' })), 'tags: must be an array.');
  });

  it('passes a refinement message through verbatim', () => {
    assert.equal(message(() => parseArguments(schema, { name: 'bad' })), 'name must not be "bad" (contract message).');
  });
});
