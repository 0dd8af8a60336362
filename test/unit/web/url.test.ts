import * as assert from 'node:assert/strict';
import { bareHostname, MAX_URL_LENGTH, parseWebUrl } from '../../../src/core/web/http/url';

describe('web/http/url parseWebUrl', () => {
  it('accepts http and https URLs and serialises them', () => {
    assert.equal(parseWebUrl('  HTTPS://Example.COM/a b?q=1#x ').href, 'https://example.com/a%20b?q=1#x');
    assert.equal(parseWebUrl('http://example.com').href, 'http://example.com/');
  });

  for (const url of ['file:///etc/passwd', 'ftp://example.com/file', 'javascript:alert(1)', 'data:text/html,hi', 'ws://example.com/']) {
    it(`refuses the scheme of ${url}`, () => assert.throws(() => parseWebUrl(url), { code: 'WEB_INVALID_URL', message: /only http: and https:/ }));
  }

  it('refuses credentials in the URL', () => {
    assert.throws(() => parseWebUrl('https://user:secret@example.com/'), { code: 'WEB_INVALID_URL', message: /credentials/ });
    assert.throws(() => parseWebUrl('https://user@example.com/'), { code: 'WEB_INVALID_URL' });
  });

  it('refuses relative and malformed input with an example of a full URL', () => {
    assert.throws(() => parseWebUrl('example.com/page'), { code: 'WEB_INVALID_URL', message: /https:\/\/example\.com\/page/ });
    assert.throws(() => parseWebUrl('http://[::1'), { code: 'WEB_INVALID_URL' });
  });

  it('refuses URLs longer than the limit', () => {
    assert.throws(() => parseWebUrl(`https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`), { code: 'WEB_INVALID_URL', message: /characters long/ });
  });

  it('resolves a relative redirect target against a base', () => {
    assert.equal(parseWebUrl('./x', 'redirect target', 'http://h.example/dir/page').href, 'http://h.example/dir/x');
    assert.equal(parseWebUrl('/y', 'redirect target', 'http://h.example/dir/page').href, 'http://h.example/y');
  });

  // WHATWG URL canonicalises every IPv4 spelling, so the guard only ever sees dotted quads or bracketed IPv6.
  const spellings: [string, string][] = [
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.0.0.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://[::1]/', '::1'],
    ['http://LOCALHOST./', 'localhost'],
  ];
  for (const [input, host] of spellings) {
    it(`canonicalises ${input} to ${host}`, () => assert.equal(bareHostname(parseWebUrl(input)), host));
  }
});
