import * as os from 'node:os';
import { pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { formatToolError, isToolError, quoteValue, ToolError } from '../core/errors';
import { findTool } from '../core/registry';
import { COMPLETE_RESULTS_KEPT, spillString } from '../core/spill';
import type { Logger, ScoutTool, SpillWriter, ToolEnv } from '../core/tool';
import { tempFolderAdvice } from '../cli/advice';
import { environmentSecret, ripgrepLocator, TempFolderError, writeSpillFile } from '../cli/env';
import type { CliSettings } from '../cli/flags';
import { asResource, CompleteResults, readingAdvice, type CompleteResult } from './completeResults';
import { mcpToolList, WEB_TOOLS } from './toolList';
import { McpWorkspace } from './workspace';
import manifest from '../../package.json';

/**
 * ms the server waits for the client to answer `roots/list` (unless `--roots-timeout` says otherwise) before
 * it works without the client's roots.
 */
const ROOTS_TIMEOUT_MS = 10_000;

/**
 * The answer to `roots/list` as Scout reads it: the SDK's own schema (`ListRootsResultSchema`) refuses the whole
 * list when one root is not a `file://` URI, which would lose the good roots with the bad; Scout takes every
 * root's URI and skips the ones that name no local folder itself, with a warning (see `McpWorkspace`).
 */
const LenientRootsResult = z.looseObject({ roots: z.array(z.looseObject({ uri: z.string(), name: z.optional(z.string()) })) });

/** JSON-RPC error code of an unknown resource (the MCP specification's "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002;

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Scout's MCP server before it is connected to a transport. */
export interface ScoutServer {
  readonly server: Server;
  /** Resolves when every tool call in progress has finished (after a close, once their cancelled work stopped). */
  settled(): Promise<void>;
}

/**
 * Scout's five tools as an MCP server, on the SDK's low-level `Server` so the input schemas
 * served are package.json's JSON Schemas as they are (see {@link mcpToolList}).
 *
 * - `tools/call` validates the arguments with the tool's own parser and runs it with the command line's
 *   settings (`--config`, `--provider`, `--allow-private-host`, …), API keys from the environment, and the
 *   workspace of {@link McpWorkspace} (asked for only by the tools that search it). The result is exactly the
 *   tool's text; a failure is an `isError` result holding the same `Error: …` / `(code: …)` text as the CLI
 *   and VS Code. An unknown tool name is a protocol error (`InvalidParams`), as the specification asks.
 * - `notifications/cancelled` aborts the call's signal: rg is killed, requests and workers are stopped.
 * - With a `progressToken`, each progress message of the tool becomes a `notifications/progress`, with
 *   `total` when the tool counts its work (workspace_search's files).
 * - An over-cap result is saved to a temp file as the CLI does, and kept as a `scout://result/<id>` resource
 *   (`resources/list`, `resources/read`) that the tool result links to (`resource_link`); a result too big
 *   for one message is served in parts, each linked.
 *
 * @param cwd the process's working directory; `home` the user's home folder (both refused as an implicit
 *   workspace, see {@link McpWorkspace}).
 */
export function createScoutServer(settings: CliSettings, log: Logger, cwd: string, home = os.homedir()): ScoutServer {
  const server = new Server(
    { name: 'scout', title: 'Scout', version: manifest.version },
    { capabilities: { tools: {}, resources: { listChanged: true } } },
  );
  const tools = mcpToolList();
  const results = new CompleteResults();
  const ripgrep = ripgrepLocator(settings.rgPath, log);
  const workspace = new McpWorkspace({
    ...(settings.cwdGiven ? { given: settings.cwd } : {}),
    cwd,
    home,
    log,
    source: {
      supported: () => server.getClientCapabilities()?.roots !== undefined,
      list: async () => (await server.request({ method: 'roots/list' }, LenientRootsResult, { timeout: settings.rootsTimeoutMs ?? ROOTS_TIMEOUT_MS })).roots,
    },
  });
  const running = new Set<Promise<unknown>>();

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const tool = findTool(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Scout has no tool named ${quoteValue(name)}; its tools are ${tools.map((t) => t.name).join(', ')}.`);
    const call = callTool(tool, request.params.arguments ?? {}, extra);
    running.add(call);
    try {
      return await call;
    } finally {
      running.delete(call);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: results.list() }));
  // Results are made by tool calls, never by filling in a template; clients that ask get an empty list.
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    const found = results.read(uri);
    if (!found) {
      throw new McpError(
        RESOURCE_NOT_FOUND,
        `Scout holds no complete result at ${quoteValue(uri)}: it keeps the ${COMPLETE_RESULTS_KEPT} newest, only while the server runs. Call the tool again to make it anew.`,
        { uri },
      );
    }
    return { contents: [{ uri, mimeType: 'text/plain', text: found.text }] };
  });
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => workspace.rootsChanged());

  async function callTool(tool: ScoutTool<unknown, unknown>, input: unknown, extra: CallExtra): Promise<CallToolResult> {
    const started = Date.now();
    log.info(`${tool.name}: called`);
    let saved: CompleteResult | undefined;
    const spill: SpillWriter = async (text, meta) => {
      saved = results.add(spillString(text), meta);
      server.sendResourceListChanged().catch(() => undefined);
      return spillLocator(saved, log);
    };
    // Which of the client's roots were skipped, told in the result (an error too: it may be why a path is missing).
    let note: string | undefined;
    try {
      const args = tool.parse(input, settings.config);
      // The web tools never read the workspace: they need no roots, and work without any.
      const { folders, note: skipped } = WEB_TOOLS.includes(tool.name) ? { folders: [], note: undefined } : await workspace.folders();
      note = skipped;
      const env: ToolEnv = {
        folders,
        config: settings.config,
        signal: extra.signal,
        log,
        get ripgrepPath(): string {
          return ripgrep();
        },
        spill,
        ...progressReporter(extra),
        getSecret: async (secret) => environmentSecret(secret, process.env),
      };
      const output = await tool.run(args, env);
      log.info(`${tool.name}: done in ${Date.now() - started} ms`);
      const links = saved && output.spill ? saved.parts.map((_, i) => ({ type: 'resource_link' as const, ...asResource(saved!, i + 1) })) : [];
      const text = note ? `${output.text}\n\n${note}` : output.text;
      return { content: [{ type: 'text', text }, ...links] };
    } catch (e) {
      const error = isToolError(e) ? e : internalError(e, log);
      log.info(`${tool.name}: ${error.code} in ${Date.now() - started} ms`);
      const text = formatToolError(error);
      return { content: [{ type: 'text', text: note ? `${text}\n\n${note}` : text }], isError: true };
    }
  }

  return {
    server,
    settled: async () => {
      await Promise.allSettled([...running]);
    },
  };
}

/**
 * Where the footer of an over-cap result points: the temp file the CLI would write (the file is the
 * locator, the resource, or its parts, named in the hint), or the `scout://result/<id>` resource alone when
 * the file cannot be written.
 */
function spillLocator(result: CompleteResult, log: Logger): { uri: string; hint: string } {
  try {
    const file = writeSpillFile(result.parts, result.tool);
    return { uri: pathToFileURL(file).href, hint: `It is a plain text file at ${file}; read it to see every result, or read ${readingAdvice(result)}.` };
  } catch (e) {
    const why = e instanceof TempFolderError ? `${e.message}; to have it written, ${tempFolderAdvice(true)}` : e instanceof Error ? e.message : String(e);
    log.warn(`${result.tool}: the complete result could not be written to a temp file (${why}); it is served only as ${result.uri}`);
    return { uri: result.uri, hint: result.parts.length === 1 ? 'Read that MCP resource to see every result.' : `Read ${readingAdvice(result)} to see every result.` };
  }
}

/**
 * `progress` for a call whose request carries a `progressToken`: each message becomes `notifications/progress`,
 * its `progress` the tool's count of work done (and `total`) when it gives one, else one more than the last.
 * A message that would not raise `progress` is not sent: the specification asks it to increase every time.
 */
function progressReporter(extra: CallExtra): Pick<ToolEnv, 'progress'> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return {};
  let last = 0;
  return {
    progress: (message, counts) => {
      const progress = counts ? counts.done : last + 1;
      if (!(progress > last)) return;
      last = progress;
      const params = { progressToken, progress, ...(counts ? { total: counts.total } : {}), message };
      extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
    },
  };
}

function internalError(e: unknown, log: Logger): ToolError {
  log.error(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return new ToolError('INTERNAL_ERROR', `Scout hit an internal error (${e instanceof Error ? e.message : String(e)}). The details are in the Scout MCP server's log (its stderr).`);
}
