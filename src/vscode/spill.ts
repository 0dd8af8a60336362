import * as vscode from 'vscode';
import { COMPLETE_RESULTS_KEPT, COMPLETE_RESULTS_MAX_CODE_UNITS, headingTool, spillString } from '../core/spill';
import type { SpillLocator, SpillWriter, ToolName } from '../core/tool';
import type { HostTimings } from './hostTimings';

/** Spill documents whose content Scout keeps; the oldest beyond this are released (the MCP server keeps as many). */
export const MAX_SPILL_DOCUMENTS = COMPLETE_RESULTS_KEPT;
/** Total UTF-16 code units of content kept across all spill documents; the oldest beyond it are released. */
export const MAX_SPILL_CODE_UNITS = COMPLETE_RESULTS_MAX_CODE_UNITS;
/** ms to wait for VS Code to report a released document's tab as saved-clean before closing it. */
const CLEAN_TAB_WAIT_MS = 2000;

interface HeldSpill {
  readonly document: vscode.TextDocument;
  readonly tool: ToolName;
  /** The document's first line (`spillHeading`, or `modelTextHeading` for a copy of the model's text). */
  readonly title: string;
  /** UTF-16 code units of its text. */
  readonly length: number;
  /** `document.version` when Scout made or took back the document: a later version means someone edited it. */
  readonly version: number;
}

/**
 * Where over-cap results go in VS Code: each complete result becomes an untitled text
 * document. Its `untitled:` URI is what the tool footer gives the model, and `openTextDocument(uri)` reads it
 * back. Its first line names the tool, the call and the size (`spillHeading`), and VS Code names an untitled
 * document after its first line, so its tab, a save prompt and a chat attachment read as a Scout result.
 *
 * **Speed**: `openTextDocument({ content })` carries the text to the workbench, which
 * holds untitled text models, and back to the extension host, where a model reads it; the writer resolves
 * only then, so a reader of the URI never finds it empty. In code-server that round trip is most of what a
 * call costs beyond plain Node (see docs/benchmarks.md; inserting the text into an empty document made
 * beforehand was measured too, and costs the same). Everything else (releasing, the search for restored
 * documents) runs in the background.
 *
 * **Tabs**: an unsaved (dirty) document gets a tab: the workbench opens every one about 0.8 s after it
 * becomes dirty, as an inactive, pinned tab that takes no focus. The one exception is VS Code's, not
 * Scout's: in an editor group with no editor, even an inactive editor is shown, so with no editor open the
 * spill is the one visible. Closing a dirty tab would ask to save it, so Scout cannot take it away without
 * deleting the result.
 *
 * **Retention**: the newest {@link MAX_SPILL_DOCUMENTS} documents are kept, and at most
 * {@link MAX_SPILL_CODE_UNITS} code units of content in all (the newest document is always kept whole). An
 * older document is released in the background: its content is deleted, which makes an untitled document
 * clean again, and then its tab is closed. VS Code frees a clean untitled document and drops its hot-exit
 * backup, so no "save changes?" prompt or restored tab is left behind. A later read of its URI finds an empty
 * document, or a newer one VS Code gave the freed name to; the footer names the first line to expect (see
 * {@link spillLocator}). A document shown in an editor is not released while it is shown (closing it would
 * put another tab, often another spill, in its place): the next oldest goes instead, and it goes in its turn
 * once hidden.
 *
 * **Reloads**: hot exit restores the dirty documents of a window that reloads. {@link adoptRestored} finds
 * Scout's among them and takes them back into the retention list, so they count against the same limits and
 * nothing piles up across reloads. A document is Scout's when a run of the history records its URI with its
 * first line (see `ToolRun.spillTitle`): an untitled document a person wrote is never taken, even one that
 * starts like a Scout heading (a copied result).
 *
 * **Edits**: a document someone edited after Scout made or took it back (its version moved on, or its
 * length changed) is never emptied: the retention limits and Clear Results let it go untouched, and it stays
 * open as the person's own.
 */
