import * as assert from 'node:assert/strict';
import { domainMatches, fetchConfirmation } from '../../../../src/core/web/fetch/confirmation';
import { FOREIGN_STRUCTURE, markdownStructure } from '../../../helpers/commonMark';
import { webFetchConfig } from '../../../helpers/webFetchEnv';

describe('web_fetch confirmation', () => {
  it('asks before fetching a domain the user has not approved, warning that page text is untrusted', () => {
    const question = fetchConfirmation('https://docs.example.org/guide?q=`x`', webFetchConfig());
    assert.ok(question);
    assert.equal(question.title, 'Fetch a web page?');
    assert.ok(question.message.includes('`` https://docs.example.org/guide?q=`x` ``'), question.message);
    assert.match(question.message, /untrusted/);
    assert.match(question.message, /`docs\.example\.org` only, add it to the setting\n\n`scout\.webFetch\.autoApprovedDomains`$/);
    // VS Code's "Allow in this Session" approves web_fetch for every host: the question says so.
    assert.match(question.message, /“Allow in this Session” lets web_fetch fetch from every host without asking, for the rest of this session\./);
  });

  it('shows a host holding Markdown as written, in code, with no bold text or link of its own', () => {
    // This host once rendered "(verified-safe)" in bold inside "To stop being asked for …".
    const url = 'https://docs.python.org`**(verified-safe)**`.evil.example/[x](https://evil.example)';
    const question = fetchConfirmation(url, webFetchConfig());
    assert.ok(question);
    const rendered = markdownStructure(question.message);
    for (const type of FOREIGN_STRUCTURE.filter((t) => t !== 'code_inline')) assert.ok(!rendered.types.has(type), `the question formed ${type}`);
    assert.deepEqual(rendered.links, []);
    const href = new URL(url).href;
    assert.equal(rendered.paragraphs[0], `Scout will download ${href} and give its text to the model.`);
    assert.match(rendered.paragraphs[2]!, /To stop being asked for docs\.python\.org`\*\*\(verified-safe\)\*\*`\.evil\.example only, add it to the setting$/);
    assert.equal(rendered.paragraphs[3], 'scout.webFetch.autoApprovedDomains');
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
    // Address literals the private-network guard refuses before connecting, in several spellings.
    for (const url of ['http://127.0.0.1:8080/', 'http://2130706433/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://localhost:8080/', 'http://app.localhost/', 'http://169.254.169.254/latest/meta-data/', 'http://10.1.2.3/']) {
      assert.equal(fetchConfirmation(url, webFetchConfig({ allowedPrivateHosts: [] })), undefined, url);
    }
  });

  it('asks about a private address the user opened with allowedPrivateHosts, and about any host name', () => {
    const config = webFetchConfig({ allowedPrivateHosts: ['127.0.0.1', '10.0.0.0/8'] });
    assert.ok(fetchConfirmation('http://127.0.0.1:8080/', config));
    assert.ok(fetchConfirmation('http://10.1.2.3/', config));
    assert.equal(fetchConfirmation('http://192.168.1.1/', config), undefined);
    // An ordinary name is judged only after DNS, at fetch time; the question is asked.
    assert.ok(fetchConfirmation('http://intranet.example:8080/', webFetchConfig({ allowedPrivateHosts: [] })));
    assert.ok(fetchConfirmation('http://localhost:8080/', webFetchConfig({ allowedPrivateHosts: ['localhost'] })));
  });

  it('matches domains by label, ignoring scheme, port, path and a wildcard prefix', () => {
    assert.equal(domainMatches('a.b.example.com', 'example.com:443'), true);
    assert.equal(domainMatches('example.com', '*.example.com'), true);
    assert.equal(domainMatches('notexample.com', 'example.com'), false);
    assert.equal(domainMatches('example.com', ''), false);
  });
});
