import { breaksLine, jsonQuote } from '../controlCharacters';

/** Joins a result's parts: the body lines, then (after a blank line) the optional footer and the workdir note. */
export function layoutResult(body: readonly string[], footer: string | undefined, workdirNote: string): string {
  // One join makes one flat string; concatenating to a joined body would add a copy when it is flattened.
  return body.concat(footer === undefined ? ['', workdirNote] : ['', footer, workdirNote]).join('\n');
}

/**
 * A file path as a result's text lists it: as is, or, when it holds a line feed or another unsafe character
 * (see `controlCharacters.ts`), as a JSON string with those escaped. Text results list one path per line, so a
 * file name with a newline (which a hostile repository can contain) would otherwise add lines of its choosing,
 * such as a forged `Line N:` row or workdir note. Values keep the exact names.
 */
export function displayPath(path: string): string {
  return breaksLine(path) ? jsonQuote(path) : path;
}

/** {@link displayPath} of each path; `paths` itself (no copy) when none needs quoting, the usual case. */
export function displayPaths(paths: readonly string[]): readonly string[] {
  return paths.some(breaksLine) ? paths.map(displayPath) : paths;
}

/** `n` followed by the singular or plural noun: `1 file`, `3 files`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
