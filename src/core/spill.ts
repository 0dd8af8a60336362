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
 * The first line of every complete result Scout saves, in every host: `Scout glob "**\/*.ts": 4,819 files,
 * complete result, 4,823 lines`, or `…, incomplete result (all Scout read), … lines` for a result cut at
 * ripgrep's output cap. `lines` counts the whole saved text, this line included, as an editor numbers it.
 * A person who opens the saved text sees at once what it is and where it came from.
 */
export function spillHeading(subject: SpillSubject, lines: number): string {
  return `Scout ${subject.tool} ${subject.call}: ${subject.size}, ${subject.incomplete ? 'incomplete result (all Scout read)' : 'complete result'}, ${countOf(lines, 'line')}`;
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
  /**
   * The footer's sentences: where the complete result is, how to read it, and for a long one the line ranges
   * to read it in (see {@link readingParts}); or that it was not saved.
   */
  readonly sentence: string;
  readonly spill?: SpillLocator;
}

/**
 * Most lines a reader is told to read at once. Copilot's read_file (copilot_readFile) silently leaves out the
 * middle of a range that does not fit the tool result's token budget: a 6,122-line grep result read in one
 * call reached the model as its first 2,015 lines and its last one; ranges of 1,500 lines came back whole.
 */
export const PART_MAX_LINES = 1_500;
/**
 * Most characters (UTF-16 code units) in one part: about 20,000 tokens, under the budget Copilot's read_file
 * gave a 1,500-line range, and under the 25,000 tokens other agents' file readers refuse to go past.
 */
export const PART_MAX_CHARS = 80_000;
/** Characters of one line a reader gets: Copilot's read_file cuts a longer line at 2,000 and marks the cut. */
const LINE_READ_MAX_CHARS = 2_020;

/** How a saved text is read in parts: its length and the lines in each part (every part but the last is full). */
export interface ReadingParts {
  /** Lines in the text as an editor numbers them (newlines + 1). */
  readonly lines: number;
  /** Lines per part: at most {@link PART_MAX_LINES}, fewer when long lines would pass {@link PART_MAX_CHARS}. */
  readonly partLines: number;
}

/**
 * The lengths of a text's lines, gathered piece by piece, and the reading plan they make ({@link plan}). A line
 * counts as at most what a reader returns of it ({@link LINE_READ_MAX_CHARS}) plus its line feed.
 */
export class LineLengths {
  // ends[i]: characters a reader gets of lines 0..i. A part's size is then one subtraction, so trying another
  // part size costs a pass over the parts, not over the lines. The methods run once per line or per file of a
  // large result, in code the engine has not compiled yet on a host's first large call: they call nothing.
  private ends: Float64Array = new Float64Array(4096);
  private lines = 0;
  private total = 0;
  /** Characters of the line not ended yet. */
  private current = 0;

  /** Adds `length` characters to the current line and ends it, as the text `x.repeat(length) + '\n'` would. */
  addLine(length: number): void {
    this.current += length;
    this.addLineBreak();
  }

  /** Ends the current line, as the text `'\n'` would. */
  addLineBreak(): void {
    if (this.lines === this.ends.length) this.ends = grow(this.ends, this.lines + 1);
    const length = this.current;
    this.ends[this.lines++] = this.total += (length < LINE_READ_MAX_CHARS ? length : LINE_READ_MAX_CHARS) + 1;
    this.current = 0;
  }

  /** Adds the text `piece`, which may end in the middle of a line. */
  addText(piece: string): void {
    let from = 0;
    for (let nl = piece.indexOf('\n'); nl >= 0; nl = piece.indexOf('\n', from)) {
      this.current += nl - from;
      this.addLineBreak();
      from = nl + 1;
    }
    this.current += piece.length - from;
  }

  /**
   * Adds `lines` joined by line feeds, as `addText(lines.join('\n'))` would, for a caller that holds the lines
   * (none holding a line feed): no line is scanned.
   */
  addLines(lines: readonly string[]): void {
    const n = lines.length;
    if (n === 0) return;
    if (this.lines + n > this.ends.length) this.ends = grow(this.ends, this.lines + n);
    const ends = this.ends;
    let count = this.lines;
    let total = this.total;
    let length = this.current + lines[0]!.length;
    for (let i = 1; i < n; i++) {
      total += (length < LINE_READ_MAX_CHARS ? length : LINE_READ_MAX_CHARS) + 1;
      ends[count++] = total;
      length = lines[i]!.length;
    }
    this.lines = count;
    this.total = total;
    this.current = length;
  }

  /** Adds lines of these `lengths` joined by line feeds, as {@link addLines} adds lines of these lengths. */
  addLineLengths(lengths: readonly number[]): void {
    const n = lengths.length;
    if (n === 0) return;
    if (this.lines + n > this.ends.length) this.ends = grow(this.ends, this.lines + n);
    const ends = this.ends;
    let count = this.lines;
    let total = this.total;
    let length = this.current + lengths[0]!;
    for (let i = 1; i < n; i++) {
      total += (length < LINE_READ_MAX_CHARS ? length : LINE_READ_MAX_CHARS) + 1;
      ends[count++] = total;
      length = lengths[i]!;
    }
    this.lines = count;
    this.total = total;
    this.current = length;
  }

