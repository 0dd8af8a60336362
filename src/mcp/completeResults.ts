import { randomBytes } from 'node:crypto';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { COMPLETE_RESULTS_KEPT, COMPLETE_RESULTS_MAX_CODE_UNITS } from '../core/spill';
import type { ToolName } from '../core/tool';

/** The URI scheme and path of the complete results the MCP server serves: `scout://result/<id>`. */
export const RESULT_URI_PREFIX = 'scout://result/';

/** One complete over-cap result the server holds for `resources/read`. */
export interface CompleteResult {
  /** `scout://result/<id>`, `<id>` 16 random hex digits, so a URI from an earlier server never names a newer result. */
  readonly uri: string;
  /** The result's self-describing first line (`spillHeading`): `Scout glob "*": 4,819 files, complete result`. */
  readonly title: string;
  readonly tool: ToolName;
  /** The complete text, starting with `title` and a blank line (what the CLI writes to its temp file). */
  readonly text: string;
}

/**
 * The complete results of this server's over-cap calls, served as MCP resources (issue 17): the newest
 * {@link COMPLETE_RESULTS_KEPT}, and at most {@link COMPLETE_RESULTS_MAX_CODE_UNITS} code units of text in all
 * (the newest always kept whole), as VS Code keeps its spill documents. Older ones are dropped; reading one
 * then fails with "not found". In memory only: nothing outlives the server process.
 */
export class CompleteResults {
  /** Oldest first. */
  private held: CompleteResult[] = [];
  private heldLength = 0;

  /** Keeps `text` under a new `scout://result/<id>` URI, releasing the oldest results beyond the bounds. */
  add(text: string, meta: { tool: ToolName; title: string }): CompleteResult {
    const result: CompleteResult = { uri: `${RESULT_URI_PREFIX}${randomBytes(8).toString('hex')}`, title: meta.title, tool: meta.tool, text };
    this.held.push(result);
    this.heldLength += text.length;
    while (this.held.length > 1 && (this.held.length > COMPLETE_RESULTS_KEPT || this.heldLength > COMPLETE_RESULTS_MAX_CODE_UNITS)) {
      this.heldLength -= this.held.shift()!.text.length;
    }
    return result;
  }

  /** The result behind `uri`, or undefined when it was never made here or has been released. */
  read(uri: string): CompleteResult | undefined {
    return this.held.find((r) => r.uri === uri);
  }

  /** The held results as MCP resources, newest first. */
  list(): Resource[] {
    return this.held.map(asResource).reverse();
  }
}

/** `result` as an MCP resource (also the shape of the `resource_link` a tool result carries). */
export function asResource(result: CompleteResult): Resource {
  return {
    uri: result.uri,
    name: result.title,
    description: `The complete result of a Scout ${result.tool} call, of which the tool result showed one page.`,
    mimeType: 'text/plain',
    size: Buffer.byteLength(result.text, 'utf8'),
  };
}
