import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { formatToolError, isToolError, ToolError } from '../core/errors';
import { isExecutableFile } from '../core/ripgrep/locate';
import type { ToolEnv, ToolName } from '../core/tool';
import { setHostAdvice } from '../core/hostAdvice';
import { CLI_ADVICE } from './advice';
import { environmentSecret, folderAt, ripgrepLocator, stderrLogger, tempFileSpill } from './env';
import { MCP_COMMAND, parseCommandLine, usage, UsageError, type CliSettings } from './flags';
import { CLI_TOOL_NAMES, isCliTool, loadTool } from './tools';

/**
 * The signals that cancel a running tool (a second one ends the process). SIGHUP and SIGQUIT are among them:
 * a closed terminal or Ctrl-\ would otherwise end Node at once, before its rg (in a process group of its own,
 * so the terminal's signal never reaches it) is stopped, and an rg that prints nothing for a while (a slow
 * pattern) would search on for nobody.
 */
const CANCEL_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/**
 * `node dist/cli.js <tool> ['<json args>'] [--cwd DIR] [--json] [--rg PATH] [--config KEY=VALUE] …`, or
 * `node dist/cli.js mcp [options]` to serve every tool to MCP clients over stdio until stdin closes
 * (`serveMcp`, loaded from its own bundle dist/mcp.js only for that command).
 *
 * Runs one tool of the registry on a folder (the workspace) and prints the model text, or with `--json` the
 * canonical value. Exit status: 0 success, 1 tool error (its `Error: …` text is printed to stdout, as the
 * model would see it), 2 bad usage (the usage text goes to stderr). Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) cancels the
 * run: the tool stops its work (rg is killed) and reports its aborted error; a second one exits at once. A reader that closes
 * stdout early (`| head`) ends the CLI quietly: the rest of the output is dropped and the status is unchanged.
 */
async function main(argv: readonly string[]): Promise<number> {
  setHostAdvice(CLI_ADVICE);
  const tools = CLI_TOOL_NAMES;
  let line;
  try {
    line = parseCommandLine(argv, process.cwd());
    if (line.help) {
      process.stdout.write(`${usage(tools, undefined, line.tool === MCP_COMMAND ? MCP_COMMAND : undefined)}\n`);
      return 0;
    }
    if (line.tool === MCP_COMMAND) {
      if (line.argumentsJson !== undefined) throw new UsageError(`${MCP_COMMAND} takes no JSON arguments: each client call brings its own.`);
      if (line.settings.json) throw new UsageError(`--json does not apply to ${MCP_COMMAND}: a client receives the model text of every call.`);
    } else if (!isCliTool(line.tool)) {
      throw new UsageError(`unknown tool "${line.tool}".`);
    } else if (line.settings.rootsTimeoutMs !== undefined) {
      throw new UsageError(`--roots-timeout applies only to ${MCP_COMMAND}: a one-shot run has no client to ask for roots.`);
    }
    checkDirectory(line.settings.cwd);
    if (line.settings.rgPath !== undefined && !isExecutableFile(path.resolve(line.settings.rgPath))) {
      throw new UsageError(`--rg ${line.settings.rgPath} is not an executable file.`);
    }
    if (line.settings.rgPath !== undefined) checkRipgrep(path.resolve(line.settings.rgPath), line.settings.rgPath);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`scout: ${e.message}\n\n${usage(tools)}\n`);
    return 2;
  }
  const { settings } = line;
  if (line.tool === MCP_COMMAND) {
    // Loaded only here: esbuild maps this require to the separate bundle ./mcp.js (esbuild.mjs), so a
    // one-shot tool run never loads the MCP SDK.
    const { serveMcp } = require('../mcp/main') as typeof import('../mcp/main');
    return serveMcp(settings);
  }
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
  for (const sig of CANCEL_SIGNALS) process.on(sig, onSignal);
  try {
    const tool = loadTool(line.tool as ToolName);
    const args = tool.parse(input, settings.config);
    const output = await tool.run(args, cliEnv(settings, abort.signal));
    process.stdout.write(`${settings.json ? JSON.stringify(output.value) : output.text}\n`);
    return 0;
  } catch (e) {
    // The result is what a model would see: the message only. The stack (file paths of this machine) goes to stderr.
    if (!isToolError(e)) process.stderr.write(`scout: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    const error = isToolError(e) ? e : new ToolError('INTERNAL_ERROR', `Scout hit an internal error (${e instanceof Error ? e.message : String(e)}). The details are on stderr.`);
    process.stdout.write(`${settings.json ? JSON.stringify({ error: { code: error.code, message: error.message } }) : formatToolError(error)}\n`);
    return 1;
  } finally {
    for (const sig of CANCEL_SIGNALS) process.off(sig, onSignal);
  }
}

/**
 * Checks that `binary` (as given, `shown`) is ripgrep, by its `--version`. Another program can exit 0 or 1
 * with no output (`--rg /bin/false`), which would read as "No files found" or "No matches found".
 * @throws UsageError when it fails to run within 10 s or its version line does not start with "ripgrep "
 */
function checkRipgrep(binary: string, shown: string): void {
  let version = '';
  try {
    version = execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 });
  } catch {
    // Not ripgrep either way: said below.
  }
  if (!version.startsWith('ripgrep ')) {
    throw new UsageError(`--rg ${shown} is not ripgrep: its --version did not print "ripgrep <version>". Pass the path of ripgrep 13 or later.`);
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
  const log = stderrLogger(settings.verbose);
  const ripgrep = ripgrepLocator(settings.rgPath, log);
  return {
    folders: [folderAt(settings.cwd)],
    config: settings.config,
    signal,
    log,
    // --rg (checked by main) is used as given. Otherwise located on first use, so tools that never run rg
    // do not need one; a failure is the tool's error.
    get ripgrepPath(): string {
      return ripgrep();
    },
    // With --json the complete value is printed, so nothing needs saving.
    ...(settings.json ? {} : { spill: tempFileSpill }),
    getSecret: async (name) => environmentSecret(name, process.env),
  };
}

/**
 * A reader that left is not an error of the run: EPIPE on stdout or stderr (`| head -c 10`), or EIO (the
 * terminal was closed; Node then aborted on the error thrown here). Further output to that stream is dropped
 * and the exit status stays the run's own. Any other stream error is thrown.
 */
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'EIO') throw e;
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
