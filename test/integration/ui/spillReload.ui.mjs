// Result documents as a person lives with them: their tabs say which call they hold, they never take the
// active editor, closing them (Close All included) asks nothing, and across window reloads (Scout keeps them
// in its storage) "Open full result" still opens them and they never pile up beyond the newest 10.
// Runs in the fixture folder's window and reloads it twice; the test extension does not run its in-host
// suites again after a reload (see test/integration/extension.ts).
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { uiHost } from '../../host/uiHost.mjs';
import { answerInputBox, openPalette, runCommand } from './commandPalette.mjs';

/** Files the glob lists: more than scout.search.globMaxResults (100), so every call spills. */
const MANY = 150;
const PATTERN = 'ui-reload/many/*';
/** How the result document's tab (its file name) starts; the call number follows. */
const TAB_NAME = `glob-ui-reload-many-${MANY}-files-`;
/** Spill documents Scout keeps (MAX_SPILL_DOCUMENTS in src/vscode/spill.ts). */
const KEPT = 10;

describe('spill documents across a window reload', function () {
  this.timeout(600_000);
  /** @type {import('playwright-core').Page} */
  let page;
  let workspace;

  before(async () => {
    ({ page, folder: workspace } = uiHost());
    for (let i = 0; i < MANY; i++) write(`ui-reload/many/f${String(i).padStart(3, '0')}.txt`, 'x\n');
    // A page with unsaved documents may ask before it unloads; the reload must go ahead.
    page.on('dialog', (dialog) => void dialog.accept().catch(() => {}));
  });

  after(() => {
    rmSync(path.join(workspace, 'ui-reload'), { recursive: true, force: true });
  });

  it('names the tab after the result and never takes the active editor from the file being read', async () => {
    await openFile('README.md');
    await runCommand(page, 'Scout: Show Results');
    await globFromPalette();
    await spillTabs().first().waitFor({ timeout: 30_000 });
    assert.equal(await spillTabs().count(), 1);
    // The spill tab opened in the background: the file keeps the active editor.
    await page.locator('.tabs-container .tab.active', { hasText: 'README.md' }).waitFor();
    assert.equal(await page.locator('.tabs-container .tab.active', { hasText: TAB_NAME }).count(), 0);
    assert.match(await spillTabs().first().innerText(), new RegExp(`^${escape(TAB_NAME)}`));
  });

  it('after a reload, shows each restored spill once, and "Open full result" opens the restored document', async () => {
    for (let i = 0; i < 3; i++) await rerunNewest();
    await waitForCount(spillTabs(), 4, 'four spill tabs');
    await reload();
    await waitForCount(spillTabs(), 4, 'the four restored spill tabs');
    await runCommand(page, 'Scout: Show Results');
    const cards = myCards();
    await waitForCount(cards, 4, 'the four cards of the calls, kept across the reload');
    await cards.last().locator('.card-actions').getByRole('button', { name: /^Open full result/ }).click();
    await page.locator('.tabs-container .tab.active', { hasText: TAB_NAME }).waitFor();
    // The Chat view offers the active editor as context under the same name.
    await page.locator('.chat-attached-context-attachment', { hasText: TAB_NAME.slice(0, 30) }).first().waitFor({ timeout: 15_000 });
    // The restored document itself, not a new one made from the text the model saw.
    assert.equal(await spillTabs().count(), 4);
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'the-text-the-model-saw' }).count(), 0);
    await page.keyboard.press('Control+End');
    await page.locator('#status\\.editor\\.selection', { hasText: `Ln ${MANY + 4},` }).waitFor({ timeout: 10_000 });
  });

  it(`keeps the newest ${KEPT} across reloads: restored documents count against the limit`, async () => {
    // The spill the last test opened stays while an editor shows it (see the in-host spill tests).
    await openFile('README.md');
    for (let i = 0; i < KEPT; i++) await rerunNewest();
    // Every Scout document now is one of the 10 newest calls; the restored ones were released.
    await waitForCount(allScoutTabs(), KEPT, `${KEPT} Scout tabs`);
    assert.equal(await spillTabs().count(), KEPT);
    await reload();
    await waitForCount(spillTabs(), KEPT, `the ${KEPT} restored spill tabs`);
    // Give a late adoption or release time to show; the count must hold.
    await page.waitForTimeout(3_000);
    assert.equal(await allScoutTabs().count(), KEPT);
  });

  it('"Open full result" of a released result opens the text the model saw, saying the complete result is gone', async () => {
    await runCommand(page, 'Scout: Show Results');
    const oldest = myCards().last();
    await oldest.locator('.card-actions').getByRole('button', { name: /^Open full result/ }).click();
    await page.locator('.tabs-container .tab.active', { hasText: 'glob-ui-reload-many-the-text-the-model-saw-' }).waitFor();
    await page.locator('.monaco-editor .view-lines', { hasText: 'no longer kept' }).first().waitFor();
    await page.locator('.monaco-editor .view-lines', { hasText: 'docs/results.md' }).first().waitFor();
  });

  it('Close All Editors with results open asks nothing, two calls of one pattern have different tab names, and "Open full result" opens a closed one again', async () => {
    await globFromPalette();
    await globFromPalette();
    const names = await spillTabs().allInnerTexts();
    assert.ok(names.length >= 2, `${names.length} result tabs`);
    assert.equal(new Set(names.map((n) => n.trim())).size, names.length, `tab names: ${names.join(' | ')}`);
    await runCommand(page, 'View: Close All Editors');
    await waitForCount(page.locator('.tabs-container .tab'), 0, 'every tab to close');
    // No "Do you want to save" dialog: a result document is never dirty.
    await page.waitForTimeout(2_000);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'Close All Editors showed a dialog');
    // Closing lost nothing: the newest card opens its complete result again.
    await runCommand(page, 'Scout: Show Results');
    await myCards().first().locator('.card-actions').getByRole('button', { name: /^Open full result/ }).click();
    await page.locator('.tabs-container .tab.active', { hasText: TAB_NAME }).waitFor();
    await page.keyboard.press('Control+End');
    await page.locator('#status\\.editor\\.selection', { hasText: `Ln ${MANY + 4},` }).waitFor({ timeout: 10_000 });
    // Read-only: a keystroke changes nothing, and the tab never turns dirty.
    await page.keyboard.type('typed by accident');
    await page.waitForTimeout(500);
    assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0);
    await runCommand(page, 'View: Close All Editors');
    await waitForCount(page.locator('.tabs-container .tab'), 0, 'every tab to close again');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0);
  });

  // ---- helpers ------------------------------------------------------------------------------------

  function write(rel, content) {
    const file = path.join(workspace, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }

  /** Tabs of this test's result documents. */
  function spillTabs() {
    return page.locator('.tabs-container .tab', { hasText: TAB_NAME });
  }

  /** Tabs of every Scout document (any call's complete result, or a copy of the text a model saw). */
  function allScoutTabs() {
    return page.locator('.tabs-container .tab', { hasText: /^\s*(glob|grep|workspace_search|web_search|web_fetch)-\S*-\d+\.(txt|md)\b/ });
  }

  /** The panel's webview document (the inner frame of Scout's webview view). */
  function panel() {
    return page.frameLocator('iframe.webview[src*="extensionId=scout-dev.scout"]').frameLocator('iframe#active-frame');
  }

  /** This test's cards, newest first. */
  function myCards() {
    return panel().locator('article.card', { has: page.locator('.arg-value', { hasText: PATTERN }) });
  }

  /** Opens a workspace file by name with Quick Open (the Command Palette without its ">"). */
  async function openFile(name) {
    await openPalette(page);
    await page.keyboard.press('Backspace');
    await page.keyboard.type(name);
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
    await page.waitForTimeout(200);
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
  }

  async function globFromPalette() {
    const before = await myCards().count();
    await runCommand(page, 'Scout: Find Files (glob)…');
    await answerInputBox(page, 'Scout: Find Files (glob)', PATTERN);
    await waitForCount(myCards(), before + 1, 'the new card');
    await myCards().first().locator('.card-meta', { hasText: `${MANY} files` }).waitFor({ timeout: 30_000 });
  }

  /** Reruns the newest of this test's calls from its card and waits until the new call is done. */
  async function rerunNewest() {
    const before = await myCards().count();
    await myCards().first().locator('.card-actions').getByRole('button', { name: /^Rerun/ }).click();
    await waitForCount(myCards(), before + 1, 'the rerun card');
    await myCards().first().locator('.card-meta', { hasText: `${MANY} files` }).waitFor({ timeout: 30_000 });
  }

  /**
   * Reloads the window once Scout has had time to write the results to its storage, with Developer: Reload
   * Window as a person does: the workbench then saves which editors are open before it goes. A bare page
   * reload does not wait for that save in the browser, so the newest tab was sometimes not restored (its
   * result was: Scout took it back and its card opened it).
   */
  async function reload() {
    await page.waitForTimeout(3_000);
    const navigated = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 60_000 });
    await runCommand(page, 'Developer: Reload Window');
    await navigated;
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.tabs-container .tab').first().waitFor({ timeout: 60_000 });
    // A result tab is named by its URI, so the workbench shows it before the extension host is up (an
    // untitled tab waited for its text); the panel's cards mean Scout runs again, its commands included.
    await myCards().first().waitFor({ timeout: 120_000 });
  }

  async function waitForCount(locator, n, what) {
    const deadline = Date.now() + 60_000;
    let count = await locator.count();
    while (count !== n) {
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${count} instead of ${n}`);
      await page.waitForTimeout(250);
      count = await locator.count();
    }
  }
});

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
