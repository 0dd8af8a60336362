import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ScoutApi } from '../../src/vscode/extension';

/**
 * Shared helpers of the in-host integration suites (test/integration/suite/*.test.ts). They run inside the
 * real extension host, next to the installed Scout extension.
 */

/** Scout's exports, activating it if needed. */
export async function scoutApi(): Promise<ScoutApi> {
  const extension = vscode.extensions.getExtension<ScoutApi>('scout-dev.scout');
  assert.ok(extension, 'the Scout extension (scout-dev.scout) is not installed in this host');
  return extension.activate();
}

/** Calls a language-model tool the way an agent does, and returns the text parts of its result. */
export async function invokeText(name: string, input: object, token?: vscode.CancellationToken): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** The known files of the fixture workspace, with the order of their modification times (oldest first). */
export const KNOWN_FILES: readonly (readonly [string, string])[] = [
  ['README.md', '# Fixture\n\nA workspace made by the Scout integration tests.\n'],
  ['docs/guide.md', '# Guide\n\nSay hello to Scout.\n'],
  ['src/app.ts', "import { GREETING } from './util/strings';\n\nexport function greet(name: string): string {\n  return `${GREETING}, ${name}`;\n}\n"],
  ['src/util/strings.ts', "export const GREETING = 'hello';\n"],
];

/** Files in `many/`: more than `scout.search.globMaxResults` (100), so a glob over them spills. */
export const MANY_FILES = 150;
/** 1 MB text files in `slow/`, enough for a search that runs for seconds (see {@link SLOW_PATTERN}). */
export const SLOW_FILES = 120;
/**
 * A regex without a literal ripgrep could prefilter on, whose bounded repetitions make rg's lazy DFA give
 * up on the `slow/` text: about 0.7 s per 40 MB on this machine, and it matches nothing there.
 */
export const SLOW_PATTERN = '(\\w{1,50}\\s){20}\\d';

export interface Fixture {
  /** The workspace folder as VS Code opened it. */
  readonly root: string;
  /** Its realpath: the workdir every result's paths are relative to. */
  readonly workdir: string;
  /** The `.vscode/settings.json` the runner wrote into the workspace (the hostile values under test). */
  readonly workspaceSettings: Record<string, unknown>;
}

let made: Promise<Fixture> | undefined;

/**
 * Writes the fixture files into the open workspace folder (once per window) and gives their location.
 * Modification times are set 10 s apart in {@link KNOWN_FILES} order, then `many/`, then `slow/`.
 */
export function fixture(): Promise<Fixture> {
  made ??= makeFixture();
  return made;
}

async function makeFixture(): Promise<Fixture> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder is open');
  const root = folder.uri.fsPath;
  let time = Date.now() / 1000 - 100_000;
  const write = (rel: string, content: string | Buffer) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    fs.utimesSync(file, time, time);
    time += 10;
  };
  for (const [rel, content] of KNOWN_FILES) write(rel, content);
  for (let i = 0; i < MANY_FILES; i++) write(`many/part-${String(i).padStart(3, '0')}.txt`, `part ${i}\n`);
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'lambda', 'sigma'];
  const line = Array.from({ length: 2000 }, (_, i) => words[(i * 7) % 10] + (i % 13 === 0 ? '\n' : ' ')).join('');
  const text = Buffer.from(line.repeat(Math.ceil(1_000_000 / line.length)));
  for (let i = 0; i < SLOW_FILES; i++) write(`slow/words-${String(i).padStart(3, '0')}.txt`, text);
  const settingsFile = path.join(root, '.vscode', 'settings.json');
  return {
    root,
    workdir: fs.realpathSync(root),
    workspaceSettings: fs.existsSync(settingsFile) ? (JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>) : {},
  };
}

/** A process seen in /proc. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** The kernel's short name (`comm`), e.g. `rg`. */
  readonly name: string;
  /** `R`, `S`, `Z` (zombie), … */
  readonly state: string;
  readonly argv: readonly string[];
}

/** Every process on the machine, from /proc (Linux). Processes that exit while being read are skipped. */
export function processes(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const open = stat.indexOf('(');
      const close = stat.lastIndexOf(')');
      const [state, ppid] = stat.slice(close + 2).split(' ');
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
      out.push({ pid: Number(entry), ppid: Number(ppid), name: stat.slice(open + 1, close), state: state!, argv });
    } catch {
      // gone
    }
  }
  return out;
}

/** Polls `probe` every 10 ms until it returns a truthy value; fails after `timeoutMs`. */
export async function waitFor<T>(probe: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The URI a tool footer says the complete result was saved at. */
export function spillUriOf(text: string): vscode.Uri {
  const match = /The complete result is saved at (\S+?)\. /.exec(text);
  assert.ok(match, `no spill URI in the footer of:\n${text.slice(-600)}`);
  return vscode.Uri.parse(match[1]!);
}

/**
 * Sets user-level values (`ConfigurationTarget.Global`, keys such as `scout.webSearch.provider`) and returns
 * a function that puts the previous user-level values back. VS Code picks the file: in code-server's remote
 * window a machine-scoped key lands in the server's Machine/settings.json, where the remote extension host
 * reads such keys from. The new values are in effect when this resolves.
 */
export async function setUserSettings(values: Record<string, unknown>): Promise<() => Promise<void>> {
  const config = vscode.workspace.getConfiguration();
  const previous = Object.keys(values).map((key) => [key, config.inspect(key)?.globalValue] as const);
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
  return async () => {
    for (const [key, value] of previous.reverse()) await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
  };
}
