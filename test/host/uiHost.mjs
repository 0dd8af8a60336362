// The running editor, for browser-side UI tests (test/integration/ui/*.ui.mjs). runIntegration.mjs sets it
// before it loads those files with mocha; a UI test reads it in its hooks:
//
//   import { uiHost } from '../../host/uiHost.mjs';
//   it('…', async () => { const { page } = uiHost(); await page.keyboard.press('F1'); … });
//
// `page` is the playwright-core Page showing the workbench with the fixture folder open (after the in-host
// suites have run in it).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * `userDataDir` is code-server's --user-data-dir: a UI test may rewrite its Machine/settings.json (the
 * remote settings, where machine-scoped ones live) to reconfigure the running editor; restore it after.
 * @typedef {{ page: import('playwright-core').Page, baseUrl: string, folder: string, userDataDir: string, workbenchUrl: (folderOrWorkspaceFile?: string) => string }} UiHost
 */

/** @type {UiHost | undefined} */
let current;

/** @param {UiHost} host */
export function setUiHost(host) {
  current = host;
}

/** @returns {UiHost} the running editor. @throws Error outside a run of runIntegration.mjs */
export function uiHost() {
  if (!current) throw new Error('uiHost() is only available in UI tests run by test/host/runIntegration.mjs');
  return current;
}

/**
 * Adds `values` to code-server's Machine/settings.json (the remote settings, which override user settings
 * and are the only place the remote extension host reads machine-scoped ones from); code-server reloads the
 * file within a second or two. @returns a function that restores the file
 * @param {Record<string, unknown>} values
 */
export function editMachineSettings(values) {
  const file = path.join(uiHost().userDataDir, 'Machine', 'settings.json');
  const original = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...(original ? JSON.parse(original) : {}), ...values }, null, 2)}\n`);
  return () => (original === undefined ? rmSync(file, { force: true }) : writeFileSync(file, original));
}
