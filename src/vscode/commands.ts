import * as vscode from 'vscode';
import { KEYED_WEB_SEARCH_PROVIDERS, webSearchSecretName, type KeyedWebSearchProvider, type ScoutConfig } from '../core/config';
import { quoteAsTyped } from '../core/controlCharacters';
import { isToolError } from '../core/errors';
import { findTool } from '../core/registry';
import { parseGlobArgument, type GlobArgument } from '../core/search/patterns';
import type { ToolName } from '../core/tool';
import { runFromUser } from './panel/actions';
import { showResults } from './panel/resultsView';
import { services } from './services';

/**
 * The command-palette side of Scout (category "Scout"): one command per tool, which asks for the
 * arguments in input boxes that validate as you type with the tool's own `parse` (and warn of a glob rg
 * would reject), runs the tool through
 * `executeTool` with a cancellable notification, and reveals its card; plus Show Results, Clear Results
 * and Set Web Search API Key.
 */
export function registerCommands(context: vscode.ExtensionContext): void {
  const register = (id: string, run: (...args: unknown[]) => Promise<unknown>) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => run(...args).catch(reportFailure)));
  register('scout.findFiles', findFiles);
  register('scout.searchText', searchText);
  register('scout.searchWorkspace', searchWorkspace);
  register('scout.webSearch', webSearch);
  register('scout.fetchUrl', fetchUrl);
  register('scout.showResults', () => showResults(undefined, false));
  register('scout.clearResults', clearResults);
  register('scout.setWebSearchApiKey', (provider) => setWebSearchApiKey(context.secrets, provider));
}

async function findFiles(): Promise<void> {
  const v = validator('glob');
  const pattern = await ask({
    title: 'Scout: Find Files (glob)',
    prompt: 'A ripgrep glob. Without a "/" it matches file names at any depth: *.ts, **/test/*.json',
    placeholder: 'e.g. *.md',
    validate: (value) => v({ pattern: value }) ?? globWarning('pattern', value),
  });
  if (pattern === undefined) return;
  await runAndReveal('glob', { pattern: pattern.value }, `Scout: finding files ${quoteAsTyped(pattern.value)}`);
}

async function searchText(): Promise<void> {
  const v = validator('grep');
  const pattern = await ask({
    title: 'Scout: Search Text (grep)',
    step: [1, 2],
    prompt: 'A ripgrep regular expression, matched line by line.',
    placeholder: 'e.g. TODO|FIXME',
    validate: (value) => v({ pattern: value }),
  });
  if (pattern === undefined) return;
  const include = await ask({
    title: 'Scout: Search Text (grep)',
    step: [2, 2],
    prompt: 'Only files matching this glob (optional; press Enter to search every file).',
    placeholder: 'e.g. *.{ts,tsx}',
    optional: true,
    validate: (value) => v({ pattern: pattern.value, include: value }) ?? globWarning('include', value),
  });
  if (include === undefined) return;
  const input = include.value ? { pattern: pattern.value, include: include.value } : { pattern: pattern.value };
  await runAndReveal('grep', input, `Scout: searching for ${quoteAsTyped(pattern.value)}`);
}

async function searchWorkspace(): Promise<void> {
  const v = validator('workspace_search');
  const query = await ask({
    title: 'Scout: Search Workspace (literal)',
    step: [1, 2],
    prompt: 'Text to find, matched literally on each line (not a regular expression).',
    placeholder: 'e.g. createServer(',
    toggle: { tooltip: 'Match Case', icon: 'case-sensitive' },
    validate: (value, matchCase) => v(withCase({ query: value }, matchCase)),
  });
  if (query === undefined) return;
  const input = withCase({ query: query.value }, query.toggled);
  const where = await ask({
    title: 'Scout: Search Workspace (literal)',
    step: [2, 2],
    prompt: 'Only in this folder or file, relative to the workspace folder (optional; press Enter to search the whole folder).',
    placeholder: 'e.g. src',
    optional: true,
    validate: (value) => v({ ...input, path: value }),
  });
  if (where === undefined) return;
  await runAndReveal('workspace_search', where.value ? { ...input, path: where.value } : input, `Scout: searching for ${quoteAsTyped(query.value)}`);
}

