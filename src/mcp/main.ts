// Entry of dist/mcp.js: `node dist/cli.js mcp` loads it (and with it the MCP SDK) only for that command.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { stderrLogger } from '../cli/env';
import type { CliSettings } from '../cli/flags';
import { createScoutServer } from './server';

/**
 * Serves Scout's tools over stdio (newline-delimited JSON-RPC on stdin/stdout; diagnostics on stderr, info
 * lines with `--verbose`) until the client closes stdin or the process gets SIGINT/SIGTERM. Closing cancels
 * the calls still running; it resolves once they have stopped (their rg processes killed). A second signal
 * exits at once with status 130.
 */
export async function serveMcp(settings: CliSettings): Promise<void> {
  const log = stderrLogger(settings.verbose);
  const cwd = process.cwd();
  const { server, settled } = createScoutServer(settings, log, cwd);
  let closing = false;
  const close = (): void => {
    if (closing) return;
    closing = true;
    void server.close();
  };
  const onSignal = (): void => {
    if (closing) process.exit(130);
    close();
  };
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  // A message that is not JSON-RPC, or a failed write: logged on one line, and the server goes on.
  server.onerror = (e) => log.warn(`MCP: ${e.message.replace(/\s+/g, ' ')}`);
  process.stdin.once('end', close);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await server.connect(new StdioServerTransport());
    log.info(`serving Scout's tools over MCP on stdio (workspace: ${settings.cwdGiven ? settings.cwd : `the client's roots, else ${cwd}`})`);
    await closed;
    await settled();
  } finally {
    process.stdin.off('end', close);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
