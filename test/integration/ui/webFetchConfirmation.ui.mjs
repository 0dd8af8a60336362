// web_fetch's confirmation as VS Code shows it to an agent's call made outside chat (vscode.lm.invokeTool
// with no toolInvocationToken): a modal dialog, answered here with the mouse. The call is made by the test
// extension's command "Scout Tests: Call web_fetch as an Agent…" (test/integration/agentCommands.ts), which
// reports how it ended in a notification.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { uiHost } from '../../host/uiHost.mjs';
import { answerInputBox, runCommand, takeNotification } from './commandPalette.mjs';

describe('web_fetch confirmation for a call outside chat', function () {
  this.timeout(60_000);
  /** @type {import('playwright-core').Page} */
  let page;
  /** A loopback page server (127.0.0.1 only); `requests` lists the paths it was asked for. */
  let server;
  const requests = [];
  let url;

  before(async () => {
    ({ page } = uiHost());
    server = http.createServer((req, res) => {
      requests.push(req.url);
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('confirmed page');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}/confirm-me`;
  });

  after(async () => {
    await page.keyboard.press('Escape'); // a dialog left open by a failure
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Starts the agent's call and returns the dialog it raises. */
  async function callAndWaitForDialog() {
    await runCommand(page, 'Scout Tests: Call web_fetch as an Agent…');
    await answerInputBox(page, 'URL for web_fetch', url);
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    return dialog;
  }

  it('asks in a modal dialog, warning that page text is untrusted; Cancel rejects the call and sends nothing', async () => {
    const dialog = await callAndWaitForDialog();
    assert.equal(await dialog.locator('.dialog-message-text').innerText(), 'Fetch a web page?');
    const detail = await dialog.locator('.dialog-message-detail').innerText();
    assert.ok(detail.includes(url), `the dialog does not name the URL:\n${detail}`);
    assert.match(detail, /untrusted/);
    assert.match(detail, /scout\.webFetch\.autoApprovedDomains/);
    assert.deepEqual((await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).sort(), ['Cancel', 'Yes']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await takeNotification(page, 'web_fetch was rejected'), 'web_fetch was rejected: Canceled');
    assert.deepEqual(requests, []);
  });

  it('fetches the page once the user confirms', async () => {
    const dialog = await callAndWaitForDialog();
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await takeNotification(page, 'web_fetch gave'), `web_fetch gave: Fetched ${url} (HTTP 200)`);
    assert.deepEqual(requests, ['/confirm-me']);
  });
});
