import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult, type Root } from '@modelcontextprotocol/sdk/types.js';
import { cliEnvironment, DIST_CLI, runCliAsync } from '../../helpers/cli';

const REPO = path.resolve(__dirname, '../../..');

/**
 * Fails unless dist/cli.js and dist/mcp.js are newer than every source file they are built from: these tests
 * drive the built server (`node dist/cli.js mcp`), as clients run it. `npm test` builds first.
 */
export function requireFreshBuild(): void {
  const newestSource = (dir: string): number =>
    Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newestSource(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).mtimeMs)));
  const sources = Math.max(statSync(path.join(REPO, 'package.json')).mtimeMs, ...['core', 'cli', 'mcp'].map((d) => newestSource(path.join(REPO, 'src', d))));
  for (const bundle of ['cli.js', 'mcp.js']) {
    let built = 0;
    try {
      built = statSync(path.join(REPO, 'dist', bundle)).mtimeMs;
    } catch {
      // missing: reported below
    }
    assert.ok(built >= sources, `dist/${bundle} is missing or older than the sources: run npm run build first`);
  }
}

/** A connected MCP client of a Scout server child process. */
export interface ScoutSession {
  readonly client: Client;
  /** The server process's id. */
  readonly pid: number;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** How many `roots/list` requests the server sent. */
  readonly rootsRequests: number;
  /** Replaces the roots the client lists and sends `notifications/roots/list_changed`. */
  setRoots(roots: Root[]): Promise<void>;
  /** Closes the client, which ends the server (stdin closed). */
  close(): Promise<void>;
}

/** How a test client answers `roots/list`: with roots, or by throwing (an error answer), or never. */
export type RootsHandler = () => { roots: Root[] } | Promise<{ roots: Root[] }>;

/**
 * Starts `node dist/cli.js mcp ...args` in `cwd` (default: the OS temp folder) with {@link cliEnvironment}(`env`)
 * and connects the SDK's own client to it over stdio. With `roots` (or `rootsHandler`), the client declares the
 * roots capability (with `listChanged`) and answers `roots/list` with them (or as the handler does).
 */
export async function connectScout(
  options: { args?: string[]; cwd?: string; env?: Record<string, string>; roots?: Root[]; rootsHandler?: RootsHandler } = {},
): Promise<ScoutSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DIST_CLI, 'mcp', ...(options.args ?? [])],
    cwd: options.cwd ?? os.tmpdir(),
    env: cliEnvironment(options.env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let roots = options.roots;
  let rootsRequests = 0;
  const handler = options.rootsHandler ?? (roots ? () => ({ roots: roots! }) : undefined);
  const client = new Client({ name: 'scout-test', version: '1.0.0' }, { capabilities: handler ? { roots: { listChanged: true } } : {} });
  if (handler) {
    client.setRequestHandler(ListRootsRequestSchema, () => {
      rootsRequests += 1;
      return handler();
    });
  }
  await client.connect(transport);
  return {
    client,
    pid: transport.pid!,
    stderr: () => stderr,
    get rootsRequests() {
      return rootsRequests;
    },
    async setRoots(next) {
      roots = next;
      await client.sendRootsListChanged();
    },
    close: () => client.close(),
  };
}

/** The text of a tool result that holds one text item first; asserts that shape. */
export function textOf(result: CallToolResult | Record<string, unknown>): string {
  const content = (result as CallToolResult).content;
  assert.ok(Array.isArray(content) && content.length > 0, JSON.stringify(result));
  const first = content[0]!;
  assert.equal(first.type, 'text');
  return (first as { text: string }).text;
}

/**
 * What `node dist/cli.js <tool> '<input>' ...args` prints (its stdout less the final newline) and its exit
 * status: the model text the MCP server must return for the same call.
 */
export async function cliText(tool: string, input: unknown, args: string[] = [], env: Record<string, string> = {}): Promise<{ status: number | null; text: string }> {
  const r = await runCliAsync([tool, JSON.stringify(input), ...args], env, DIST_CLI);
  assert.equal(r.stdout.endsWith('\n'), true, `${tool}: ${r.stdout}${r.stderr}`);
  return { status: r.status, text: r.stdout.slice(0, -1) };
}

/** A Scout server spoken to as raw text, without the SDK (see {@link rawServer}). */
export interface RawServer {
  /** The server process's id. */
  readonly pid: number;
  /** Writes `text` to the server's stdin as it is (false when stdin is full, as `write` says). */
  write(text: string): boolean;
  /** Writes each message as one line of JSON. */
  send(...messages: unknown[]): void;
  /** Waits (at most 400 × 25 ms) until stdout holds the reply with this `id`, and returns it. */
  reply(id: number | string): Promise<Record<string, unknown>>;
  /** What the server wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Closes stdin and resolves with the exit status and everything written. */
  end(): Promise<{ status: number | null; stdout: string; stderr: string }>;
  /** Resolves with the exit status (and the signal) once the process has exited. */
  readonly exited: Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
  /** Destroys the test's end of the server's stdout: its next write fails with EPIPE. */
  closeStdout(): void;
}

/** `initialize` as a client without capabilities sends it (id 1). */
export const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-client', version: '0.0.1' } } };

/** `node dist/cli.js mcp ...args` in `cwd` (default: the OS temp folder), spoken to as raw text: lines in, stdout and stderr out. */
export function rawServer(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): RawServer {
  const server = spawn(process.execPath, [DIST_CLI, 'mcp', ...args], { cwd: options.cwd ?? os.tmpdir(), env: cliEnvironment(options.env) });
  let stdout = '';
  let stderr = '';
  server.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  server.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  server.stdin.on('error', () => undefined);
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) => server.on('close', (status, signal) => resolve({ status, signal })));
  const replies = (): Record<string, unknown>[] =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    pid: server.pid!,
    write: (text) => server.stdin.write(text),
    send: (...messages) => void server.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join('')),
    async reply(id) {
      for (let i = 0; i < 400; i++) {
        const found = replies().find((r) => r.id === id && ('result' in r || 'error' in r));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.fail(`no reply with id ${JSON.stringify(id)}; stdout: ${stdout.slice(0, 2000)}; stderr: ${stderr}`);
    },
    stdout: () => stdout,
    stderr: () => stderr,
    async end() {
      server.stdin.end();
      const { status } = await exited;
      return { status, stdout, stderr };
    },
    exited,
    closeStdout: () => server.stdout.destroy(),
  };
}

/** Waits (at most `tries` × 50 ms) until `done()` holds; returns whether it did. */
export async function eventually(done: () => boolean, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}
