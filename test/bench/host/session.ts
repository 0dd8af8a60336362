/**
 * The real editor for the editor benchmark: code-server (VS Code 1.139) with Scout's VSIX and the bench
 * extension (host/extension.ts) installed into fresh folders, driven by Chromium through playwright-core, the
 * same host `npm run test:integration` uses (test/host/editorHost.mjs). Windows are opened one at a time; each
 * has its own extension host, reached over the bench extension's loopback HTTP server.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import type { CopyDocumentReport, FindFilesReport, HistoryWriteReport, HostRequest, InvokeReport, ReadyFile } from './protocol';

const REPO = path.resolve(__dirname, '..', '..', '..');
/** ms a window may take from `goto` to the bench extension's server answering. */
const WINDOW_READY_MS = 180_000;

/** The parts of test/host/editorHost.mjs the benchmark uses (a JavaScript module without type declarations). */
interface EditorHostModule {
  ensureHost(): Promise<{ cache: string; node24Bin: string; codeServer: string; appRoot: string }>;
  freePort(preferred?: number[]): Promise<number>;
  packScout(): Promise<string>;
  installVsix(host: unknown, extensionsDir: string, userDataDir: string, vsixFiles: string[]): Promise<void>;
  writeUserSettings(userDataDir: string): void;
  startCodeServer(o: { host: unknown; port: number; extensionsDir: string; userDataDir: string; folder?: string; env?: Record<string, string> }): Promise<{
    url: string;
    stop: () => Promise<void>;
  }>;
  workbenchUrl(base: string, folder?: string): string;
  launchChromium(): Promise<Browser>;
}

/** One open workbench window and the bench extension in its extension host. */
export interface BenchWindow {
  readonly page: Page;
  invoke(tool: string, input: Record<string, unknown>): Promise<InvokeReport>;
  findFiles(include: string): Promise<FindFilesReport>;
  command(id: string): Promise<void>;
  releaseSpills(): Promise<void>;
  /** VS Code's own cost of a spill document: a copy of the document at `uri`, timed (see `HostRequest`). */
  copyDocument(uri: string, via: 'open' | 'edit'): Promise<CopyDocumentReport>;
  /** What writing Scout's run history to workspace state costs (see `HostRequest`). */
  historyWrite(): Promise<HistoryWriteReport>;
  /** Turns on the built-in Copilot Chat and waits until it is active. @returns ms it took */
  enableChat(): Promise<number>;
  /** Shows the Scout Results view and waits until its webview has rendered its list. */
  openPanel(): Promise<void>;
  /** Closes the panel area (the Scout view's webview is then hidden). */
  closePanel(): Promise<void>;
}

/** A running code-server with Scout and the bench extension installed. */
export interface EditorSession {
  /** Opens `folder` in the browser tab (closing any window shown before) and waits for its extension host. */
  openWindow(folder: string): Promise<BenchWindow>;
  /** The code-server process group and the browser are stopped; the temporary folders removed. */
  close(): Promise<void>;
}

/**
 * Installs the editor host (cached), packs Scout (`npm run package`) and the bench extension, installs both
 * into a temporary profile with the user settings every Scout editor session starts with, and starts
 * code-server and Chromium. `log` receives progress lines.
 */
export async function startEditorSession(log: (line: string) => void): Promise<EditorSession> {
  const eh = (await import(pathToFileURL(path.join(REPO, 'test', 'host', 'editorHost.mjs')).href)) as EditorHostModule;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'scout-bench-host-'));
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  const resultsDir = path.join(tmp, 'results');
  let stopServer: (() => Promise<void>) | undefined;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await stopServer?.();
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    log('editor: installing the editor host and packing Scout and the bench extension…');
    const host = await eh.ensureHost();
    const vsixFiles = await Promise.all([eh.packScout(), packBenchExtension(path.join(tmp, 'scout-bench-host.vsix'))]);
    await eh.installVsix(host, extensionsDir, userDataDir, vsixFiles);
    eh.writeUserSettings(userDataDir);
    mkdirSync(resultsDir);
    const server = await eh.startCodeServer({ host, port: await eh.freePort(), extensionsDir, userDataDir, env: { SCOUT_BENCH_DIR: resultsDir } });
    stopServer = server.stop;
    browser = await eh.launchChromium();
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1400, height: 1000 });
    return {
      openWindow: async (folder) => {
        rmSync(path.join(resultsDir, 'ready.json'), { force: true });
        log(`editor: opening a window on ${folder}…`);
        await page.goto(eh.workbenchUrl(server.url, folder));
        return connect(page, await waitForReady(resultsDir, folder));
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Bundles host/extension.ts and packs it with its package.json into `out` (a .vsix). */
async function packBenchExtension(out: string): Promise<string> {
  const root = __dirname;
  await esbuild.build({
    entryPoints: { extension: path.join(root, 'extension.ts') },
    outdir: path.join(root, 'dist'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
  await promisify(execFile)('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--skip-license', '--out', out], { cwd: root, maxBuffer: 16 << 20 }).catch(
    (e: { stdout?: string; stderr?: string }) => {
      throw new Error(`packing the bench extension failed:\n${e.stdout}\n${e.stderr}`);
    },
  );
  return out;
}

async function waitForReady(dir: string, folder: string): Promise<ReadyFile> {
  const file = path.join(dir, 'ready.json');
  const deadline = Date.now() + WINDOW_READY_MS;
  for (;;) {
    if (existsSync(file)) {
      const ready = JSON.parse(readFileSync(file, 'utf8')) as ReadyFile;
      if (ready.folder === folder) return ready;
    }
    if (Date.now() > deadline) throw new Error(`the bench extension did not start in the window on ${folder} within ${WINDOW_READY_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function connect(page: Page, ready: ReadyFile): BenchWindow {
  const ask = async <T>(request: HostRequest): Promise<T> => {
    const res = await fetch(`http://127.0.0.1:${ready.port}/`, { method: 'POST', body: JSON.stringify(request) });
    const body = await res.text();
    if (!res.ok) throw new Error(`the bench extension failed ${request.op}: ${body}`);
    return JSON.parse(body) as T;
  };
  /** The Scout Results webview's document (the inner frame of its webview view). */
  const panel = () => page.frameLocator('iframe.webview[src*="extensionId=scout-dev.scout"]').frameLocator('iframe#active-frame');
  const window: BenchWindow = {
    page,
    invoke: (tool, input) => ask<InvokeReport>({ op: 'invoke', tool, input }),
    findFiles: (include) => ask<FindFilesReport>({ op: 'findFiles', include }),
    command: (id) => ask<void>({ op: 'command', id }),
    releaseSpills: () => ask<void>({ op: 'releaseSpills' }),
    copyDocument: (uri, via) => ask<CopyDocumentReport>({ op: 'copyDocument', uri, via }),
    historyWrite: () => ask<HistoryWriteReport>({ op: 'historyWrite' }),
    enableChat: () => ask<number>({ op: 'enableChat' }),
    openPanel: async () => {
      await window.command('scout.showResults');
      await panel().locator('article.card, #empty:not([hidden])').first().waitFor({ timeout: 60_000 });
    },
    closePanel: async () => {
      await window.command('workbench.action.closePanel');
      await page.locator('iframe.webview[src*="extensionId=scout-dev.scout"]').waitFor({ state: 'hidden', timeout: 30_000 });
    },
  };
  return window;
}
