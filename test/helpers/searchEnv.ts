import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isExecutableFile, locateRipgrep, packagedRipgrepRoot } from '../../src/core/ripgrep/locate';
import { defaultConfig, type ScoutConfig, type SearchConfig } from '../../src/core/config';
import { spillString } from '../../src/core/spill';
import { isToolError, type ToolErrorCode } from '../../src/core/errors';
import type { ScoutTool, SpillWriter, ToolEnv, ToolOutput } from '../../src/core/tool';
import type { WorkspaceFolderRef } from '../../src/core/workspace/folders';

/** The rg the unit tests run: the binary `@vscode/ripgrep` installs for this machine. */
export const RG_PATH = locateRipgrep({
  packageRoot: packagedRipgrepRoot(),
  platform: process.platform,
  arch: process.arch,
  exists: isExecutableFile,
}).path;

/** Scout's defaults with search settings overridden. */
export function searchConfig(overrides: Partial<SearchConfig> = {}): ScoutConfig {
  const config = defaultConfig();
  config.search = { ...config.search, ...overrides };
  return config;
}

/** What a test can pass to {@link searchEnv}. */
export interface SearchEnvOptions {
  readonly folders?: readonly WorkspaceFolderRef[];
  readonly search?: Partial<SearchConfig>;
  readonly signal?: AbortSignal;
  readonly spill?: SpillWriter;
  readonly ripgrepPath?: string;
}

/** A ToolEnv for glob/grep: the given folders, the packaged rg, and a log whose warnings are kept in `warnings`. */
export function searchEnv(options: SearchEnvOptions = {}): ToolEnv & { warnings: string[] } {
  const warnings: string[] = [];
  const quiet = (): void => undefined;
  return {
    folders: options.folders ?? [],
    config: searchConfig(options.search),
    signal: options.signal ?? new AbortController().signal,
    log: { trace: quiet, info: quiet, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    ripgrepPath: options.ripgrepPath ?? RG_PATH,
    ...(options.spill ? { spill: options.spill } : {}),
    warnings,
  };
}

/** One workspace folder for `dir`, named after its last segment. */
export function folder(dir: string, name = dir.split('/').filter(Boolean).pop()!): WorkspaceFolderRef {
  return { name, path: dir };
}

/** A spill writer that keeps what it was given; `texts` holds every saved text, `metas` what each came with. */
export function memorySpill(): SpillWriter & { texts: string[]; metas: Parameters<SpillWriter>[1][] } {
  const texts: string[] = [];
  const metas: Parameters<SpillWriter>[1][] = [];
  const writer: SpillWriter = async (text, meta) => {
    texts.push(spillString(text));
    metas.push(meta);
    return { uri: `untitled:Spill-${texts.length}`, hint: 'Open that document to read every result.' };
  };
  return Object.assign(writer, { texts, metas });
}

/** A spill writer that always rejects, as when the host cannot save. */
export const failingSpill: SpillWriter = async () => {
  throw new Error('disk full');
};

/**
 * The user and group a test drops to when it runs as root, which reads everything whatever the permissions:
 * `nobody`. Undefined when the tests do not run as root (then permissions already apply) or off POSIX.
 */
export function unprivilegedIds(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Copies `file` into `dir` (mode 755) with `mode`, so an unprivileged user can read or run it even when the
 * checkout sits in a folder only root may enter (a CI clone under /root). Returns the copy's path.
 */
export function readableCopy(file: string, dir: string, mode = 0o644): string {
  chmodSync(dir, 0o755);
  const copy = path.join(dir, path.basename(file));
  copyFileSync(file, copy);
  chmodSync(copy, mode);
  return copy;
}

/**
 * An rg for tests of unreadable entries: when the tests run as root, a wrapper (in `dir`) that runs a copy of
 * the packaged rg as `nobody` ({@link unprivilegedIds}), so permissions apply; otherwise the packaged rg.
 * The workspace searched must be readable by that user (see `makeRealisticWorkspace`).
 */
export function unprivilegedRipgrep(dir: string): string {
  const ids = unprivilegedIds();
  if (!ids) return RG_PATH;
  const rg = readableCopy(RG_PATH, dir, 0o755);
  const wrapper = path.join(dir, 'rg-as-nobody');
  writeFileSync(
    wrapper,
    [
      `#!${process.execPath}`,
      "const { spawnSync } = require('node:child_process');",
      `const r = spawnSync(${JSON.stringify(rg)}, process.argv.slice(2), { stdio: 'inherit', uid: ${ids.uid}, gid: ${ids.gid} });`,
      'if (r.signal) process.kill(process.pid, r.signal);',
      'process.exit(r.status ?? 2);',
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
  return wrapper;
}

/** Calls a glob or grep tool as the hosts do (`parse`, then `run`) in a {@link searchEnv} made from `options`. */
export async function runTool<V>(tool: ScoutTool<any, V>, input: unknown, options: SearchEnvOptions): Promise<ToolOutput<V>> {
  const env = searchEnv(options);
  return tool.run(tool.parse(input, env.config), env);
}

/** The structured error of a call that must fail (see {@link runTool}); fails the test when it succeeds. */
export async function toolFailure(tool: ScoutTool<any, any>, input: unknown, options: SearchEnvOptions): Promise<{ code: ToolErrorCode; message: string }> {
  try {
    await runTool(tool, input, options);
  } catch (e) {
    assert.ok(isToolError(e), String(e));
    return { code: e.code, message: e.message };
  }
  assert.fail(`${JSON.stringify(input)} succeeded`);
}
