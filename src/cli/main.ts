import { lstatSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { KEYED_WEB_SEARCH_PROVIDERS, webSearchKeyEnvVar, webSearchSecretName } from '../core/config';
import { formatToolError, isToolError, ToolError } from '../core/errors';
import { isExecutableFile, locateRipgrep, packagedRipgrepRoot } from '../core/ripgrep/locate';
import { findTool, TOOLS } from '../core/registry';
import type { Logger, SpillWriter, ToolEnv } from '../core/tool';
import { parseCommandLine, usage, UsageError, type CliSettings } from './flags';

/**
 * `node dist/cli.js <tool> ['<json args>'] [--cwd DIR] [--json] [--rg PATH] [--config KEY=VALUE] …`
 *
 * Runs one tool of the registry on a folder (the workspace) and prints the model text, or with `--json` the
 * canonical value. Exit status: 0 success, 1 tool error (its `Error: …` text is printed to stdout, as the
 * model would see it), 2 bad usage (the usage text goes to stderr). Ctrl-C cancels the run: the tool stops
 * its work (rg is killed) and reports its aborted error; a second Ctrl-C exits at once. A reader that closes
 * stdout early (`| head`) ends the CLI quietly: the rest of the output is dropped and the status is unchanged.
 */
async function main(argv: readonly string[]): Promise<number> {
  const tools = Object.keys(TOOLS);
  let line;
  try {
    line = parseCommandLine(argv, process.cwd());
    if (line.help) {
      process.stdout.write(`${usage(tools)}\n`);
      return 0;
    }
    if (!findTool(line.tool)) throw new UsageError(`unknown tool "${line.tool}".`);
    checkDirectory(line.settings.cwd);
    if (line.settings.rgPath !== undefined && !isExecutableFile(path.resolve(line.settings.rgPath))) {
      throw new UsageError(`--rg ${line.settings.rgPath} is not an executable file.`);
    }
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`scout: ${e.message}\n\n${usage(tools)}\n`);
    return 2;
  }
  const { settings } = line;
  let input: unknown = {};
  if (line.argumentsJson !== undefined) {
    try {
      input = JSON.parse(line.argumentsJson);
    } catch (e) {
      process.stderr.write(`scout: the arguments are not valid JSON (${(e as Error).message}).\n\n${usage(tools)}\n`);
      return 2;
    }
  }

  const abort = new AbortController();
  const onSignal = (): void => {
    if (abort.signal.aborted) process.exit(130);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const tool = findTool(line.tool)!;
    const args = tool.parse(input, settings.config);
    const output = await tool.run(args, cliEnv(settings, abort.signal));
    process.stdout.write(`${settings.json ? JSON.stringify(output.value) : output.text}\n`);
    return 0;
  } catch (e) {
    const error = isToolError(e) ? e : new ToolError('INTERNAL_ERROR', `Scout hit an internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.stdout.write(`${settings.json ? JSON.stringify({ error: { code: error.code, message: error.message } }) : formatToolError(error)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function checkDirectory(dir: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDirectory) throw new UsageError(`--cwd ${dir} is not a directory.`);
}

/** The environment of a CLI run: one workspace folder (the cwd), stderr logging, temp-file spill. */
function cliEnv(settings: CliSettings, signal: AbortSignal): ToolEnv {
  const cwd = path.resolve(settings.cwd);
  const log = stderrLogger(settings.verbose);
  let ripgrepPath: string | undefined;
  return {
    folders: [{ name: path.basename(cwd) || cwd, path: cwd }],
    config: settings.config,
    signal,
    log,
    // --rg (checked by main) is used as given. Otherwise located on first use, so tools that never run rg
    // do not need one; a failure is the tool's error.
    get ripgrepPath(): string {
      if (ripgrepPath === undefined && settings.rgPath !== undefined) {
        ripgrepPath = path.resolve(settings.rgPath);
        log.info(`using ripgrep ${ripgrepPath} (--rg)`);
      }
      if (ripgrepPath === undefined) {
        const found = locateRipgrep({
          appRoot: packagedRipgrepRoot(),
          platform: process.platform,
          arch: process.arch,
          pathEnv: process.env.PATH,
          exists: isExecutableFile,
        });
        for (const skipped of found.skipped) log.warn(`ripgrep not found at ${skipped}`);
        log.info(`using ripgrep ${found.path} (${found.source === 'appRoot' ? `bundled ${bundledPackage(found.path)}` : 'found on PATH'})`);
        ripgrepPath = found.path;
      }
      return ripgrepPath;
    },
    // With --json the complete value is printed, so nothing needs saving.
    ...(settings.json ? {} : { spill: tempFileSpill }),
    getSecret: async (name) => environmentSecret(name, process.env),
  };
}

/**
 * A web search API key outside VS Code: the secret `scout.webSearch.<provider>.apiKey` is read from the
 * environment variable `SCOUT_<PROVIDER>_API_KEY` (issue 5); undefined for any other name or an empty variable.
 */
function environmentSecret(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const provider = KEYED_WEB_SEARCH_PROVIDERS.find((p) => webSearchSecretName(p) === name);
  return (provider && env[webSearchKeyEnvVar(provider)]?.trim()) || undefined;
}

/** The npm package a bundled rg path lies in: `@vscode/ripgrep-universal`, or the legacy `@vscode/ripgrep`. */
function bundledPackage(rgPath: string): string {
  return rgPath.split(path.sep).includes('ripgrep-universal') ? '@vscode/ripgrep-universal' : '@vscode/ripgrep';
}

/** How long a CLI spill file is kept: older ones are deleted when the next spill is written. */
const SPILL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Saves a complete over-cap result as a new file `scout-spill-<tool>-<ms>-<pid>.txt` (mode 600) under the OS
 * temp folder (issue 2: the CLI's spill). First deletes this user's own spill files there last modified more
 * than {@link SPILL_MAX_AGE_MS} ago (regular files only, never a symlink; failures are ignored).
 */
const tempFileSpill: SpillWriter = async (text, meta) => {
  const dir = os.tmpdir();
  deleteOldSpills(dir, Date.now() - SPILL_MAX_AGE_MS);
  const file = path.join(dir, `scout-spill-${meta.tool}-${Date.now()}-${process.pid}.txt`);
  writeFileSync(file, text, { encoding: 'utf8', mode: 0o600, flag: 'wx' });
  return { uri: pathToFileURL(file).href, hint: `It is a plain text file at ${file}; read it to see every result.` };
};

function deleteOldSpills(dir: string, before: number): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^scout-spill-.*\.txt$/.test(name));
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const stat = lstatSync(file);
      if (stat.isFile() && stat.uid === process.getuid?.() && stat.mtimeMs < before) unlinkSync(file);
    } catch {
      // gone already, or not ours to delete
    }
  }
}

function stderrLogger(verbose: boolean): Logger {
  const write = (level: string) => (message: string) => process.stderr.write(`[${level}] ${message}\n`);
  const quiet = (): void => undefined;
  return { trace: verbose ? write('trace') : quiet, info: verbose ? write('info') : quiet, warn: write('warn'), error: write('error') };
}

/**
 * A reader that left (EPIPE on stdout or stderr, e.g. `| head -c 10`) is not an error of the run: further
 * output to that stream is dropped and the exit status stays the run's own. Any other stream error is thrown.
 */
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`scout: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
