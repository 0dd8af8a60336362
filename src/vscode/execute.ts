import * as vscode from 'vscode';
import { formatToolError, isToolError, ToolError } from '../core/errors';
import { findTool } from '../core/registry';
import type { ToolName, ToolOutput } from '../core/tool';
import { callTimings, describeTimings, type CallTimings, type HostTimings } from './hostTimings';
import type { RunSource, ToolRun } from './runRecord';
import { services } from './services';

/** What one call produced: the run record (as the panel shows it) and the text the model sees. */
export interface ExecutedCall {
  readonly run: ToolRun;
  readonly text: string;
  readonly output?: ToolOutput;
  /** Where the call's time went in the extension host. */
  readonly timings: CallTimings;
}

/** Timings of the latest calls, by run id (at most {@link KEPT_TIMINGS}), for {@link timingsOf}. */
const recentTimings = new Map<string, CallTimings>();
const KEPT_TIMINGS = 50;

/** Where the time of a recent call (one of the last 50) went; undefined for an older or unknown run id. */
export function timingsOf(runId: string): CallTimings | undefined {
  return recentTimings.get(runId);
}

/**
 * Runs one Scout tool the same way for every caller (an agent through `vscode.lm`, a command, a panel
 * Rerun): validates `input`, runs the core tool with the user's settings, records a card in the run log,
 * and turns every expected failure into `Error: …` text. Never throws for a tool failure.
 *
 * `token` is the caller's cancellation (the chat's, or `withProgress`'s); the panel's Cancel button is a
 * second source linked to the same run. `onStart` gets the run record as soon as its card exists.
 */
export async function executeTool(
  name: ToolName,
  input: unknown,
  source: RunSource,
  token?: vscode.CancellationToken,
  progress?: (message: string) => void,
  onStart?: (run: ToolRun) => void,
): Promise<ExecutedCall> {
  const svc = services();
  const started = performance.now();
  const before = svc.timings.snapshot();
  let toolMs = 0;
  const cancel = new vscode.CancellationTokenSource();
  const linked = token?.onCancellationRequested(() => cancel.cancel());
  const abort = new AbortController();
  cancel.token.onCancellationRequested(() => abort.abort());
  if (token?.isCancellationRequested) cancel.cancel();
  const run = svc.runs.start(name, input, source, cancel);
  onStart?.(run);
  // Progress goes to the caller (withProgress) and to the run's card.
  const report = (message: string): void => {
    svc.runs.progress(run.id, message);
    progress?.(message);
  };
  try {
    const tool = findTool(name);
    if (!tool) throw new ToolError('INVALID_ARGUMENT', `Scout has no tool named "${name}".`);
    const config = svc.readConfig();
    const args = tool.parse(input, config);
    const env = await svc.toolEnv(name, config, abort.signal, report);
    const toolStarted = performance.now();
    const output = await tool.run(args, env);
    toolMs = performance.now() - toolStarted;
    const spill = output.spill ? { spillUri: output.spill.uri, spillTitle: svc.spills.titleOf(output.spill.uri) } : {};
    svc.runs.finish(run.id, { status: 'done', summary: output.summary, value: output.value, text: output.text, ...spill });
    return { run, text: output.text, output, timings: recordTimings(run, before, started, toolMs) };
  } catch (e) {
    const error = isToolError(e) ? e : internalError(e);
    if (!isToolError(e)) svc.log.error(`${name} failed unexpectedly: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    const text = formatToolError(error);
    const aborted = abort.signal.aborted || error.code.endsWith('_ABORTED');
    svc.runs.finish(run.id, { status: aborted ? 'cancelled' : 'error', error: { code: error.code, message: error.message }, text });
    return { run, text, timings: recordTimings(run, before, started, toolMs) };
  } finally {
    linked?.dispose();
    cancel.dispose();
  }
}

/** Works out, keeps and logs (trace level) where the call's time went. */
function recordTimings(run: ToolRun, before: ReturnType<HostTimings['snapshot']>, started: number, toolMs: number): CallTimings {
  const svc = services();
  const timings = callTimings(before, svc.timings.snapshot(), performance.now() - started, toolMs);
  recentTimings.set(run.id, timings);
  if (recentTimings.size > KEPT_TIMINGS) recentTimings.delete(recentTimings.keys().next().value!);
  svc.log.trace(`${run.tool}: ${run.status} in ${describeTimings(timings)}`);
  return timings;
}

function internalError(e: unknown): ToolError {
  const message = e instanceof Error ? e.message : String(e);
  return new ToolError('INTERNAL_ERROR', `Scout hit an internal error (${message}). The details are in the "Scout" output channel.`);
}
