import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ToolError } from '../errors';

/** One workspace folder as the host knows it: its display `name` and absolute filesystem `path`. */
export interface WorkspaceFolderRef {
  readonly name: string;
  readonly path: string;
}

/** Where a tool's `path` argument landed, after realpath. */
export interface ResolvedTarget {
  /** The workspace folder the target lies in (its realpath): the call's workdir. Output paths are relative to it. */
  readonly workdir: string;
  /** The folder's display name. */
  readonly folderName: string;
  /** The target's realpath. */
  readonly absPath: string;
  /** The target relative to `workdir`, with `/` separators; `.` for the workdir itself. */
  readonly relPath: string;
  readonly kind: 'file' | 'directory' | 'other';
}

export interface ResolveOptions {
  /** `scout.search.allowPathsOutsideWorkspace`: accept a target that resolves outside every folder. */
  readonly allowOutside?: boolean;
}

/** True when `child` (an absolute, normalised path) is `parent` or lies below it. */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Resolves a model-supplied `path` against the open workspace folders.
 *
 * Rules: with no folder open, fails `NO_WORKSPACE`. An omitted path is the first folder. In a multi-root
 * workspace a relative path whose first segment is a folder's name resolves inside that folder (VS Code's
 * own convention); other relative paths resolve against the first folder. The result is realpath'd, so a
 * symlink counts as where it points, and must lie inside some folder (`PATH_OUTSIDE_WORKSPACE`) unless
 * `allowOutside`. A missing target fails `INVALID_ARGUMENT` naming the path.
 *
 * @throws ToolError NO_WORKSPACE | PATH_OUTSIDE_WORKSPACE | INVALID_ARGUMENT
 */
export async function resolveTarget(
  pathArg: string | undefined,
  folders: readonly WorkspaceFolderRef[],
  options: ResolveOptions = {},
): Promise<ResolvedTarget> {
  if (folders.length === 0) {
    throw new ToolError('NO_WORKSPACE', 'No workspace folder is open. Open a folder in VS Code, then call the tool again.');
  }
  const realFolders = await Promise.all(
    folders.map(async (f) => ({ name: f.name, real: await fs.realpath(f.path).catch(() => path.resolve(f.path)) })),
  );
  let base = realFolders[0]!;
  let rest = pathArg ?? '.';
  if (pathArg !== undefined && !path.isAbsolute(pathArg) && realFolders.length > 1) {
    const [first, ...tail] = pathArg.split(/[\\/]/);
    const named = realFolders.find((f) => f.name === first);
    if (named) {
      base = named;
      rest = tail.length ? tail.join('/') : '.';
    }
  }
  const candidate = path.resolve(base.real, rest);
  let absPath: string;
  try {
    absPath = await fs.realpath(candidate);
  } catch {
    throw missingPath(pathArg);
  }
  const owner = realFolders.find((f) => isWithin(f.real, absPath));
  if (!owner && !options.allowOutside) {
    throw new ToolError(
      'PATH_OUTSIDE_WORKSPACE',
      `path "${pathArg}" resolves outside the workspace folders (symlinks are followed). Search inside the workspace instead.`,
    );
  }
  const workdir = owner ? owner.real : base.real;
  // The target can vanish between realpath and stat (a concurrent rename): still the model's missing path.
  const stat = await fs.stat(absPath).catch(() => {
    throw missingPath(pathArg);
  });
  return {
    workdir,
    folderName: owner ? owner.name : base.name,
    absPath,
    relPath: path.relative(workdir, absPath).split(path.sep).join('/') || '.',
    kind: stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other',
  };
}

function missingPath(pathArg: string | undefined): ToolError {
  return new ToolError('INVALID_ARGUMENT', `path "${pathArg}" does not exist in the workspace. Check the spelling, or omit path to search the whole workspace.`);
}
