// Driving the workbench's Command Palette and notifications from a UI test (playwright-core Page), the way a
// person does: F1, type, pick, answer input boxes.

import * as assert from 'node:assert/strict';

/**
 * Opens the Command Palette with F1 and waits until it has the keyboard. The workbench can take focus back
 * right after (a view restoring its focus closes the palette), so it tries again a few times.
 * @param {import('playwright-core').Page} page
 */
export async function openPalette(page) {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const focused = await page
      .waitForFunction(() => document.activeElement?.matches('.quick-input-widget input') && document.activeElement.checkVisibility(), null, { timeout: 10_000 })
      .then(() => true, () => false);
    if (focused) {
      await page.waitForTimeout(100);
      if (await page.locator('.quick-input-widget input:focus').isVisible()) return;
    }
    if (attempt === 3) assert.fail('the Command Palette did not take the keyboard');
    await page.keyboard.press('Escape');
  }
}

/**
 * Accepts the quick-pick row whose label is exactly `label`, once the list has filtered down to the typed
 * text (the row is the first one): Enter when it is focused, a click otherwise.
 * @param {import('playwright-core').Page} page
 * @param {string} label
 */
export async function pickRow(page, label) {
  const exact = page.locator('.label-name', { hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) });
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ has: exact }).first();
  await row.waitFor();
  await page.waitForTimeout(200); // let the list settle after the last keystroke
  if (await row.evaluate((el) => el.classList.contains('focused'))) await page.keyboard.press('Enter');
  else await row.click();
}

/**
 * Runs a command from the Command Palette: types its title (`Category: Title`) and picks that entry.
 * @param {import('playwright-core').Page} page
 * @param {string} title
 */
export async function runCommand(page, title) {
  await openPalette(page);
  await page.keyboard.type(title);
  await pickRow(page, title);
}

/**
 * Types `text` into the input box titled `title` and accepts it.
 * @param {import('playwright-core').Page} page
 */
export async function answerInputBox(page, title, text) {
  await page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor();
  await page.keyboard.type(text);
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
}

/**
 * Waits for a notification toast containing `text`, then clears it. @returns its message text
 * @param {import('playwright-core').Page} page
 */
export async function takeNotification(page, text) {
  const toast = page.locator('.notification-toast', { hasText: text });
  await toast.waitFor();
  const message = await toast.locator('.notification-list-item-message').innerText();
  await toast.hover();
  await toast.locator('.codicon-notifications-clear').click();
  await toast.waitFor({ state: 'hidden' });
  return message;
}
