import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MAX_SPILL_DOCUMENTS } from '../../../src/vscode/spill';
import { fixture, invokeText, MANY_FILES, scoutApi, spillUriOf, waitFor, type Fixture } from '../support';

/** The tabs showing `uri`. */
const tabsOf = (uri: vscode.Uri) =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());

describe('over-cap results (spill)', () => {
  let fx: Fixture;
  const made: vscode.Uri[] = [];
  before(async () => {
    await scoutApi();
    fx = await fixture();
  });
  after(async () => {
    // Leave the workbench clean for the UI tests: no unsaved spill tabs.
    await (await scoutApi()).releaseSpills();
    await waitFor(() => made.every((u) => tabsOf(u).length === 0), 30_000, 'the spill tabs to close');
  });
  const manyList = Array.from({ length: MANY_FILES }, (_, i) => `many/part-${String(i).padStart(3, '0')}.txt`);
  const globMany = async () => {
    const text = await invokeText('glob', { pattern: '*.txt', path: 'many' });
    made.push(spillUriOf(text));
    return text;
  };

  it('a glob over the cap shows 100 files and saves the complete list in an untitled document', async () => {
    const text = await globMany();
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 100), manyList.slice(0, 100));
    assert.match(text, /\[50 more files not shown/);
    assert.ok(text.endsWith(`Paths are relative to ${fx.workdir}.`));

    const uri = spillUriOf(text);
    assert.equal(uri.scheme, 'untitled');
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    assert.ok(document, `no open document has the URI ${uri.toString()}`);
    assert.equal(document.isUntitled, true);
    assert.equal(document.getText(), `Scout glob "*.txt" in "many": ${MANY_FILES} files, complete result\n\n${manyList.join('\n')}\n\nPaths are relative to ${fx.workdir}.`);
    // The URI is readable the way the footer says.
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), document.getText());
  });

  it(`keeps the newest ${MAX_SPILL_DOCUMENTS} spill documents; older ones are emptied and their tabs closed`, async () => {
    for (let i = 0; i < MAX_SPILL_DOCUMENTS; i++) await globMany();
    assert.equal(new Set(made.map(String)).size, made.length, 'each call made its own document');
    const [oldest, ...kept] = made;
    assert.equal((await vscode.workspace.openTextDocument(oldest!)).getText(), '', 'the oldest spill document still holds its result');
    await waitFor(() => tabsOf(oldest!).length === 0, 30_000, "the released document's tab to close");
    for (const uri of kept) assert.equal((await vscode.workspace.openTextDocument(uri)).getText().split('\n').length, MANY_FILES + 4);
  });
});
