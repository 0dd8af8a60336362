import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ToolName } from '../../src/core/tool';
import { readScoutConfig } from '../../src/vscode/services';
import { PREPARERS } from '../../src/vscode/tools';
import type { ScoutApi } from '../../src/vscode/extension';
import type { ScriptedModel } from './model';
import type { TurnScript } from './protocol';

/**
 * The test model's control server, on 127.0.0.1 only, for the agent-mode UI tests (their client is
 * test/integration/ui/agentModel.mjs). JSON in and out:
 *
 * - `POST /scripts` {@link TurnScript}: the model plays it when a prompt ends with `(script: <id>)`.
 * - `GET /turns/<id>`: the turn's record (404 before it starts); `?wait=answered` answers once the model has
 *   answered in that turn (the client bounds the wait).
 * - `POST /invoke` `{tool, input}`: `vscode.lm.invokeTool` with no chat token, as an agent outside chat
 *   calls a tool → `{text}` (the text parts of the result) or `{error}`. The tests' reference output.
 * - `POST /prepare` `{tool, input}`: what Scout's `prepareInvocation` gives for that input with the current
 *   settings → `{invocationMessage, confirmation?: {title, message}}` (Markdown as its source text).
 * - `GET /tools`: `{registered, offered}`: the tools of `vscode.lm.tools`, and those the latest chat request
 *   with tools offered the model (the chat may offer a tool under another name), each `{name, inputSchema}`.
 * - `GET /document?uri=<uri>`: `{text}` of that document (`vscode.workspace.openTextDocument`).
 * - `GET /extension?id=<id>`: `{active}` of that extension, or 404 when it is not there (or disabled).
 * - `POST /release-spills`: Scout's `releaseSpills()`, which empties and closes its spill documents.
 * - `POST /settings` `{values}`: sets user-level settings (`ConfigurationTarget.Global`; VS Code puts
 *   machine-scoped ones in the server's Machine/settings.json) → `{previous}`, the user-level values before,
 *   to post back to restore them.
 */
export async function startControlServer(model: ScriptedModel): Promise<{ port: number; close(): void }> {
  const routes: Record<string, (body: any, url: URL) => Promise<unknown>> = {
    'POST /scripts': async (script: TurnScript) => void model.addScript(script),
    'GET /turns': async (_body, url) => {
      const id = decodeURIComponent(url.pathname.split('/')[2] ?? '');
      return url.searchParams.get('wait') === 'answered' ? model.answered(id) : (model.record(id) ?? null);
    },
    'POST /invoke': async ({ tool, input }) => {
      try {
        const result = await vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined });
        return { text: result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('') };
      } catch (e) {
        return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
      }
    },
    'POST /prepare': async ({ tool, input }) => {
      const prepare = PREPARERS[tool as ToolName];
      if (!prepare) throw new Error(`${tool} is not a Scout tool`);
      const prepared = prepare(input, readScoutConfig(() => {}));
      const question = prepared.confirmationMessages;
      return {
        invocationMessage: markdownSource(prepared.invocationMessage),
        ...(question ? { confirmation: { title: markdownSource(question.title), message: markdownSource(question.message) } } : {}),
      };
    },
    'GET /tools': async () => ({
      registered: vscode.lm.tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema })),
      offered: model.offered.map((t) => ({ name: t.name, inputSchema: t.inputSchema })),
    }),
    'GET /document': async (_body, url) => ({ text: (await vscode.workspace.openTextDocument(vscode.Uri.parse(url.searchParams.get('uri') ?? ''))).getText() }),
    'GET /extension': async (_body, url) => {
      const extension = vscode.extensions.getExtension(url.searchParams.get('id') ?? '');
      return extension ? { active: extension.isActive } : null;
    },
    'POST /release-spills': async () => {
      const scout = vscode.extensions.getExtension<ScoutApi>('scout-dev.scout');
      await (await scout?.activate())?.releaseSpills();
    },
    'POST /settings': async ({ values }: { values: Record<string, unknown> }) => {
      const config = vscode.workspace.getConfiguration();
      const previous = Object.fromEntries(Object.keys(values).map((key) => [key, config.inspect(key)?.globalValue]));
      for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
      return { previous };
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const route = routes[`${req.method} /${url.pathname.split('/')[1]}`];
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      (route ? route(body, url) : Promise.reject(new Error(`no route ${req.method} ${url.pathname}`))).then(
        (value) =>
          value === undefined ? res.writeHead(204).end() : res.writeHead(value === null ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(value)),
        (e: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(e instanceof Error ? (e.stack ?? e.message) : String(e)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

/** The source text of a message that is a string or a `MarkdownString`. */
function markdownSource(message: string | vscode.MarkdownString | undefined): string | undefined {
  return typeof message === 'string' ? message : message?.value;
}
