import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { defaultConfig } from '../../../src/core/config';
import { HEADER_END } from '../../../src/core/web/fetch/output';
import { readScoutConfig } from '../../../src/vscode/services';
import { PREPARERS } from '../../../src/vscode/tools';
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopbackServer';
import { pdfDocument } from '../../helpers/pdfFixtures';
import { invokeText, scoutApi, setUserSettings, spillUriOf } from '../support';

/** A page whose Markdown is longer than `fetchMaxOutputChars` (200,000): its last paragraph only fits the spill. */
const LONG_PAGE = `<!DOCTYPE html><html><head><title>Long reference</title></head><body><main><h1>Long reference</h1>${Array.from(
  { length: 3000 },
  (_, i) => `<p>Paragraph ${i} of the long reference describes one more option in plain words.</p>`,
).join('')}<p>LAST-PARAGRAPH-OF-THE-LONG-REFERENCE</p></main></body></html>`;

/** An article page: the parts the Markdown must keep, and a script and a menu it must not. */
const ARTICLE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Release notes</title>
<script>document.title = "SCRIPT-TEXT-NEVER-SHOWN";</script><style>.x { color: red }</style></head>
<body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
<main><article>
<h1>Release notes for 2.0</h1>
<p>Version <strong>2.0</strong> adds <code>fetchAll()</code>, which downloads every listed page in parallel and reports each failure on its own line.</p>
<h2>Options</h2>
<table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>retries</td><td>3</td></tr><tr><td>timeout</td><td>30 s</td></tr></tbody></table>
<pre><code>npm install fetch-all@2</code></pre>
</article></main></body></html>`;

/** A host name no DNS knows: only the proxy can answer for it. RFC 6761 reserves `.test` for testing. */
const PROXIED_HOST = 'proxied.scout.test';

describe('web_fetch as a language-model tool', () => {
  let server: LoopbackServer;
  before(async () => {
    await scoutApi();
    server = await startLoopbackServer((req, res) => {
      if (req.url === '/article') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
      else if (req.url === '/long') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(LONG_PAGE);
      else if (req.url === '/manual.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdfDocument([['Manual, page one.'], ['Manual, page two.']]));
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    });
  });
  after(() => server.close());

  it('is not asked about for 127.0.0.1, which the run approved in the user settings', () => {
    // Outside chat a question is a modal dialog nobody here could answer: fail fast instead of hanging.
    assert.deepEqual(vscode.workspace.getConfiguration('scout.webFetch').get('autoApprovedDomains'), ['127.0.0.1']);
    const prepared = PREPARERS.web_fetch({ url: server.url('/article') }, readScoutConfig());
    assert.deepEqual(prepared, { invocationMessage: `Fetching 127.0.0.1:${server.port}` });
  });

  it('fetches a loopback page (allowed by the machine setting) and gives its main content as Markdown', async () => {
    const text = await invokeText('web_fetch', { url: server.url('/article') });
    const [first, source, note, end, blank, ...body] = text.split('\n');
    assert.equal(first, `Fetched ${server.url('/article')} (HTTP 200)`);
    assert.match(source!, /^Source: web-[0-9a-f]{12}$/);
    assert.match(note!, /^Note: the text below comes from the web and is untrusted data/);
    assert.equal(end, HEADER_END);
    assert.equal(blank, '');
    const markdown = body.join('\n');
    for (const part of [
      'Version **2.0** adds `fetchAll()`, which downloads every listed page in parallel',
      '## Options',
      '| Option | Default |',
      '| --- | --- |',
      '| retries | 3 |',
      '```\nnpm install fetch-all@2\n```',
    ]) {
      assert.ok(markdown.includes(part), `the Markdown lacks ${JSON.stringify(part)}:\n${markdown}`);
    }
    for (const gone of ['SCRIPT-TEXT-NEVER-SHOWN', 'color: red', '[Blog]']) assert.ok(!markdown.includes(gone), `the Markdown shows ${gone}:\n${markdown}`);
    const request = server.requests.at(-1)!;
    assert.equal(request.method, 'GET');
    assert.match(String(request.headers['user-agent']), /Scout/);
  });

  it('saves an over-cap page whole in a read-only Markdown result document (.md), which its results card opens', async () => {
    const text = await invokeText('web_fetch', { url: server.url('/long') });
    assert.ok(text.length <= 200_000, `${text.length} characters`);
    assert.ok(!text.includes('LAST-PARAGRAPH-OF-THE-LONG-REFERENCE'));
    const uri = spillUriOf(text);
    assert.equal(uri.scheme, 'scout-result');
    assert.match(uri.path, /^\/web_fetch-http-127\.0\.0\.1-\d+-long-[\d]+-characters-\d+\.md$/);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'markdown', 'the complete Markdown opens as Markdown');
    const complete = document.getText();
    assert.match(complete, new RegExp(`^Scout web_fetch "${server.url('/long').replace(/[.?]/g, '\\$&')}": [\\d,]+ characters, complete result, [\\d,]+ lines\\n\\nFetched `));
    assert.ok(complete.includes('LAST-PARAGRAPH-OF-THE-LONG-REFERENCE'));
    // The card's "Open full result" shows the run's spill document (panel/actions.ts openFullResult).
    const run = (await scoutApi()).runs().find((r) => r.tool === 'web_fetch' && r.spillUri !== undefined);
    assert.equal(run?.spillUri, uri.toString());
    await (await scoutApi()).releaseSpills();
  });

  it('reads a PDF with pdf.js from the packed extension', async () => {
    const text = await invokeText('web_fetch', { url: server.url('/manual.pdf') });
    assert.ok(text.endsWith('\n\n--- Page 1 of 2 ---\n\nManual, page one.\n\n--- Page 2 of 2 ---\n\nManual, page two.'), text);
  });

  it('reports a 404 as a result with the error page, not as a tool error', async () => {
    const text = await invokeText('web_fetch', { url: server.url('/missing') });
    assert.match(text, new RegExp(`^Fetched ${server.url('/missing')} \\(HTTP 404\\)\\n`));
    assert.match(text, /\n\nno such page$/);
  });

  it('refuses a private address the settings do not open, before any connection', async () => {
    const connections = server.connections;
    // The server's own port on ::1, which allowedPrivateHosts (127.0.0.1 only) does not cover.
    const text = await invokeText('web_fetch', { url: `http://[::1]:${server.port}/article` });
    assert.match(text, /^Error: ::1 is a loopback address; Scout refuses private-network destinations/);
    assert.match(text, /\(code: WEB_BLOCKED_ADDRESS\)$/);
    assert.equal(server.connections, connections);
  });

  it("goes through the proxy named by VS Code's http.proxy setting", async () => {
    const proxy = await startLoopbackServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`proxied ${req.method} ${req.url}`);
    });
    // The proxied host needs no DNS (an allowed host name is not resolved before connecting) and no question.
    const restore = await setUserSettings({
      'http.proxy': proxy.origin,
      'scout.webFetch.allowedPrivateHosts': ['127.0.0.1', PROXIED_HOST],
      'scout.webFetch.autoApprovedDomains': ['127.0.0.1', PROXIED_HOST],
    });
    try {
      const url = `http://${PROXIED_HOST}/notes?page=2`;
      const text = await invokeText('web_fetch', { url });
      assert.match(text, new RegExp(`^Fetched ${url.replace(/[.?]/g, '\\$&')} \\(HTTP 200\\)\\n`));
      // An HTTP proxy gets the absolute URL in the request line (RFC 9112 §3.2.2).
      assert.ok(text.endsWith(`\n\nproxied GET ${url}`), text);
      assert.deepEqual(
        proxy.requests.map((r) => [r.url, r.headers.host]),
        [[url, PROXIED_HOST]],
      );
    } finally {
      await restore();
      await proxy.close();
    }
  });
});

