import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { panelCsp, panelHtml, makeNonce } from '../../../src/vscode/panel/html';
import { parseWebviewMessage, PROTOCOL_VERSION } from '../../../src/vscode/panel/protocol';

describe('panel protocol', () => {
  it('accepts the ready handshake and every action', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready', version: PROTOCOL_VERSION }), { type: 'ready', version: PROTOCOL_VERSION });
    for (const action of ['openFull', 'copy', 'rerun', 'cancel', 'fix'] as const) {
      assert.deepEqual(parseWebviewMessage({ type: 'request', requestId: 7, request: { action, runId: 'abc' } }), {
        type: 'request',
        requestId: 7,
        request: { action, runId: 'abc' },
      });
    }
    // Enter on a card opens the full result and keeps the keyboard in the panel; only openFull takes keepFocus.
    assert.deepEqual(parseWebviewMessage({ type: 'request', requestId: 2, request: { action: 'openFull', runId: 'abc', keepFocus: true } }), {
      type: 'request',
      requestId: 2,
      request: { action: 'openFull', runId: 'abc', keepFocus: true },
    });
    for (const [action, keepFocus] of [['openFull', 'yes'], ['copy', true]] as const) {
      assert.deepEqual(parseWebviewMessage({ type: 'request', requestId: 2, request: { action, runId: 'abc', keepFocus } }), {
        type: 'request',
        requestId: 2,
        request: { action, runId: 'abc' },
      });
    }
    assert.deepEqual(parseWebviewMessage({ type: 'request', requestId: 0, request: { action: 'openTarget', runId: 'abc', target: 3, extra: 'ignored' } }), {
      type: 'request',
      requestId: 0,
      request: { action: 'openTarget', runId: 'abc', target: 3 },
    });
  });

  it('refuses malformed messages', () => {
    const bad: unknown[] = [
      null,
      'ready',
      [],
      { type: 'ready' },
      { type: 'request', requestId: 1.5, request: { action: 'copy', runId: 'a' } },
      { type: 'request', requestId: -1, request: { action: 'copy', runId: 'a' } },
      { type: 'request', requestId: 1, request: { action: 'openPath', runId: 'a', path: '/etc/passwd' } },
      { type: 'request', requestId: 1, request: { action: 'openTarget', runId: 'a' } },
      { type: 'request', requestId: 1, request: { action: 'openTarget', runId: 'a', target: '1' } },
      { type: 'request', requestId: 1, request: { action: 'copy', runId: '' } },
      { type: 'request', requestId: 1, request: { action: 'copy', runId: 'x'.repeat(65) } },
      { type: 'request', requestId: 1, request: { action: 'toString', runId: 'a' } },
      { type: 'request', requestId: 1 },
    ];
    for (const message of bad) assert.equal(parseWebviewMessage(message), undefined, JSON.stringify(message));
  });
});

describe('panel HTML', () => {
  const assets = {
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    nonce: makeNonce(),
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.js',
    styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css',
    codiconUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/codicons/codicon.css?a="b"',
  };

  it('allows nothing by default and scripts only by this load’s nonce', () => {
    const csp = panelCsp(assets);
    assert.ok(csp.startsWith("default-src 'none'; "));
    assert.match(csp, new RegExp(`script-src 'nonce-${assets.nonce.replace(/[+/=]/g, '\\$&')}'(;|$)`));
    assert.match(csp, /style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net(;|$)/);
    assert.match(csp, /font-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });

  it('makes a new nonce per load', () => {
    const nonces = new Set(Array.from({ length: 100 }, makeNonce));
    assert.equal(nonces.size, 100);
    assert.ok([...nonces].every((n) => Buffer.from(n, 'base64').length === 16));
  });

  it('has one script, carrying the nonce, and escapes asset URIs', () => {
    const html = panelHtml(assets);
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    assert.equal(scripts.length, 1);
    assert.ok(scripts[0]!.includes(`nonce="${assets.nonce}"`));
    assert.ok(html.includes('codicon.css?a=&quot;b&quot;'));
    assert.doesNotMatch(html, /style="/);
  });
});

describe('panel script (media/panel.js)', () => {
  const script = readFileSync(path.resolve(__dirname, '../../../media/panel.js'), 'utf8');

  it('speaks the same protocol version as the extension', () => {
    assert.match(script, new RegExp(`const PROTOCOL_VERSION = ${PROTOCOL_VERSION};`));
  });

  it('never parses strings as HTML or code', () => {
    for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function', 'srcdoc', 'DOMParser']) {
      assert.ok(!script.includes(sink), `media/panel.js uses ${sink}`);
    }
  });
});
