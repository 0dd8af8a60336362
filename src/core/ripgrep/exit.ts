import { ToolError } from '../errors';
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
  const excerpt = stderrExcerpt(exit);
  if (args.regex && REGEX_REJECTIONS.some((re) => re.test(exit.stderr))) {
    throw new ToolError(
      'SEARCH_INVALID_PATTERN',
      `ripgrep rejected ${args.regex.name} ${JSON.stringify(args.regex.value)} as a regular expression:\n${excerpt}\nFix it (Rust regex syntax: escape literal ( ) [ ] { } . * + ? | \\ with a backslash; look-around and backreferences are not supported) and call again.`,
    );
  }
  if (args.glob && GLOB_REJECTIONS.some((re) => re.test(exit.stderr))) {
    throw new ToolError(
      'SEARCH_INVALID_PATTERN',
      `ripgrep rejected ${args.glob.name} ${JSON.stringify(args.glob.value)} as a glob:\n${excerpt}\nFix it (escape a literal [ ] { } * ? with a backslash, or wrap it in [ ]) and call again.`,
    );
  }
  throw new ToolError(
    'SEARCH_FAILED',
    `ripgrep failed (exit status ${exit.exitCode})${excerpt ? `:\n${excerpt}\n` : '. '}If it could not read part of the target, narrow path to skip it.`,
  );
}
