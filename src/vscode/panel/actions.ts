import * as vscode from 'vscode';
import { executeTool, type ExecutedCall } from '../execute';
import type { ToolRun } from '../runRecord';
import { services } from '../services';
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
 * Shows the run's full result in an editor: its spill document (the complete over-cap result) while the
 * spill store still holds it, otherwise a new spill document made from the text the model saw, with a
 * first line saying so when the complete result was released. The new document goes through the same
 * spill store, so it counts against the same retention limits (see `SpillStore`), and is recorded on the
 * run so the next click shows it again.
 *
 * @throws Error when the run has no text yet (it is still running), or VS Code cannot make the document
 */
export async function openFullResult(run: ToolRun): Promise<void> {
  const { spills, runs } = services();
  const held = [run.spillUri, run.textUri].map((uri) => uri && spills.document(uri)).find((d) => d !== undefined);
  if (held) {
    await vscode.window.showTextDocument(held, { preview: false });
    return;
  }
  if (!run.text) throw new Error('This call has no result yet.');
  const note = run.spillUri
    ? '[Scout: the complete result of this call is no longer kept (see "Spill documents" in the README); below is the text the model saw. Rerun the call for the complete result.]\n\n'
    : '';
  const locator = await spills.writer([`${note}${run.text}`], { tool: run.tool, title: `${run.tool} result` });
  runs.attachTextDocument(run.id, locator.uri);
  const document = spills.document(locator.uri);
  if (!document) throw new Error('The result document could not be opened.');
  await vscode.window.showTextDocument(document, { preview: false });
}

/** Copies the text the model saw to the clipboard. @throws Error when there is none yet */
export async function copyResult(run: ToolRun): Promise<void> {
  if (!run.text) throw new Error('This call has no result yet.');
  await vscode.env.clipboard.writeText(run.text);
}

/**
 * Runs `tool` with `input` as a person's command, through the one {@link executeTool} path, with a
 * cancellable progress indicator at `location`. Resolves when the call has finished (it never rejects for
 * a tool failure; the card shows it).
 */
export function runFromUser(
  tool: ToolRun['tool'],
  input: unknown,
  title: string,
  location: vscode.ProgressLocation | { viewId: string } = vscode.ProgressLocation.Notification,
): Promise<ExecutedCall> {
  return Promise.resolve(
    vscode.window.withProgress({ location, title, cancellable: true }, (progress, token) =>
      executeTool(tool, input, 'command', token, (message) => progress.report({ message })),
    ),
  );
}