export class SpillStore implements vscode.Disposable {
  /** Oldest first. */
  private held: HeldSpill[] = [];
  private heldLength = 0;
  /** Spill documents being made: the search for restored documents waits for them, so it never takes one. */
  private readonly making = new Set<Promise<unknown>>();
  /** Background work (releases), one after the other. */
  private queue: Promise<void> = Promise.resolve();
  /** The latest search for restored documents (one runs at a time). */
  private adopting: Promise<number> = Promise.resolve(0);
  /** Whether a spill of this window has searched for restored documents before releasing any. */
  private searchedBeforeSpill = false;
  private disposed = false;
  private readonly released = new vscode.EventEmitter<string>();
  /**
   * Fires with the URI of a spill document as Scout starts to release it, or lets it go untouched because
   * someone edited it. Untitled URIs are reused once a document is gone, and an edited one is the user's, so a
   * run record that points at this URI must forget it now (see `RunLog.forgetDocument`).
   */
  readonly onDidRelease = this.released.event;

  /**
   * @param recordedAt when the run history's call made the document at a URI with this first line (epoch
   *   ms), or undefined when no run records it: only recorded documents are taken back after a reload, oldest
   *   first
   */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly timings: HostTimings,
    private readonly recordedAt: (uri: string, title: string) => number | undefined,
  ) {
    // Documents kept over the limits because editors showed every older one are released once hidden.
    this.hidden = vscode.window.onDidChangeVisibleTextEditors(() => this.overLimits() && this.releaseOverflowLater());
  }

  private readonly hidden: vscode.Disposable;

  /** The {@link SpillWriter} the tools get through their `ToolEnv`. Rejects when VS Code cannot make the document. */
  readonly writer: SpillWriter = (pieces, meta) =>
    this.timings.measureAsync('spill', async () => {
      // openTextDocument takes one string, so the pieces are joined here.
      const text = spillString(pieces);
      const document = await this.fill(text, meta.tool, meta.title, meta.language);
      this.log.info(`${meta.tool}: complete result (${text.length} characters) saved to ${document.uri.toString()}`);
      return spillLocator(document.uri, meta.title);
    });

  /**
   * Saves `text` (which starts with the line `title`) in a spill document and holds it, like {@link writer}.
   * The panel uses it for a copy of the text a model saw.
   */
  save(text: string, tool: ToolName, title: string): Promise<vscode.TextDocument> {
    return this.fill(text, tool, title);
  }

  /**
   * The spill document at `uri` while Scout holds it and its first line is `title` (untitled URIs are reused
   * once a document is gone); undefined when it was released, closed, or never made by Scout. The panel
   * opens it with `showTextDocument`.
   */
  async document(uri: string, title: string): Promise<vscode.TextDocument | undefined> {
    const spill = this.held.find((s) => s.document.uri.toString() === uri && s.title === title);
    return spill && (await current(spill));
  }

  /** The first line of the held spill document at `uri`, for the run record (see `ToolRun.spillTitle`). */
  titleOf(uri: string): string | undefined {
    return this.held.find((s) => s.document.uri.toString() === uri)?.title;
  }

  /**
   * Finds the untitled documents that hot exit restored and the run history records (open documents and
   * tabs alike), and holds them again, oldest first (see the constructor's `recordedAt`), then
   * releases what the limits do not keep. Call at activation; tabs the workbench restores later are found
   * through {@link watchRestored}, and the first spill of the window searches again before it releases any.
   * @returns how many documents were taken back (before releasing)
   */
  adoptRestored(): Promise<number> {
    this.adopting = this.adopting.then(() => this.adoptNow());
    return this.adopting;
  }

  private async adoptNow(): Promise<number> {
    await Promise.allSettled([...this.making]);
    if (this.disposed) return 0;
    const candidates = new Map<string, vscode.Uri>();
    for (const d of vscode.workspace.textDocuments) if (d.uri.scheme === 'untitled') candidates.set(d.uri.toString(), d.uri);
    for (const uri of untitledTabUris()) candidates.set(uri.toString(), uri);
    const found: { spill: HeldSpill; at: number }[] = [];
    for (const [key, uri] of candidates) {
      if (this.isKnown(key)) continue;
      const spill = await this.restoredSpill(uri);
      const at = spill && this.recordedAt(key, spill.title);
      if (spill && at !== undefined) found.push({ spill, at });
    }
    if (!found.length) return 0;
    found.sort((a, b) => a.at - b.at);
    // Restored documents are older than any made in this window.
    this.held.unshift(...found.map((f) => f.spill));
    this.heldLength += found.reduce((n, f) => n + f.spill.length, 0);
    this.log.info(`Took back ${found.length} spill document(s) restored by hot exit: ${found.map((f) => f.spill.title).join('; ')}`);
    this.releaseOverflowLater();
    return found.length;
  }

  /**
   * Takes back Scout documents whose tabs the workbench restores after activation: it reports them as tabs
   * opened, or (a whole editor group at once) as a group opened or changed.
   */
  watchRestored(): vscode.Disposable {
    const unknownUntitled = (tabs: readonly vscode.Tab[]) =>
      tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'untitled' && !this.isKnown(t.input.uri.toString()));
    return vscode.Disposable.from(
      vscode.window.tabGroups.onDidChangeTabs((e) => unknownUntitled(e.opened) && void this.adoptRestored()),
      vscode.window.tabGroups.onDidChangeTabGroups((e) => unknownUntitled([...e.opened, ...e.changed].flatMap((g) => g.tabs)) && void this.adoptRestored()),
    );
  }

  /**
   * Releases every spill document (see the class comment), also one shown in an editor and the ones hot exit
   * restored that Scout had not taken back yet: the user cleared the results (Scout: Clear Results).
   */
  async releaseAll(): Promise<void> {
    await this.adoptRestored();
    const all = this.held;
    this.held = [];
    this.heldLength = 0;
    await this.enqueue(() => Promise.all(all.map((s) => this.release(s))).then(() => undefined));
  }

  /** Makes the spill document holding `text` and holds it. @throws Error when VS Code cannot make it */
  private async fill(text: string, tool: ToolName, title: string, language = 'plaintext'): Promise<vscode.TextDocument> {
    if (!this.searchedBeforeSpill) {
      // Restored documents the workbench had not shown yet at activation must count before anything is released.
      this.searchedBeforeSpill = true;
      void this.adoptRestored();
    }
    const making = Promise.resolve(vscode.workspace.openTextDocument({ content: text, language }));
    this.making.add(making);
    try {
      const document = await making;
      this.held.push({ document, tool, title, length: text.length, version: document.version });
      this.heldLength += text.length;
      this.releaseOverflowLater();
      return document;
    } finally {
      this.making.delete(making);
    }
  }

  private isKnown(uri: string): boolean {
    return this.held.some((s) => s.document.uri.toString() === uri);
  }

  /** The document at a restored untitled `uri` as a held spill, when its first line is a Scout heading. */
  private async restoredSpill(uri: vscode.Uri): Promise<HeldSpill | undefined> {
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch {
      return undefined;
    }
    const title = document.lineCount > 0 ? document.lineAt(0).text : '';
    const tool = headingTool(title);
    if (!tool || document.isClosed || this.isKnown(uri.toString())) return undefined;
    return { document, tool, title, length: document.getText().length, version: document.version };
  }

  private releaseOverflowLater(): void {
    void this.enqueue(async () => {
      // Documents VS Code has freed (their tab was closed without saving) no longer count.
      const tabs = new Set(untitledTabUris().map(String));
      this.held = this.held.filter((s) => {
        if (!s.document.isClosed || tabs.has(s.document.uri.toString())) return true;
        this.heldLength -= s.length;
        return false;
      });
      // A document shown in an editor is never released: closing it would put another tab (often another
      // spill document) in its place. The next oldest goes instead; it goes in its turn once hidden.
      const visible = new Set(vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()));
      while (this.overLimits()) {
        const index = this.held.findIndex((s, i) => i < this.held.length - 1 && !visible.has(s.document.uri.toString()));
        if (index < 0) break;
        const [oldest] = this.held.splice(index, 1);
        this.heldLength -= oldest!.length;
        await this.release(oldest!);
      }
    });
  }

  private overLimits(): boolean {
    return this.held.length > 1 && (this.held.length > MAX_SPILL_DOCUMENTS || this.heldLength > MAX_SPILL_CODE_UNITS);
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work).catch((e: unknown) => this.log.warn(`Releasing spill documents failed: ${e instanceof Error ? e.message : String(e)}`));
    this.queue = next;
    return next;
  }

  private async release(spill: HeldSpill): Promise<void> {
    const name = `${spill.document.uri.toString()} (${spill.title})`;
    const document = await current(spill);
    if (!document) return;
    // A copy opened again (see `current`) starts a new version count, so only the length tells there.
    const edited = document.getText().length !== spill.length || (document === spill.document && document.version !== spill.version);
    if (edited) {
      // The run record forgets it too: otherwise Clear Results, or a reload, would find it recorded and take
      // it back as Scout's, with the edit counted as its content, and empty it.
      this.released.fire(document.uri.toString());
      this.log.info(`${spill.tool}: left the spill document ${name} open and untouched: it was edited, so it is the user's now`);
      return;
    }
    this.released.fire(document.uri.toString());
    const edit = new vscode.WorkspaceEdit();
    edit.delete(document.uri, new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end));
    if (!(await vscode.workspace.applyEdit(edit))) {
      this.log.warn(`${spill.tool}: could not release the spill document ${name}`);
      return;
    }
    const closed = await closeCleanTabs(document.uri);
    this.log.info(`${spill.tool}: released the spill document ${name}${closed ? `, closed ${closed} tab(s)` : ''}`);
  }

  dispose(): void {
    this.disposed = true;
    this.hidden.dispose();
    this.held = [];
    this.heldLength = 0;
    this.released.dispose();
  }
}

