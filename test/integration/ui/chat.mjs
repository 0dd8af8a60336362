// Driving VS Code's Chat view (agent mode, built-in Copilot Chat) from a UI test, the way a person does:
// typing prompts, answering tool questions, pressing Stop, choosing tools in the tool picker. Selectors are
// those of VS Code 1.139 (code-server 4.139.1); the chat list is virtualized, so a turn is found by the text
// of its answer, never by counting rows.
import * as assert from 'node:assert/strict';
import { runCommand } from './commandPalette.mjs';

/** @typedef {import('playwright-core').Page} Page */

/** The built-in extension that provides agent mode. */
export const COPILOT_CHAT = 'GitHub.copilot-chat';

/** The chat input's editor. @param {Page} page */
export function chatInput(page) {
  return page.locator('.interactive-input-part .monaco-editor').filter({ visible: true }).first();
}

/**
 * Turns agent mode on for a fresh profile: runs **Chat: Manage Language Models** once (which enables the
 * built-in Copilot Chat, disabled until chat setup), waits until Copilot Chat is active, then closes the
 * Language Models editor that command opens. Before Copilot Chat is active a prompt meets a "Sign in"
 * dialog, hence the wait.
 * @param {Page} page
 * @param {{ untilActive(id: string): Promise<void> }} model the test model's client
 */
export async function enableAgentMode(page, model) {
  await runCommand(page, 'Chat: Manage Language Models');
  await model.untilActive(COPILOT_CHAT);
  const languageModels = page.getByText('Install Model Providers', { exact: true }).filter({ visible: true }).first();
  await languageModels.waitFor();
  await page.keyboard.press('Escape');
  await languageModels.waitFor({ state: 'hidden' });
}

/**
 * Shows the Chat view (**Chat: Focus on Chat View**) and checks that its input is in agent mode with
 * `modelName` picked. @param {Page} page
 */
export async function focusAgentChat(page, modelName) {
  await runCommand(page, 'Chat: Focus on Chat View');
  await chatInput(page).waitFor();
  const toolbar = page.locator('.interactive-input-part').filter({ visible: true }).first();
  await toolbar.locator('a.action-label[aria-label="Agent"]').waitFor();
  await toolbar.locator(`[aria-label="Models, ${modelName}"]`).first().waitFor();
}

/** Types `text` into the chat input and sends it with Enter. @param {Page} page */
export async function ask(page, text) {
  // A pointer left where a button was (a tool question's Allow) can rest on the input's context-usage
  // indicator, whose hover then covers the input: move it away first, and close any hover. In VS Code 1.139
  // that hover (Session Info: Context Window, Reserved for response, Compact Conversation) stays after the
  // pointer leaves and Escape does not reach it; a click outside it, on an empty part of the title bar, closes
  // it. It can also open while the click is on its way, so a click it intercepts is tried again.
  await page.mouse.move(0, 0);
  await page.keyboard.press('Escape');
  const details = page.getByText(/^(Context Window|Reserved for response)$/).filter({ visible: true });
  for (let attempt = 1; ; attempt++) {
    if (await details.count()) {
      await page.mouse.click(150, 10);
      await details.first().waitFor({ state: 'hidden' });
    }
    try {
      await chatInput(page).click({ timeout: 5_000 });
      break;
    } catch (e) {
      if (attempt === 4) throw e;
    }
  }
  await page.keyboard.insertText(text);
  await page.keyboard.press('Enter');
}

/** The response of the turn whose answer contains `text` (the test model's `Answer to script <id>:`). @param {Page} page */
export function responseWith(page, text) {
  return page.locator('.interactive-response').filter({ hasText: text }).last();
}

/** The newest response in the chat. @param {Page} page */
export function latestResponse(page) {
  return page.locator('.interactive-response.chat-most-recent-response').last();
}

/** The titles of the tool invocations shown in `response`, as rendered (non-breaking spaces made plain). */
export async function toolRowTitles(response) {
  const titles = await response.locator('.chat-tool-invocation-part .chat-confirmation-widget-title .rendered-markdown').allInnerTexts();
  return titles.map((t) => t.replace(/\u00a0/g, ' ').trim());
}

/**
 * The tool question docked above the chat input. (A hidden copy of it also sits in the response list,
 * so only the visible one counts.) @param {Page} page
 */
export function toolQuestion(page) {
  return page.locator('.chat-tool-confirmation-carousel').filter({ visible: true }).first();
}

/** Clicks `label` ("Allow in this Session", "Skip") on the visible tool question. @param {Page} page */
export async function answerToolQuestion(page, label) {
  const question = toolQuestion(page);
  await question.locator('a.monaco-button', { hasText: new RegExp(`^\\s*${label}\\s*$`) }).filter({ visible: true }).first().click();
  await question.waitFor({ state: 'hidden' });
}

/** Presses the chat's Stop button (shown in place of Send while a request runs: "Cancel"). @param {Page} page */
export async function pressStop(page) {
  const stop = page.locator('.interactive-input-part a.action-label[aria-label^="Cancel"]').filter({ visible: true }).first();
  await stop.click();
  await stop.waitFor({ state: 'hidden' });
}

/**
 * Opens the tool picker (**Configure Tools…** in the chat input), sets the checkbox of each Scout tool
 * named in `choice` (by its `toolReferenceName`: glob, grep, workspaceSearch, webSearch, webFetch), and
 * accepts with OK. The picker's choice applies to every agent-mode session.
 * @param {Page} page
 * @param {Record<string, boolean>} choice
 */
export async function pickScoutTools(page, choice) {
  await page.locator('.interactive-input-part a.action-label[aria-label="Configure Tools..."]').filter({ visible: true }).first().click();
  const picker = page.locator('.quick-input-widget').filter({ visible: true });
  const group = picker.locator('.monaco-list-row[aria-level="1"]', { hasText: /^Scout\b/ }).first();
  await group.waitFor();
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.locator('.monaco-tl-twistie').click();
  for (const [name, enabled] of Object.entries(choice)) {
    const row = picker.locator(`.monaco-list-row[aria-level="2"][aria-label^="${name}, "]`);
    await row.waitFor();
    if ((await row.getAttribute('aria-checked')) !== String(enabled)) await row.locator('.monaco-checkbox').click();
    assert.equal(await row.getAttribute('aria-checked'), String(enabled), `the tool picker did not ${enabled ? 'check' : 'uncheck'} ${name}`);
  }
  await picker.locator('.monaco-button', { hasText: /^OK$/ }).click();
  await picker.waitFor({ state: 'hidden' });
}
