import * as vscode from 'vscode';

/** The command ui/webFetchConfirmation.ui.mjs runs from the Command Palette (declared in this package.json). */
export const INVOKE_WEB_FETCH_COMMAND = 'scoutTests.invokeWebFetch';

/**
 * Registers the test extension's commands, which let a UI test make a tool call the way an agent outside
 * chat does: through `vscode.lm.invokeTool` with no `toolInvocationToken`.
 *
 * {@link INVOKE_WEB_FETCH_COMMAND} asks for a URL in an input box, clears the user setting
 * `scout.webFetch.autoApprovedDomains` for the duration of the call (the run approves 127.0.0.1, see
 * test/host/runIntegration.mjs), calls web_fetch, and shows how the call ended in a notification:
 * `web_fetch gave: <first line of the result>` or `web_fetch was rejected: <error name>`.
 */
export function registerAgentCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(INVOKE_WEB_FETCH_COMMAND, async () => {
      const url = await vscode.window.showInputBox({ title: 'URL for web_fetch' });
      if (!url) return;
      const config = vscode.workspace.getConfiguration('scout.webFetch');
      const approved = config.inspect('autoApprovedDomains')?.globalValue;
      await config.update('autoApprovedDomains', [], vscode.ConfigurationTarget.Global);
      let outcome: string;
      try {
        const result = await vscode.lm.invokeTool('web_fetch', { input: { url }, toolInvocationToken: undefined });
        const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
        outcome = `web_fetch gave: ${text.split('\n')[0]}`;
      } catch (e) {
        outcome = `web_fetch was rejected: ${e instanceof Error ? e.name : String(e)}`;
      } finally {
        await config.update('autoApprovedDomains', approved, vscode.ConfigurationTarget.Global);
      }
      void vscode.window.showInformationMessage(outcome);
    }),
  );
}
