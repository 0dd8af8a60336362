import * as vscode from 'vscode';
import type { ToolName } from '../core/tool';
import { boundValue, type RunSource, type ToolRun } from './runRecord';

const STATE_KEY = 'scout.runs';
/** Cards kept across reloads (issue 6). */
export const MAX_KEPT_RUNS = 50;

/**
 * The history of tool calls behind the results panel: newest first, the last {@link MAX_KEPT_RUNS} kept in
 * workspace state. Running calls keep a `CancellationTokenSource` so the panel's Cancel can stop them.
 */
export class RunLog implements vscode.Disposable {
  private runs: ToolRun[];
  private readonly cancels = new Map<string, vscode.CancellationTokenSource>();
  private readonly changed = new vscode.EventEmitter<ToolRun | undefined>();
  /** Fires with the run that changed, or undefined when the whole list changed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {
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
    this.trimAndSave();
    this.changed.fire(undefined);
    return run;
  }

  /** Marks a run finished and stores what it produced. */
  finish(id: string, patch: Partial<Omit<ToolRun, 'id' | 'tool' | 'input' | 'source' | 'startedAt'>>): void {
    const run = this.get(id);
    this.cancels.delete(id);
    if (!run) return;
    Object.assign(run, patch, { durationMs: Date.now() - run.startedAt, progress: undefined });
    if ('value' in patch) run.value = boundValue(patch.value);
    this.trimAndSave();
    this.changed.fire(run);
  }

  /** Shows `message` as the running call's progress (in memory only). */
  progress(id: string, message: string): void {
    const run = this.get(id);
    if (!run || run.status !== 'running') return;
    run.progress = message;
    this.changed.fire(run);
  }

  /** Records the document the panel made from a run's text (see `ToolRun.textUri`). */
  attachTextDocument(id: string, uri: string): void {
    const run = this.get(id);
    if (!run) return;
    run.textUri = uri;
    this.trimAndSave();
    this.changed.fire(run);
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
    this.trimAndSave();
    this.changed.fire(undefined);
  }

  private trimAndSave(): void {
    this.runs = this.runs.slice(0, MAX_KEPT_RUNS);
    void this.state.update(STATE_KEY, this.runs);
  }

  dispose(): void {
    for (const c of this.cancels.values()) c.cancel();
    this.changed.dispose();
  }
}
