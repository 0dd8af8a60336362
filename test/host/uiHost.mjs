// The running editor, for browser-side UI tests (test/integration/ui/*.ui.mjs). runIntegration.mjs sets it
// before it loads those files with mocha; a UI test reads it in its hooks:
//
//   import { uiHost } from '../../host/uiHost.mjs';
//   it('…', async () => { const { page } = uiHost(); await page.keyboard.press('F1'); … });
//
// `page` is the playwright-core Page showing the workbench with the fixture folder open (after the in-host
// suites have run in it).

/** @typedef {{ page: import('playwright-core').Page, baseUrl: string, folder: string, workbenchUrl: (folderOrWorkspaceFile?: string) => string }} UiHost */

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
