import type { SpillLocator, ToolEnv, ToolName } from '../tool';

/** The outcome of saving a complete over-cap result: the footer sentence about it, and the locator if saved. */
export interface SavedResult {
  /** One sentence for the footer: where the complete result is and how to read it, or that it was not saved. */
  readonly sentence: string;
  readonly spill?: SpillLocator;
}

/**
 * Saves the complete formatted result of an over-cap call through `env.spill` (seed 000: "post-policy
 * best-effort"). Never throws: when the host has no spill writer or it rejects, the sentence says the
 * complete result could not be saved, and the caller keeps its inline page.
 *
 * @param fullText makes the complete formatted result, in the order the tool lists it; called only when there
 *   is a spill writer to take it.
 */
export async function saveCompleteResult(env: ToolEnv, tool: ToolName, title: string, fullText: () => string): Promise<SavedResult> {
  if (env.spill) {
    try {
      const spill = await env.spill(fullText(), { tool, title });
      return { sentence: `The complete result is saved at ${spill.uri}. ${spill.hint}`, spill };
    } catch (e) {
      env.log.warn(`${tool}: saving the complete result failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { sentence: 'The complete result could not be saved; narrow the search to see the rest.' };
}

/** Joins a result's parts: the body lines, then (after a blank line) the optional footer and the workdir note. */
export function layoutResult(body: readonly string[], footer: string | undefined, workdirNote: string): string {
  // One join makes one flat string; concatenating to a joined body would add a copy when it is flattened.
  return body.concat(footer === undefined ? ['', workdirNote] : ['', footer, workdirNote]).join('\n');
}

/** C0 control characters and DEL. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * A file path as a result's text lists it: as is, or, when it holds a control character, as a JSON string
 * with those escaped. Text results list one path per line, so a file name with a newline (which a hostile
 * repository can contain) would otherwise add lines of its choosing, such as a forged `Line N:` row or
 * workdir note. Values keep the exact names.
 */
export function displayPath(path: string): string {
  return CONTROL_CHARACTER.test(path) ? JSON.stringify(path) : path;
}

/** {@link displayPath} of each path; `paths` itself (no copy) when none needs quoting, the usual case. */
export function displayPaths(paths: readonly string[]): readonly string[] {
  return paths.some((p) => CONTROL_CHARACTER.test(p)) ? paths.map(displayPath) : paths;
}

/** `n` followed by the singular or plural noun: `1 file`, `3 files`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
