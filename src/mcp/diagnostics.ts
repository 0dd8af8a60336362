import { cutAtCodePoint } from '../core/codePoints';

// The MCP server's diagnostics are lines on stderr, which clients show in their MCP log: one short line each,
// never a dump of zod issues or of a whole message.

/** The parts of a zod issue that {@link describeIssues} reads. */
export interface ZodIssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
  /** A union's issues, one list per branch; their paths are relative to the union's. */
  readonly errors?: readonly (readonly ZodIssueLike[])[];
}

/** Most characters of one diagnostic line (see {@link oneLineError}). */
const DIAGNOSTIC_MAX_CHARS = 300;

/**
 * The first problem zod found, on one line: `params.arguments: expected record, received string`. A union's
 * issue is described by the first issue of its first branch (the other branches are other message kinds).
 */
export function describeIssues(issues: readonly ZodIssueLike[]): string {
  let issue = issues[0];
  let path: readonly PropertyKey[] = issue?.path ?? [];
  while (issue?.code === 'invalid_union' && issue.errors?.[0]?.[0]) {
    issue = issue.errors[0][0];
    path = [...path, ...issue.path];
  }
  if (!issue) return 'not valid';
  const what = issue.message.replace(/^Invalid input: /, '');
  return path.length > 0 ? `${path.map(String).join('.')}: ${what}` : what;
}

/**
 * `e` as one short line: a zod error as its first issue ({@link describeIssues}), anything else as its message,
 * white space collapsed, cut at {@link DIAGNOSTIC_MAX_CHARS} characters.
 */
export function oneLineError(e: unknown): string {
  const issues = zodIssues(e);
  return oneLine(issues ? describeIssues(issues) : e instanceof Error ? e.message : String(e));
}

/**
 * An error the stdio transport or the SDK reports (`onerror`) as one short line: a line that is not JSON, one
 * that is not a JSON-RPC message (with the first reason), or any other error as {@link oneLineError}.
 */
export function describeTransportError(error: Error): string {
  const issues = zodIssues(error);
  if (issues) return oneLine(`skipped a line that is not a JSON-RPC 2.0 message (${describeMessageIssues(issues)})`);
  if (error instanceof SyntaxError) return oneLine(`skipped a line that is not JSON (${error.message})`);
  return oneLineError(error);
}

/** Why the SDK's `JSONRPCMessageSchema` refused a message (its `issues`), as one clause such as `params: expected object, received string`. */
export function describeMessageIssues(issues: readonly ZodIssueLike[]): string {
  // zod reports an id of the wrong type (null, 1.5, an object) as a key the notification schema does not know.
  const badId = issues[0]?.code === 'unrecognized_keys' && issues[0].path.length === 0 && (issues[0] as { keys?: unknown[] }).keys?.includes('id');
  return badId ? 'id: must be a string or an integer' : describeIssues(issues);
}

function zodIssues(e: unknown): ZodIssueLike[] | undefined {
  const issues = (e as { issues?: unknown } | null)?.issues;
  return Array.isArray(issues) ? (issues as ZodIssueLike[]) : undefined;
}

function oneLine(text: string): string {
  // An McpError made from another McpError's message repeats its prefix: `MCP error -32601: MCP error -32601: …`.
  const line = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(MCP error (-?\d+): )(?:MCP error \2: )+/, '$1');
  return line.length > DIAGNOSTIC_MAX_CHARS ? `${cutAtCodePoint(line, DIAGNOSTIC_MAX_CHARS - 1)}…` : line;
}
