/**
 * The bench extension: installed next to Scout by `npm run bench:host` (cases/editor.ts) and idle unless the
 * extension host's environment has `SCOUT_BENCH_DIR`. Then it serves {@link HostRequest}s on 127.0.0.1 (an
 * ephemeral port, written to `<SCOUT_BENCH_DIR>/ready.json` with the window's folder; the benchmark removes
 * the file before it opens the next window) and times them inside the extension host.
 */
import { writeFileSync, renameSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ScoutApi } from '../../../src/vscode/extension';
import type { CopyDocumentReport, FindFilesReport, HistoryWriteReport, HostRequest, InvokeReport, ReadyFile } from './protocol';

let state: vscode.Memento | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const dir = process.env.SCOUT_BENCH_DIR;
  if (!dir) return;
  state = context.workspaceState;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      handle(JSON.parse(body) as HostRequest).then(
        (answer) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer ?? null)),
        (e: unknown) => res.writeHead(500).end(e instanceof Error ? (e.stack ?? e.message) : String(e)),
      );
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    const ready: ReadyFile = { port, folder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, vscodeVersion: vscode.version };
    const file = path.join(dir, 'ready.json');
    writeFileSync(`${file}.partial`, JSON.stringify(ready));
    renameSync(`${file}.partial`, file);
  });
  context.subscriptions.push({ dispose: () => server.close() });
}

async function scout(): Promise<ScoutApi> {
  const extension = vscode.extensions.getExtension<ScoutApi>('scout-dev.scout');
  if (!extension) throw new Error('Scout (scout-dev.scout) is not installed');
  return extension.activate();
}

async function handle(request: HostRequest): Promise<unknown> {
  switch (request.op) {
    case 'invoke':
      return invoke(request.tool, request.input);
    case 'findFiles': {
      const started = performance.now();
      const uris = await vscode.workspace.findFiles(request.include);
      const report: FindFilesReport = { wallMs: performance.now() - started, files: uris.length };
      return report;
    }
    case 'command':
      return vscode.commands.executeCommand(request.id);
    case 'releaseSpills':
      return (await scout()).releaseSpills();
    case 'copyDocument':
      return copyDocument(vscode.Uri.parse(request.uri), request.via);
    case 'historyWrite':
      return historyWrite();
    case 'enableChat':
      return enableChat();
  }
}

/** ms Copilot Chat may take to activate once enabled. */
const CHAT_ACTIVATION_MS = 180_000;

async function enableChat(): Promise<number> {
  const started = performance.now();
  void vscode.commands.executeCommand('workbench.action.chat.manage');
  for (;;) {
    if (vscode.extensions.getExtension('GitHub.copilot-chat')?.isActive) return performance.now() - started;
    if (performance.now() - started > CHAT_ACTIVATION_MS) throw new Error(`Copilot Chat was not active ${CHAT_ACTIVATION_MS / 1000} s after Chat: Manage Language Models`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function historyWrite(): Promise<HistoryWriteReport> {
  const runs = JSON.parse(JSON.stringify((await scout()).runs())) as unknown[];
  const started = performance.now();
  const stored = state!.update('scout-bench.runs', runs);
  const updateMs = performance.now() - started;
  await stored;
  return { updateMs, storedMs: performance.now() - started, runs: runs.length, jsonChars: JSON.stringify(runs).length };
}

async function copyDocument(uri: vscode.Uri, via: 'open' | 'edit'): Promise<CopyDocumentReport> {
  const content = await waitForText(uri);
  const empty = via === 'edit' ? await vscode.workspace.openTextDocument({ content: '', language: 'plaintext' }) : undefined;
  const cpu = process.cpuUsage();
  const started = performance.now();
  let copy: vscode.TextDocument;
  if (empty) {
    const insert = new vscode.WorkspaceEdit();
    insert.insert(empty.uri, new vscode.Position(0, 0), content);
    if (!(await vscode.workspace.applyEdit(insert))) throw new Error('applyEdit refused the copy');
    copy = empty;
  } else {
    copy = await vscode.workspace.openTextDocument({ content, language: 'plaintext' });
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (copy.getText().length !== content.length) throw new Error('the copy does not hold the text');
  const edit = new vscode.WorkspaceEdit();
  edit.delete(copy.uri, new vscode.Range(0, 0, copy.lineCount, 0));
  await vscode.workspace.applyEdit(edit);
  return { wallMs, hostCpuMs: (used.user + used.system) / 1000, chars: content.length };
}

/** The text of the document at `uri`, once it has some (a spill's text arrives just after the call's result). */
async function waitForText(uri: vscode.Uri): Promise<string> {
  const document = await vscode.workspace.openTextDocument(uri);
  for (let i = 0; i < 600 && document.getText() === ''; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return document.getText();
}

async function invoke(tool: string, input: Record<string, unknown>): Promise<InvokeReport> {
  const api = await scout();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  loop.disable();
  const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  const run = api.runs()[0];
  const timings = run ? api.timings(run.id) : undefined;
  return {
    wallMs,
    hostCpuMs: (used.user + used.system) / 1000,
    loopDelayMaxMs: loop.max / 1e6,
    loopDelayMeanMs: Number.isNaN(loop.mean) ? 0 : loop.mean / 1e6,
    textChars: text.length,
    ...(timings ? { timings } : {}),
    ...(run ? { status: run.status } : {}),
    ...(run?.spillUri ? { spillUri: run.spillUri } : {}),
  };
}
