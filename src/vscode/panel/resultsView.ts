import * as vscode from 'vscode';
import type { ToolRun } from '../runRecord';
import type { RunLog } from '../runs';
import { services } from '../services';
import { copyResult, openFullResult, openTarget, RESULTS_VIEW_ID, runFromUser } from './actions';
import { buildCard } from './cards';
import type { ErrorFix } from './errorSummary';
import { makeNonce, panelHtml } from './html';
import { parseWebviewMessage, PROTOCOL_VERSION, type HostMessage, type PanelRequest } from './protocol';

/**
 * The Scout Results webview view: one card per tool call from the {@link RunLog}, newest first.
 *
 * The view is stateless: whenever its webview (re)loads it says `ready` and receives the whole list; after
 * that it receives each changed card. The webview's requests are answered by running the action here.
 */
class ResultsViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  /** A card to focus once the webview is ready. */
  private pendingReveal: Extract<HostMessage, { type: 'reveal' }> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly mediaRoot: vscode.Uri,
    private readonly runs: RunLog,
  ) {
    this.disposables.push(runs.onDidChange((run) => this.onRunsChanged(run)));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const webview = view.webview;
    webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [this.mediaRoot] };
    const asset = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(this.mediaRoot, ...parts)).toString();
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: asset('panel.js'),
      styleUri: asset('panel.css'),
      codiconUri: asset('codicons', 'codicon.css'),
    });
    const subscriptions = [
      webview.onDidReceiveMessage((raw) => void this.onMessage(raw)),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.ready = false;
        }
        for (const s of subscriptions) s.dispose();
      }),
    ];
    this.updateBadge();
  }

  /**
   * Shows the panel (without taking focus from the editor) and, when given, scrolls to a card's header and
   * focuses it (when the panel has the keyboard). `rerun` also announces the card as a rerun.
   */
  async reveal(runId?: string, preserveFocus = true, rerun = false): Promise<void> {
    this.pendingReveal = runId ? { type: 'reveal', id: runId, ...(rerun ? { rerun } : {}) } : undefined;
    if (this.view) this.view.show(preserveFocus);
    else await vscode.commands.executeCommand(`${RESULTS_VIEW_ID}.focus`, { preserveFocus });
    if (this.ready && this.pendingReveal) {
      this.post(this.pendingReveal);
      this.pendingReveal = undefined;
    }
  }

  private onRunsChanged(run: ToolRun | undefined): void {
    this.updateBadge();
    if (!this.ready) return;
    if (run) this.post({ type: 'card', card: buildCard(run).card });
    else this.postAll();
  }

  private postAll(): void {
    this.post({ type: 'cards', cards: this.runs.list().map((r) => buildCard(r).card) });
  }

  private post(message: HostMessage): void {
    void this.view?.webview.postMessage(message);
  }

  /** The view's badge counts running calls. */
  private updateBadge(): void {
    if (!this.view) return;
    const running = this.runs.list().filter((r) => r.status === 'running').length;
    this.view.badge = running ? { value: running, tooltip: `${running} Scout call${running === 1 ? '' : 's'} running` } : undefined;
  }

  private async onMessage(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) {
      services().log.warn('Scout Results: ignored a malformed message from the panel.');
      return;
    }
    if (message.type === 'ready') {
      if (message.version !== PROTOCOL_VERSION) services().log.warn(`Scout Results: panel protocol ${message.version}, expected ${PROTOCOL_VERSION}.`);
      this.ready = true;
      this.postAll();
      if (this.pendingReveal) {
        this.post(this.pendingReveal);
        this.pendingReveal = undefined;
      }
      return;
    }
    try {
      await this.perform(message.request);
      this.post({ type: 'response', requestId: message.requestId, ok: true });
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      this.post({ type: 'response', requestId: message.requestId, ok: false, message: text });
      void vscode.window.showWarningMessage(`Scout: ${text}`);
    }
  }

  private async perform(request: PanelRequest): Promise<void> {
    const run = this.runs.get(request.runId);
    if (!run) throw new Error('That result is no longer in the list.');
    switch (request.action) {
      case 'openTarget': {
        const target = buildCard(run).targets[request.target];
        if (!target) throw new Error('That row is no longer part of the result.');
        return openTarget(run, target);
      }
      case 'openFull':
        return openFullResult(run, request.keepFocus === true);
      case 'copy':
        return copyResult(run);
      case 'rerun':
        // Answer at once; the new card is shown, focused and announced, shows the call's progress, and its
        // Cancel stops it.
        void runFromUser(run.tool, run.input, `Scout: rerunning ${run.tool}`, { viewId: RESULTS_VIEW_ID }, (started) => void this.reveal(started.id, true, true));
        return;
      case 'cancel':
        if (!this.runs.cancel(run.id)) throw new Error('That call is not running any more.');
        return;
      case 'fix':
        return runErrorFix(buildCard(run).card.error?.fix);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** The command that stores a web search API key (package.json `contributes.commands`); takes an optional provider id. */
const SET_API_KEY_COMMAND = 'scout.setWebSearchApiKey';

/**
 * Starts the fix an error card offers (see `adviseOnError`): `setApiKey` runs Scout: Set Web Search API Key for
 * the provider `scout.webSearch.provider` names. Returns at once; the command reports its own outcome.
 *
 * @throws Error when the card offers no fix (the webview asked for something the card never showed)
 */
function runErrorFix(fix: ErrorFix | undefined): void {
  if (fix !== 'setApiKey') throw new Error('This card offers no fix.');
  void vscode.commands.executeCommand(SET_API_KEY_COMMAND, vscode.workspace.getConfiguration('scout.webSearch').get('provider'));
}

let provider: ResultsViewProvider | undefined;

/** Registers the Scout Results view. Call once from `activate`, after the services exist. */
export function registerResultsPanel(context: vscode.ExtensionContext): void {
  const instance = new ResultsViewProvider(vscode.Uri.joinPath(context.extensionUri, 'media'), services().runs);
  provider = instance;
  context.subscriptions.push(
    instance,
    vscode.window.registerWebviewViewProvider(RESULTS_VIEW_ID, instance),
    { dispose: () => (provider = provider === instance ? undefined : provider) },
  );
}

/**
 * Shows the Scout Results view and, when `runId` is given, focuses that call's card.
 * `preserveFocus` keeps the keyboard in the editor (default), false moves it to the panel.
 */
export async function showResults(runId?: string, preserveFocus = true): Promise<void> {
  if (provider) await provider.reveal(runId, preserveFocus);
}
