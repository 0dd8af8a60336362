// What a Scout Results card offers a person, in the real editor: a glob card lists exactly the page the model
// got (compared with the model's text, copied with the card's Copy button), Copy says "Copied", a long line is
// a window on its matches with each one highlighted, and an error card puts a one-line summary above the
// model's text and, when a web search key is missing, a "Set API key" button. Also checks what the README says
// about machine-scoped settings in code-server's Settings editor.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { editMachineSettings, uiHost } from '../../host/uiHost.mjs';
import { runCommand } from './commandPalette.mjs';
import { runToCard } from './panelPage.mjs';

/** Top-level folders of the glob tree and their files: the oldest 150 under one folder, as in a real tree. */
const GROUPS = { 'uipage-old': 150, 'uipage-mid': 30, 'uipage-new': 30 };
const TOTAL = Object.values(GROUPS).reduce((a, b) => a + b, 0);
/** scout.search.globMaxResults's default: the size of the model's page. */
const PAGE = 100;

describe('Scout Results panel: what a card offers', function () {
  this.timeout(120_000);
  /** @type {import('playwright-core').Page} */
  let page;
  let workspace;
  let restoreSettings;

  before(async () => {
    ({ page, folder: workspace } = uiHost());
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    let second = 1_600_000_000;
    for (const [dir, files] of Object.entries(GROUPS)) {
      for (let i = 0; i < files; i++) {
        const file = path.join(workspace, dir, `pagecheck-${String(i).padStart(3, '0')}.txt`);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, 'x\n');
        utimesSync(file, second, second);
        second += 60;
      }
    }
  });

  after(async () => {
    await page.keyboard.press('Escape');
    await restoreSettings?.();
    for (const dir of Object.keys(GROUPS)) rmSync(path.join(workspace, dir), { recursive: true, force: true });
  });

  it('lists exactly the page the model got on a glob card, and Copy says it copied the model’s text', async () => {
    const card = await runToCard(page, 'Scout: Find Files (glob)…', [['Scout: Find Files (glob)', 'pagecheck-*.txt']]);
    await card.locator('.count', { hasText: `${TOTAL} files found` }).waitFor();
    const copy = card.locator('.card-actions').getByRole('button', { name: /^Copy/ });
    await copy.click();
    await copy.filter({ hasText: 'Copied' }).waitFor();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    const modelPage = text.slice(0, text.indexOf('\n\n')).split('\n');
    assert.equal(modelPage.length, PAGE, text.slice(0, 500));
    // The model's page is a sample across the three folders (the head would be uipage-old only) …
    for (const dir of Object.keys(GROUPS)) assert.ok(modelPage.some((p) => p.startsWith(`${dir}/`)), `the page reaches ${dir}`);
    // … and the card lists exactly it, in its order, then counts what only the full result holds.
    assert.deepEqual(await card.locator('.file-row .path').allInnerTexts(), modelPage);
    await card.locator('.more', { hasText: `${TOTAL - PAGE} more files in the full result` }).waitFor();
    // "Copied" goes back to "Copy" after a moment.
    await copy.filter({ hasText: /^\s*Copy\s*$/ }).waitFor({ timeout: 10_000 });
  });

  it('shows a long line as a window on its matches, every match highlighted and in view, in grep and workspace_search cards', async () => {
    const line = `${'let padding = "filler text"; '.repeat(10)}find needle here, then needle again${' // trailing comment'.repeat(30)}`;
    assert.ok(line.indexOf('needle') > 250);
    writeFileSync(path.join(workspace, 'uipage-old', 'long-line.ts'), `needle first\n${line}\n`);
    const grep = await runToCard(page, 'Scout: Search Text (grep)…', [['Scout: Search Text (grep) (1/2)', 'needle'], ['Scout: Search Text (grep) (2/2)', 'uipage-old/**']]);
    const literal = await runToCard(page, 'Scout: Search Workspace (literal)…', [['Scout: Search Workspace (literal) (1/2)', 'NEEDLE'], ['Scout: Search Workspace (literal) (2/2)', 'uipage-old']]);
    for (const card of [grep, literal]) {
      const row = card.locator('.line-row').nth(1);
      const preview = await row.locator('.preview').innerText();
      assert.ok(preview.startsWith('…') && preview.endsWith('…'), preview);
      assert.deepEqual(await row.locator('mark').allInnerTexts(), ['needle', 'needle']);
      // The first match is inside the row's visible box, however far into the line it is.
      const [rowBox, markBox] = [await row.boundingBox(), await row.locator('mark').first().boundingBox()];
      assert.ok(rowBox && markBox && markBox.x >= rowBox.x && markBox.x + markBox.width <= rowBox.x + rowBox.width, `the match is outside the row: ${JSON.stringify({ rowBox, markBox })}`);
    }
  });

  it('gives an error card a summary above the model’s text, and a web search without a key a Set API key button', async () => {
    // Exa needs a key, and no test stores one.
    restoreSettings = await editMachineSettings({ 'scout.webSearch.provider': 'exa' });
    const card = await runToCard(page, 'Scout: Web Search…', [['Scout: Web Search', 'needs a key']], 'Error');
    const summary = card.locator('.error-summary');
    assert.equal(await summary.innerText(), 'Web search needs a valid API key for its provider.');
    const message = card.locator('.error-message');
    assert.match(await message.innerText(), /Exa .*Scout has none\. Store a valid key with the command "Scout: Set Web Search API Key"/);
    const [summaryBox, messageBox] = [await summary.boundingBox(), await message.boundingBox()];
    assert.ok(summaryBox && messageBox && summaryBox.y + summaryBox.height <= messageBox.y, 'the summary is above the model’s text');
    assert.match(await card.getAttribute('aria-label'), /\. Web search needs a valid API key for its provider\.$/);

    await card.getByRole('button', { name: 'Set API key (web_search)' }).click();
    // The command opens straight at the configured provider's password box.
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Scout: Exa API key' }).waitFor();
    assert.equal(await page.locator('.quick-input-widget input').getAttribute('type'), 'password');
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await restoreSettings();
    restoreSettings = undefined;
  });

  it('shows machine-scoped settings under the Remote tab of the Settings editor, as the README says', async () => {
    await runCommand(page, 'Preferences: Open Settings (UI)');
    const editor = page.locator('.settings-editor');
    await editor.waitFor();
    // The search box has the keyboard when the editor opens.
    await page.keyboard.type('scout.webFetch.allowedPrivateHosts');
    const tabs = editor.locator('.settings-tabs-widget .action-label');
    await tabs.filter({ hasText: /^User$/ }).click();
    await editor.getByText('No Settings Found').first().waitFor();
    await tabs.filter({ hasText: /^Remote \[/ }).click();
    await editor.locator('.setting-item-contents', { hasText: 'Allowed Private Hosts' }).first().waitFor();
    for (let i = 0; i < 3 && (await editor.isVisible()); i++) {
      await page.keyboard.press('Escape');
      await page.waitForTimeout(300);
    }
    if (await editor.isVisible()) await runCommand(page, 'View: Close Editor');
    await editor.waitFor({ state: 'hidden' });
  });
});
