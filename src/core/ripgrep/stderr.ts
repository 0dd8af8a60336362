/**
 * Reading rg's error output (stderr): which messages are about one path rg could not read (it skipped that
 * path and went on), and which are rg's own errors.
 *
 * rg writes each message as `rg: <text>`; a message may span lines (a regex error with its caret line, or the
 * ignore files of one directory with rules rg could not parse, whose later lines have no `rg: `). The per-path
 * forms, checked against rg 13–15:
 * - `rg: ./locked: Permission denied (os error 13)` (an entry it could not open or list);
 * - `rg: ./locked: IO error for operation on ./locked: Permission denied (os error 13)` (the same while
 *   listing files);
 * - `rg: ./.gitignore: line 3: error parsing glob '<the rule>': …` (an ignore file with a rule it could not
 *   parse; the rule is skipped). Each later line of such a message is one more such file, named on its own
 *   (`./src/.ignore: line 1: …`): rg reports every ignore file of a directory in one message. The rest of such
 *   a line quotes the file's text, which Scout never shows: only the path and the line number are kept.
 * The OS error number decides the reason, never rg's wording of it (which follows the C library).
 */

/** Why rg could not read a path. */
export type PathProblemReason = 'permission denied' | 'not found' | 'name too long' | 'ignore file rule not applied' | 'read error';

/** One path rg skipped. */
export interface PathProblem {
  /**
   * The path as rg printed it, without a leading `./`: relative to rg's working directory, or absolute for an
   * ignore file above it (rg reads those of parent directories too).
   */
  readonly path: string;
  readonly reason: PathProblemReason;
  /** For `ignore file rule not applied`: the 1-based line of the first rule rg could not parse. */
  readonly line?: number;
}

/** rg's stderr, sorted. */
export interface StderrReading {
  /** Per-path problems, in the order rg reported them. */
  readonly problems: PathProblem[];
  /** True when stderr was cut (only its tail is kept), so there may have been more problems, unnamed. */
  readonly problemsCut: boolean;
  /** Every other message, as rg wrote it (`rg: ` included), in order. */
  readonly other: string[];
}

/** Reasons by the OS's error number, which rg prints as `(os error N)`: Windows, macOS, else Linux. */
const ERRNO_REASONS: Readonly<Record<string, PathProblemReason>> =
  process.platform === 'win32'
    ? { 2: 'not found', 3: 'not found', 5: 'permission denied', 206: 'name too long' }
    : process.platform === 'darwin'
      ? { 1: 'permission denied', 2: 'not found', 13: 'permission denied', 63: 'name too long' }
      : { 1: 'permission denied', 2: 'not found', 13: 'permission denied', 36: 'name too long' };

const OS_ERROR = /^rg: ([\s\S]+): [^:\n]* \(os error (\d+)\)$/;
const LISTING = /^([\s\S]+): IO error for operation on ([\s\S]+)$/;
const IGNORE_FILE = /^rg: ([\s\S]+?): line (\d+): /;
/** A later line of an ignore-file message: another file of the same directory (never indented). */
const MORE_IGNORE_FILE = /^(\S[^\n]*?): line (\d+): /;

/**
 * Sorts rg's stderr into per-path problems and other messages.
 *
 * A path holding a line feed followed by `rg: ` splits its message in two. The pieces are read as one only
 * when the path they then name starts where every path rg prints does: with one of `searchPaths` (`./` for
 * `.`) or at the root (an ignore file above the workdir). So a line of rg's without a path (a general
 * warning, `rg: No files were searched, …`) stays a message of its own, never glued onto the path after it.
 *
 * @param stderr rg's stderr (its tail when `truncated`).
 * @param truncated true when the start of stderr was dropped: the first message may be cut. It is skipped
 *   when it ends like a per-path message (its path is lost), and kept with the other messages otherwise.
 * @param searchPaths the paths rg was given to search (the arguments after `--`), relative to its working
 *   directory or absolute.
 */
