import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';
import { ToolError } from '../errors';
import { hostAdvice } from '../hostAdvice';

/** Where {@link locateRipgrep} may look, and how it checks a candidate. Pure: every input is explicit. */
export interface RipgrepSearchPlaces {
  /** A path the user chose (`scout.ripgrepPath` in VS Code, `--rg` in the CLI). Tried first. */
  readonly configuredPath?: string;
  /** The editor's application root (`vscode.env.appRoot`), whose `node_modules` holds its own rg. */
  readonly appRoot?: string;
  /**
   * For the CLI and the MCP server: the folder whose `node_modules` holds the binary package of the
   * `@vscode/ripgrep` dependency ({@link packagedRipgrepRoot}).
   */
  readonly packageRoot?: string;
  /** `process.platform` of the machine rg runs on. */
  readonly platform: NodeJS.Platform;
  /** `process.arch` of the machine rg runs on (e.g. `x64`, `arm64`). */
  readonly arch: string;
  /** The `PATH` environment variable; undefined or empty skips the PATH lookup. */
  readonly pathEnv?: string;
  /** True when `candidate` is an executable regular file (see {@link isExecutableFile}). */
  readonly exists: (candidate: string) => boolean;
}

/** The rg binary that was found. */
export interface LocatedRipgrep {
  /** Absolute path of the binary. */
  readonly path: string;
  readonly source: 'configured' | 'appRoot' | 'package' | 'PATH';
  /** Every candidate checked before this one (empty when the first one fitted); worth a log line. */
  readonly skipped: readonly string[];
}

/**
 * The candidate paths below an application root, in the order the editor ships them:
 * `node_modules/@vscode/ripgrep-universal/bin/<platform>-<arch>/rg[.exe]` (current VS Code), then the legacy
 * `node_modules/@vscode/ripgrep/bin/rg[.exe]` (VS Code 1.96 and other older versions), each first under
 * `node_modules` and then under `node_modules.asar.unpacked` (where Electron builds keep native binaries out
 * of the asar archive); last `node_modules/@vscode/ripgrep-<platform>-<arch>/bin/rg[.exe]`, the binary that
 * `@vscode/ripgrep` 1.18 installs as an optional dependency, which is how the npm package of Scout's CLI and
 * MCP server gets its rg.
 */
export function appRootCandidates(appRoot: string, platform: NodeJS.Platform, arch: string): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  const out: string[] = [];
  for (const rel of [['@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`, exe], ['@vscode', 'ripgrep', 'bin', exe]]) {
    for (const modules of ['node_modules', 'node_modules.asar.unpacked']) out.push(p.join(appRoot, modules, ...rel));
  }
  return out;
}

/** Where the binary package of `@vscode/ripgrep` 1.18 keeps rg below `root`: `node_modules/@vscode/ripgrep-linux-x64/bin/rg`. */
export function packagedRipgrepPath(root: string, platform: NodeJS.Platform, arch: string): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  return p.join(root, 'node_modules', ...platformPackage(platform, arch).split('/'), 'bin', platform === 'win32' ? 'rg.exe' : 'rg');
}

/** The npm package holding rg for one platform, as `@vscode/ripgrep` 1.18 names it: `@vscode/ripgrep-linux-x64`. */
export function platformPackage(platform: NodeJS.Platform, arch: string): string {
  return `@vscode/ripgrep-${platform}-${arch}`;
}

/**
 * Finds the rg binary to spawn. Order: the configured path; the binary of the `@vscode/ripgrep`
 * dependency ({@link packagedRipgrepPath}); the application root's bundled copies ({@link appRootCandidates}); then `rg` (`rg.exe` on Windows) in each directory of `pathEnv`.
 * A configured path that does not exist is skipped (and reported in `skipped`) rather than trusted.
 *
 * @returns the first candidate for which `exists` is true.
 * @throws ToolError SEARCH_FAILED naming every place tried, when none fits.
 */
export function locateRipgrep(places: RipgrepSearchPlaces): LocatedRipgrep {
  const tried: string[] = [];
  const attempt = (candidate: string, label: string): boolean => {
    if (places.exists(candidate)) return true;
    tried.push(`${candidate} (${label})`);
    return false;
  };
  const found = (p: string, source: LocatedRipgrep['source']): LocatedRipgrep => ({ path: p, source, skipped: [...tried] });

  if (places.configuredPath && attempt(places.configuredPath, 'configured path')) return found(places.configuredPath, 'configured');
  if (places.packageRoot) {
    const candidate = packagedRipgrepPath(places.packageRoot, places.platform, places.arch);
    if (attempt(candidate, 'the @vscode/ripgrep dependency')) return found(candidate, 'package');
  }
  if (places.appRoot) {
    for (const candidate of appRootCandidates(places.appRoot, places.platform, places.arch)) {
      if (attempt(candidate, 'bundled with the application')) return found(candidate, 'appRoot');
    }
  }
  const p = places.platform === 'win32' ? path.win32 : path.posix;
  const exe = places.platform === 'win32' ? 'rg.exe' : 'rg';
  const dirs = (places.pathEnv ?? '').split(places.platform === 'win32' ? ';' : ':').filter((d) => d !== '');
  for (const dir of dirs) {
    const candidate = p.join(dir, exe);
    if (places.exists(candidate)) return found(candidate, 'PATH');
  }
  tried.push(dirs.length ? `${exe} in the PATH directories ${dirs.join(', ')}` : `${exe} on PATH (PATH is empty)`);
  throw new ToolError(
    'SEARCH_FAILED',
    `ripgrep (rg) was not found. Places tried: ${tried.join('; ')}. Install ripgrep, or ${hostAdvice().ripgrepPath('the rg binary')}.`,
  );
}

/** True when `candidate` is a regular file this process may execute (on Windows: any regular file). */
export function isExecutableFile(candidate: string): boolean {
  try {
    if (!statSync(candidate).isFile()) return false;
    if (process.platform !== 'win32') accessSync(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The folder that holds `node_modules/@vscode/ripgrep-<platform>-<arch>` (the binary package `@vscode/ripgrep`
 * installs for this machine, {@link platformPackage}) as Node would find it from this module, for use as
 * {@link RipgrepSearchPlaces.packageRoot} by the CLI, the MCP server and the tests. Undefined when it is not
 * installed. It looks in the `node_modules` folders Node searches (`require.resolve.paths`), nearest first, for
 * the package's folder; unlike `require.resolve` it reads no `package.json`, which a CLI run would otherwise
 * spend milliseconds on.
 *
 * @param searchPaths `require.resolve.paths`, injectable for tests.
 */
export function packagedRipgrepRoot(
  searchPaths: (id: string) => string[] | null = require.resolve.paths,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | undefined {
  const name = platformPackage(platform, arch);
  for (const nodeModules of searchPaths(name) ?? []) {
    try {
      if (statSync(path.join(nodeModules, ...name.split('/'))).isDirectory()) return path.dirname(nodeModules);
    } catch {
      // not in this one
    }
  }
  return undefined;
}
