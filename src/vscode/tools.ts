import * as vscode from 'vscode';
import type { ScoutConfig } from '../core/config';
import { TOOLS } from '../core/registry';
import { quoteAsTyped } from '../core/controlCharacters';
import type { ToolName } from '../core/tool';
import { fetchConfirmation } from '../core/web/fetch/confirmation';
import { parseWebUrl } from '../core/web/http/url';
import { executeTool } from './execute';
import { services } from './services';

/**
 * What a tool shows before it runs: `prepareInvocation`'s answer for an input as the model sent it
 * (unvalidated: read fields defensively), given the user's current settings. A tool that needs the user's
 * consent first (web_fetch) adds `confirmationMessages` here.
 */
export type InvocationPreparer = (input: Record<string, unknown>, config: ScoutConfig) => vscode.PreparedToolInvocation;

/**
 * What each tool shows while it runs (`invocationMessage`), made from its input as the model sent it.
 *
 * web_fetch asks first for a host not in `scout.webFetch.autoApprovedDomains`: see
 * {@link fetchConfirmation}. In chat VS Code shows the question in the chat with Allow/Skip; for a call
 * made outside chat (`vscode.lm.invokeTool` without a `toolInvocationToken`) it shows a modal dialog, and
 * declining rejects the call with a `CancellationError` before `invoke` runs. The Scout commands call
 * {@link executeTool} directly: a person typing a URL has already chosen it.
 */
export const PREPARERS: Readonly<Record<ToolName, InvocationPreparer>> = {
  glob: (input) => ({ invocationMessage: `Finding files matching ${quote(input.pattern)}${within(input.path)}` }),
  grep: (input) => ({
    invocationMessage: `Searching for ${quote(input.pattern)}${within(input.path)}${typeof input.include === 'string' ? ` in ${quote(input.include)} files` : ''}`,
  }),
  workspace_search: (input) => ({
    invocationMessage: `Searching the workspace for ${quote(input.query)}${within(input.path)}${input.caseSensitive === true ? ' (match case)' : ''}`,
  }),
  web_search: (input) => ({ invocationMessage: `Searching the web for ${quoteList(input.queries)}` }),
  web_fetch: (input, config) => {
    const question = fetchConfirmation(input.url, config);
    return {
      invocationMessage: `Fetching ${hostOf(input.url)}`,
      ...(question ? { confirmationMessages: { title: question.title, message: new vscode.MarkdownString(question.message) } } : {}),
    };
  },
};

/**
 * Registers every tool of the core registry with `vscode.lm.registerTool`, under the `name`s that
 * package.json `contributes.languageModelTools` declares. Each call goes through {@link executeTool}
 * (source `agent`), so it gets a card in the results panel; the model receives exactly the tool's text,
 * an `Error: …` text for a failed call. The chat's cancellation token stops the call (rg is killed).
 * A tool VS Code refuses (one missing from package.json) is logged and skipped; the others still register.
 */
export function registerTools(context: vscode.ExtensionContext): void {
  for (const name of Object.keys(TOOLS) as ToolName[]) {
    try {
      context.subscriptions.push(vscode.lm.registerTool<unknown>(name, languageModelTool(name)));
    } catch (e) {
      services().log.error(`${name}: VS Code refused to register the tool (${e instanceof Error ? e.message : String(e)}).`);
    }
  }
}

function languageModelTool(name: ToolName): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation(options) {
      const input = isRecord(options.input) ? options.input : {};
      return PREPARERS[name](input, services().readConfig());
    },
    async invoke(options, token) {
      const log = services().log;
      log.info(`${name}: called by a model`);
      const { run, text } = await executeTool(name, options.input, 'agent', token);
      log.info(`${name}: ${run.status} in ${run.durationMs ?? 0} ms${run.error ? ` (${run.error.code})` : ''}`);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    },
  };
}

/** Longest argument text shown in an invocation message (code points). */
const MAX_SHOWN = 60;

/**
 * `value` as typed, in double quotes and shortened, for a one-line message (`quoteAsTyped`): `"\w+"` shows
 * as typed, not with JSON's doubled backslashes; whitespace runs become one space. `"?"` when not a string.
 */
function quote(value: unknown): string {
  if (typeof value !== 'string') return '"?"';
  const chars = [...value.replace(/\s+/g, ' ')];
  return quoteAsTyped(chars.length > MAX_SHOWN ? `${chars.slice(0, MAX_SHOWN - 1).join('')}…` : chars.join(''));
}

/** Up to three queries of a web_search input, quoted, and how many more; `"?"` when it is not an array. */
function quoteList(values: unknown): string {
  if (!Array.isArray(values) || values.length === 0) return '"?"';
  const shown = values.slice(0, 3).map(quote).join(', ');
  return values.length > 3 ? `${shown} and ${values.length - 3} more` : shown;
}

/** The host (and port) of a URL argument, or the quoted argument when it is not a fetchable URL. */
function hostOf(url: unknown): string {
  try {
    return parseWebUrl(String(url)).host;
  } catch {
    return quote(url);
  }
}

function within(path: unknown): string {
  return typeof path === 'string' && path !== '' ? ` in ${quote(path)}` : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
