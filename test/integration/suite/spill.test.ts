import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MAX_SPILL_DOCUMENTS } from '../../../src/vscode/spill';
import { fixture, invokeText, MANY_FILES, scoutApi, spillUriOf, waitFor, type Fixture } from '../support';

/** The tabs showing `uri`. */
const tabsOf = (uri: vscode.Uri) =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());

/** ms the workbench may take to open the tab of a new unsaved document (it waits 0.8 s) under load. */
const TAB_WAIT_MS = 15_000;

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
  // The heading, a blank line, the files, a blank line and the workdir note.
  const heading = `Scout glob "*.txt" in "many": ${MANY_FILES} files, complete result, ${MANY_FILES + 4} lines`;
  const globMany = async () => {
    const text = await invokeText('glob', { pattern: '*.txt', path: 'many' });
    made.push(spillUriOf(text));
    return text;
  };

  it('a glob over the cap shows 100 files and saves the complete list, headed by what it is, in an untitled document', async () => {
    const text = await globMany();
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 100), manyList.slice(0, 100));
    assert.match(text, /\[50 more files not shown/);
    assert.ok(text.endsWith(`Paths are relative to ${fx.workdir}.`));

    const uri = spillUriOf(text);
    assert.equal(uri.scheme, 'untitled');
    // VS Code reuses a released document's untitled name, so the footer says what the document must start with.
    assert.ok(text.includes(`Its first line is: ${heading}. If what you read starts otherwise or is empty, Scout has released this result`), text.slice(-700));
    // The text is in the extension host's copy of the document as soon as the call has returned.
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    assert.ok(document, `no open document has the URI ${uri.toString()}`);
    assert.equal(document.isUntitled, true);
    assert.equal(document.getText(), `${heading}\n\n${manyList.join('\n')}\n\nPaths are relative to ${fx.workdir}.`);
    // The URI is readable the way the footer says.
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), document.getText());
    // VS Code names the tab (and a save prompt, and a chat attachment) after the first line, cut to 40 characters.
    const tab = await waitFor(() => tabsOf(uri)[0], TAB_WAIT_MS, 'the spill document’s tab');
    assert.equal(tab.label, heading.slice(0, 40));
  });

  it('never becomes the active editor while one is open, and takes no focus', async () => {
    const file = await vscode.workspace.openTextDocument(path.join(fx.root, 'src', 'app.ts'));
    const editor = await vscode.window.showTextDocument(file, { preview: false });
    const text = await globMany();
    const uri = spillUriOf(text);
    const tab = await waitFor(() => tabsOf(uri)[0], TAB_WAIT_MS, 'the spill document’s tab');
    assert.equal(tab.isActive, false);
    assert.equal(tab.isPreview, false);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), file.uri.toString());
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, path.basename(file.fileName));
    assert.equal(editor.document, file);
  });

  it(`keeps the newest ${MAX_SPILL_DOCUMENTS} spill documents; older ones are emptied and their tabs closed`, async () => {
    for (let i = 0; i < MAX_SPILL_DOCUMENTS; i++) await globMany();
    assert.equal(new Set(made.map(String)).size, made.length, 'each call made its own document');
    const kept = made.slice(-MAX_SPILL_DOCUMENTS);
    const released = made.slice(0, -MAX_SPILL_DOCUMENTS);
    // Released in the background, after the calls have returned.
    for (const uri of released) {
      const document = await vscode.workspace.openTextDocument(uri);
      await waitFor(() => document.getText() === '', 30_000, `${uri.toString()} to be emptied`);
      await waitFor(() => tabsOf(uri).length === 0, 30_000, "the released document's tab to close");
    }
    for (const uri of kept) assert.equal((await vscode.workspace.openTextDocument(uri)).getText().split('\n').length, MANY_FILES + 4);
    // VS Code reuses a freed untitled URI for a later document, so a released call's record must stop naming
    // its document (it happened: "Open full result" of an old call opened a newer call's result).
    const newestFirst = (await scoutApi()).runs();
    const oldestFirst = [...newestFirst].reverse();
    for (const uri of released) {
      // The oldest call that got this URI is the released one (a later call may have been given it again).
      const record = oldestFirst.find((r) => r.spillUri === uri.toString());
      assert.ok(record, `the run of ${uri.toString()}`);
      assert.equal(record.spillTitle, undefined, `the released run of ${uri.toString()} still names its document`);
    }
    for (const uri of kept) assert.ok(newestFirst.find((r) => r.spillUri === uri.toString())?.spillTitle, `the kept run of ${uri.toString()} lost its document`);
  });

  it('never releases a spill document an editor shows (another spill took the active editor): the next oldest goes, and it goes in turn once hidden', async () => {
    const documentOf = (text: string) => {
      const uri = spillUriOf(text);
      return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())!;
    };
    const shown = documentOf(await globMany());
    await vscode.window.showTextDocument(shown, { preview: false });
    const next = documentOf(await globMany());
    for (let i = 1; i < MAX_SPILL_DOCUMENTS; i++) await globMany();
    // Eleven documents since the shown one: the one after it is the oldest an editor does not show.
    await waitFor(() => next.getText() === '', 30_000, 'the next oldest document to be released');
    assert.ok(shown.getText().startsWith(`${heading}\n`), 'the shown document keeps its result');
    assert.equal(vscode.window.activeTextEditor?.document, shown);
    // Once no editor shows it, it is the oldest, and the next result over the limit releases it.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(fx.root, 'src', 'app.ts')), { preview: false });
    await globMany();
    await waitFor(() => shown.getText() === '', 30_000, 'the hidden document to be released');
  });

  /** Empties a document the test made dirty (so it is clean), then closes its tabs: nothing asks to save. */
  const discard = async (document: vscode.TextDocument) => {
    const edit = new vscode.WorkspaceEdit();
    edit.delete(document.uri, new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end));
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => tabsOf(document.uri).every((t) => !t.isDirty), 30_000, 'the emptied document’s tab to be clean');
    await vscode.window.tabGroups.close(tabsOf(document.uri), true);
  };

  it('never takes, releases or clears a person’s untitled document that starts like a Scout heading (tester: a copied result was deleted)', async () => {
    // A person keeps a result by pasting it into a new untitled document, with notes below.
    const mine = await vscode.workspace.openTextDocument({ content: `${heading}\n\nMY NOTES: do not lose\n` });
    await vscode.window.showTextDocument(mine, { preview: false });
    await (await scoutApi()).adoptRestored();
    // More spills than Scout keeps: a document it had taken would be the oldest, and released.
    const first = spillUriOf(await globMany());
    for (let i = 0; i < MAX_SPILL_DOCUMENTS; i++) await globMany();
    const firstDocument = await vscode.workspace.openTextDocument(first);
    await waitFor(() => firstDocument.getText() === '', 30_000, 'the oldest spill of this test to be released');
    await vscode.commands.executeCommand('scout.clearResults');
    await waitFor(() => made.every((u) => tabsOf(u).length === 0), 30_000, 'Clear Results to close the spill tabs');
    assert.equal(mine.getText(), `${heading}\n\nMY NOTES: do not lose\n`);
    assert.equal(mine.isClosed, false);
    await discard(mine);
  });

  it('leaves a spill document someone edited open and untouched, through the retention limit and Clear Results (tester: notes added to a result were deleted)', async () => {
    const edited = await vscode.workspace.openTextDocument(spillUriOf(await globMany()));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(edited.uri, new vscode.Position(edited.lineCount, 0), '\nMY OWN NOTE\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    // Eleven more: the edited one is the oldest twice over; releases run oldest first, so once the next one
    // is emptied, the edited one has been passed over.
    const next = await vscode.workspace.openTextDocument(spillUriOf(await globMany()));
    for (let i = 0; i < MAX_SPILL_DOCUMENTS; i++) await globMany();
    await waitFor(() => next.getText() === '', 30_000, 'the spill after the edited one to be released');
    assert.ok(edited.getText().startsWith(`${heading}\n`) && edited.getText().endsWith('\nMY OWN NOTE\n'), edited.getText().slice(-200));
    await vscode.commands.executeCommand('scout.clearResults');
    await waitFor(() => made.filter((u) => u.toString() !== edited.uri.toString()).every((u) => tabsOf(u).length === 0), 30_000, 'Clear Results to close the other spill tabs');
    assert.ok(edited.getText().endsWith('\nMY OWN NOTE\n'), 'Clear Results left it too');
    await discard(edited);
  });

  it('Scout: Clear Results releases every spill document and closes its tab, the one an editor shows too', async () => {
    const texts = [await globMany(), await globMany()];
    const uris = texts.map(spillUriOf);
    const documents = uris.map((u) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString())!);
    await waitFor(() => uris.every((u) => tabsOf(u).length === 1), TAB_WAIT_MS, 'the spill tabs');
    await vscode.window.showTextDocument(documents[1]!, { preview: false });
    await vscode.commands.executeCommand('scout.clearResults');
    await waitFor(() => documents.every((d) => d.getText() === ''), 30_000, 'the spill documents to be emptied');
    await waitFor(() => uris.every((u) => tabsOf(u).length === 0), 30_000, 'the spill tabs to close');
    assert.deepEqual((await scoutApi()).runs().filter((r) => r.status !== 'running'), []);
  });
});