export function readStderr(stderr: string, truncated: boolean, searchPaths: readonly string[]): StderrReading {
  const problems: PathProblem[] = [];
  const other: string[] = [];
  const messages = stderr.replace(/\n+$/, '').split(/\n(?=rg: )/);
  // The first message of a cut stderr lost its start: it counts as a problem when its end is one.
  if (truncated && / \(os error \d+\)$/.test(messages[0] ?? '')) messages.shift();
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message === '') continue;
    let found = pathProblems(message);
    // A piece with no ":" of its own can be the start of a path that holds "\nrg: ".
    for (let j = i + 1, joined = message; found.length === 0 && !message.slice(4).includes(':') && j < Math.min(messages.length, i + 8); j++) {
      joined += `\n${messages[j]}`;
      const read = pathProblems(joined);
      if (read.length > 0 && startsLikeAPath(joined.slice('rg: '.length), searchPaths)) {
        found = read;
        i = j;
      }
    }
    if (found.length > 0) problems.push(...found);
    else other.push(message);
  }
  return { problems, problemsCut: truncated, other };
}

/**
 * True when `text` (a message without its `rg: `) starts with a path as rg prints one: under one of
 * `searchPaths` (`./x` for `.`, `src/x` or `src:` for `src`), or absolute. Either separator counts, as rg on
 * Windows prints `\\`.
 */
function startsLikeAPath(text: string, searchPaths: readonly string[]): boolean {
  if (/^(?:[\\/]|[A-Za-z]:[\\/])/.test(text)) return true;
  return searchPaths.some((given) => (given === '.' ? /^\.[\\/]/.test(text) : text.startsWith(given) && /^[\\/:]/.test(text.slice(given.length))));
}

/** The problems one message reports: none, one, or for an ignore-file message one per file it names. */
function pathProblems(message: string): PathProblem[] {
  const ignoreFile = IGNORE_FILE.exec(message);
  if (ignoreFile) {
    const problems: PathProblem[] = [{ path: withoutDotSlash(ignoreFile[1]!), reason: 'ignore file rule not applied', line: Number(ignoreFile[2]) }];
    for (const line of message.slice(ignoreFile[0].length).split('\n').slice(1)) {
      const more = MORE_IGNORE_FILE.exec(line);
      const path = more && withoutDotSlash(more[1]!);
      // Only the first rule rg could not parse in each file is named.
      if (path !== null && !problems.some((p) => p.path === path)) problems.push({ path, reason: 'ignore file rule not applied', line: Number(more![2]) });
    }
    return problems;
  }
  const os = OS_ERROR.exec(message);
  if (!os) return [];
  let path = os[1]!;
  const listing = LISTING.exec(path);
  if (listing && listing[1] === listing[2]) path = listing[1]!;
  return [{ path: withoutDotSlash(path), reason: ERRNO_REASONS[os[2]!] ?? 'read error' }];
}

function withoutDotSlash(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

/**
 * rg's advice that names its own flags, and what Scout says instead in terms of the tools' arguments (issue
 * 12): a model cannot pass `--multiline` or `--pcre2`. Each hint runs to the end of its paragraph.
 */
const FLAG_HINTS: readonly { readonly hint: RegExp; readonly advice: string }[] = [
  {
    hint: /^Consider enabling multiline mode\b.*(?:\n.+)*/m,
    advice: 'grep matches one line at a time, so a pattern cannot match a line break: search for one line of the text (its first line, say), then read the file at the reported line to see what follows.',
  },
  {
    hint: /^Consider enabling PCRE2\b.*(?:\n.+)*/m,
    advice: 'Match the text itself without the look-around or backreference, then read the matched lines to check what surrounds them.',
  },
  {
    hint: /^Consider enabling text mode\b.*(?:\n.+)*/m,
    advice: 'grep treats a file holding a NUL byte as binary and skips its content, so a pattern that matches NUL (\\x00) never matches: search for the readable text around it.',
  },
];

/** A line of rg's own prose that names one of its flags (`--debug`, `(or -U for short)`); indented lines quote the pattern. */
const NAMES_A_FLAG = /^\S.*(?:\s--[a-z][a-z0-9-]+|\(or -[A-Za-z] for short\))/;

/**
 * rg's messages as advice a model can act on: each known hint that names an rg flag replaced by advice in
 * terms of the tool's arguments, and any other line of rg's prose that names a flag dropped. Lines that start
 * with whitespace (rg's echo of the pattern and its caret line) are kept as they are.
 */
export function withToolAdvice(text: string): string {
  let out = text;
  for (const { hint, advice } of FLAG_HINTS) out = out.replace(hint, advice);
  return out
    .split('\n')
    .filter((line) => !NAMES_A_FLAG.test(line))
    .join('\n');
}
