import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { fixture, invokeText } from '../support';

// Runs first (files run in name order): nothing has activated Scout yet.
describe('activation', () => {
  it('Scout starts on its first tool call (implicit onLanguageModelTool activation)', async () => {
    const extension = vscode.extensions.getExtension('scout-dev.scout');
    assert.ok(extension, 'Scout is not installed');
    assert.equal(extension.isActive, false, 'Scout was active before any tool call');
    const fx = await fixture();
    assert.equal(await invokeText('glob', { pattern: 'README.md' }), `README.md\n\nPaths are relative to ${fx.workdir}.`);
    assert.equal(extension.isActive, true);
  });
});
