import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MAX_SPILL_DOCUMENTS } from '../../../src/vscode/spill';
import { fixture, invokeText, MANY_FILES, scoutApi, spillUriOf, waitFor, type Fixture } from '../support';

/** The tabs showing `uri`. */
const tabsOf = (uri: vscode.Uri) =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());

/** ms the workbench may take to report a result's tab under load. */
const TAB_WAIT_MS = 15_000;

describe('over-cap results (spill)', () => {
  let fx: Fixture;
  const made: vscode.Uri[] = [];
  before(async () => {
    await scoutApi();
    fx = await fixture();
  });
  after(async () => {
    // Leave the workbench clean for the UI tests: no result tabs.
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

  /** The text at `uri` as a reader gets it, or the error that reading it raised. */
  const readBack = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  const gone = async (uri: vscode.Uri) => {
    try {
      await vscode.workspace.fs.readFile(uri);
      return false;
    } catch (e) {
      return e instanceof vscode.FileSystemError && e.code === 'FileNotFound';
    }
  };

  /** Waits (up to 30 s) until reading `uri` fails with FileNotFound: Scout has released the result. */
  const untilGone = async (uri: vscode.Uri, what: string) => {
    const deadline = Date.now() + 30_000;
    while (!(await gone(uri))) {
      if (Date.now() > deadline) assert.fail(`timed out after 30000 ms waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('a glob over the cap shows 100 files and saves the complete list, headed by what it is, in a read-only scout-result: document named after the call', async () => {
    const text = await globMany();
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 100), manyList.slice(0, 100));
    assert.match(text, /\[50 more files not shown/);
    assert.ok(text.endsWith(`Paths are relative to ${fx.workdir}.`));

    const uri = spillUriOf(text);
    assert.equal(uri.scheme, 'scout-result');
    assert.match(uri.path, /^\/glob-txt-150-files-\d+\.txt$/);
    assert.ok(text.includes('It is a read-only editor document, not a file on disk: read it by passing this URI to your file-reading tool'), text.slice(-700));
    assert.ok(text.includes('If it cannot be read, Scout has released this result (it keeps the 10 newest): run the call again.'), text.slice(-700));
    // The URI is readable the way the footer says, as soon as the call has returned.
    const complete = `${heading}\n\n${manyList.join('\n')}\n\nPaths are relative to ${fx.workdir}.`;
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), complete);
    assert.equal(await readBack(uri), complete);
    // Read-only: its file system refuses every write (the editor refuses a person's typing: see the UI test
    // spillReload.ui.mjs), so its document is never dirty, and closing it never asks to save.
    assert.equal(vscode.workspace.fs.isWritableFileSystem('scout-result'), false);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('mine'))));
    assert.equal(await readBack(uri), complete);
    assert.equal(document.isDirty, false);
    // Its tab is named after the call (the file name), and opened by the time the call returns.
    const tab = tabsOf(uri)[0];
    assert.ok(tab, 'the result has no tab');
    assert.equal(tab.label, uri.path.slice(1));
    assert.equal(tab.isDirty, false);
  });

  it('gives two calls of the same pattern different names (a call number)', async () => {
    const [a, b] = [spillUriOf(await globMany()), spillUriOf(await globMany())];
    assert.notEqual(a.toString(), b.toString());
    const number = (u: vscode.Uri) => Number(/-(\d+)\.txt$/.exec(u.path)?.[1]);
    assert.equal(number(b), number(a) + 1);
    assert.notEqual(tabsOf(a)[0]?.label, tabsOf(b)[0]?.label);
  });

  it('never becomes the active editor while one is open, and takes no focus', async () => {
    const file = await vscode.workspace.openTextDocument(path.join(fx.root, 'src', 'app.ts'));
    const editor = await vscode.window.showTextDocument(file, { preview: false });
    const text = await globMany();
    const uri = spillUriOf(text);
    const tab = await waitFor(() => tabsOf(uri)[0], TAB_WAIT_MS, 'the result’s tab');
    assert.equal(tab.isActive, false);
    assert.equal(tab.isPreview, false);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), file.uri.toString());
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, path.basename(file.fileName));
    assert.equal(editor.document, file);
  });

  it(`keeps the newest ${MAX_SPILL_DOCUMENTS} results; older ones are deleted and their tabs closed`, async () => {
    for (let i = 0; i < MAX_SPILL_DOCUMENTS; i++) await globMany();
    assert.equal(new Set(made.map(String)).size, made.length, 'each call made its own document');
    const kept = made.slice(-MAX_SPILL_DOCUMENTS);
    const released = made.slice(0, -MAX_SPILL_DOCUMENTS);
    // Released in the background, after the calls have returned.
    for (const uri of released) {
      await untilGone(uri, `${uri.toString()} to be deleted`);
      await waitFor(() => tabsOf(uri).length === 0, 30_000, "the released result's tab to close");
    }
    for (const uri of kept) assert.equal((await readBack(uri)).split('\n').length, MANY_FILES + 4);
    // A released call's record stops naming its document, so "Open full result" says it is no longer kept.
    const runs = (await scoutApi()).runs();
    for (const uri of released) assert.equal(runs.find((r) => r.spillUri === uri.toString())?.spillTitle, undefined, `the released run of ${uri.toString()} still names its document`);
    for (const uri of kept) assert.ok(runs.find((r) => r.spillUri === uri.toString())?.spillTitle, `the kept run of ${uri.toString()} lost its document`);
  });

  it('never releases a result an editor shows (another result took the active editor): the next oldest goes, and it goes in turn once hidden', async () => {
    const shownUri = spillUriOf(await globMany());
    const shown = await vscode.workspace.openTextDocument(shownUri);
    await vscode.window.showTextDocument(shown, { preview: false });
    const next = spillUriOf(await globMany());
    for (let i = 1; i < MAX_SPILL_DOCUMENTS; i++) await globMany();
    // Eleven results since the shown one: the one after it is the oldest an editor does not show.
    await untilGone(next, 'the next oldest result to be released');
    assert.ok((await readBack(shownUri)).startsWith(`${heading}\n`), 'the shown result is kept');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), shownUri.toString());
    // Once no editor shows it, it is the oldest, and the next result over the limit releases it.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(fx.root, 'src', 'app.ts')), { preview: false });
    await globMany();
    await untilGone(shownUri, 'the hidden result to be released');
  });

  it('never takes, releases or clears a person’s untitled document that starts like a Scout heading (tester: a copied result was deleted)', async () => {
    // A person keeps a result by pasting it into a new untitled document, with notes below.
    const mine = await vscode.workspace.openTextDocument({ content: `${heading}\n\nMY NOTES: do not lose\n` });
    await vscode.window.showTextDocument(mine, { preview: false });
    await (await scoutApi()).adoptRestored();
    const first = spillUriOf(await globMany());
    for (let i = 0; i < MAX_SPILL_DOCUMENTS; i++) await globMany();
    await untilGone(first, 'the oldest result of this test to be released');
    await vscode.commands.executeCommand('scout.clearResults');
    await waitFor(() => made.every((u) => tabsOf(u).length === 0), 30_000, 'Clear Results to close the result tabs');
    assert.equal(mine.getText(), `${heading}\n\nMY NOTES: do not lose\n`);
    assert.equal(mine.isClosed, false);
    // Empty it (so it is clean), then close it: nothing asks to save.
    const edit = new vscode.WorkspaceEdit();
    edit.delete(mine.uri, new vscode.Range(new vscode.Position(0, 0), mine.lineAt(mine.lineCount - 1).range.end));
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => tabsOf(mine.uri).every((t) => !t.isDirty), 30_000, 'the emptied document’s tab to be clean');
    await vscode.window.tabGroups.close(tabsOf(mine.uri), true);
  });

  it('Scout: Clear Results deletes every result and closes its tab, the one an editor shows too', async () => {
    const uris = [spillUriOf(await globMany()), spillUriOf(await globMany())];
    await waitFor(() => uris.every((u) => tabsOf(u).length === 1), TAB_WAIT_MS, 'the result tabs');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uris[1]!), { preview: false });
    await vscode.commands.executeCommand('scout.clearResults');
    for (const uri of uris) await untilGone(uri, `${uri.toString()} to be deleted`);
    await waitFor(() => uris.every((u) => tabsOf(u).length === 0), 30_000, 'the result tabs to close');
    assert.deepEqual((await scoutApi()).runs().filter((r) => r.status !== 'running'), []);
  });
});
