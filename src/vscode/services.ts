import * as vscode from 'vscode';
import { defaultConfig, type ScoutConfig } from '../core/config';
import type { ToolEnv, ToolName } from '../core/tool';
import { RunLog } from './runs';

/** The extension's long-lived parts, made once in `activate` and shared by tools, commands and the panel. */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly runs: RunLog;
  /** The user's `scout.*` settings over the core defaults. */
  readConfig(): ScoutConfig;
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
 * Reads every core setting from `scout.<section>.<key>`, falling back to the core default for each key.
 * Sections and keys are exactly those of {@link ScoutConfig}, so package.json's `contributes.configuration`
 * must declare `scout.search.globMaxResults`, `scout.webFetch.allowedPrivateHosts`, and so on.
 */
export function readScoutConfig(): ScoutConfig {
  const config = defaultConfig();
  for (const section of Object.keys(config) as (keyof ScoutConfig)[]) {
    const settings = vscode.workspace.getConfiguration(`scout.${section}`);
    const target = config[section] as unknown as Record<string, unknown>;
    for (const key of Object.keys(target)) {
      const value = settings.get(key);
      if (value !== undefined && typeof value === typeof target[key]) target[key] = value;
    }
  }
  return config;
}
