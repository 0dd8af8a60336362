import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/tool';
import { describeIssues, type ZodIssueLike } from './diagnostics';
import type { OverlongLine, UnreadableLine } from './inputLines';
import { MESSAGE_MAX_BYTES, messageBytes, STDIO_LINE_MAX_BYTES } from './messageSize';

/**
 * The requests whose params are checked here, before the SDK sees them, against the schema the SDK checks them
 * with: the SDK answers a failure with -32603 (internal error) and a multi-line dump of zod issues.
 */
const REQUEST_SCHEMAS: Readonly<Record<string, { safeParse(value: unknown): { success: boolean; error?: { issues: readonly ZodIssueLike[] } } }>> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
};

/**
 * Scout's stdio transport: the SDK's, with what the SDK leaves loose tightened around it,
 * without changing the SDK.
 *
 * Incoming:
 * - a request other than `initialize` or `ping` before `initialize` is refused (-32600, invalid request);
 * - a request whose params the SDK's schema rejects is refused with -32602 (invalid params) and a one-line
 *   reason, before the SDK would answer -32603 with a dump of zod issues;
 * - a line that is not JSON, or not a JSON-RPC message, is answered -32700 or -32600 ({@link rejectUnreadable}),
 *   where the SDK's transport would drop it without an answer.
 *
 * Outgoing:
 * - an error's message loses the `MCP error <code>: ` the SDK's `McpError` puts before it, which clients
 *   add again;
 * - a message whose JSON is over `maxMessageBytes` is never written: an answer becomes an error answer
 *   saying why, anything else is dropped with a warning. Clients built on the SDK drop a line over 10 MiB and
 *   close the connection.
 */
export class GuardedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private initializeSeen = false;

  constructor(
    private readonly inner: Transport,
    private readonly log: Logger,
    private readonly maxMessageBytes = MESSAGE_MAX_BYTES,
  ) {
    inner.onmessage = (message, extra) => this.receive(message, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // Told apart by their keys: the SDK's type guards would run a zod parse over every message, 8 MiB ones too.
    let out = 'error' in message ? withoutSdkPrefix(message) : message;
    const bytes = messageBytes(out);
    if (bytes > this.maxMessageBytes) {
      const answer = ('result' in out || 'error' in out) && out.id !== undefined ? out.id : undefined;
      if (answer === undefined) {
        this.log.warn(`MCP: dropped a message of ${mebibytes(bytes)} (${'method' in out ? out.method : 'an answer'}): over the ${mebibytes(this.maxMessageBytes)} Scout writes at once`);
        return;
      }
      this.log.warn(`MCP: the answer to request ${JSON.stringify(answer)} would be ${mebibytes(bytes)}, over the ${mebibytes(this.maxMessageBytes)} Scout writes at once; it sent an error instead`);
      out = errorAnswer(
        answer,
        ErrorCode.InternalError,
        `Scout's answer is ${mebibytes(bytes)} of JSON, more than the ${mebibytes(this.maxMessageBytes)} it writes as one message (MCP clients drop a stdio line over ${mebibytes(STDIO_LINE_MAX_BYTES)}), so it was not sent. Narrow the call, or lower the output limits the server was started with (--config search.grepMaxMatches, search.grepMaxLineBytes, search.globMaxResults, webFetch.fetchMaxOutputChars).`,
      );
    }
    return this.inner.send(out, options);
  }

  /**
   * Reports a line too long to read (see `InputLines`): a warning, and when the line held a request, an
   * error answer to it, so its client does not wait in vain.
   */
  rejectOverlong(line: OverlongLine): void {
    const answered = line.id === undefined ? '' : `; answered request ${JSON.stringify(line.id)} with an error`;
    this.log.warn(`MCP: skipped an input line of ${mebibytes(line.bytes)}, over the ${mebibytes(STDIO_LINE_MAX_BYTES)} limit of one message${answered}`);
    if (line.id === undefined) return;
    this.answerError(
      line.id,
      ErrorCode.InvalidRequest,
      `The request is ${mebibytes(line.bytes)} of JSON, more than the ${mebibytes(STDIO_LINE_MAX_BYTES)} Scout reads as one message, so it was not read. Send shorter arguments.`,
    );
  }

  /**
   * Answers a line that holds no message (see `InputLines`) as JSON-RPC 2.0 asks: -32700 (parse error) for
   * text that is not JSON, -32600 (invalid request) for JSON that is not one message, with the line's `id`
   * when it has a usable one, else `id` null. A warning names it on stderr.
   */
  rejectUnreadable(line: UnreadableLine): void {
    const { problem } = line;
    const what =
      problem === 'parse'
        ? 'is not JSON'
        : problem === 'not-object'
          ? 'is not one JSON-RPC message object (Scout takes no batches)'
          : `is not a JSON-RPC 2.0 message (${line.reason})`;
    this.log.warn(`MCP: answered an input line of ${line.bytes} bytes with an error: it ${what.replace(/ \(Scout takes no batches\)/, '')}`);
    const message = `${problem === 'parse' ? 'Parse error' : 'Invalid request'}: the line ${what}. Send each JSON-RPC message as one JSON object on its own line.`;
    // `id: null` where no id can be read, as JSON-RPC asks; the SDK's types (string or number ids) leave it out.
    const answer = { jsonrpc: '2.0', id: line.id ?? null, error: { code: problem === 'parse' ? ErrorCode.ParseError : ErrorCode.InvalidRequest, message } };
    this.inner.send(answer as unknown as JSONRPCErrorResponse).catch((e: unknown) => this.onerror?.(e instanceof Error ? e : new Error(String(e))));
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if ('method' in message && 'id' in message) {
      const refusal = this.refusal(message);
      if (refusal) {
        this.answerError(message.id, refusal.code, refusal.message);
        return;
      }
      if (message.method === 'initialize') this.initializeSeen = true;
    }
    this.onmessage?.(message, extra);
  }

  /** Why `request` is refused before the SDK sees it, or undefined when it may pass. */
  private refusal(request: JSONRPCRequest): { code: number; message: string } | undefined {
    const { method } = request;
    if (!this.initializeSeen && method !== 'initialize' && method !== 'ping') {
      return { code: ErrorCode.InvalidRequest, message: `The server is not initialized: send initialize first, then ${method}.` };
    }
    const schema = Object.hasOwn(REQUEST_SCHEMAS, method) ? REQUEST_SCHEMAS[method]! : undefined;
    const checked = schema?.safeParse(request);
    if (checked && !checked.success) return { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}: ${describeIssues(checked.error?.issues ?? [])}.` };
    return undefined;
  }

  private answerError(id: RequestId, code: number, message: string): void {
    this.send(errorAnswer(id, code, message)).catch((e: unknown) => this.onerror?.(e instanceof Error ? e : new Error(String(e))));
  }
}

function errorAnswer(id: RequestId, code: number, message: string): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** `message` without the `MCP error <code>: ` the SDK's `McpError` puts before its text (once or more). */
function withoutSdkPrefix(message: JSONRPCErrorResponse): JSONRPCErrorResponse {
  const prefix = `MCP error ${message.error.code}: `;
  let text = message.error.message;
  while (text.startsWith(prefix)) text = text.slice(prefix.length);
  return text === message.error.message ? message : { ...message, error: { ...message.error, message: text } };
}

function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}
