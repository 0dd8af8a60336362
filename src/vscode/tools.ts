import * as vscode from 'vscode';
import type { ScoutConfig } from '../core/config';
import { TOOLS } from '../core/registry';
import type { ToolName } from '../core/tool';
import { executeTool } from './execute';
import { services } from './services';

/**
 * What a tool shows before it runs: `prepareInvocation`'s answer for an input as the model sent it
 * (unvalidated: read fields defensively), given the user's current settings. A tool that needs the user's
 * consent first (web_fetch) adds `confirmationMessages` here.
 */
export type InvocationPreparer = (input: Record<string, unknown>, config: ScoutConfig) => vscode.PreparedToolInvocation;

/** Per-tool invocation messages; a tool without an entry shows "Running <name>". */
const PREPARERS: Partial<Record<ToolName, InvocationPreparer>> = {
  glob: (input) => ({ invocationMessage: `Finding files matching ${quote(input.pattern)}${within(input.path)}` }),
  grep: (input) => ({
    invocationMessage: `Searching for ${quote(input.pattern)}${within(input.path)}${typeof input.include === 'string' ? ` in ${quote(input.include)} files` : ''}`,
  }),
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
      return (PREPARERS[name] ?? (() => ({ invocationMessage: `Running ${name}` })))(input, services().readConfig());
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

/** `value` as a quoted, shortened string for a one-line message; `"?"` when it is not a string. */
function quote(value: unknown): string {
  if (typeof value !== 'string') return '"?"';
  const chars = [...value.replace(/\s+/g, ' ')];
  return JSON.stringify(chars.length > MAX_SHOWN ? `${chars.slice(0, MAX_SHOWN - 1).join('')}…` : chars.join(''));
}

function within(path: unknown): string {
  return typeof path === 'string' && path !== '' ? ` in ${quote(path)}` : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