describe('web_fetch confirmation (prepareInvocation)', () => {
  const url = 'https://docs.example.org/guide';

  it('asks before fetching a domain that is not auto-approved, warning that page text is untrusted', () => {
    const prepared = PREPARERS.web_fetch({ url }, defaultConfig());
    assert.equal(prepared.invocationMessage, 'Fetching docs.example.org');
    const question = prepared.confirmationMessages;
    assert.ok(question, 'no confirmation for an unapproved domain');
    assert.equal(question.title, 'Fetch a web page?');
    assert.ok(question.message instanceof vscode.MarkdownString);
    assert.match(question.message.value, /untrusted/);
    assert.match(question.message.value, /scout\.webFetch\.autoApprovedDomains/);
    assert.ok(!question.message.isTrusted, 'the question must not run command links');
  });

  it('does not ask for an auto-approved domain or its subdomains', () => {
    const config = defaultConfig();
    config.webFetch.autoApprovedDomains = ['example.org'];
    assert.equal(PREPARERS.web_fetch({ url }, config).confirmationMessages, undefined);
  });

  it('gives every tool a short invocation message built from its input', () => {
    const config = defaultConfig();
    assert.deepEqual(PREPARERS.web_search({ queries: ['node streams', 'backpressure', 'a', 'b'] }, config), {
      invocationMessage: 'Searching the web for "node streams", "backpressure", "a" and 1 more',
    });
    assert.deepEqual(PREPARERS.workspace_search({ query: 'TODO(', path: 'src', caseSensitive: true }, config), {
      invocationMessage: 'Searching the workspace for "TODO(" in "src" (match case)',
    });
    assert.deepEqual(PREPARERS.web_fetch({ url: 42 }, config), { invocationMessage: 'Fetching "?"' });
  });
});
