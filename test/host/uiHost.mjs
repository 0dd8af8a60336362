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
import { isDeepStrictEqual } from 'node:util';

/**
 * `userDataDir` is code-server's --user-data-dir: a UI test may rewrite its Machine/settings.json (the
 * remote settings, where machine-scoped ones live) to reconfigure the running editor; restore it after.
 * `resultsDir` is where the test extension writes its reports and its view of the settings.
 * @typedef {{ page: import('playwright-core').Page, baseUrl: string, folder: string, userDataDir: string, resultsDir: string, workbenchUrl: (folderOrWorkspaceFile?: string) => string }} UiHost
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
 * Adds `values` (full setting ids such as `scout.webSearch.provider`) to code-server's Machine/settings.json
 * (the remote settings, which override user settings and are the only place the remote extension host reads
 * machine-scoped ones from), then waits until the extension host of the folder window sees them.
 * @returns a function that restores the file and waits until the host sees the old values again
 * @param {Record<string, unknown>} values
 */
export async function editMachineSettings(values) {
  const file = path.join(uiHost().userDataDir, 'Machine', 'settings.json');
  const original = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const before = hostSettings();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...(original ? JSON.parse(original) : {}), ...values }, null, 2)}\n`);
  await untilHostSees(values);
  return async () => {
    if (original === undefined) rmSync(file, { force: true });
    else writeFileSync(file, original);
    await untilHostSees(Object.fromEntries(Object.keys(values).map((id) => [id, settingIn(before, id)])));
  };
}

/** The `scout.*` settings the folder window's extension host last reported (test/integration/extension.ts). */
function hostSettings() {
  return JSON.parse(readFileSync(path.join(uiHost().resultsDir, 'settings-folder.json'), 'utf8'));
}

/** The value of setting `id` (`scout.section.key`) in a {@link hostSettings} snapshot. */
function settingIn(snapshot, id) {
  return id.split('.').slice(1).reduce((v, k) => (v === undefined || v === null ? undefined : v[k]), snapshot);
}

/** Polls the host's settings snapshot until each setting of `values` has its value there (10 s at most). */
async function untilHostSees(values) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const seen = hostSettings();
    if (Object.entries(values).every(([id, v]) => isDeepStrictEqual(settingIn(seen, id), v))) return;
    if (Date.now() > deadline) throw new Error(`the extension host did not pick up ${JSON.stringify(values)} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
