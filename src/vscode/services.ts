import * as vscode from 'vscode';
import { configFromSettings, type ScoutConfig } from '../core/config';
import { ToolError } from '../core/errors';
import { isExecutableFile, locateRipgrep, type LocatedRipgrep } from '../core/ripgrep/locate';
import type { ToolEnv, ToolName } from '../core/tool';
import type { WorkspaceFolderRef } from '../core/workspace/folders';
import { HostTimings } from './hostTimings';
import { RunLog } from './runs';
import { RESULT_SCHEME, ResultFiles } from './resultFiles';
import { SpillStore } from './spill';

/** The extension's long-lived parts, made once in `activate` and shared by tools, commands and the panel. */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly runs: RunLog;
  /** The read-only documents holding complete over-cap results (see {@link SpillStore} for the retention policy). */
  readonly spills: SpillStore;
  /** Time the extension host spends on spill documents, the run history and the panel's cards. */
  readonly timings: HostTimings;
  /** The user's `scout.*` settings over the core defaults. */
  readConfig(): ScoutConfig;
  /**
   * The rg binary Scout runs: `scout.ripgrepPath`, else the editor's own under `vscode.env.appRoot`, else
   * PATH. Cached; found again when the setting changes or the cached binary is gone.
   * @throws ToolError SEARCH_FAILED naming every place tried
   */
  ripgrep(): LocatedRipgrep;
  /** Builds the environment one tool call runs in (folders, rg path, spill writer, secrets). */
  toolEnv(tool: ToolName, config: ScoutConfig, signal: AbortSignal, progress?: (message: string) => void): Promise<ToolEnv>;
}

let current: Services | undefined;

/** The services made by {@link registerServices}. @throws Error when called before activation. */
export function services(): Services {
  if (!current) throw new Error('Scout is not activated yet.');
  return current;
}

/** Installs the services; later registrations read them through {@link services}. */
export function setServices(value: Services, context: vscode.ExtensionContext): void {
  current = value;
  context.subscriptions.push({ dispose: () => (current = current === value ? undefined : current) });
}

/**
 * Makes Scout's services and installs them (first call of `activate`): the "Scout" `LogOutputChannel`,
 * the run log over workspace state, the spill store and the read-only file system of its results (it takes
 * back the results an earlier window saved, in the background), and rg resolution that follows `scout.ripgrepPath`.
 */
export function registerServices(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Scout', { log: true });
  const timings = new HostTimings();
  const runs = new RunLog(context.workspaceState, timings);
  // Per workspace, like the run history; a window with no folder has no workspace storage.
  const files = new ResultFiles(vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'results'));
  // The results saved by an earlier window go back under the retention limits (see SpillStore).
  const spills = new SpillStore(log, timings, files);
  const ripgrep = new RipgrepResolver(log);
  context.subscriptions.push(
    log,
    runs,
    files,
    vscode.workspace.registerFileSystemProvider(RESULT_SCHEME, files, {
      isCaseSensitive: true,
      isReadonly: new vscode.MarkdownString("A complete result Scout saved for this call: read-only. Use *Scout: Clear Results* to remove Scout's results."),
    }),
    spills,
    spills.onDidRelease((uri) => runs.forgetDocument(uri)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(RIPGREP_PATH_SETTING)) ripgrep.forget();
    }),
  );
  const value: Services = {
    context,
    log,
    runs,
    spills,
    timings,
    readConfig: readScoutConfig,
    ripgrep: () => ripgrep.get(),
    toolEnv: async (tool, config, signal, progress) => ({
      folders: fileSystemFolders(tool),
      config,
      signal,
      log,
      /** Resolved on first read, so a tool that never runs rg never fails for want of one. */
      get ripgrepPath(): string {
        return ripgrep.get().path;
      },
      spill: spills.writer,
      ...(progress ? { progress } : {}),
      // API keys of the web search providers, stored by the command Scout: Set Web Search API Key.
      getSecret: async (name: string) => context.secrets.get(name),
      // No httpAgent: VS Code's proxy support already applies http.proxy to every request (see HttpAgents).
    }),
  };
  setServices(value, context);
  log.info(`Scout ${String(context.extension.packageJSON.version)} activated in VS Code ${vscode.version}.`);
}

