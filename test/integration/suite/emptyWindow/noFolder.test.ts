import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeText, scoutApi } from '../../support';

describe('with no folder open', () => {
  before(async () => {
    await scoutApi();
    assert.equal(vscode.workspace.workspaceFolders, undefined, 'this window has a folder open');
  });

  for (const [tool, input] of [
    ['glob', { pattern: '*' }],
    ['grep', { pattern: 'x' }],
  ] as const) {
    it(`${tool} answers with a clear NO_WORKSPACE error`, async () => {
      const text = await invokeText(tool, input);
      assert.match(text, /^Error: No workspace folder is open\. Open a folder/);
      assert.match(text, /\(code: NO_WORKSPACE\)$/);
    });
  }
});