async function webSearch(): Promise<void> {
  const v = validator('web_search');
  const query = await ask({
    title: 'Scout: Web Search',
    prompt: 'What to search the web for.',
    placeholder: 'e.g. vscode webview content security policy',
    validate: (value) => v({ queries: [value] }),
  });
  if (query === undefined) return;
  await runAndReveal('web_search', { queries: [query.value] }, `Scout: searching the web for ${quoteAsTyped(query.value)}`);
}

async function fetchUrl(): Promise<void> {
  const v = validator('web_fetch');
  const url = await ask({
    title: 'Scout: Fetch URL',
    prompt: 'An http or https URL. The page is converted to Markdown; its text is untrusted.',
    placeholder: 'https://example.com/docs/page',
    validate: (value) => v({ url: value }),
  });
  if (url === undefined) return;
  await runAndReveal('web_fetch', { url: url.value }, `Scout: fetching ${quoteAsTyped(url.value)}`);
}

/** Scout: Clear Results: forgets the finished calls and releases every spill document Scout holds (their tabs close). */
async function clearResults(): Promise<void> {
  const { runs, spills } = services();
  runs.clear();
  await spills.releaseAll();
}

function withCase<T extends object>(input: T, matchCase: boolean): T | (T & { caseSensitive: true }) {
  return matchCase ? { ...input, caseSensitive: true } : input;
}

/** Shows the panel, runs the call with a cancellable notification, then focuses its card. */
async function runAndReveal(tool: ToolName, input: unknown, title: string): Promise<void> {
  await showResults();
  const call = await runFromUser(tool, input, title);
  await showResults(call.run.id);
}

/**
 * A validator for `tool`'s arguments: the message of the `INVALID_ARGUMENT` error its `parse` throws for
 * `input`, or undefined when the input is valid. The settings are read once, when the command starts.
 * A tool missing from this build validates nothing (running it then reports that it is missing).
 */
function validator(tool: ToolName): (input: unknown) => string | undefined {
  const impl = findTool(tool);
  const config: ScoutConfig = services().readConfig();
  return (input) => {
    if (!impl) return undefined;
    try {
      impl.parse(input, config);
      return undefined;
    } catch (e) {
      return isToolError(e) ? e.message : String(e);
    }
  };
}

/**
 * A warning (which does not stop Enter) when rg would reject `value` as a glob, from the same parser the
 * tool uses (`parseGlobArgument`). Only a warning: a value naming an existing file, such as
 * `app/[id/page.tsx`, is searched literally, which only the run can tell.
 */
