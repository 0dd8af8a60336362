import { randomBytes } from 'node:crypto';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { COMPLETE_RESULTS_KEPT, COMPLETE_RESULTS_MAX_CODE_UNITS } from '../core/spill';
import type { ToolName } from '../core/tool';
import { PART_MAX_JSON_BYTES, splitJsonParts } from './messageSize';

/** The URI scheme and path of the complete results the MCP server serves: `scout://result/<id>`. */
export const RESULT_URI_PREFIX = 'scout://result/';

/** A part's URI: `scout://result/<id>` for the first, `scout://result/<id>?part=<n>` (1-based) for the others. */
const PART_URI = /^scout:\/\/result\/([0-9a-f]{16})(?:\?part=([1-9]\d{0,5}))?$/;

/** One complete over-cap result the server holds for `resources/read`. */
export interface CompleteResult {
  /** `scout://result/<id>`, `<id>` 16 random hex digits, so a URI from an earlier server never names a newer result. */
  readonly uri: string;
  /** The result's self-describing first line (`spillHeading`): `Scout glob "*": 4,819 files, complete result`. */
  readonly title: string;
  readonly tool: ToolName;
  /**
   * The complete text (starting with `title` and a blank line, what the CLI writes to its temp file) in parts
   * served one per `resources/read`, each small enough for one message (see `splitJsonParts`). Joined in
   * order they are the text; nearly every result is one part.
   */
  readonly parts: readonly string[];
  /** The text's length in UTF-16 code units. */
  readonly length: number;
}

/** One part of a held result, as `resources/read` names it. */
export interface ResultPart {
  readonly result: CompleteResult;
  /** 1-based. */
  readonly part: number;
  readonly text: string;
}

/**
 * The complete results of this server's over-cap calls, served as MCP resources: the newest
 * {@link COMPLETE_RESULTS_KEPT}, and at most {@link COMPLETE_RESULTS_MAX_CODE_UNITS} code units of text in all
 * (the newest always kept whole), as VS Code keeps its spill documents. Older ones are dropped; reading one
 * then fails with "not found". In memory only: nothing outlives the server process.
 *
 * A result whose JSON would not fit one message is served in parts (`scout://result/<id>`, then `?part=2`, …):
 * a client's stdio reader drops a line over 10 MiB, and glob results of 15 MB are ordinary.
 */
export class CompleteResults {
  /** Oldest first. */
  private held: CompleteResult[] = [];
  private heldLength = 0;

  /** @param partMaxJsonBytes most bytes of JSON string in one part (default: what fits one message). */
  constructor(private readonly partMaxJsonBytes = PART_MAX_JSON_BYTES) {}

  /** Keeps `text` under a new `scout://result/<id>` URI, releasing the oldest results beyond the bounds. */
  add(text: string, meta: { tool: ToolName; title: string }): CompleteResult {
    const result: CompleteResult = {
      uri: `${RESULT_URI_PREFIX}${randomBytes(8).toString('hex')}`,
      title: meta.title,
      tool: meta.tool,
      parts: splitJsonParts(text, this.partMaxJsonBytes),
      length: text.length,
    };
    this.held.push(result);
    this.heldLength += result.length;
    while (this.held.length > 1 && (this.held.length > COMPLETE_RESULTS_KEPT || this.heldLength > COMPLETE_RESULTS_MAX_CODE_UNITS)) {
      this.heldLength -= this.held.shift()!.length;
    }
    return result;
  }

  /**
   * The part behind `uri` (`scout://result/<id>` is part 1, as is `…?part=1`), or undefined when it was never
   * made here, has been released, or the result has no such part.
   */
  read(uri: string): ResultPart | undefined {
    const match = PART_URI.exec(uri);
    if (!match) return undefined;
    const result = this.held.find((r) => r.uri === `${RESULT_URI_PREFIX}${match[1]}`);
    const part = match[2] === undefined ? 1 : Number(match[2]);
    const text = result?.parts[part - 1];
    return result && text !== undefined ? { result, part, text } : undefined;
  }

  /** Every part of the held results as MCP resources, newest result first, its parts in order. */
  list(): Resource[] {
    return [...this.held].reverse().flatMap((result) => result.parts.map((_, i) => asResource(result, i + 1)));
  }
}

/** The URI of part `part` (1-based) of `result`. */
export function partUri(result: CompleteResult, part: number): string {
  return part === 1 ? result.uri : `${result.uri}?part=${part}`;
}

/**
 * Part `part` (1-based) of `result` as an MCP resource (also the shape of the `resource_link`s a tool result
 * carries). The name and description of a result in several parts say which part it is and how to read on.
 */
export function asResource(result: CompleteResult, part: number): Resource {
  const count = result.parts.length;
  const whole = `the complete result of a Scout ${result.tool} call, of which the tool result showed one page`;
  return {
    uri: partUri(result, part),
    name: count === 1 ? result.title : `${result.title} (part ${part} of ${count})`,
    description: count === 1 ? `${whole[0]!.toUpperCase()}${whole.slice(1)}.` : `Part ${part} of ${count} of ${whole}. Read ${partsInOrder(result)} in order.`,
    mimeType: 'text/plain',
    size: Buffer.byteLength(result.parts[part - 1]!, 'utf8'),
  };
}

/**
 * The words a footer uses to send a reader to the resource: `the MCP resource scout://result/<id>`, and for a
 * result in several parts `the MCP resources scout://result/<id>, then …?part=2 to …?part=N, in order`.
 */
export function readingAdvice(result: CompleteResult): string {
  return result.parts.length === 1 ? `the MCP resource ${result.uri}` : `the MCP resources ${partsInOrder(result)}, in order (it is served in ${result.parts.length} parts)`;
}

/** `scout://result/<id> and scout://result/<id>?part=2`, or `… then scout://result/<id>?part=2 to …?part=N`. */
function partsInOrder(result: CompleteResult): string {
  const count = result.parts.length;
  return count === 2 ? `${result.uri} and ${partUri(result, 2)}` : `${result.uri}, then ${partUri(result, 2)} to ${partUri(result, count)}`;
}
