import type { SpillLanguage, SpillLocator, SpillText, ToolEnv, ToolName } from './tool';

/** What a complete over-cap result is: the call that made it and its size, for its first line. */
export interface SpillSubject {
  readonly tool: ToolName;
  /**
   * The call's arguments as a person reads them, e.g. `"**\/*.ts" in "src"`. Model-supplied values in it must
   * be quoted with `quoteValue` (errors.ts), so the line cannot be broken or reordered by them.
   */
  readonly call: string;
  /** The size of the complete result, made with {@link countOf}: `4,819 files`. */
  readonly size: string;
  /**
   * True when the result itself is incomplete (ripgrep stopped at `rawOutputMaxBytes`, see search/overflow.ts):
   * the saved text is everything Scout read, and its first line and the footer's sentence say so.
   */
  readonly incomplete?: boolean;
  /** What the complete result is written in, when it is not plain text (see `SpillLanguage`). */
  readonly language?: SpillLanguage;
}

/**
 * The first line of every complete result Scout saves (issue 13), in every host: `Scout glob "**\/*.ts": 4,819
 * files, complete result`, or `…, incomplete result (all Scout read)` for a result cut at ripgrep's output
 * cap. VS Code names an untitled document after its first line, so the tab, the save prompt and a chat
 * attachment read as a Scout result rather than as one of the user's files.
 */
export function spillHeading(subject: SpillSubject): string {
  return `Scout ${subject.tool} ${subject.call}: ${subject.size}, ${subject.incomplete ? 'incomplete result (all Scout read)' : 'complete result'}`;
}

/** `n` with en-US digit grouping and the singular or plural noun: `1 file`, `4,819 files`. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}

/**
 * How many complete results a host keeps readable (VS Code's spill documents, the MCP server's
 * `scout://result/<id>` resources): the newest ones; older ones are released.
 */
export const COMPLETE_RESULTS_KEPT = 10;

/**
 * Total UTF-16 code units of complete results a host keeps, across the {@link COMPLETE_RESULTS_KEPT} newest;
 * the oldest beyond it are released, but the newest result is always kept whole.
 */
export const COMPLETE_RESULTS_MAX_CODE_UNITS = 64 * 1024 * 1024;

/** The outcome of saving a complete over-cap result: the footer sentence about it, and the locator if saved. */
export interface SavedResult {
  /** One sentence for the footer: where the complete result is and how to read it, or that it was not saved. */
  readonly sentence: string;
  readonly spill?: SpillLocator;
}

/**
 * Saves the complete formatted result of an over-cap call through `env.spill` (seed 000: "post-policy
 * best-effort"), headed by {@link spillHeading} and a blank line. Never throws: when the host has no spill
 * writer or it rejects, the sentence says the complete result could not be saved, and the caller keeps its
 * inline page.
 *
 * @param fullText makes the complete formatted result, in the order the tool lists it, in pieces (see
 *   `SpillText`); called only when there is a spill writer to take it.
 */
export async function saveCompleteResult(env: ToolEnv, subject: SpillSubject, fullText: () => SpillText): Promise<SavedResult> {
  if (env.spill) {
    const title = spillHeading(subject);
    try {
      const spill = await env.spill(headed(title, fullText), { tool: subject.tool, title, ...(subject.language ? { language: subject.language } : {}) });
      const what = subject.incomplete ? 'Everything Scout read' : 'The complete result';
      return { sentence: `${what} is saved at ${spill.uri}. ${spill.hint}`, spill };
    } catch (e) {
      env.log.warn(`${subject.tool}: saving the complete result failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { sentence: 'The complete result could not be saved; narrow the search to see the rest.' };
}

function* headed(title: string, body: () => SpillText): Generator<string> {
  yield `${title}\n\n`;
  yield* body();
}

/**
 * A complete result's text as one string, for a host that needs one (VS Code's `openTextDocument`, an MCP
 * text resource).
 */
export function spillString(text: SpillText): string {
  const pieces: readonly string[] = Array.isArray(text) ? text : [...text];
  return pieces.length === 1 ? pieces[0]! : pieces.join('');
}

/**
 * The first line of a document a host makes from the text a model saw (the VS Code panel's "Open full result"
 * when the complete result is gone or was never saved): `Scout grep "TODO": the text the model saw`.
 */
export function modelTextHeading(tool: ToolName, call: string): string {
  return `Scout ${tool} ${call}: the text the model saw`;
}

const HEADING = /^Scout (glob|grep|workspace_search|web_search|web_fetch) .+(?:, complete result|, incomplete result \(all Scout read\)|: the text the model saw)$/;

/**
 * The tool named by a first line made by {@link spillHeading} or {@link modelTextHeading}; undefined for any
 * other line. VS Code uses it to recognise Scout's documents among the untitled ones hot exit restores.
 */
export function headingTool(line: string): ToolName | undefined {
  return HEADING.exec(line)?.[1] as ToolName | undefined;
}
