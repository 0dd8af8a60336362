import { ToolError } from '../errors';
import { hostAdvice } from '../hostAdvice';
import { resolveTarget, type ResolvedTarget, type WorkspaceFolderRef } from '../workspace/folders';

/** Tells whether a directory name is one `workspace_search` skips (`scout.workspaceSearch.excludedDirectories`). */
export type ExcludedNameTest = (name: string) => boolean;

/**
 * Builds the excluded-directory test. Names compare exactly on Linux and case-insensitively on Windows and
 * macOS, whose default file systems ignore case (seed 003). Non-string and empty entries of a hand-edited
 * setting are ignored.
 */
export function excludedNameTest(names: readonly unknown[], platform: NodeJS.Platform = process.platform): ExcludedNameTest {
  const foldCase = platform === 'win32' || platform === 'darwin';
  const fold = (s: string) => (foldCase ? s.toLowerCase() : s);
  const set = new Set(names.filter((n): n is string => typeof n === 'string' && n.length > 0).map(fold));
  return (name) => set.has(fold(name));
}

/** The canonical search root: a directory or a regular file inside one workspace folder. */
export interface SearchRoot extends ResolvedTarget {
  readonly kind: 'file' | 'directory';
}

/**
 * Resolves `workspace_search`'s `path` (seed 003): canonically (realpath, so an explicit symlink is followed)
 * inside a workspace folder, never outside it whatever `scout.search.allowPathsOutsideWorkspace` says. A
 * target whose canonical location is, or lies inside, an excluded directory is refused (so is a path
 * through a symlink into one), as is anything that is neither a regular file nor a directory. Names are
 * compared with `isExcluded`, so the platform's case rule applies.
 *
 * @throws ToolError NO_WORKSPACE | PATH_OUTSIDE_WORKSPACE | INVALID_ARGUMENT
 */
export async function resolveSearchRoot(
  pathArg: string | undefined,
  folders: readonly WorkspaceFolderRef[],
  isExcluded: ExcludedNameTest,
): Promise<SearchRoot> {
  const target = await resolveTarget(pathArg, folders, { allowOutside: false });
  // Every directory on the canonical path counts; a file's own name does not (a script may be called `build`).
  const segments = target.relPath.split('/');
  const directories = target.kind === 'directory' ? segments : segments.slice(0, -1);
  const excluded = directories.find((segment) => isExcluded(segment));
  if (excluded !== undefined) throw excludedTarget(pathArg!, excluded);
  if (target.kind === 'other') {
    throw new ToolError('INVALID_ARGUMENT', `path "${pathArg}" is neither a regular file nor a directory. Give a source file or a folder.`);
  }
  return target as SearchRoot;
}

function excludedTarget(pathArg: string, segment: string): ToolError {
  return new ToolError(
    'INVALID_ARGUMENT',
    `path "${pathArg}" is inside "${segment}", a directory workspace_search never searches (${hostAdvice().setting('workspaceSearch.excludedDirectories')}). Use grep to search it.`,
  );
}
