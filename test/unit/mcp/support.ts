import * as assert from 'node:assert/strict';
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

/**
 * Starts `node dist/cli.js mcp ...args` in `cwd` (default: the OS temp folder) with {@link cliEnvironment}(`env`)
 * and connects the SDK's own client to it over stdio. With `roots`, the client declares the roots capability
 * (with `listChanged`) and answers `roots/list` with them.
 */
export async function connectScout(options: { args?: string[]; cwd?: string; env?: Record<string, string>; roots?: Root[] } = {}): Promise<ScoutSession> {
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
  const client = new Client({ name: 'scout-test', version: '1.0.0' }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => {
      rootsRequests += 1;
      return { roots: roots! };
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