/** Machine-scoped (package.json), so a workspace's own settings can never name the binary Scout runs. */
const RIPGREP_PATH_SETTING = 'scout.ripgrepPath';

/** Finds rg with `locateRipgrep` over this editor's places, and remembers the answer. */
class RipgrepResolver {
  private cached: LocatedRipgrep | undefined;

  constructor(private readonly log: vscode.LogOutputChannel) {}

  get(): LocatedRipgrep {
    if (this.cached && isExecutableFile(this.cached.path)) return this.cached;
    const configured = vscode.workspace.getConfiguration().get<string>(RIPGREP_PATH_SETTING, '').trim();
    let found: LocatedRipgrep;
    try {
      found = locateRipgrep({
        configuredPath: configured || undefined,
        appRoot: vscode.env.appRoot,
        platform: process.platform,
        arch: process.arch,
        pathEnv: process.env.PATH,
        exists: isExecutableFile,
      });
    } catch (e) {
      if (e instanceof ToolError) this.log.error(e.message);
      throw e;
    }
    if (configured && found.source !== 'configured') {
      this.log.warn(`${RIPGREP_PATH_SETTING} is "${configured}", which is not an executable file; using ${found.path} instead.`);
    }
    this.log.info(`ripgrep: using ${found.path} (${found.source === 'appRoot' ? "the editor's own" : found.source})`);
    this.cached = found;
    return found;
  }

  /** Drops the cached answer, so the next call looks again (the setting changed). */
  forget(): void {
    this.cached = undefined;
  }
}

/**
 * The open workspace folders Scout's tools can search: those on the local file system (`file:` URIs).
 * Web tools get them too but do not need them. Empty when no folder is open.
 *
 * @throws ToolError UNSUPPORTED_WORKSPACE for a workspace tool when every folder is virtual (e.g. a
 *   `vscode-vfs:` repository), since rg can only search files on disk.
 */
function fileSystemFolders(tool: ToolName): WorkspaceFolderRef[] {
  const all = vscode.workspace.workspaceFolders ?? [];
  const onDisk = all.filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, path: f.uri.fsPath }));
  if (onDisk.length === 0 && all.length > 0 && WORKSPACE_TOOLS.has(tool)) {
    const schemes = [...new Set(all.map((f) => `${f.uri.scheme}:`))].join(', ');
    throw new ToolError(
      'UNSUPPORTED_WORKSPACE',
      `${tool} searches files on disk, but this workspace's folders are virtual (${schemes}). Open a local folder or clone the repository, then call the tool again.`,
    );
  }
  return onDisk;
}

/** The tools that read the workspace's files (the others use the network). */
const WORKSPACE_TOOLS: ReadonlySet<ToolName> = new Set<ToolName>(['glob', 'grep', 'workspace_search']);

/**
 * Reads every core setting from `scout.<section>.<key>`, falling back to the core default for each key.
 * Sections and keys are exactly those of {@link ScoutConfig}, so package.json's `contributes.configuration`
 * must declare `scout.search.globMaxResults`, `scout.webFetch.allowedPrivateHosts`, and so on.
 * The rules are the core's `configFromSettings`: a value of the wrong type is ignored; a number outside its
 * `NUMERIC_SETTING_LIMITS` range, or an invalid `allowedPrivateHosts` entry, is ignored and logged as a warning.
 *
 * @param warn where the warnings go (default: the Scout output channel, once activated)
 */
export function readScoutConfig(warn: (message: string) => void = (message) => current?.log.warn(message)): ScoutConfig {
  return configFromSettings((section, key) => vscode.workspace.getConfiguration(`scout.${section}`).get(key), warn);
}
