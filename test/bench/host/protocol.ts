/**
 * What the editor benchmark (cases/editor.ts, in plain Node) asks the bench extension (host/extension.ts,
 * inside the real extension host) over HTTP on 127.0.0.1, and what it answers. One JSON request per POST.
 */
import type { CallTimings } from '../../../src/vscode/hostTimings';

export type HostRequest =
  /** Calls a Scout tool the way an agent does: `vscode.lm.invokeTool` without a chat token. */
  | { readonly op: 'invoke'; readonly tool: string; readonly input: Record<string, unknown> }
  /** VS Code's own search service: `vscode.workspace.findFiles(include)`, no exclude argument, no limit. */
  | { readonly op: 'findFiles'; readonly include: string }
  /** Runs a command (opening or closing the results panel). */
  | { readonly op: 'command'; readonly id: string }
  /** Releases every spill document Scout holds, so their tabs do not accumulate between cases. */
  | { readonly op: 'releaseSpills' }
  /**
   * VS Code's own cost of a spill document: puts a copy of the text of the document at `uri` (the latest
   * spill) into a new untitled document, timed, then empties it again. `via`: `open` makes the document
   * with its content (`openTextDocument({ content })`); `edit` makes an empty one first (not timed) and
   * inserts the text with `applyEdit`, awaited, as Scout does.
   */
  | { readonly op: 'copyDocument'; readonly uri: string; readonly via: 'open' | 'edit' }
  /**
   * What writing Scout's run history costs: `Memento.update` of a copy of Scout's kept runs into the bench
   * extension's own workspace state (the same JSON copy and hand-over to the workbench), timed.
   */
  | { readonly op: 'historyWrite' }
  /**
   * Turns on the built-in Copilot Chat extension the way "Chat: Manage Language Models" does (it is off on a
   * fresh profile) and waits until it is active, so its work in the extension host is part of what follows.
   * Answers the ms it took.
   */
  | { readonly op: 'enableChat' };

/** The answer to `invoke`. */
export interface InvokeReport {
  /** `invokeTool` call to result, in the extension host, ms. */
  readonly wallMs: number;
  /** CPU time of the whole extension host process (every extension, all threads) during the call, ms. */
  readonly hostCpuMs: number;
  /** Longest and mean delay of the extension host's event loop during the call (perf_hooks histogram), ms. */
  readonly loopDelayMaxMs: number;
  readonly loopDelayMeanMs: number;
  readonly textChars: number;
  /** Scout's own split of the call (its `executeTool`), when Scout recorded it. */
  readonly timings?: CallTimings;
  readonly status?: string;
  /** The URI of the call's spill document, when it made one. */
  readonly spillUri?: string;
}

/** The answer to `copyDocument`. */
export interface CopyDocumentReport {
  /** `openTextDocument({ content })` call to document, ms. */
  readonly wallMs: number;
  /** Extension host CPU during it, ms. */
  readonly hostCpuMs: number;
  readonly chars: number;
}

/** The answer to `historyWrite`. */
export interface HistoryWriteReport {
  /** The synchronous part of `update` (its JSON copy of the value), ms. */
  readonly updateMs: number;
  /** Until the workbench has stored it, ms. */
  readonly storedMs: number;
  readonly runs: number;
  /** Characters of the runs as JSON. */
  readonly jsonChars: number;
}

export interface FindFilesReport {
  readonly wallMs: number;
  readonly files: number;
}

/** What the bench extension writes to `<SCOUT_BENCH_DIR>/ready.json` once its server listens. */
export interface ReadyFile {
  readonly port: number;
  /** The workspace folder of the window (fsPath), or none. */
  readonly folder: string | undefined;
  /** `vscode.version`. */
  readonly vscodeVersion: string;
}