/**
 * A held spill's document as it is now, or undefined when its first line is no longer the spill's title
 * (emptied, or the URI reused). When VS Code has closed the extension host's copy while a tab still shows
 * the document (a restored tab whose text model was let go), the document is opened again.
 */
async function current(spill: HeldSpill): Promise<vscode.TextDocument | undefined> {
  let document = spill.document;
  if (document.isClosed) {
    if (!untitledTabUris().some((u) => u.toString() === document.uri.toString())) return undefined;
    try {
      document = await vscode.workspace.openTextDocument(document.uri);
    } catch {
      return undefined;
    }
  }
  return document.lineCount > 0 && document.lineAt(0).text === spill.title ? document : undefined;
}

/** The URIs of every untitled text tab in the window. */
function untitledTabUris(): vscode.Uri[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .map((t) => t.input)
    .filter((i): i is vscode.TabInputText => i instanceof vscode.TabInputText && i.uri.scheme === 'untitled')
    .map((i) => i.uri);
}

/**
 * Closes the tabs showing `uri` once VS Code reports them clean (waiting up to {@link CLEAN_TAB_WAIT_MS}).
 * A tab that is still dirty is left open, so closing never raises a "save changes?" prompt.
 * @returns how many tabs were closed
 */
async function closeCleanTabs(uri: vscode.Uri): Promise<number> {
  const key = uri.toString();
  const tabs = () =>
    vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key);
  if (tabs().some((t) => t.isDirty)) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, CLEAN_TAB_WAIT_MS);
      const listener = vscode.window.tabGroups.onDidChangeTabs(() => tabs().every((t) => !t.isDirty) && done());
      function done(): void {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      }
    });
  }
  const clean = tabs().filter((t) => !t.isDirty);
  if (clean.length) await vscode.window.tabGroups.close(clean, true);
  return clean.length;
}

/**
 * The locator for a spill document: its URI, how a model reads it, and the first line it must start with.
 * VS Code gives a freed untitled URI (`untitled:Untitled-3`) to the next new document, and an untitled
 * document cannot get a name of Scout's choosing without becoming tied to a file path that Save writes to
 * without asking. So once Scout has released the result, its URI reads empty or as a later document; the
 * expected first line (`title`, a `spillHeading`) lets the model tell.
 */
export function spillLocator(uri: vscode.Uri, title: string): SpillLocator {
  return {
    uri: uri.toString(),
    hint:
      'It is an unsaved editor document, not a file on disk: read it by passing this URI to your file-reading tool (in an extension, vscode.workspace.openTextDocument(uri)). ' +
      `Its first line is: ${title}. If what you read starts otherwise or is empty, Scout has released this result (it keeps the ${MAX_SPILL_DOCUMENTS} newest) and the URI now names another document: run the call again.`,
  };
}
