import { escapeGlobLiteral, keepTrailingWhiteSpace } from './globs';

/**
 * The fixed rg argument vectors of the search tools (seed 000).
 *
 * Every vector starts with `--no-config`, so a `RIPGREP_CONFIG_PATH` in the environment cannot add flags
 * (for instance a `--pre` preprocessor). A model-controlled value is only ever the value part of an
 * `--opt=value` argument or a path after `--`, so it can never be read as a flag, whatever it starts with.
 * The vectors are passed to `spawn` without a shell, so no quoting applies.
 */

/** Version-control metadata directories glob never lists (seed 000), excluded as `--glob=!<name>`. */
export const VCS_DIRECTORIES = ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'] as const;

const VCS_EXCLUDES = VCS_DIRECTORIES.map((dir) => `--glob=!${dir}`);

/**
 * `rg --files` for the glob tool: `--glob=<pattern> --sort=modified --no-ignore --hidden`, then the VCS
 * excludes (seed 000). Scout adds `--null` so each path ends with a NUL byte instead of a newline: a file name
 * may contain a newline, never a NUL. The list comes back oldest-modified first (rg's `--sort=modified`).
 *
 * @param pattern a ripgrep glob (gitignore syntax), trailing white space included ({@link keepTrailingWhiteSpace}).
 * @param searchPath the directory to list, relative to rg's working directory (`.` for the workdir).
 * @param sorted false drops `--sort=modified` (rg then lists in parallel, for a count that needs no order).
 */
export function globArgv(pattern: string, searchPath: string, sorted = true): string[] {
  return ['--no-config', '--files', '--null', `--glob=${keepTrailingWhiteSpace(pattern)}`, ...(sorted ? ['--sort=modified'] : []), '--no-ignore', '--hidden', ...VCS_EXCLUDES, '--', searchPath];
}

/**
 * How grep narrows rg's walk for an `include` glob without overriding ignore or hidden rules (see
 * `search/include.ts`). Both parts only ever leave files out, except that a file the type selects skips rg's
 * hidden check (see {@link WalkFilter.fileNameGlob}).
 */
export interface WalkFilter {
  /**
   * A glob on file names (rg `--type-add` syntax): `--type-add=scoutinclude:<glob> --type=scoutinclude`. rg
   * applies a file type after its ignore rules, but a file it selects also skips the hidden check, so rg may
   * print a hidden file its walk would skip: `search/include.ts` confirms those. rg never selects a name that
   * ends with `.` by type (it has no file name for rg), so this is only set for a glob no such name matches.
   */
  readonly fileNameGlob?: string;
  /** Ignore-only `--glob=!…` overrides that keep the walk inside some directories ({@link pruneToDirectory}). */
  readonly pruneGlobs?: readonly string[];
  /**
   * Only the files whose names rg calls hidden (a leading `.`), and that its walk still reaches because an
   * ignore file whitelists them: every other name is left out by `--type-not` (a type rg checks after its
   * ignore rules and that selects nothing, so the hidden check still applies).
   */
  readonly hiddenNamesOnly?: boolean;
}

/**
 * How rg reads grep's pattern: `rust` is rg's default engine (seed 000), `pcre2` is `--pcre2` (look-around and
 * backreferences), `fixed-strings` is `--fixed-strings` (the pattern as literal text). See `regexReadings.ts`.
 */
export type RegexEngine = 'rust' | 'pcre2' | 'fixed-strings';

/** What one grep-shaped rg run prints. */
export type GrepOutput =
  /** `--json`: every match (the grep tool itself). */
  | 'json'
  /** `--files-with-matches --null`: the files holding a match. */
  | 'files-with-matches'
  /** `--files --null`: the files that would be searched, with no regex. */
  | 'files';

/**
 * The rg argv of a grep call (seed 000: `rg --json`, the regex as `--regexp=<pattern>`), or of one of the
 * counts behind an explanation of an empty result.
 *
 * Line ends: `--crlf` makes CRLF a line terminator too, so `$` matches at the end of a line of a Windows file
 * (`here;$`; without it `$` sits after the CR, which nothing but `\r$` matches), and `\s`, `\S` and `.` no
 * longer take the CR for part of the line. rg still reports the whole line, terminator included, and byte
 * offsets into it. rg refuses a pattern that names a carriage return under `--crlf`, so a pattern that does
 * (`\r$`, the usual search for CRLF files; see {@link namesCarriageReturn}) runs without it.
 *
 * Hidden and ignored files: seed 000 gives glob `--no-ignore --hidden` and grep only `--json`, so grep keeps
 * ripgrep's defaults. It skips hidden files and directories, files ignored by `.gitignore`, `.ignore` and
 * `.rgignore`, and binary files found while walking. One deliberate difference: outside a git repository
 * `.gitignore` applies too, as in VS Code's own search ({@link withNoRequireGit}). A hidden or ignored file or directory passed as the
 * search path is still searched, because rg always searches the paths it is given. `includeSkipped` turns the
 * hidden and ignore rules off (`--no-ignore --hidden`, VCS metadata still excluded) to count what they skip;
 * `binary` searches binary files too (`--binary`), to count those; `sortByPath` lists in path order
 * (`--sort=path`, one thread), so a count cut at a limit holds the same files on every run.
 *
 * `engine` other than `rust` adds `--pcre2` or `--fixed-strings` before the pattern.
 *
 * @param pattern a ripgrep (Rust) regex, or as `engine` reads it; ignored for `files`.
 * @param searchPath the file or directory to search, relative to rg's working directory.
 */
