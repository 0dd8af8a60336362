import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { defaultConfig, type ScoutConfig, type WebFetchConfig } from '../../src/core/config';
import type { ToolEnv } from '../../src/core/tool';

/**
 * The built conversion worker (`npm run build` writes it; `npm test` builds before the unit tests).
 * @throws Error naming the build command when the bundle is missing
 */
export function builtConvertWorker(): string {
  const file = path.resolve(__dirname, '../../dist/convertWorker.js');
  if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" before these tests.`);
  return file;
}

/** Scout's defaults with web_fetch settings overridden; the loopback servers' 127.0.0.1 is allowed unless overridden. */
export function webFetchConfig(overrides: Partial<WebFetchConfig> = {}): ScoutConfig {
  const config = defaultConfig();
  config.webFetch = { ...config.webFetch, allowedPrivateHosts: ['127.0.0.1'], ...overrides };
  return config;
}

/** A ToolEnv for web tools: no workspace, a silent log, the given config and signal. */
export function webToolEnv(config: ScoutConfig = webFetchConfig(), signal: AbortSignal = new AbortController().signal): ToolEnv {
  const quiet = (): void => undefined;
  return { folders: [], config, signal, log: { trace: quiet, info: quiet, warn: quiet, error: quiet }, ripgrepPath: '' };
}
