import * as vscode from 'vscode';
import { COMPLETE_RESULTS_KEPT, COMPLETE_RESULTS_MAX_CODE_UNITS, headingTool, spillString } from '../core/spill';
import type { SpillLanguage, SpillLocator, SpillWriter, ToolName } from '../core/tool';
import type { HostTimings } from './hostTimings';
import type { ResultFiles } from './resultFiles';
import { resultName, resultNumber } from './resultNames';

/** Spill documents whose content Scout keeps; the oldest beyond this are released (the MCP server keeps as many). */
export const MAX_SPILL_DOCUMENTS = COMPLETE_RESULTS_KEPT;
/** Total UTF-16 code units of content kept across all spill documents; the oldest beyond it are released. */
export const MAX_SPILL_CODE_UNITS = COMPLETE_RESULTS_MAX_CODE_UNITS;

interface HeldSpill {
  /** Its file name in {@link ResultFiles} (see `resultName`). */
  readonly name: string;
  readonly uri: vscode.Uri;
  readonly tool: ToolName;
  /** The document's first line (`spillHeading`, or `modelTextHeading` for a copy of the model's text). */
  readonly title: string;
  /** UTF-16 code units of its text. */
  readonly length: number;
}

/**
 * Where over-cap results go in VS Code: each complete result becomes a read-only document of Scout's
 * `scout-result:` file system ({@link ResultFiles}), kept as a file in the extension's storage. Its URI is
 * what the tool footer gives the model, and `openTextDocument(uri)` (or Copilot's read_file) reads it back.
 * Its first line names the tool, the call and the size (`spillHeading`), and its name (the tab's label)
 * the tool, the first argument, the count and a call number (`resultName`), so two calls of one pattern
 * have tabs that differ.
 *
 * **Why read-only and not untitled**: an untitled document is dirty, so Close All Editors asked to save
 * every result (Save All the default) under names cut from the first line, the same for one pattern twice,
 * and a person could type into one by accident. A read-only document is never dirty: closing asks nothing.
 *
 * **Tabs**: each new result opens in an inactive, pinned tab that takes no focus (`vscode.open` with
 * `background`), as untitled documents did. Copilot's read_file reads a document of another scheme without
 * asking only while a tab shows it; once the person closes the tab, its read asks "Allow reading external
 * files?" (see docs/results.md). In an editor group with no editor, even an inactive editor is shown.
 *
 * **Retention**: the newest {@link MAX_SPILL_DOCUMENTS} results are kept, and at most
 * {@link MAX_SPILL_CODE_UNITS} code units of content in all (the newest is always kept whole). An older one
 * is released in the background: its file is deleted and its tabs close (nothing asks: it is not dirty). A
 * later read of its URI fails (call numbers are never reused), and the footer says what that means (see
 * {@link spillLocator}). A result shown in an editor is not released while it is shown (closing it would put
 * another tab in its place): the next oldest goes instead, and it goes in its turn once hidden.
 *
 * **Reloads**: the files stay in the storage folder, so the tabs the workbench restores read the same text,
 * and {@link adoptRestored} holds them again, oldest first (by call number), under the same limits.
 */
