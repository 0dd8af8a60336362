import { quoteValue, ToolError } from '../errors';
import { cutAtCodePoint } from '../codePoints';
import { stderrExcerpt, type RipgrepExit } from './process';

/**
 * First lines rg 13–15 prints when it rejects a regex or a glob before searching (exit 2). Matched against
 * stderr to tell a model mistake (`SEARCH_INVALID_PATTERN`) from a search failure (`SEARCH_FAILED`).
 */
const REGEX_REJECTIONS = [/regex parse error/, /is not allowed in a regex/, /compiled regex exceeds size limit/, /regex.*(could not|failed to) (be )?compile/i];
const GLOB_REJECTIONS = [/error parsing glob/, /invalid glob/i];

/** A model argument rg parses, named so an error can point at it: e.g. `{ name: 'include', value: '*.[ts' }`. */
export interface NamedArgument {
  readonly name: string;
  readonly value: string;
}

/** Which tool arguments carried the regex and the glob (absent when the call had none). */
export interface PatternArguments {
  readonly regex?: NamedArgument;
  readonly glob?: NamedArgument;
}

/**
 * Interprets rg's exit status by rg's documented semantics, as seed 000 requires: 0 is success with results,
 * 1 is a successful empty search, anything else is a failure.
 *
 * @returns `'found'` (0) or `'none'` (1).
 * @throws ToolError SEARCH_INVALID_PATTERN when stderr shows rg rejected the regex or glob;
 *   SEARCH_FAILED for any other failure, quoting the stderr tail.
 */
export function interpretExit(exit: RipgrepExit, args: PatternArguments): 'found' | 'none' {
  if (exit.exitCode === 0) return 'found';
  if (exit.exitCode === 1) return 'none';
  const excerpt = modelFacingStderr(stderrExcerpt(exit));
  if (args.regex && REGEX_REJECTIONS.some((re) => re.test(exit.stderr))) {
    throw new ToolError(
      'SEARCH_INVALID_PATTERN',
      `ripgrep rejected ${args.regex.name} ${quoteValue(args.regex.value)} as a regular expression:\n${excerpt}\nFix it (Rust regex syntax: escape literal ( ) [ ] { } . * + ? | \\ with a backslash; look-around and backreferences are not supported) and call again.`,
    );
  }
  if (args.glob && GLOB_REJECTIONS.some((re) => re.test(exit.stderr))) {
    throw new ToolError(
      'SEARCH_INVALID_PATTERN',
      `ripgrep rejected ${args.glob.name} ${quoteValue(args.glob.value)} as a glob:\n${excerpt}\nFix it (escape a literal [ ] { } * ? with a backslash, or wrap it in [ ]) and call again.`,
    );
  }
  throw new ToolError(
    'SEARCH_FAILED',
    `ripgrep failed (exit status ${exit.exitCode})${excerpt ? `:\n${excerpt}\n` : '. '}If it could not read part of the target, narrow path to skip it.`,
  );
}

/** rg's advice after a look-around or backreference error: a flag Scout does not expose, up to a blank line. */
const PCRE2_HINT = /^Consider enabling PCRE2\b.*(?:\n.+)*/m;

/** Longest stderr line kept whole, in UTF-16 code units; longer lines keep their head and tail. */
const MAX_STDERR_LINE_CHARS = 240;

/**
 * rg's stderr as an error message quotes it: without the PCRE2 hint (Scout's own message says look-around and
 * backreferences are not supported), and with each line over {@link MAX_STDERR_LINE_CHARS} cut to its first 160
 * and last 60 code units around ` … `. rg echoes the whole pattern or glob on one line (and a caret line as
 * long under a regex), while the reason sits at the end of a glob error's line, so both ends are kept.
 */
function modelFacingStderr(stderr: string): string {
  return stderr
    .replace(PCRE2_HINT, '')
    .trimEnd()
    .split('\n')
    .map((line) => (line.length <= MAX_STDERR_LINE_CHARS ? line : `${cutAtCodePoint(line, 160)} … ${tailAtCodePoint(line, 60)}`))
    .join('\n');
}

/** The last `max` UTF-16 code units of `text`, one fewer when the cut would split a surrogate pair. */
function tailAtCodePoint(text: string, max: number): string {
  const start = text.length - max;
  const first = text.charCodeAt(start);
  return text.slice(first >= 0xdc00 && first <= 0xdfff ? start + 1 : start);
}
