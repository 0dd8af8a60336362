import * as vscode from 'vscode';
import { quoteValue } from '../../core/errors';
import { modelTextHeading } from '../../core/spill';
import { executeTool, type ExecutedCall } from '../execute';
import type { ToolRun } from '../runRecord';
import { services } from '../services';
import { MAX_SPILL_DOCUMENTS } from '../spill';
import { isWebUrl, type CardTarget } from './cards';
import { locateRunFile } from './locate';
import { findMatch, trimmedRange } from './match';

/** The id of the Scout Results webview view (package.json `contributes.views`). */
export const RESULTS_VIEW_ID = 'scout.results';

/**
 * Opens what a card row points at: a file in an editor at the row's line with the match selected (see
 * {@link locateRunFile} for which files may open), or a web URL in the external browser through
 * `env.openExternal`, which applies VS Code's trusted-domain prompt.
 *
 * @throws Error with a message for the user when the file cannot be opened
 */
export async function openTarget(run: ToolRun, target: CardTarget): Promise<void> {
  if (target.kind === 'url') {
    if (!isWebUrl(target.url)) throw new Error('Scout opens only http and https links.');
    await vscode.env.openExternal(vscode.Uri.parse(target.url, true));
    return;
  }
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ name: f.name, path: f.uri.fsPath }));
  const pathArg = typeof run.input === 'object' && run.input !== null ? (run.input as Record<string, unknown>).path : undefined;
  const file = await locateRunFile(folders, { workdir: target.workdir, folder: target.folder, pathArg }, target.path);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  let selection: vscode.Range | undefined;
  if (target.lineNumber !== undefined && target.lineNumber <= document.lineCount) {
    const line = document.lineAt(target.lineNumber - 1);
    const range = (target.match && findMatch(line.text, target.match)) || trimmedRange(line.text);
    selection = new vscode.Range(line.lineNumber, range.start, line.lineNumber, range.end);
  }
  await vscode.window.showTextDocument(document, { selection, preview: true });
}

/**
 * Shows the run's full result in an editor: its result document (the complete over-cap result) while the
 * spill store still holds it (also after a window reload: the store keeps it in the extension's storage),
 * otherwise a new read-only result document made from the text the model saw, headed `Scout <tool> <call>: the text
 * the model saw` and, when the complete result was released, a line saying so. The new document goes through
 * the same spill store, so it counts against the same retention limits (see `SpillStore`), and is recorded
 * on the run so the next click shows it again.
 *
 * @param keepFocus leave the keyboard where it is (`preserveFocus`): the panel's Enter on a card shows the result
 *   without putting the cursor in a document where the next keystroke would edit it
 * @throws Error when the run has no text yet (it is still running), or VS Code cannot make the document
 */
export async function openFullResult(run: ToolRun, keepFocus = false): Promise<void> {
  const { spills, runs } = services();
  const copyTitle = modelTextHeading(run.tool, callOf(run.input));
  const held =
    (run.spillUri && run.spillTitle ? await spills.document(run.spillUri, run.spillTitle) : undefined) ??
    (run.textUri ? await spills.document(run.textUri, copyTitle) : undefined);
  if (held) {
    await vscode.window.showTextDocument(held, { preview: false, preserveFocus: keepFocus });
    return;
  }
  if (!run.text) throw new Error('This call has no result yet.');
  const note = run.spillUri ? `[${goneReason(run)} Below is the text the model saw; rerun the call for the complete result.]\n\n` : '';
  const document = await spills.save(`${copyTitle}\n\n${note}${run.text}`, run.tool, copyTitle);
  runs.attachTextDocument(run.id, document.uri.toString(), copyTitle);
  await vscode.window.showTextDocument(document, { preview: false, preserveFocus: keepFocus, selection: new vscode.Range(0, 0, 0, 0) });
}

/**
 * Why a run's complete result is gone. Scout forgets `spillTitle` when it releases the document (see
 * `RunLog.forgetDocument`); one that went while the run still names it could not be saved for a reload
 * (see the Scout log) or was deleted from the extension's storage.
 */
function goneReason(run: ToolRun): string {
  return run.spillTitle === undefined
    ? `The complete result of this call is no longer kept: Scout keeps the ${MAX_SPILL_DOCUMENTS} newest (see "Complete results" in Scout's docs/results.md).`
    : "The complete result of this call could not be read back from Scout's storage (see the Scout output channel).";
}

/** The call in a document heading: its first text argument (pattern, query, URL or first query), quoted. */
function callOf(input: unknown): string {
  const values = typeof input === 'object' && input !== null ? Object.values(input) : [];
  const first = values.map((v) => (Array.isArray(v) ? v[0] : v)).find((v): v is string => typeof v === 'string');
  return first === undefined ? '(no arguments)' : quoteValue(first);
}

/** Copies the text the model saw to the clipboard. @throws Error when there is none yet */
export async function copyResult(run: ToolRun): Promise<void> {
  if (!run.text) throw new Error('This call has no result yet.');
  await vscode.env.clipboard.writeText(run.text);
}

/**
 * Runs `tool` with `input` as a person's command, through the one {@link executeTool} path, with a
 * cancellable progress indicator at `location`. Resolves when the call has finished (it never rejects for
 * a tool failure; the card shows it). `onStart` gets the run as soon as its card exists.
 */
export function runFromUser(
  tool: ToolRun['tool'],
  input: unknown,
  title: string,
  location: vscode.ProgressLocation | { viewId: string } = vscode.ProgressLocation.Notification,
  onStart?: (run: ToolRun) => void,
): Promise<ExecutedCall> {
  return Promise.resolve(
    vscode.window.withProgress({ location, title, cancellable: true }, (progress, token) =>
      executeTool(tool, input, 'command', token, (message) => progress.report({ message }), onStart),
    ),
  );
}
