import * as assert from 'node:assert/strict';
import type { ScoutConfig } from '../../src/core/config';
import { formatToolError, isToolError, type ToolError } from '../../src/core/errors';
import type { ScoutTool, ToolEnv, ToolOutput } from '../../src/core/tool';

/** How one tool call ended: a result, or a structured tool error. Anything else thrown is a bug. */
export type Outcome = { readonly output: ToolOutput } | { readonly error: ToolError };

/**
 * Calls `tool` the way the VS Code layer and the CLI do (`parse`, then `run`) and returns how it ended.
 * A throw that is not a `ToolError` is rethrown: every expected failure must be structured.
 */
export async function callTool(tool: ScoutTool<any, any>, input: unknown, env: ToolEnv, config: ScoutConfig = env.config): Promise<Outcome> {
  try {
    return { output: await tool.run(tool.parse(input, config), env) };
  } catch (e) {
    if (isToolError(e)) return { error: e };
    throw e;
  }
}

/**
 * Asserts that `outcome` is well formed: a result whose text is a string, whose value serialises to JSON,
 * whose counts are non-negative integers and whose spill locator (if any) is complete; or a tool error with
 * an upper-case code and a non-empty message, formatted as `Error: <message>\n(code: <CODE>)`.
 */
export function assertWellFormed(outcome: Outcome): void {
  if ('error' in outcome) {
    const { code, message } = outcome.error;
    assert.match(code, /^[A-Z][A-Z_]+$/);
    assert.ok(typeof message === 'string' && message.trim() !== '', `empty message for ${code}`);
    assert.equal(formatToolError(outcome.error), `Error: ${message}\n(code: ${code})`);
    return;
  }
  const { text, value, summary, spill } = outcome.output;
  assert.equal(typeof text, 'string');
  assert.equal(typeof JSON.stringify(value), 'string', 'the value must serialise to JSON');
  assert.equal(typeof summary.truncated, 'boolean');
  for (const key of ['matches', 'files', 'skipped'] as const) {
    const n = summary[key];
    assert.ok(n === undefined || (Number.isInteger(n) && n >= 0), `summary.${key} is ${n}`);
  }
  if (spill) assert.ok(typeof spill.uri === 'string' && typeof spill.hint === 'string', 'spill locator');
}

/** Every string of an outcome a model or a person can see: the text, the value as JSON, the error line. */
export function visibleTexts(outcome: Outcome): string[] {
  if ('error' in outcome) return [formatToolError(outcome.error)];
  return [outcome.output.text, JSON.stringify(outcome.output.value) ?? '', outcome.output.spill?.uri ?? ''];
}

/**
 * Asserts that none of `texts` contains `secret`, nor any run of at least `minRun` of its characters (so a
 * secret cut in half by a length limit still counts as leaked).
 */
export function assertNotLeaked(secret: string, texts: readonly string[], what: string, minRun = secret.length): void {
  const pieces = new Set<string>();
  for (let i = 0; i + minRun <= secret.length; i++) pieces.add(secret.slice(i, i + minRun));
  for (const text of texts) {
    for (const piece of pieces) {
      const at = text.indexOf(piece);
      if (at >= 0) assert.fail(`${what} leaked "${piece}" (part of the secret) in: …${text.slice(Math.max(0, at - 80), at + piece.length + 80)}…`);
    }
  }
}