function globWarning(name: GlobArgument['name'], value: string): vscode.InputBoxValidationMessage | undefined {
  try {
    parseGlobArgument({ name, value }, value);
    return undefined;
  } catch (e) {
    return isToolError(e) && e.code === 'SEARCH_INVALID_PATTERN' ? { message: e.message, severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
  }
}

/**
 * `QuickInputButton.location` and `.toggle` (a checkable button inside the input, like Match Case in the
 * search view), which the VS Code API gained after 1.96, Scout's oldest supported version.
 */
interface ToggleButton extends vscode.QuickInputButton {
  readonly location?: number;
  readonly toggle?: { checked: boolean };
}

/**
 * The Match Case style button of an input box: a toggle inside the input where the host has
 * `vscode.QuickInputButtonLocation`, else a title-bar button whose tooltip and icon show `checked`.
 */
function toggleButton(spec: { readonly tooltip: string; readonly icon: string }, checked: boolean): ToggleButton {
  const location = (vscode as { QuickInputButtonLocation?: { Input: number } }).QuickInputButtonLocation;
  if (location) return { iconPath: new vscode.ThemeIcon(spec.icon), tooltip: spec.tooltip, location: location.Input, toggle: { checked } };
  return { iconPath: new vscode.ThemeIcon(checked ? 'pass-filled' : spec.icon), tooltip: `${spec.tooltip} (${checked ? 'on' : 'off'})` };
}

/** What an input box shows under the value: an error blocks Enter, a warning does not. */
type Validation = string | vscode.InputBoxValidationMessage | undefined;

interface AskOptions {
  readonly title: string;
  readonly prompt: string;
  readonly placeholder?: string;
  /** [step, totalSteps] of a multi-step input. */
  readonly step?: readonly [number, number];
  /** An empty value is accepted as "none" without validation. */
  readonly optional?: boolean;
  /** A toggle button in the input (such as Match Case), whose state is passed to `validate`. */
  readonly toggle?: { readonly tooltip: string; readonly icon: string };
  readonly validate: (value: string, toggled: boolean) => Validation;
}

/**
 * Asks for one value in an input box that validates on every keystroke. An empty required value shows no
 * message until the user tries to accept it. Resolves undefined when the box is dismissed.
 */
function ask(options: AskOptions): Promise<{ value: string; toggled: boolean } | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.placeholder = options.placeholder;
  box.ignoreFocusOut = true;
  if (options.step) [box.step, box.totalSteps] = options.step;
  let toggled = false;
  const toggle = options.toggle && toggleButton(options.toggle, false);
  if (toggle) box.buttons = [toggle];
  const check = (force: boolean): Validation => {
    if (box.value === '') return options.optional || !force ? undefined : options.validate('', toggled);
    return options.validate(box.value, toggled);
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: { value: string; toggled: boolean } | undefined) => {
      if (settled) return;
      settled = true;
      resolve(result);
      box.dispose();
    };
    box.onDidChangeValue(() => (box.validationMessage = check(false)));
    box.onDidTriggerButton((button) => {
      if (!toggle || !box.buttons.includes(button)) return;
      const checked = (button as ToggleButton).toggle?.checked;
      toggled = checked ?? !toggled;
      // Without an input toggle (VS Code 1.96 has none) the title-bar button shows its state itself.
      if (checked === undefined && options.toggle) box.buttons = [toggleButton(options.toggle, toggled)];
      box.validationMessage = check(false);
    });
    box.onDidAccept(() => {
      const message = check(true);
      box.validationMessage = message;
      if (message === undefined || (typeof message === 'object' && message.severity !== vscode.InputBoxValidationSeverity.Error)) finish({ value: box.value, toggled });
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}

const PROVIDER_LABELS: Record<KeyedWebSearchProvider, { label: string; detail: string }> = {
  brave: { label: 'Brave Search', detail: 'Brave Search API key (sent in the X-Subscription-Token header).' },
  tavily: { label: 'Tavily', detail: 'Tavily API key.' },
  exa: { label: 'Exa', detail: 'Exa API key.' },
};

/**
 * Asks which keyed provider (unless `provider`, the command's optional argument, names one: the results
 * panel's "Set API key" button passes the configured provider), then for its API key in a password box, and
 * stores it in `SecretStorage` under {@link webSearchSecretName}. An empty key removes the stored one. The key
 * is never logged or shown. Offers to make that provider the `scout.webSearch.provider` when it is not.
 */
async function setWebSearchApiKey(secrets: vscode.SecretStorage, provider?: unknown): Promise<void> {
  const choices = KEYED_WEB_SEARCH_PROVIDERS.map((id) => ({ id, label: PROVIDER_LABELS[id].label, detail: PROVIDER_LABELS[id].detail }));
  const picked =
    choices.find((c) => c.id === provider) ??
    (await vscode.window.showQuickPick(choices, { title: 'Scout: Set Web Search API Key', placeHolder: 'Which web search provider is the key for?', ignoreFocusOut: true }));
  if (!picked) return;
  const key = await vscode.window.showInputBox({
    title: `Scout: ${picked.label} API key`,
    prompt: 'Paste the API key. It is kept in VS Code secret storage. Leave empty to remove the stored key.',
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (/\s/.test(value.trim()) || /[\r\n]/.test(value) ? 'An API key has no spaces or line breaks.' : undefined),
  });
  if (key === undefined) return;
  const name = webSearchSecretName(picked.id);
  if (key.trim() === '') {
    await secrets.delete(name);
    void vscode.window.showInformationMessage(`Scout: the ${picked.label} API key was removed.`);
    return;
  }
  await secrets.store(name, key.trim());
  const setting = vscode.workspace.getConfiguration('scout.webSearch');
  if (setting.get('provider') === picked.id) {
    void vscode.window.showInformationMessage(`Scout: the ${picked.label} API key was saved.`);
    return;
  }
  const use = `Use ${picked.label}`;
  const answer = await vscode.window.showInformationMessage(
    `Scout: the ${picked.label} API key was saved. Web Search uses "${String(setting.get('provider'))}" now.`,
    use,
  );
  if (answer === use) await setting.update('provider', picked.id, vscode.ConfigurationTarget.Global);
}

function reportFailure(e: unknown): void {
  const message = e instanceof Error ? e.message : String(e);
  services().log.error(`Scout command failed: ${message}`);
  void vscode.window.showErrorMessage(`Scout: ${message}`);
}
