import { spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The CLI's entry point, run from source through tsx. */
export const CLI_MAIN = path.resolve(__dirname, '../../src/cli/main.ts');
/** tsx's loader, for `node --import`. */
export const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;

/**
 * Runs the CLI from source in the OS temp folder with `env` added to this process's environment less its
 * `SCOUT_*` variables (so a key or setting of the test process never leaks in). Asynchronous, so a loopback
 * server in this process keeps answering while the CLI waits for it.
 */
export function runCliAsync(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SCOUT_')));
  const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI_MAIN, ...args], { cwd: os.tmpdir(), env: { ...clean, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}
