import { spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The CLI's entry point, run from source through tsx. */
export const CLI_MAIN = path.resolve(__dirname, '../../src/cli/main.ts');
/** The built CLI as users run it (`node dist/cli.js`); `npm run build` makes it. */
export const DIST_CLI = path.resolve(__dirname, '../../dist/cli.js');
/** tsx's loader, for `node --import`. */
export const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;

/**
 * The environment of a CLI child process: this process's environment less its `SCOUT_*` variables (so a
 * key or setting of the test process never leaks in), plus `env`.
 */
export function cliEnvironment(env: Record<string, string> = {}): Record<string, string> {
  const clean = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => !e[0].startsWith('SCOUT_') && e[1] !== undefined));
  return { ...clean, ...env };
}

/**
 * Runs the CLI (from source, or `main` = {@link DIST_CLI}) in the OS temp folder with {@link cliEnvironment}(`env`).
 * Asynchronous, so a loopback server in this process keeps answering while the CLI waits for it.
 */
export function runCliAsync(args: string[], env: Record<string, string> = {}, main = CLI_MAIN): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, main, ...args], { cwd: os.tmpdir(), env: cliEnvironment(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}
