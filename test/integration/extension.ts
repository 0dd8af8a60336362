import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { SUITES } from 'scout:suites';
import * as vscode from 'vscode';
import { registerAgentCommands } from './agentCommands';
import type { SuiteReport, WindowKind } from './report';

/**
 * The integration-test extension. When the extension host's environment has `SCOUT_TEST_RESULTS` (set by
 * test/host/runIntegration.mjs on the code-server it starts), it runs the mocha suites for this window
 * inside the real extension host and writes a {@link SuiteReport} to `<SCOUT_TEST_RESULTS>/<window>.json`.
 * Without that variable it does nothing. Its commands (see agentCommands.ts) are there for the UI tests.
 */
export function activate(context: vscode.ExtensionContext): void {
  const dir = process.env.SCOUT_TEST_RESULTS;
  if (!dir) return;
  registerAgentCommands(context);
  const folders = vscode.workspace.workspaceFolders?.length ?? 0;
  // A .code-workspace window can start its extension host before its folders are in (under load it has
  // none yet), so it is told apart by its workspace file, not by counting folders.
  const window: WindowKind = vscode.workspace.workspaceFile || folders > 1 ? 'multiRoot' : folders === 1 ? 'folder' : 'emptyWindow';
  reportScoutSettings(context, path.join(dir, `settings-${window}.json`));
  // A UI test that reloads the window (ui/spillReload.ui.mjs) must not run the suites a second time.
  if (fs.existsSync(path.join(dir, `${window}.json`))) return;
  void untilFoldersLoaded(window).then((loaded) => {
    // A window that came up without its folders writes no report: the runner opens it again.
    if (loaded) void runAndReport(dir, window);
  });
}

function runAndReport(dir: string, window: WindowKind): Promise<void> {
  return runSuites(window)
    .catch((e: unknown): SuiteReport => ({ ...emptyReport(window), failures: 1, crash: e instanceof Error ? (e.stack ?? e.message) : String(e) }))
    .then((report) => {
      const file = path.join(dir, `${window}.json`);
      fs.writeFileSync(`${file}.partial`, JSON.stringify(report, null, 2));
      fs.renameSync(`${file}.partial`, file);
    });
}

/**
 * Keeps `file` holding the `scout.*` settings as this extension host sees them, rewritten on every change,
 * so a UI test that edits a settings file can wait until the change has reached the host (uiHost.mjs).
 */
function reportScoutSettings(context: vscode.ExtensionContext, file: string): void {
  const write = () => {
    const scout = vscode.workspace.getConfiguration('scout');
    const sections = Object.fromEntries(['search', 'workspaceSearch', 'webFetch', 'webSearch'].map((s) => [s, scout.get(s)]));
    fs.writeFileSync(`${file}.partial`, JSON.stringify({ ...sections, ripgrepPath: scout.get('ripgrepPath') }));
    fs.renameSync(`${file}.partial`, file);
  };
  write();
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('scout') && write()));
}

/**
 * Waits (60 s at most) until a multi-root window has more than one folder; other windows go on at once.
 * @returns false when the folders never came
 */
async function untilFoldersLoaded(window: WindowKind): Promise<boolean> {
  for (let waited = 0; window === 'multiRoot' && (vscode.workspace.workspaceFolders?.length ?? 0) < 2; waited += 100) {
    if (waited >= 60_000) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

function emptyReport(window: WindowKind): SuiteReport {
  return { window, vscodeVersion: vscode.version, appRoot: vscode.env.appRoot, passes: 0, failures: 0, pending: 0, durationMs: 0, tests: [], spec: '' };
}

/** Runs every suite file of `window` with mocha's spec reporter, capturing what it prints. */
async function runSuites(window: WindowKind): Promise<SuiteReport> {
  const lines: string[] = [];
  const Base = Mocha.reporters.Base;
  const print = Base.consoleLog;
  Base.consoleLog = (...args: unknown[]) => void lines.push(format(...args));
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 60_000, color: process.env.SCOUT_TEST_COLORS === '1' });
  for (const entry of SUITES[window]) {
    mocha.suite.emit('pre-require', globalThis, entry.file, mocha);
    entry.load();
    mocha.suite.emit('require', undefined, entry.file, mocha);
    mocha.suite.emit('post-require', globalThis, entry.file, mocha);
  }
  const tests: SuiteReport['tests'][number][] = [];
  const started = Date.now();
  try {
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', (t) => tests.push({ fullTitle: t.fullTitle(), state: 'passed', durationMs: t.duration }));
      runner.on('fail', (t, err: Error) => tests.push({ fullTitle: t.fullTitle(), state: 'failed', durationMs: t.duration, error: err.stack ?? err.message }));
      runner.on('pending', (t) => tests.push({ fullTitle: t.fullTitle(), state: 'pending' }));
    });
  } finally {
    Base.consoleLog = print;
  }
  const countOf = (state: string) => tests.filter((t) => t.state === state).length;
  return {
    ...emptyReport(window),
    passes: countOf('passed'),
    failures: countOf('failed'),
    pending: countOf('pending'),
    durationMs: Date.now() - started,
    tests,
    spec: lines.join('\n'),
  };
}
