import { isExecutableFile, locateRipgrep, packagedRipgrepRoot } from '../../src/core/ripgrep/locate';
import { defaultConfig, type ScoutConfig, type SearchConfig } from '../../src/core/config';
import type { SpillWriter, ToolEnv } from '../../src/core/tool';
import type { WorkspaceFolderRef } from '../../src/core/workspace/folders';

/** The rg the unit tests run: the `@vscode/ripgrep-universal` dev dependency's binary for this machine. */
export const RG_PATH = locateRipgrep({
  appRoot: packagedRipgrepRoot(),
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

/** A spill writer that keeps what it was given; `texts` holds every saved text. */
export function memorySpill(): SpillWriter & { texts: string[] } {
  const texts: string[] = [];
  const writer: SpillWriter = async (text) => {
    texts.push(text);
    return { uri: `untitled:Spill-${texts.length}`, hint: 'Open that document to read every result.' };
  };
  return Object.assign(writer, { texts });
}

/** A spill writer that always rejects, as when the host cannot save. */
export const failingSpill: SpillWriter = async () => {
  throw new Error('disk full');
};
