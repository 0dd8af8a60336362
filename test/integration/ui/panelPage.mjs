// The Scout Results panel as the UI tests see it: its webview document, its cards, and the workbench state
// around it (colour theme, active tab, selection). Shared by the resultsPanel*.ui.mjs files.
import * as assert from 'node:assert/strict';
import { answerInputBox, pickRow, runCommand } from './commandPalette.mjs';

/**
 * The panel's webview document (the inner frame of Scout's webview view).
 * @param {import('playwright-core').Page} page
 */
export function panel(page) {
  return page.frameLocator('iframe.webview[src*="extensionId=scout-dev.scout"]').frameLocator('iframe#active-frame');
}

/** The `i`-th card, newest first. */
export function cardNumber(page, i) {
  return panel(page).locator('article.card').nth(i);
}

export async function cardCount(page) {
  return panel(page).locator('article.card').count();
}

/**
 * The newest card, once a card that was not there before heads the list. `before` is what {@link cardIds}
 * gave before the call (the panel keeps 50 cards, so a count may not grow).
 */
export async function newCard(page, before) {
  const known = new Set(before);
  await waitUntil(async () => {
    const [first] = await cardIds(page);
    return first !== undefined && !known.has(first);
  }, 30_000, 'a new card');
  return cardNumber(page, 0);
}

/**
 * Runs a Scout command from the Command Palette, answering its input boxes (`[title, text]` pairs), and
 * waits until its card shows `status`. @returns the card
 * @param {import('playwright-core').Page} page
 * @param {string} command
 * @param {readonly (readonly [string, string])[]} answers
 */
export async function runToCard(page, command, answers, status = 'Done') {
  const before = await cardIds(page);
  await runCommand(page, command);
  for (const [title, text] of answers) await answerInputBox(page, title, text);
  const card = await newCard(page, before);
  await card.locator('.card-meta .status', { hasText: status }).waitFor({ timeout: 30_000 });
  return card;
}

/**
 * How each built-in theme marks the workbench (its root class) and the panel's webview (`data-vscode-theme-kind`
 * on its body).
 */
export const THEMES = {
  'Dark Modern': { workbench: 'vs-dark', webview: 'vscode-dark' },
  'Light Modern': { workbench: 'vs', webview: 'vscode-light' },
  'Dark High Contrast': { workbench: 'hc-black', webview: 'vscode-high-contrast' },
  'Light High Contrast': { workbench: 'hc-light', webview: 'vscode-high-contrast-light' },
};

/**
 * Picks a colour theme with Preferences: Color Theme and waits until the workbench and the panel use it.
 * @param {import('playwright-core').Page} page
 * @param {keyof typeof THEMES} theme
 */
export async function setColorTheme(page, theme) {
  await runCommand(page, 'Preferences: Color Theme');
  await page.locator('.quick-input-widget input[placeholder^="Select Color Theme"]').waitFor();
  await page.keyboard.type(theme);
  await pickRow(page, theme);
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  const workbench = page.locator(`.monaco-workbench.${THEMES[theme].workbench}`);
  await workbench.waitFor();
  await panel(page).locator(`body[data-vscode-theme-kind="${THEMES[theme].webview}"][data-vscode-theme-name="${theme}"]`).waitFor();
  await page.waitForTimeout(500);
  assert.equal(await workbench.count(), 1, `the ${theme} theme stayed on`);
}

/** Waits until the active editor tab's label contains `name`. */
export async function activeTab(page, name) {
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
}

/** Waits until the status bar's selection item contains `text` (e.g. `Ln 4, Col 17 (6 selected)`). */
export async function selectionStatus(page, text) {
  await page.locator('#status\\.editor\\.selection', { hasText: text }).waitFor({ timeout: 30_000 });
}

/**
 * What has the keyboard inside the panel: `undefined` when the panel's document does not have the focus,
 * else the focused element's tag, classes, `data-id` of its card and accessible label.
 * @returns {Promise<{tag: string, classes: string[], cardId?: string, label?: string} | undefined>}
 */
export async function panelFocus(page) {
  return panel(page)
    .locator('body')
    .evaluate(() => {
      if (!document.hasFocus()) return undefined;
      const el = /** @type {HTMLElement} */ (document.activeElement);
      const card = /** @type {HTMLElement | null} */ (el.closest('.card'));
      return { tag: el.tagName.toLowerCase(), classes: [...el.classList], cardId: card?.dataset.id, label: el.getAttribute('aria-label') ?? undefined };
    });
}

/** The run ids of the cards, newest first. */
export async function cardIds(page) {
  return panel(page)
    .locator('article.card')
    .evaluateAll((cards) => cards.map((c) => /** @type {HTMLElement} */ (c).dataset.id));
}

/** Polls `probe` (sync or async) until it is truthy, failing after `timeoutMs`. */
export async function waitUntil(probe, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
