import * as vscode from 'vscode';
import { formatToolError, isToolError, ToolError } from '../core/errors';
import { findTool } from '../core/registry';
import type { ToolName, ToolOutput } from '../core/tool';
import type { RunSource, ToolRun } from './runRecord';
import { services } from './services';

/** What one call produced: the run record (as the panel shows it) and the text the model sees. */
export interface ExecutedCall {
  readonly run: ToolRun;
  readonly text: string;
  readonly output?: ToolOutput;
}

/**
 * Runs one Scout tool the same way for every caller (an agent through `vscode.lm`, a command, a panel
 * Rerun): validates `input`, runs the core tool with the user's settings, records a card in the run log,
 * and turns every expected failure into `Error: …` text. Never throws for a tool failure.
 *
 * `token` is the caller's cancellation (the chat's, or `withProgress`'s); the panel's Cancel button is a
 * second source linked to the same run.
 */
export async function executeTool(
  name: ToolName,
  input: unknown,
  source: RunSource,
  token?: vscode.CancellationToken,
  progress?: (message: string) => void,
): Promise<ExecutedCall> {
  const svc = services();
  const cancel = new vscode.CancellationTokenSource();
  const linked = token?.onCancellationRequested(() => cancel.cancel());
  const abort = new AbortController();
  cancel.token.onCancellationRequested(() => abort.abort());
  if (token?.isCancellationRequested) cancel.cancel();
  const run = svc.runs.start(name, input, source, cancel);
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
    const output = await tool.run(args, env);
    svc.runs.finish(run.id, { status: 'done', summary: output.summary, value: output.value, text: output.text, spillUri: output.spill?.uri });
    return { run, text: output.text, output };
  } catch (e) {
    const error = isToolError(e) ? e : internalError(e);
    if (!isToolError(e)) svc.log.error(`${name} failed unexpectedly: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    const text = formatToolError(error);
    const aborted = abort.signal.aborted || error.code.endsWith('_ABORTED');
    svc.runs.finish(run.id, { status: aborted ? 'cancelled' : 'error', error: { code: error.code, message: error.message }, text });
    return { run, text };
  } finally {
    linked?.dispose();
    cancel.dispose();
  }
}

function internalError(e: unknown): ToolError {
  const message = e instanceof Error ? e.message : String(e);
  return new ToolError('INTERNAL_ERROR', `Scout hit an internal error (${message}). The details are in the "Scout" output channel.`);
}
