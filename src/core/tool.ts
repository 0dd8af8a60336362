import type { ScoutConfig } from './config';
import type { WorkspaceFolderRef } from './workspace/folders';
import type { HttpAgents } from './web/http/client';

/** The five tool names; also the `name`s in `contributes.languageModelTools`. */
export type ToolName = 'glob' | 'grep' | 'workspace_search' | 'web_search' | 'web_fetch';

/** Where a complete over-cap result was saved, and how a model reads it back. */
export interface SpillLocator {
  /** A URI string (`scout-result:…` in VS Code, `file://…` from the CLI). */
  readonly uri: string;
  /** One sentence telling the model how to read the document. */
  readonly hint: string;
}

/**
 * The complete formatted text of an over-cap result, as pieces to be read once, in order: joined, they are the
 * text (a plain string is not one: it would iterate by character). A tool makes them as they are read and never splits a character (or a surrogate pair) between two
 * pieces, so a host can write them out one by one and the complete text never has to be one string.
 */
export type SpillText = IterableIterator<string> | readonly string[];

/**
 * Saves the complete formatted text of an over-cap result. `text` starts with `meta.title`, the result's
 * self-describing first line (`spillHeading` in spill.ts). Rejects when it cannot; callers keep the inline page.
 */
export type SpillWriter = (text: SpillText, meta: { tool: ToolName; title: string; language?: SpillLanguage }) => Promise<SpillLocator>;

/**
 * The language a complete result is written in, for a host that shows it (VS Code's language id of the
 * document): `markdown` for web_fetch's Markdown; absent means plain text.
 */
export type SpillLanguage = 'markdown';

/** A sink for diagnostics (the VS Code `LogOutputChannel`, or stderr in the CLI). Never given secrets. */
export interface Logger {
  trace(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Everything a tool run may use from its host. */
export interface ToolEnv {
  /** Open workspace folders, the first being the default workdir. Empty when none is open. */
  readonly folders: readonly WorkspaceFolderRef[];
  readonly config: ScoutConfig;
  /** Fires when the caller cancels; tools must stop their work (kill processes, abort requests). */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Absolute path of the rg binary to spawn (resolved by the host). */
  readonly ripgrepPath: string;
  /** Saves over-cap results; absent when the host has nowhere to save them. */
  readonly spill?: SpillWriter;
  /**
   * Optional progress messages for long work (shown by `withProgress`), with `counts` when the work is
   * countable: `done` of `total` units so far (an MCP client gets them as `progress` and `total`).
   */
  readonly progress?: (message: string, counts?: { readonly done: number; readonly total: number }) => void;
  /** Reads an API key for a web search provider; keys never reach logs or results. */
  readonly getSecret?: (name: string) => Promise<string | undefined>;
  /**
   * Agents for web requests (web_fetch, web_search), per scheme; absent means Node's global agents. The VS
   * Code layer passes none: the extension host applies the user's proxy settings to every request anyway
   * (see `HttpAgents`).
   */
  readonly httpAgent?: HttpAgents;
}

/** Counts shown on a result card; each field only where it applies to the tool. */
export interface RunSummary {
  matches?: number;
  files?: number;
  skipped?: number;
  truncated: boolean;
}

/** A finished tool call: the text a model sees plus the canonical value behind it. */
export interface ToolOutput<V = unknown> {
  /** Exactly what the model sees. */
  readonly text: string;
  /** The canonical, JSON-serialisable value (`--json` in the CLI, cards in the panel). */
  readonly value: V;
  readonly summary: RunSummary;
  /** Set when the complete result was saved out of line. */
  readonly spill?: SpillLocator;
}

/**
 * One Scout tool, independent of VS Code.
 * `parse` validates untrusted input (from a model or a person) and throws `ToolError('INVALID_ARGUMENT')`;
 * `run` performs the call and throws `ToolError` for every expected failure.
 */
export interface ScoutTool<A = unknown, V = unknown> {
  readonly name: ToolName;
  parse(input: unknown, config: ScoutConfig): A;
  run(args: A, env: ToolEnv): Promise<ToolOutput<V>>;
}
