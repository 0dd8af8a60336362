import { cutAtCodePoint } from '../codePoints';
import { showControlPictures } from '../controlCharacters';
import { quoteValue, ToolError } from '../errors';
import type { RipgrepExit } from './process';
import { readStderr, withToolAdvice, type PathProblem } from './stderr';
import { hostAdvice } from '../hostAdvice';

/**
 * First lines rg 13–15 prints when it rejects a regex or a glob before searching (exit 2). Matched against
 * rg's own messages (never against per-path ones, which quote ignore files) to tell a model mistake
 * (`SEARCH_INVALID_PATTERN`) from a search failure (`SEARCH_FAILED`).
 */
const REGEX_REJECTIONS = [/regex parse error/, /PCRE2: error compiling pattern/, /is not allowed in a regex/, /compiled regex exceeds size limit/, /regex.*(could not|failed to) (be )?compile/i, /pattern contains .* impossible to match/];
const GLOB_REJECTIONS = [/error parsing glob/, /invalid glob/i];

/** How to fix a glob, as the end of an invalid-glob message. */
export const GLOB_FIX = 'Fix it (escape a literal [ ] { } * ? with a backslash, or wrap it in [ ]) and call again.';

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
 * The error of a regex rg rejected before searching (`SEARCH_INVALID_PATTERN`), told apart from a rejected glob
 * so grep can read the pattern another way (see `search/regexReadings.ts`).
 */
export class RegexRejectedError extends ToolError {
  constructor(message: string) {
    super('SEARCH_INVALID_PATTERN', message);
  }
}

/** A run that succeeded, possibly without some paths. */
export interface RipgrepOutcome {
  /** Paths rg could not read and skipped (see `stderr.ts`); the results cover everything else. */
  readonly problems: PathProblem[];
  /** True when rg's error output was cut, so there may have been more problems than listed. */
  readonly problemsCut: boolean;
  /** rg's other messages of a successful run (warnings), for the log only. */
  readonly warnings: string[];
}

/**
 * Interprets rg's exit status by rg's documented semantics (0 found, 1 found nothing, 2 error), as seed 000
 * requires, with one deliberate deviation: exit 2 whose every message is about a path rg could not
 * read (permission denied, not found, name too long, an ignore file rule it could not parse) is a success
 * without those paths. rg prints everything else it found before exiting, so one unreadable folder does not
 * cost the whole search. Any other message with exit 2 stays a failure. A run Scout stopped at the
 * raw-output cap (`stdoutCut`) is a success too: its messages are sorted the same way.
 *
 * @throws ToolError SEARCH_INVALID_PATTERN when rg rejected the regex or glob; SEARCH_FAILED for any other
 *   failure. Messages quote rg's own text only (never a per-path message, which may quote a file), with
 *   advice that names rg flags replaced by advice in terms of the tool's arguments.
 */
