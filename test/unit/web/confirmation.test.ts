import * as assert from 'node:assert/strict';
import { domainMatches, fetchConfirmation } from '../../../src/core/web/confirmation';
import { webFetchConfig } from '../../helpers/webFetchEnv';

describe('web_fetch confirmation', () => {
  it('asks before fetching a domain the user has not approved, warning that page text is untrusted', () => {
    const question = fetchConfirmation('https://docs.example.org/guide?q=`x`', webFetchConfig());
    assert.ok(question);
    assert.equal(question.title, 'Fetch a web page?');
    assert.ok(question.message.includes('`https://docs.example.org/guide?q=%60x%60`'));
    assert.match(question.message, /untrusted/);
    assert.match(question.message, /`docs\.example\.org`.*scout\.webFetch\.autoApprovedDomains/);
  });

  it('does not ask for an approved domain or its subdomains', () => {
    const config = webFetchConfig({ autoApprovedDomains: ['example.org', '*.nodejs.org', 'https://Docs.Python.org/3/'] });
    assert.equal(fetchConfirmation('https://example.org/a', config), undefined);
    assert.equal(fetchConfirmation('https://api.example.org/a', config), undefined);
    assert.equal(fetchConfirmation('https://nodejs.org/api/', config), undefined);
    assert.equal(fetchConfirmation('https://docs.python.org/3/library/', config), undefined);
    assert.ok(fetchConfirmation('https://badexample.org/', config));
    assert.ok(fetchConfirmation('https://example.org.evil.test/', config));
  });

  it('does not ask about input the call will refuse anyway', () => {
    assert.equal(fetchConfirmation(42, webFetchConfig()), undefined);
    assert.equal(fetchConfirmation('file:///etc/passwd', webFetchConfig()), undefined);
  });

  it('matches domains by label, ignoring scheme, port, path and a wildcard prefix', () => {
    assert.equal(domainMatches('a.b.example.com', 'example.com:443'), true);
    assert.equal(domainMatches('example.com', '*.example.com'), true);
    assert.equal(domainMatches('notexample.com', 'example.com'), false);
    assert.equal(domainMatches('example.com', ''), false);
  });
});
