// Entry of dist/mcp.js: `node dist/cli.js mcp` loads it (and with it the MCP SDK) only for that command.
import * as os from 'node:os';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { setHostAdvice } from '../core/hostAdvice';
import { MCP_ADVICE } from '../cli/advice';
import { stderrLogger } from '../cli/env';
import type { CliSettings } from '../cli/flags';
import { describeTransportError } from './diagnostics';
import { InputLines } from './inputLines';
import { STDIO_LINE_MAX_BYTES } from './messageSize';
import { createScoutServer } from './server';
import { GuardedTransport } from './transport';
import { tooBroadToSearch } from './workspace';

/**
 * The signals that end the server gracefully. SIGHUP and SIGQUIT are among them: a terminal or a client
 * closing its end sends SIGHUP, Ctrl-\ sends SIGQUIT, and their default action would end Node without
 * stopping rg, which runs in its own process group.
 */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/**
 * Serves Scout's tools over stdio (newline-delimited JSON-RPC on stdin/stdout; diagnostics on stderr, info
 * lines with `--verbose`) until the client closes stdin, the process gets SIGINT, SIGTERM, SIGHUP or SIGQUIT, or stdout
 * is gone (EPIPE: the client cannot hear the server any more). Closing cancels the calls still running; it
 * resolves once they have stopped (their rg processes killed). A second signal exits at once with status 130
 * (Node's exit hooks still kill rg).
 *
 * Input reaches the SDK's transport line by line through {@link InputLines}: a line over the SDK's limit is
 * refused (and its request answered with an error) instead of ending the server, and a line that is not a
 * JSON object gets JSON-RPC's parse error (-32700) or invalid request (-32600).
 *
 * @returns the exit status: 0 after stdin closed or a signal, 1 when stdout was gone or the connection closed
 *   for any other reason (said on stderr).
 */
export async function serveMcp(settings: CliSettings): Promise<number> {
  // This bundle holds its own copy of the core, so it sets the advice of its errors itself.
  setHostAdvice(MCP_ADVICE);
  const log = stderrLogger(settings.verbose);
  const cwd = process.cwd();
  const home = os.homedir();
  const { server, settled } = createScoutServer(settings, log, cwd, home);
  const lines = new InputLines(
    STDIO_LINE_MAX_BYTES,
    (line) => transport.rejectOverlong(line),
    (line) => transport.rejectUnreadable(line),
  );
  // InputLines passes one line of at most STDIO_LINE_MAX_BYTES per chunk; the transport's buffer gets room for two.
  const transport = new GuardedTransport(new StdioServerTransport(lines, process.stdout, { maxBufferSize: 2 * (STDIO_LINE_MAX_BYTES + 1) }), log);

  let exitCode: number | undefined;
  const close = (code: number): void => {
    if (exitCode !== undefined) return;
    exitCode = code;
    void server.close();
  };
  const onStdinEnd = (): void => close(0);
  const onSignal = (): void => {
    if (exitCode !== undefined) process.exit(130);
    close(0);
  };
  // Other stdout errors are thrown by the CLI's own handler.
  const onStdoutError = (e: NodeJS.ErrnoException): void => {
    if (e.code !== 'EPIPE' || exitCode !== undefined) return;
    log.warn('MCP: stdout is closed (EPIPE), so no answer can reach the client; the server stops');
    close(1);
  };
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  server.onerror = (e) => log.warn(`MCP: ${describeTransportError(e)}`);
  process.stdin.once('end', onStdinEnd);
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  process.stdout.on('error', onStdoutError);
  try {
    await server.connect(transport);
    process.stdin.pipe(lines);
    const tooBroad = settings.cwdGiven ? undefined : tooBroadToSearch(cwd, home);
    if (tooBroad) {
      log.warn(
        `started in ${cwd} (${tooBroad}) without --cwd: glob, grep and workspace_search search only the roots a client lists; add --cwd DIR to the server's arguments in the client's MCP configuration`,
      );
    }
    const fallback = tooBroad ? 'none' : cwd;
    log.info(`serving Scout's tools over MCP on stdio (workspace: ${settings.cwdGiven ? settings.cwd : `the client's roots, else ${fallback}`})`);
    await closed;
    if (exitCode === undefined) {
      log.error('MCP: the connection closed unexpectedly; the server stops');
      exitCode = 1;
    }
    process.stdin.unpipe(lines);
    process.stdin.pause();
    await settled();
    return exitCode;
  } finally {
    process.stdin.off('end', onStdinEnd);
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    process.stdout.off('error', onStdoutError);
  }
}
