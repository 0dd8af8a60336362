import * as vscode from 'vscode';
import { COMPLETE_RESULTS_KEPT, COMPLETE_RESULTS_MAX_CODE_UNITS, spillString } from '../core/spill';
import type { SpillLocator, SpillWriter, ToolName } from '../core/tool';

/** Spill documents whose content Scout keeps; the oldest beyond this are released (the MCP server keeps as many). */
export const MAX_SPILL_DOCUMENTS = COMPLETE_RESULTS_KEPT;
/** Total UTF-16 code units of content kept across all spill documents; the oldest beyond it are released. */
export const MAX_SPILL_CODE_UNITS = COMPLETE_RESULTS_MAX_CODE_UNITS;
/** ms to wait for VS Code to report a released document's tab as saved-clean before closing it. */
const CLEAN_TAB_WAIT_MS = 2000;

interface HeldSpill {
  readonly document: vscode.TextDocument;
  readonly tool: ToolName;
  readonly title: string;
  /** `document.getText().length` when it was made. */
  readonly length: number;
}

/**
 * Where over-cap results go in VS Code (issue 2, item 5): each complete result becomes an untitled text
 * document made with `vscode.workspace.openTextDocument({ content, language })`. Its `untitled:` URI is what
 * the tool footer gives the model, and `openTextDocument(uri)` reads it back.
 *
 * Creating it takes no focus, but as the document is unsaved (dirty) the workbench opens it about 0.8 s
 * later as an inactive, pinned tab (its TextFileEditorTracker keeps every dirty document in an editor; when
 * no editor is open, that tab is the one shown). Untitled is still the right kind of document: agents'
 * file-reading tools (Copilot's read_file among them) accept `untitled:` URIs, and the user can see the
 * complete result too.
 *
 * Retention policy: the newest {@link MAX_SPILL_DOCUMENTS} documents are kept, and at most
 * {@link MAX_SPILL_CODE_UNITS} code units of content in all (the newest document is always kept whole).
 * An older document is released: its content is deleted, which makes an untitled document clean again, and
 * then its tab is closed. VS Code frees a clean untitled document and drops its hot-exit backup, so no
 * "save changes?" prompt or restored tab is left behind; a later read of its URI finds an empty document.
 */
export class SpillStore implements vscode.Disposable {
  /** Oldest first. */
  private held: HeldSpill[] = [];
  private heldLength = 0;

  constructor(private readonly log: vscode.LogOutputChannel) {}

  /** The {@link SpillWriter} the tools get through their `ToolEnv`. Rejects when VS Code cannot make the document. */
  readonly writer: SpillWriter = async (pieces, meta) => {
    const text = spillString(pieces);
    const document = await vscode.workspace.openTextDocument({ content: text, language: 'plaintext' });
    this.held.push({ document, tool: meta.tool, title: meta.title, length: text.length });
    this.heldLength += text.length;
    this.log.info(`${meta.tool}: complete result (${text.length} characters) saved to ${document.uri.toString()}`);
    await this.releaseOverflow();
    return spillLocator(document.uri);
  };

  /**
   * The spill document behind `uri` (a {@link SpillLocator.uri}) while Scout still holds its content;
   * undefined when it was released, closed, or never made by Scout. The panel opens it with `showTextDocument`.
   */
  document(uri: string): vscode.TextDocument | undefined {
    return this.held.find((s) => s.document.uri.toString() === uri && !s.document.isClosed)?.document;
  }

  /** Releases every spill document (see the class comment), e.g. when the user clears the results. */
  async releaseAll(): Promise<void> {
    const all = this.held;
    this.held = [];
    this.heldLength = 0;
    await Promise.all(all.map((s) => this.release(s)));
  }

  private async releaseOverflow(): Promise<void> {
    this.held = this.held.filter((s) => {
      if (!s.document.isClosed) return true;
      this.heldLength -= s.length;
      return false;
    });
    while (this.held.length > 1 && (this.held.length > MAX_SPILL_DOCUMENTS || this.heldLength > MAX_SPILL_CODE_UNITS)) {
      const oldest = this.held.shift()!;
      this.heldLength -= oldest.length;
      await this.release(oldest);
    }
  }

  private async release(spill: HeldSpill): Promise<void> {
    const { document } = spill;
    const name = `${document.uri.toString()} (${spill.title})`;
    if (document.isClosed) return;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end), '');
    if (!(await vscode.workspace.applyEdit(edit))) {
      this.log.warn(`${spill.tool}: could not release the spill document ${name}`);
      return;
    }
    const closed = await closeCleanTabs(document.uri);
    this.log.trace(`${spill.tool}: released the spill document ${name}${closed ? `, closed ${closed} tab(s)` : ''}`);
  }

  dispose(): void {
    this.held = [];
    this.heldLength = 0;
  }
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

/** The locator for a spill document: its URI and how a model reads it. */
export function spillLocator(uri: vscode.Uri): SpillLocator {
  return {
    uri: uri.toString(),
    hint: 'It is an unsaved editor document, not a file on disk: read it by passing this URI to your file-reading tool (in an extension, vscode.workspace.openTextDocument(uri)).',
  };
}
