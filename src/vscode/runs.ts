import * as vscode from 'vscode';
import type { ToolName } from '../core/tool';
import type { HostTimings } from './hostTimings';
import { boundValue, type RunSource, type ToolRun } from './runRecord';

const STATE_KEY = 'scout.runs';
/** Cards kept across reloads. */
export const MAX_KEPT_RUNS = 50;
/** ms after a change before the history is written to workspace state; the changes in between are written together. */
const SAVE_DELAY_MS = 250;

/**
 * The history of tool calls behind the results panel: newest first, the last {@link MAX_KEPT_RUNS} kept in
 * workspace state. Running calls keep a `CancellationTokenSource` so the panel's Cancel can stop them.
 *
 * Writing the history is off every call's path: `Memento.update` copies the whole value
 * (a JSON round trip) and sends it to the workbench, which for 50 cards holding the text their models saw is
 * megabytes. So a change is written {@link SAVE_DELAY_MS} later, once no call is running, together with the
 * changes made meanwhile, and trimming the list to {@link MAX_KEPT_RUNS} (which redraws the whole panel)
 * happens then too. `flush` writes at once; deactivation calls it.
 */
export class RunLog implements vscode.Disposable {
  private runs: ToolRun[];
  private readonly cancels = new Map<string, vscode.CancellationTokenSource>();
  private readonly changed = new vscode.EventEmitter<ToolRun | undefined>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The latest write to workspace state. */
  private saved: Thenable<void> = Promise.resolve();
  /** Fires with the run that changed, or undefined when the whole list changed. */
  readonly onDidChange = this.changed.event;

  /** @param timings where the time spent saving the history and in change listeners (the panel's cards) is counted */
  constructor(
    private readonly state: vscode.Memento,
    private readonly timings: HostTimings,
  ) {
    const saved = state.get<ToolRun[]>(STATE_KEY, []);
    // A run that was still running when the window closed can never finish: show it as cancelled.
    this.runs = saved.map((r) => (r.status === 'running' ? { ...r, status: 'cancelled', progress: undefined } : r));
  }

  /** All runs, newest first. */
  list(): readonly ToolRun[] {
    return this.runs;
  }

  get(id: string): ToolRun | undefined {
    return this.runs.find((r) => r.id === id);
  }

  /** Records a new running call; `cancel` is fired when the user cancels it from the panel. */
  start(tool: ToolName, input: unknown, source: RunSource, cancel: vscode.CancellationTokenSource): ToolRun {
    const run: ToolRun = { id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, tool, input, source, status: 'running', startedAt: Date.now() };
    this.runs.unshift(run);
    this.cancels.set(run.id, cancel);
    this.saveLater();
    this.fire(run);
    return run;
  }

  /** Marks a run finished and stores what it produced. */
  finish(id: string, patch: Partial<Omit<ToolRun, 'id' | 'tool' | 'input' | 'source' | 'startedAt'>>): void {
    const run = this.get(id);
    this.cancels.delete(id);
    if (!run) return;
    Object.assign(run, patch, { durationMs: Date.now() - run.startedAt, progress: undefined });
    if ('value' in patch) run.value = this.timings.measure('history', () => boundValue(patch.value));
    this.saveLater();
    this.fire(run);
  }

  /** Shows `message` as the running call's progress (in memory only). */
  progress(id: string, message: string): void {
    const run = this.get(id);
    if (!run || run.status !== 'running') return;
    run.progress = message;
    this.fire(run);
  }

  /** Records the document the panel made from a run's text, and its first line (see `ToolRun.textUri`). */
  attachTextDocument(id: string, uri: string, title: string): void {
    const run = this.get(id);
    if (!run) return;
    run.textUri = uri;
    run.textTitle = title;
    this.saveLater();
    this.fire(run);
  }

  /**
   * Forgets the document at `uri` wherever a run points at it: Scout released it. A run whose complete result was released keeps `spillUri` (so "Open
   * full result" can say the result is gone) but loses `spillTitle`, which is what identifies the document.
   */
  forgetDocument(uri: string): void {
    for (const run of this.runs) {
      let changed = false;
      if (run.spillUri === uri && run.spillTitle !== undefined) {
        delete run.spillTitle;
        changed = true;
      }
      if (run.textUri === uri) {
        delete run.textUri;
        delete run.textTitle;
        changed = true;
      }
      if (changed) this.fire(run);
    }
    this.saveLater();
  }

  /** Cancels a running call; false when it is not running. */
  cancel(id: string): boolean {
    const source = this.cancels.get(id);
    if (!source) return false;
    source.cancel();
    return true;
  }

  /** Forgets every finished run (running ones stay). */
  clear(): void {
    this.runs = this.runs.filter((r) => r.status === 'running');
    this.saveLater();
    this.fire(undefined);
  }

  /** Writes a pending change to workspace state now. Resolves when the workbench has it. */
  flush(): Thenable<void> {
    if (this.saveTimer === undefined) return this.saved;
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const trimmed = this.runs.length > MAX_KEPT_RUNS;
    if (trimmed) this.runs = this.runs.slice(0, MAX_KEPT_RUNS);
    this.saved = this.timings.measure('history', () => this.state.update(STATE_KEY, this.runs));
    if (trimmed) this.fire(undefined);
    return this.saved;
  }

  /** Schedules the write for {@link SAVE_DELAY_MS} from now, or later while a call runs (it would slow it). */
  private saveLater(): void {
    this.saveTimer ??= setTimeout(() => {
      if (this.cancels.size === 0) return void this.flush();
      this.saveTimer = undefined;
      this.saveLater();
    }, SAVE_DELAY_MS);
  }

  /** Tells the listeners (the results panel) what changed; their time counts as `cards`. */
  private fire(run: ToolRun | undefined): void {
    this.timings.measure('cards', () => this.changed.fire(run));
  }

  dispose(): void {
    void this.flush();
    for (const c of this.cancels.values()) c.cancel();
    this.changed.dispose();
  }
}