export function grepArgv(
  pattern: string,
  searchPath: string,
  filter: WalkFilter = {},
  options: { readonly output?: GrepOutput; readonly includeSkipped?: boolean; readonly sortByPath?: boolean; readonly binary?: boolean; readonly engine?: RegexEngine } = {},
): string[] {
  const output = options.output ?? 'json';
  const argv = ['--no-config', ...(output === 'json' ? ['--json'] : output === 'files' ? ['--files', '--null'] : ['--files-with-matches', '--null'])];
  if (options.includeSkipped) argv.push('--no-ignore', '--hidden', ...VCS_EXCLUDES);
  if (options.binary) argv.push('--binary');
  if (options.sortByPath) argv.push('--sort=path');
  if (filter.fileNameGlob !== undefined) argv.push(`--type-add=scoutinclude:${filter.fileNameGlob}`, '--type=scoutinclude');
  if (filter.hiddenNamesOnly) argv.push('--type-add=scoutvisible:[!.]*', '--type-not=scoutvisible');
  if (filter.pruneGlobs) argv.push(...filter.pruneGlobs);
  if (output !== 'files') {
    if (options.engine === 'pcre2') argv.push('--pcre2');
    if (options.engine === 'fixed-strings') argv.push('--fixed-strings');
    // A literal pattern names a carriage return only as the character itself.
    const cr = options.engine === 'fixed-strings' ? pattern.includes('\r') : namesCarriageReturn(pattern);
    argv.push(...(cr ? [] : ['--crlf']), `--regexp=${pattern}`);
  }
  argv.push('--', searchPath);
  return argv;
}

/**
 * `argv` (a vector of {@link grepArgv}) with `--no-require-git --no-ignore-parent`, for a workdir outside any
 * git repository: rg then applies the `.gitignore` files in the workdir and below, as VS Code's search does
 * (alone, rg reads them only inside a repository), and none in the folders above it, which VS Code's search
 * leaves out too (it passes `--no-ignore-parent` unless `search.useParentIgnoreFiles` is on): a `.gitignore`
 * in a home folder that is no repository must not hide the workspace's files. Inside a repository both flags
 * are left out: with `--no-require-git` rg no longer finds the `info/exclude` of a linked worktree (whose
 * `.git` is a file), and the repository's own `.gitignore` above a subfolder workspace applies, as in git.
 */
export function withNoRequireGit(argv: readonly string[]): string[] {
  const flags = ['--no-require-git', '--no-ignore-parent'];
  return argv[0] === '--no-config' ? ['--no-config', ...flags, ...argv.slice(1)] : [...flags, ...argv];
}

/**
 * True when a regex may name a carriage return: a raw CR, or an escape of one (`\r`, `\x0D`, `\x{d}`,
 * `\u000D`, `\u{D}`, `\U0000000D`). rg rejects such a pattern under `--crlf` ("the literal "\r" is not
 * allowed"). A match is textual, so an escaped backslash before an `r` counts too; that only costs `--crlf`.
 */
export function namesCarriageReturn(pattern: string): boolean {
  return /\r|\\(?:r|x0[dD]|x\{0*[dD]\}|u000[dD]|u\{0*[dD]\}|U0000000[dD]|U\{0*[dD]\})/.test(pattern);
}

/** Longest directory path {@link pruneToDirectory} prunes for, in characters; deeper ones are not pruned. */
const MAX_PRUNED_PATH_CHARS = 200;

/**
 * `--glob=!…` overrides under which rg, walking from its working directory, enters only `dirs[0]`, then only
 * `dirs[0]/dirs[1]`, and so on: at each level, every entry whose name differs from the wanted one is ignored.
 * rg has no glob for "every name but this one", so the names are excluded by their first differing character
 * (`!/[!s]*`, `!/s[!r]*`, `!/sr[!c]*`), as shorter names (`!/s`, `!/sr`) and as longer ones (`!/src?*`), all
 * anchored. Being ignore-only overrides, they never bring back a hidden or ignored entry, and the wanted
 * directories themselves are still subject to every rule.
 *
 * Only printable ASCII names are pruned for (rg compares globs byte by byte, and a class matches one byte, so
 * other names would leave some siblings unpruned), and paths up to {@link MAX_PRUNED_PATH_CHARS}; otherwise
 * the result is empty and rg walks everything, which changes speed, not results.
 *
 * @param dirs workdir-relative directory names, outermost first.
 */
export function pruneToDirectory(dirs: readonly string[]): string[] {
  if (dirs.length === 0 || dirs.some((d) => !/^[\x20-\x7e]+$/.test(d)) || dirs.join('/').length > MAX_PRUNED_PATH_CHARS) return [];
  const globs: string[] = [];
  let parent = '/';
  for (const name of dirs) {
    for (let j = 0; j < name.length; j++) {
      const head = escapeGlobLiteral(name.slice(0, j));
      globs.push(`--glob=!${parent}${head}[!${name[j]}]*`);
      if (j > 0) globs.push(`--glob=${keepTrailingWhiteSpace(`!${parent}${head}`)}`);
    }
    globs.push(`--glob=!${parent}${escapeGlobLiteral(name)}?*`);
    parent += `${escapeGlobLiteral(name)}/`;
  }
  return globs;
}
