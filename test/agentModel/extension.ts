import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startControlServer } from './control';
import { ScriptedModel, VENDOR } from './model';
import type { ControlAddress } from './protocol';

/**
 * Scout's test model: registers {@link ScriptedModel} as a chat model provider (vendor `scouttest`), so the
 * built-in Chat view can run agent mode with it and no sign-in or network. When the extension host has
 * `SCOUT_TEST_RESULTS` (set by test/host/runIntegration.mjs) it also starts the control server the tests
 * drive it with, and writes its {@link ControlAddress} to `<SCOUT_TEST_RESULTS>/agent-model-<window>.json`
 * (window: `folder`, `multiRoot` or `emptyWindow`, as the test extension names them).
 */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const model = new ScriptedModel();
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, model));
  const dir = process.env.SCOUT_TEST_RESULTS;
  if (!dir) return;
  const control = await startControlServer(model);
  context.subscriptions.push({ dispose: control.close });
  const folders = vscode.workspace.workspaceFolders?.length ?? 0;
  const window = folders > 1 ? 'multiRoot' : folders === 1 ? 'folder' : 'emptyWindow';
  const file = path.join(dir, `agent-model-${window}.json`);
  const address: ControlAddress = { port: control.port };
  fs.writeFileSync(`${file}.partial`, JSON.stringify(address));
  fs.renameSync(`${file}.partial`, file);
}
