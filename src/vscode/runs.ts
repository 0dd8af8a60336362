import * as vscode from 'vscode';
import type { RunSummary, ToolName } from '../core/tool';
import { boundValue } from './panel/cards';

/** Who started a call: a model through `vscode.lm`, or a person through a command or the panel. */
export type RunSource = 'agent' | 'command';

export type RunStatus = 'running' | 'done' | 'error' | 'cancelled';

/** One tool call as the results panel shows it. JSON-serialisable (kept in workspace state). */
export interface ToolRun {
  readonly id: string;
  readonly tool: ToolName;
  /** The arguments as given (already validated when status is not `error`). */
  readonly input: unknown;
  readonly source: RunSource;
  status: RunStatus;
  /** Epoch ms. */
  readonly startedAt: number;
  /** ms from start to finish; absent while running. */
  durationMs?: number;
  summary?: RunSummary;
  /** The latest progress message while running (not kept across reloads). */
  progress?: string;
  /**
   * The tool's canonical value (see `ToolOutput.value`), bounded for storage by {@link boundValue}: the
   * card lists from it, and the complete result stays in the spill document and the model text.
   */
  value?: unknown;
  /** The text the model saw. */
  text?: string;
  error?: { code: string; message: string };
  /** URI of the spill document holding the complete result, when the tool made one. */
  spillUri?: string;
  /** URI of the document the panel made from `text` when the spill document was gone or never made. */
  textUri?: string;
}

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
