/**
 * Regression (found by the attack suite): `JSON.parse('{"__proto__": {...}}')` gives an object with an own
 * `__proto__` key. Argument snapshotting used to assign it to the copy, which set the copy's prototype: the
 * schema then read the arguments from that prototype (running any getter there) instead of rejecting the
 * unknown key.
 */
import * as assert from 'node:assert/strict';
import { defaultConfig } from '../../../src/core/config';
import { isToolError } from '../../../src/core/errors';
import { TOOLS } from '../../../src/core/registry';

const VALID: Record<string, Record<string, unknown>> = {
  glob: { pattern: '*' },
  grep: { pattern: 'x' },
  workspace_search: { query: 'x' },
  web_search: { queries: ['x'] },
  web_fetch: { url: 'https://example.com/' },
};

describe('attack: prototype keys in arguments', () => {
  for (const [name, tool] of Object.entries(TOOLS)) {
    it(`${name} refuses arguments hidden under an own "__proto__" key, without running their getters`, () => {
      const parse = (input: unknown) => tool!.parse(input, defaultConfig());
      assert.ok(parse(VALID[name]), 'the valid arguments parse');
      const smuggled = JSON.parse(`{"__proto__": ${JSON.stringify(VALID[name])}}`);
      assert.throws(() => parse(smuggled), (e) => isToolError(e) && e.code === 'INVALID_ARGUMENT');
      const alongside = JSON.parse(`${JSON.stringify(VALID[name]).slice(0, -1)}, "__proto__": {"polluted": true}}`);
      assert.throws(() => parse(alongside), (e) => isToolError(e) && e.code === 'INVALID_ARGUMENT' && /unknown argument "__proto__"/.test(e.message));

      let getterCalls = 0;
      const inner = {};
      for (const [key, value] of Object.entries(VALID[name]!)) {
        Object.defineProperty(inner, key, { enumerable: true, get: () => (getterCalls++, value) });
      }
      const withGetters = Object.defineProperty({}, '__proto__', { value: inner, enumerable: true, writable: true, configurable: true });
      assert.throws(() => parse(withGetters), (e) => isToolError(e) && e.code === 'INVALID_ARGUMENT');
      assert.equal(getterCalls, 0, 'a getter under "__proto__" ran');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  }
});