export class SpillStore implements vscode.Disposable {
  /** Oldest first. */
  private held: HeldSpill[] = [];
  private heldLength = 0;
  /** The highest call number given (or found on disk); the next result gets the one after it. */
  private lastNumber = 0;
  /** Background work (releases, the search of the storage folder), one after the other. */
  private queue: Promise<void> = Promise.resolve();
  /** The first search of the storage folder: new results wait for it, so their numbers are new. */
  private readonly loaded: Promise<number>;
  private disposed = false;
  private readonly released = new vscode.EventEmitter<string>();
  /**
   * Fires with the URI of a result as Scout starts to release it, so a run record that points at it forgets
   * it (see `RunLog.forgetDocument`).
   */
  readonly onDidRelease = this.released.event;
  private readonly hidden: vscode.Disposable;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly timings: HostTimings,
    private readonly files: ResultFiles,
  ) {
    // Results kept over the limits because editors showed every older one are released once hidden.
    this.hidden = vscode.window.onDidChangeVisibleTextEditors(() => this.overLimits() && this.releaseOverflowLater());
    this.loaded = this.adoptRestored();
  }

  /** The {@link SpillWriter} the tools get through their `ToolEnv`. Rejects when VS Code cannot save the result. */
  readonly writer: SpillWriter = (pieces, meta) =>
    this.timings.measureAsync('spill', async () => {
      const text = spillString(pieces);
      const document = await this.fill(text, meta.tool, meta.title, meta.language);
      this.log.info(`${meta.tool}: complete result (${text.length} characters) saved to ${document.uri.toString()}`);
      return spillLocator(document.uri);
    });

  /**
   * Saves `text` (which starts with the line `title`) as a result document and holds it, like {@link writer}.
   * The panel uses it for a copy of the text a model saw.
   */
  save(text: string, tool: ToolName, title: string): Promise<vscode.TextDocument> {
    return this.fill(text, tool, title);
  }

  /**
   * The result document at `uri` while Scout holds it and its first line is `title`; undefined when it was
   * released or never made by Scout. The panel opens it with `showTextDocument`.
   */
  async document(uri: string, title: string): Promise<vscode.TextDocument | undefined> {
    const spill = this.held.find((s) => s.uri.toString() === uri && s.title === title);
    if (!spill) return undefined;
    try {
      return await vscode.workspace.openTextDocument(spill.uri);
    } catch {
      return undefined;
    }
  }

  /** The first line of the held result at `uri`, for the run record (see `ToolRun.spillTitle`). */
  titleOf(uri: string): string | undefined {
    return this.held.find((s) => s.uri.toString() === uri)?.title;
  }

  /**
   * Holds again the results a previous window of this workspace left in the storage folder (after a reload),
   * oldest first, then releases what the limits do not keep. Runs at construction; calling it again finds
   * nothing new unless files were added behind Scout's back.
   * @returns how many results were taken back (before releasing)
   */
  adoptRestored(): Promise<number> {
    const run = this.queue.then(() => this.adoptNow());
    this.queue = run.then(
      () => undefined,
      (e: unknown) => this.log.warn(`Reading saved results failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    return run.catch(() => 0);
  }

  private async adoptNow(): Promise<number> {
    if (this.disposed) return 0;
    const found: { spill: HeldSpill; n: number }[] = [];
    for (const name of await this.files.names()) {
      const n = resultNumber(name);
      if (n === undefined || this.held.some((s) => s.name === name)) continue;
      this.lastNumber = Math.max(this.lastNumber, n);
      const text = await this.files.text(name).catch(() => undefined);
      const title = text?.slice(0, text.indexOf('\n') >>> 0) ?? '';
      const tool = headingTool(title);
      if (text === undefined || !tool) continue;
      found.push({ spill: { name, uri: this.files.uri(name), tool, title, length: text.length }, n });
    }
    if (!found.length) return 0;
    found.sort((a, b) => a.n - b.n);
    // Results of an earlier window are older than any made in this one.
    this.held.unshift(...found.map((f) => f.spill));
    this.heldLength += found.reduce((n, f) => n + f.spill.length, 0);
    this.log.info(`Took back ${found.length} saved result(s): ${found.map((f) => f.spill.name).join(', ')}`);
    this.releaseOverflowLater();
    return found.length;
  }

  /** Releases every result (see the class comment), also one shown in an editor: the user cleared the results (Scout: Clear Results). */
  async releaseAll(): Promise<void> {
    await this.adoptRestored();
    const all = this.held;
    this.held = [];
    this.heldLength = 0;
    await this.enqueue(() => Promise.all(all.map((s) => this.release(s))).then(() => undefined));
  }

  /** Saves `text` as a new result, opens its tab in the background, and holds it. @throws Error when VS Code cannot save it */
  private async fill(text: string, tool: ToolName, title: string, language?: SpillLanguage): Promise<vscode.TextDocument> {
    await this.loaded;
    const name = resultName(title, tool, ++this.lastNumber, language === 'markdown' ? 'md' : 'txt');
    const uri = this.files.uri(name);
    const written = this.files.put(name, text);
    // The disk copy is for a reload; the text is readable without it.
    written.catch((e: unknown) => this.log.warn(`${tool}: the result ${name} is not saved for a reload: ${e instanceof Error ? e.message : String(e)}`));
    const document = await vscode.workspace.openTextDocument(uri);
    this.held.push({ name, uri, tool, title, length: text.length });
    this.heldLength += text.length;
    // A tab lets the person see the result, and lets Copilot's read_file read it without asking.
    await vscode.commands.executeCommand('vscode.open', uri, { background: true, preview: false, preserveFocus: true });
    this.releaseOverflowLater();
    return document;
  }

  private releaseOverflowLater(): void {
    void this.enqueue(async () => {
      // A result shown in an editor is never released: closing it would put another tab in its place. The
      // next oldest goes instead; it goes in its turn once hidden.
      const visible = new Set(vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()));
      while (this.overLimits()) {
        const index = this.held.findIndex((s, i) => i < this.held.length - 1 && !visible.has(s.uri.toString()));
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
    const next = this.queue.then(work).catch((e: unknown) => this.log.warn(`Releasing results failed: ${e instanceof Error ? e.message : String(e)}`));
    this.queue = next;
    return next;
  }

  private async release(spill: HeldSpill): Promise<void> {
    this.released.fire(spill.uri.toString());
    const tabs = resultTabs(spill.uri);
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
    await this.files.remove(spill.name);
    this.log.info(`${spill.tool}: released the result ${spill.name}${tabs.length ? `, closed ${tabs.length} tab(s)` : ''}`);
  }

  dispose(): void {
    this.disposed = true;
    this.hidden.dispose();
    this.held = [];
    this.heldLength = 0;
    this.released.dispose();
  }
}

/** The tabs showing `uri`. */
function resultTabs(uri: vscode.Uri): vscode.Tab[] {
  const key = uri.toString();
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key);
}

/**
 * The locator for a result document: its URI and how a model reads it. Call numbers are never reused, so
 * once Scout has released the result, its URI cannot be read at all.
 */
export function spillLocator(uri: vscode.Uri): SpillLocator {
  return {
    uri: uri.toString(),
    hint:
      'It is a read-only editor document, not a file on disk: read it by passing this URI to your file-reading tool (in an extension, vscode.workspace.openTextDocument(uri)). ' +
      `If it cannot be read, Scout has released this result (it keeps the ${MAX_SPILL_DOCUMENTS} newest): run the call again.`,
  };
}