  /**
   * The plan of the text added so far (its last line ended): the largest part size, in lines, such that every
   * part (lines 1–P, P+1–2P, …) has at most {@link PART_MAX_CHARS} characters.
   */
  plan(): ReadingParts {
    const ends = this.ends;
    const lines = this.lines + 1;
    const last = this.current;
    const all = this.total + (last < LINE_READ_MAX_CHARS ? last : LINE_READ_MAX_CHARS) + 1;
    const endOf = (line: number) => (line < this.lines ? ends[line]! : all);
    let partLines = PART_MAX_LINES;
    for (;;) {
      let widest = 0;
      for (let start = 0; start < lines; start += partLines) {
        const chars = endOf(Math.min(start + partLines, lines) - 1) - (start > 0 ? endOf(start - 1) : 0);
        if (chars > widest) widest = chars;
      }
      if (widest <= PART_MAX_CHARS || partLines === 1) break;
      partLines = Math.max(1, Math.min(partLines - 1, Math.floor((partLines * PART_MAX_CHARS) / widest)));
    }
    return { lines, partLines };
  }
}

/**
 * The reading plan ({@link LineLengths.plan}) of a text made of `pieces`, after lines of the lengths in
 * `extraLines` (a heading).
 */
export function readingParts(pieces: Iterable<string>, extraLines: readonly number[]): ReadingParts {
  const lengths = new LineLengths();
  for (const length of extraLines) lengths.addLine(length);
  for (const piece of pieces) lengths.addText(piece);
  return lengths.plan();
}

/** `array` in a typed array of at least `length` elements, and at least twice its length. */
function grow(array: Float64Array, length: number): Float64Array {
  const grown = new Float64Array(Math.max(length, array.length * 2));
  grown.set(array);
  return grown;
}

/** Parts a footer lists one by one; a longer text gets the first two and the rule. */
const PARTS_LISTED = 5;

/**
 * The footer's reading advice for a saved text: `It has 6,122 lines: read lines 1–1,500, then 1,501–3,000,
 * 3,001–4,500, 4,501–6,000 and 6,001–6,122, each as one line range: …`. Empty for a text that fits one read.
 */
export function partsAdvice(plan: ReadingParts): string {
  const { lines, partLines } = plan;
  if (lines <= partLines) return '';
  const n = (x: number) => x.toLocaleString('en-US');
  const range = (part: number) => `${n(part * partLines + 1)}–${n(Math.min(lines, (part + 1) * partLines))}`;
  const parts = Math.ceil(lines / partLines);
  const ranges =
    parts <= PARTS_LISTED
      ? `${range(0)}, then ${listed(Array.from({ length: parts - 1 }, (_, i) => range(i + 1)))}`
      : `${range(0)}, then ${range(1)}, and so on in parts of ${n(partLines)} lines to line ${n(lines)}`;
  return `It has ${n(lines)} lines: read lines ${ranges}, each as one line range of your file-reading tool; a read of more lines at once can come back with its middle left out.`;
}

/** `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * A spill writer's failure that the footer shows: `message` says why the complete result could not be saved
 * and what the user can change, in the words of the host that wrote it, as a sentence (the CLI's temporary
 * folder: `the temporary folder /tmp/x cannot be written to (ENOENT: …); to have it saved, set … TMPDIR …`).
 * Any other rejection is logged only.
 */
export class SpillError extends Error {
  override readonly name = 'SpillError';
}

/**
 * Saves the complete formatted result of an over-cap call through `env.spill` (seed 000: "post-policy
 * best-effort"), headed by {@link spillHeading} and a blank line. Never throws: when the host has no spill
 * writer or it rejects, the sentence says the complete result could not be saved (and why, for a
 * {@link SpillError}), and the caller keeps its inline page.
 *
 * @param fullText makes the complete formatted result, in the order the tool lists it, in pieces (see
 *   `SpillText`); called twice when there is a spill writer to take it (once to count its lines for the
 *   heading and the reading advice, once to write it), so the text is never held whole here.
 * @param countLines adds the lines of `fullText()` to the lengths it is given, for a caller that has them at
 *   hand (a list of paths): then `fullText` is called once, to write it, and its lines are not scanned.
 */
export async function saveCompleteResult(env: ToolEnv, subject: SpillSubject, fullText: () => SpillText, countLines?: (lengths: LineLengths) => void): Promise<SavedResult> {
  if (env.spill) {
    // The heading's own length does not depend much on its line count: 16 characters cover any count's digits.
    const lengths = new LineLengths();
    lengths.addLine(spillHeading(subject, 0).length + 16);
    lengths.addLine(0);
    if (countLines) countLines(lengths);
    else for (const piece of fullText()) lengths.addText(piece);
    const plan = lengths.plan();
    const title = spillHeading(subject, plan.lines);
    try {
      const spill = await env.spill(headed(title, fullText), { tool: subject.tool, title, ...(subject.language ? { language: subject.language } : {}) });
      const what = subject.incomplete ? 'Everything Scout read' : 'The complete result';
      const advice = partsAdvice(plan);
      return { sentence: `${what} is saved at ${spill.uri}. ${spill.hint}${advice ? ` ${advice}` : ''}`, spill };
    } catch (e) {
      env.log.warn(`${subject.tool}: saving the complete result failed: ${e instanceof Error ? e.message : String(e)}`);
      if (e instanceof SpillError) return { sentence: `The complete result could not be saved: ${e.message} Narrow the search to see the rest.` };
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

const HEADING = /^Scout (glob|grep|workspace_search|web_search|web_fetch) .+(?:(?:, complete result|, incomplete result \(all Scout read\))(?:, [\d,]+ lines?)|: the text the model saw)$/;

/**
 * The tool named by a first line made by {@link spillHeading} or {@link modelTextHeading}; undefined for any
 * other line. VS Code uses it to recognise Scout's results in its storage folder after a reload.
 */
export function headingTool(line: string): ToolName | undefined {
  return HEADING.exec(line)?.[1] as ToolName | undefined;
}
