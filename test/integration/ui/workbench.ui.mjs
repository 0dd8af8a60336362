import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { uiHost } from '../../host/uiHost.mjs';

describe('the workbench in Chromium', () => {
  it('shows the fixture folder in the Explorer', async () => {
    const { page, folder } = uiHost();
    await page.keyboard.press('Control+Shift+E');
    const explorer = page.locator('.explorer-folders-view');
    await explorer.waitFor({ state: 'visible', timeout: 30_000 });
    await explorer.getByText('README.md', { exact: true }).waitFor({ timeout: 30_000 });
    assert.match(await page.title(), new RegExp(path.basename(folder)));
  });
});
