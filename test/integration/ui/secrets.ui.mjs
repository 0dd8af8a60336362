// API keys stay secret, in the real editor: a web search API key, stored the way a person stores it (the
// command "Scout: Set Web Search API Key" and its password box), never shows up anywhere else. A loopback
// Tavily echoes the key back on every error path (401, 429 twice, an HTML page, a 500 whose detail puts the
// key across the message's length cut, a stall past the time budget) and in a successful answer; the test then
// searches the results panel, the notifications and every log file of the editor host (the "Scout"
// LogOutputChannel among them) for the key or any 8-character piece of it.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { editMachineSettings, uiHost } from '../../host/uiHost.mjs';
import { answerInputBox, pickRow, runCommand, takeNotification } from './commandPalette.mjs';

const KEY = `tvly-ui${Math.random().toString(36).slice(2, 12)}Q8${Math.random().toString(36).slice(2, 10)}`;
/** Shortest piece of the key that counts as leaked. */
const MIN_PIECE = 8;

/** The loopback Tavily's reply to each query the test searches for. */
const REPLIES = {
  'key path 401': (res) => json(res, 401, { detail: { error: `Unauthorized: invalid API key ${KEY}` } }),
  'key path 429': (res) => json(res, 429, { detail: { error: `rate limited for ${KEY}` } }, { 'retry-after': '0' }),
  'key path html': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>Sign in again (${KEY})</body></html>`),
  'key path 500': (res) => json(res, 500, { detail: `${'x'.repeat(190)}${KEY}` }),
  'key path echo': (res, query) =>
    json(res, 200, {
      query,
      answer: `The key is ${KEY}.`,
      results: [
        { title: `Echo ${KEY}`, url: `https://example.com/?k=${KEY}`, content: `${'s'.repeat(290)}${KEY}`, score: 0.9 },
        { title: `${'t'.repeat(190)}${KEY}`, url: 'https://example.org/', content: `<b>${KEY}</b>`, score: 0.8 },
      ],
    }),
  'key path stall': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`{"query": "${KEY}", "results": [`); // and never ends
  },
};

function json(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Every piece of the key at least MIN_PIECE long found in `text`, with some context. */
function leaks(text) {
  const found = [];
  for (let i = 0; i + MIN_PIECE <= KEY.length; i++) {
    const at = text.indexOf(KEY.slice(i, i + MIN_PIECE));
    if (at >= 0) found.push(text.slice(Math.max(0, at - 60), at + 60));
  }
  return found;
}

/** Every regular file under `dir`. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map((rel) => path.join(dir, String(rel)))
    .filter((file) => statSync(file).isFile());
}

describe('attack: a web search API key in the real editor', function () {
  this.timeout(180_000);
  /** @type {import('playwright-core').Page} */
  let page;
  let server;
  let restoreSettings;
  const authorizations = [];

  before(async () => {
    ({ page } = uiHost());
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        authorizations.push(String(req.headers.authorization));
        const query = JSON.parse(body || '{}').query;
        (REPLIES[query] ?? ((r) => json(r, 404, {})))(res, query);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Tavily on loopback, chosen in code-server's Machine/settings.json (the base URL is machine-scoped).
    restoreSettings = await editMachineSettings({
      'scout.webSearch.provider': 'tavily',
      'scout.webSearch.baseUrls': { tavily: `http://127.0.0.1:${server.address().port}` },
      'scout.webSearch.searchTimeoutMs': 2000,
    });
    await runCommand(page, 'Scout: Set Web Search API Key');
    await page.locator('.quick-input-widget input[placeholder^="Which web search provider"]').waitFor();
    await pickRow(page, 'Tavily');
    await answerInputBox(page, 'Scout: Tavily API key', KEY);
    await takeNotification(page, 'Tavily API key was saved');
  });

  after(async () => {
    await page.keyboard.press('Escape');
    // Remove the stored key (an empty key removes it), then put the settings back.
    await runCommand(page, 'Scout: Set Web Search API Key').catch(() => {});
    await pickRow(page, 'Tavily').catch(() => {});
    await answerInputBox(page, 'Scout: Tavily API key', '').catch(() => {});
    await takeNotification(page, 'Tavily API key was removed').catch(() => {});
    await restoreSettings?.();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('never shows the key in the panel, the notifications or any log, on any error path', async () => {
    for (const query of Object.keys(REPLIES)) {
      await runCommand(page, 'Scout: Web Search…');
      await answerInputBox(page, 'Web Search', query);
      const card = panel().locator('article.card', { has: page.locator('.arg-value', { hasText: query }) }).first();
      await card.locator('.card-meta .status', { hasText: /^(Done|Error)$/ }).waitFor({ timeout: 20_000 });
    }
    assert.ok(authorizations.length >= Object.keys(REPLIES).length && authorizations.every((a) => a === `Bearer ${KEY}`), 'the searches did not use the stored key');

    const cards = await panel().locator('#cards').innerText();
    for (const query of Object.keys(REPLIES)) assert.ok(cards.includes(query), `no card for "${query}"`);
    assert.deepEqual(leaks(cards), [], 'the results panel shows the key');
    const toasts = (await page.locator('.notification-toast').allInnerTexts()).join('\n');
    assert.deepEqual(leaks(toasts), [], 'a notification shows the key');

    const logs = filesUnder(path.join(uiHost().userDataDir, 'logs'));
    const scoutLog = logs.filter((file) => readFileSync(file, 'utf8').includes('web_search: 1 query with Tavily'));
    assert.ok(scoutLog.length > 0, `the Scout output channel's log file was not found among ${logs.length} log files`);
    for (const file of logs) assert.deepEqual(leaks(readFileSync(file, 'latin1')), [], `${file} holds the key`);
  });

  /** The Scout Results webview's document. */
  function panel() {
    return page.frameLocator('iframe.webview[src*="extensionId=scout-dev.scout"]').frameLocator('iframe#active-frame');
  }
});
