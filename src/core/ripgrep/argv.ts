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

/**
 * `rg --files` for the glob tool: `--glob=<pattern> --sort=modified --no-ignore --hidden`, then the VCS
 * excludes (seed 000). Scout adds `--null` so each path ends with a NUL byte instead of a newline: a file name
 * may contain a newline, never a NUL. The list comes back oldest-modified first (rg's `--sort=modified`).
 *
 * @param pattern a ripgrep glob (gitignore syntax).
 * @param searchPath the directory to list, relative to rg's working directory (`.` for the workdir).
 */
export function globArgv(pattern: string, searchPath: string): string[] {
  return [
    '--no-config',
    '--files',
    '--null',
    `--glob=${pattern}`,
    '--sort=modified',
    '--no-ignore',
    '--hidden',
    ...VCS_DIRECTORIES.map((dir) => `--glob=!${dir}`),
    '--',
    searchPath,
  ];
}

/**
 * `rg --json` for the grep tool (seed 000): the regex as `--regexp=<pattern>`, the optional `include` as one
 * `--glob=<include>`.
 *
 * Hidden and ignored files: seed 000 gives glob `--no-ignore --hidden` and grep only `--json`, so grep keeps
 * ripgrep's defaults. It skips hidden files and directories, files ignored by `.gitignore`, `.ignore` and
 * `.rgignore`, and binary files found while walking. A hidden or ignored file or directory passed as `path` is
 * still searched, because rg always searches the paths it is given.
 *
 * @param pattern a ripgrep (Rust) regex.
 * @param include one positive glob, already validated.
 * @param searchPath the file or directory to search, relative to rg's working directory.
 */
export function grepArgv(pattern: string, include: string | undefined, searchPath: string): string[] {
  return ['--no-config', '--json', `--regexp=${pattern}`, ...(include === undefined ? [] : [`--glob=${include}`]), '--', searchPath];
}
