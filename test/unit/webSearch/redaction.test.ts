import * as assert from 'node:assert/strict';
import { MIN_PIECE, redactSecret } from '../../../src/core/web/search/redaction';

const KEY = 'BSAq7Zk2Lm9XwR4tYp8Nc3Vd';

/** Every character of `text` percent-encoded, hex digits in `upper` or lower case. */
const percentEncoded = (text: string, upper = true) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).map((e) => (upper ? e.toUpperCase() : e)).join('');

describe('web_search key redaction', () => {
  it('redacts the key as echoed, in any ASCII case', () => {
    assert.equal(redactSecret(`Invalid key ${KEY}.`, KEY), 'Invalid key [redacted].');
    assert.equal(redactSecret(`INVALID KEY ${KEY.toUpperCase()}`, KEY), 'INVALID KEY [redacted]');
    // The key echoed inside a host name comes back lowercased by URL parsing.
    const url = new URL(`https://${KEY}.collector.example/path`).href;
    assert.equal(url, `https://${KEY.toLowerCase()}.collector.example/path`);
    assert.equal(redactSecret(url, KEY), 'https://[redacted].collector.example/path');
  });

  it('redacts it percent-encoded, wholly or in part, with either case of hex digits', () => {
    assert.equal(redactSecret(`?k=${percentEncoded(KEY)}&x=1`, KEY), '?k=[redacted]&x=1');
    assert.equal(redactSecret(`?k=${percentEncoded(KEY, false)}`, KEY), '?k=[redacted]');
    const mixed = [...KEY].map((c, i) => (i % 3 === 0 ? percentEncoded(c) : c)).join('');
    assert.equal(redactSecret(`key=${mixed};`, KEY), 'key=[redacted];');
    assert.equal(redactSecret('100%25 done, %zz and %', KEY), '100%25 done, %zz and %');
  });

  it('redacts it percent-encoded twice or more (a URL inside a URL), up to four levels, and leaves other text alone', () => {
    // The input that broke it: the key in a result URL as %2574%2565… (each "%" encoded again as "%25").
    const twice = percentEncoded(KEY).replace(/%/g, '%25');
    assert.equal(redactSecret(`https://r.example/?u=https%3A%2F%2Fx.example%2F%3Fk%3D${twice}`, KEY), 'https://r.example/?u=https%3A%2F%2Fx.example%2F%3Fk%3D[redacted]');
    let nested = percentEncoded(KEY);
    for (let level = 2; level <= 4; level++) {
      nested = nested.replace(/%/g, '%25');
      assert.equal(redactSecret(`k=${nested}.`, KEY), 'k=[redacted].', `${level} levels`);
    }
    assert.equal(redactSecret('50%2525 of %252', KEY), '50%2525 of %252');
  });

  it('redacts it in base64 and base64url, at any byte alignment', () => {
    for (const prefix of ['', 'u', 'us', 'user:']) {
      const basic = Buffer.from(`${prefix}${KEY}:`).toString('base64');
      // Only the few characters that also encode the prefix or the ":" and padding may remain.
      assert.match(redactSecret(`Authorization: Basic ${basic}`, KEY), /^Authorization: Basic [A-Za-z0-9+/]{0,7}\[redacted\][A-Za-z0-9+/=]{0,4}$/, prefix);
      const url = Buffer.from(`${prefix}${KEY}`).toString('base64url');
      assert.match(redactSecret(`token=${url}`, KEY), /^token=[A-Za-z0-9_-]{0,7}\[redacted\][A-Za-z0-9_-]{0,3}$/, prefix);
    }
  });

  it(`redacts any piece of ${MIN_PIECE} or more characters, and merges touching pieces`, () => {
    assert.equal(redactSecret(`half: ${KEY.slice(0, 12)} / ${KEY.slice(12)}`, KEY), 'half: [redacted] / [redacted]');
    assert.equal(redactSecret(`x${KEY.slice(5, 5 + MIN_PIECE)}x`, KEY), 'x[redacted]x');
    assert.equal(redactSecret(`${KEY}${KEY.toLowerCase()}`, KEY), '[redacted]');
    // A shorter piece is not a leak the guarantee covers: it stays.
    assert.equal(redactSecret(`x${KEY.slice(5, 5 + MIN_PIECE - 1)}x`, KEY), `x${KEY.slice(5, 5 + MIN_PIECE - 1)}x`);
  });

  it('redacts a key shorter than a piece only where it appears whole', () => {
    assert.equal(redactSecret('a k3y-7 b K3Y-7 c k3y', 'k3y-7'), 'a [redacted] b [redacted] c k3y');
  });

  it('leaves text without the key, and any text when there is no key, as it is', () => {
    const text = 'Ordinary text with %41 escapes, base64 QUJD and Unicode: café, 😀, \u0130.';
    assert.equal(redactSecret(text, KEY), text);
    assert.equal(redactSecret(`${KEY}`, undefined), KEY);
    assert.equal(redactSecret(`${KEY}`, ''), KEY);
  });
});
