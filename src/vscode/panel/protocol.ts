/**
 * The message protocol between the Scout Results panel (the webview, `media/panel.js`) and the extension.
 *
 * Everything here is plain JSON. The webview script mirrors these types by hand (it is plain JS), so a
 * change here must be made there too; {@link PROTOCOL_VERSION} guards against a stale script.
 *
 * Flow: the webview posts `ready`; the extension answers with `cards` (the whole list) and from then on
 * pushes `card` (one card added or changed), `cards` (the list changed) and `reveal` (focus a card). A
 * user action is a `request` with a fresh `requestId`; the extension answers every request with exactly
 * one `response` carrying the same id. The webview never sends a path or a URL: it names a run and the
 * index of a target the extension computed itself ({@link CardTarget}), so a compromised webview can
 * ask for nothing the run did not already show.
 *
 * This file has no `vscode` import: the unit tests and the card builder use it too.
 */
import type { RunSource, RunStatus } from '../runRecord';
import type { ToolName } from '../../core/tool';
import type { ErrorFix } from './errorSummary';

/** Bumped whenever a message shape changes; the webview sends the version it was written for. */
export const PROTOCOL_VERSION = 3;

/**
 * What a count on a card counts. Every card uses the same words: `matches` (matching lines),
 * `filesWithMatches` (files holding at least one), `filesScanned` (files read and searched, workspace_search),
 * `skipped` (files found but not searched), `filesFound` (glob's listed files) and `sources` (web_search).
 */
export type CountKind = 'matches' | 'filesWithMatches' | 'filesScanned' | 'skipped' | 'filesFound' | 'sources';

/** One count shown on a card: `12 matches`, `3 files with matches`. */
export interface CardCount {
  readonly kind: CountKind;
  readonly value: number;
  /** The count as the card shows it, e.g. `1,204 files scanned`. */
  readonly text: string;
  /** What it counts, for the tooltip. */
  readonly description: string;
}

/** A row in a file list: a file, or one matching line under it. `target` indexes the run's targets. */
export interface FileRow {
  readonly path: string;
  readonly target: number;
  readonly lines: readonly {
    readonly lineNumber: number;
    /** A window on the line around its first match (see `previewLine`), with `…` where text was left out. */
    readonly preview: string;
    /** Every match inside `preview` (UTF-16 code units, half-open), sorted and not overlapping. */
    readonly highlights: readonly { readonly start: number; readonly end: number }[];
    readonly target: number;
  }[];
}

/** One web search source. `target` is the index of its URL among the run's targets. */
export interface SourceRow {
  readonly title: string;
  readonly url: string;
  readonly snippet?: string;
  readonly provider?: string;
  readonly publishedAt?: string;
  readonly target: number;
}

/** What a card shows below its header, by kind of result. */
export type CardBody =
  | { readonly kind: 'none' }
  /** glob/grep/workspace_search: files, with matching lines when the tool returns lines. */
  | {
      readonly kind: 'files';
      readonly files: readonly FileRow[];
      /** Matches (files, for glob) left out of the card; the full result has them. */
      readonly omitted: number;
      /** The line after the list when `omitted` > 0: `40 more files in the full result`. */
      readonly more?: string;
    }
  /** web_search: an optional answer per query, then the sources. */
  | {
      readonly kind: 'sources';
      readonly answers: readonly { readonly query?: string; readonly text: string }[];
      readonly sources: readonly SourceRow[];
      readonly omitted: number;
      readonly more?: string;
    }
  /** web_fetch: the response facts and the first lines of the Markdown. */
  | {
      readonly kind: 'page';
      readonly finalUrl: string;
      readonly target: number;
      readonly status?: number;
      readonly contentType?: string;
      /** Size in characters of the text the model saw (the body after conversion). */
      readonly chars?: number;
      /** Bytes received, when the tool reports them. */
      readonly bytes?: number;
      readonly extracted?: boolean;
      readonly truncated?: boolean;
      /** How the body was produced (web_fetch's `format`: markdown, text, raw-html, unsupported, redirect). */
      readonly format?: string;
      /** A cross-origin redirect the tool reported instead of following. */
      readonly redirectTo?: { readonly url: string; readonly target: number };
      readonly excerpt: string;
    }
  /** A result whose value has no shape the panel knows: the first lines of the model text. */
  | { readonly kind: 'text'; readonly text: string };