export function interpretExit(exit: RipgrepExit, args: PatternArguments): RipgrepOutcome {
  const reading = readStderr(exit.stdoutCut ? withoutStopTraces(exit.stderr) : exit.stderr, exit.stderrTruncated, exit.searchPaths);
  // A run stopped at the raw-output cap (`stdoutCut`) printed results; the caller says they are incomplete.
  const succeeded =
    exit.stdoutCut === true || exit.exitCode === 0 || exit.exitCode === 1 || (exit.exitCode === 2 && reading.other.length === 0 && (reading.problems.length > 0 || reading.problemsCut));
  if (succeeded) return { problems: reading.problems, problemsCut: reading.problemsCut, warnings: reading.other };

  const rgText = reading.other.join('\n');
  if (args.regex && REGEX_REJECTIONS.some((re) => re.test(rgText))) {
    if (endsWithLoneBackslash(args.regex.value)) {
      // rg wraps the pattern in "(?:…)" before parsing, so a final "\" escapes its ")" and rg reports an
      // unclosed group the model never wrote.
      throw new RegexRejectedError(
        `${args.regex.name} ${quoteValue(args.regex.value)} ends with a backslash that escapes nothing. Write \\\\ for a literal backslash, or remove it, and call again.`,
      );
    }
    throw new RegexRejectedError(
      `ripgrep rejected ${args.regex.name} ${quoteValue(args.regex.value)} as a regular expression:\n${excerpt(rgText)}\nFix it (escape literal ( ) [ ] { } . * + ? | \\ with a backslash; the syntax is Rust's regex, or PCRE2's for a pattern with look-around or backreferences) and call again.`,
    );
  }
  if (args.glob && GLOB_REJECTIONS.some((re) => re.test(rgText))) {
    throw new ToolError('SEARCH_INVALID_PATTERN', `ripgrep rejected ${args.glob.name} ${quoteValue(args.glob.value)} as a glob:\n${excerpt(rgText)}\n${GLOB_FIX}`);
  }
  // An unknown message may quote anything rg read, so its quoted parts are left out.
  const unknown = `${exit.stderrTruncated ? '[stderr truncated] …' : ''}${excerpt(rgText.replace(/'[^'\n]*'|"[^"\n]*"/g, '…'))}`;
  throw new ToolError(
    'SEARCH_FAILED',
    `ripgrep failed (exit status ${exit.exitCode})${unknown ? `:\n${unknown}\n` : '. '}Try the search again; if it fails again, narrow path, or ${hostAdvice().ripgrepPath('another rg binary')}.`,
  );
}

/**
 * rg's stderr without what stopping it at the raw-output cap leaves there: closing its stdout makes the write
 * in progress fail, naming the file it was printing (`rg: <file>: Connection reset by peer (os error 104)`,
 * as Node's stdout is a socket; or a broken pipe), and the signal can cut a message short (no final line
 * feed). Neither is about a path rg could not read. The errors: EPIPE (32) and ECONNRESET (104 on Linux,
 * 54 on macOS), and on Windows ERROR_BROKEN_PIPE (109), ERROR_NO_DATA (232) and WSAECONNRESET (10054).
 */
function withoutStopTraces(stderr: string): string {
  const whole = stderr.endsWith('\n') ? stderr : stderr.slice(0, stderr.lastIndexOf('\n') + 1);
  return whole.replace(/^rg: [^\n]*\(os error (?:32|54|104|109|232|10054)\)\n/gm, '');
}

/** True when `regex` ends with an odd run of backslashes: its last backslash escapes nothing. */
function endsWithLoneBackslash(regex: string): boolean {
  const run = regex.length - regex.replace(/\\+$/, '').length;
  return run % 2 === 1;
}

/** Longest stderr line kept whole, in UTF-16 code units; longer lines keep their head and tail. */
const MAX_STDERR_LINE_CHARS = 240;

/**
 * rg's messages as an error quotes them: advice that names rg flags rewritten (`withToolAdvice`), unsafe
 * characters shown as control pictures, and each line over {@link MAX_STDERR_LINE_CHARS} cut to its first 160
 * and last 60 code units around ` … `. rg echoes the whole pattern or glob on one line (and a caret line as
 * long under a regex), while the reason sits at the end of a glob error's line, so both ends are kept.
 */
function excerpt(rgText: string): string {
  return withToolAdvice(rgText.trim())
    .trimEnd()
    .split('\n')
    .map((line) => showControlPictures(line.length <= MAX_STDERR_LINE_CHARS ? line : `${cutAtCodePoint(line, 160)} … ${tailAtCodePoint(line, 60)}`))
    .join('\n');
}

/** The last `max` UTF-16 code units of `text`, one fewer when the cut would split a surrogate pair. */
function tailAtCodePoint(text: string, max: number): string {
  const start = text.length - max;
  const first = text.charCodeAt(start);
  return text.slice(first >= 0xdc00 && first <= 0xdfff ? start + 1 : start);
}