/** Everything the webview needs to draw one card. All strings are data: the webview sets them as text. */
export interface CardModel {
  readonly id: string;
  readonly tool: ToolName;
  /** The arguments, one `name: value` pair per entry, in input order. */
  readonly args: readonly { readonly name: string; readonly value: string }[];
  readonly source: RunSource;
  readonly status: RunStatus;
  /** Epoch ms. */
  readonly startedAt: number;
  /** ms; absent while running. */
  readonly durationMs?: number;
  /** The latest progress message of a running call. */
  readonly progress?: string;
  readonly counts: readonly CardCount[];
  readonly truncated: boolean;
  /**
   * A failed or cancelled call: `summary` is one line for the person reading the card, `message` and `code`
   * are what the model got; `fix` is a button the card offers (see `adviseOnError`).
   */
  readonly error?: { readonly code: string; readonly message: string; readonly summary: string; readonly fix?: ErrorFix };
  readonly body: CardBody;
  /** True when there is text the model saw, for Copy. */
  readonly hasText: boolean;
  /**
   * True when the call was over a cap and saved a complete result (`ToolRun.spillUri`): only then does the
   * card offer "Open full result" (the spill document, or the model's text when Scout no longer keeps it).
   */
  readonly hasFullResult: boolean;
}

/** Extension → webview. */
export type HostMessage =
  | { readonly type: 'cards'; readonly cards: readonly CardModel[] }
  | { readonly type: 'card'; readonly card: CardModel }
  /** Scrolls to a card's header and focuses it when the panel has the keyboard; `rerun` also announces it. */
  | { readonly type: 'reveal'; readonly id: string; readonly rerun?: boolean }
  | { readonly type: 'response'; readonly requestId: number; readonly ok: true }
  | { readonly type: 'response'; readonly requestId: number; readonly ok: false; readonly message: string };

/** A user action in the panel. `target` indexes the targets the extension computed for the run. */
export type PanelRequest =
  | { readonly action: 'openTarget'; readonly runId: string; readonly target: number }
  /** `keepFocus`: show the result but leave the keyboard in the panel (Enter on a card), so no keystroke edits it. */
  | { readonly action: 'openFull'; readonly runId: string; readonly keepFocus?: boolean }
  | { readonly action: 'copy'; readonly runId: string }
  | { readonly action: 'rerun'; readonly runId: string }
  | { readonly action: 'cancel'; readonly runId: string }
  /** Runs the fix the run's error card offers (`CardModel.error.fix`). */
  | { readonly action: 'fix'; readonly runId: string };

/** Webview → extension. */
export type WebviewMessage =
  | { readonly type: 'ready'; readonly version: number }
  | { readonly type: 'request'; readonly requestId: number; readonly request: PanelRequest };

const ACTIONS: ReadonlySet<string> = new Set<PanelRequest['action']>(['openTarget', 'openFull', 'copy', 'rerun', 'cancel', 'fix']);

/**
 * Checks a message from the webview and returns it typed, or undefined for anything malformed (extra
 * keys are ignored; wrong types, unknown actions, non-integer ids and overlong run ids are refused).
 */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.type === 'ready') {
    return typeof raw.version === 'number' ? { type: 'ready', version: raw.version } : undefined;
  }
  if (raw.type !== 'request' || !isIndex(raw.requestId) || !isRecord(raw.request)) return undefined;
  const { action, runId, target, keepFocus } = raw.request;
  if (typeof action !== 'string' || !ACTIONS.has(action)) return undefined;
  if (typeof runId !== 'string' || runId.length === 0 || runId.length > 64) return undefined;
  if (action === 'openTarget') {
    return isIndex(target) ? { type: 'request', requestId: raw.requestId, request: { action, runId, target } } : undefined;
  }
  if (action === 'openFull' && keepFocus === true) return { type: 'request', requestId: raw.requestId, request: { action, runId, keepFocus } };
  return { type: 'request', requestId: raw.requestId, request: { action: action as Exclude<PanelRequest['action'], 'openTarget'>, runId } };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isIndex(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
