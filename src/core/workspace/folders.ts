import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { quoteValue, ToolError } from '../errors';
import { hostAdvice } from '../hostAdvice';

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
  /**
   * Directory names a target may not be or lie inside, checked on the path as written (before the disk is
   * touched, so the answer does not depend on what exists) and again after realpath (a symlink into one):
   * `refuse(segment)` makes the error. Compared ignoring case on Windows and macOS.
   */
  readonly refuseInside?: { readonly names: readonly string[]; readonly refuse: (segment: string) => ToolError };
}

/** A workspace folder with both ways its location can be written. */
export interface FolderSpellings {
  readonly name: string;
  /** The path as the host gave it, normalised (`path.resolve`). */
  readonly given: string;
  /** Its realpath (the given path when realpath fails). */
  readonly real: string;
}

/** {@link FolderSpellings} of each folder, in order. */
export function folderSpellings(folders: readonly WorkspaceFolderRef[]): Promise<FolderSpellings[]> {
  return Promise.all(folders.map(async (f) => ({ name: f.name, given: path.resolve(f.path), real: await fs.realpath(f.path).catch(() => path.resolve(f.path)) })));
}

/** True when `child` (an absolute, normalised path) is `parent` or lies below it. */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Whether file names differ only by case on this platform's usual file systems (Windows, macOS). */
const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';

/**
 * Resolves a model-supplied `path` against the open workspace folders.
 *
 * Rules: with no folder open, fails `NO_WORKSPACE`. An omitted path is the first folder. In a multi-root
 * workspace a relative path whose first segment is a folder's name resolves inside that folder (VS Code's
 * own convention); other relative paths resolve against the first folder. The result is realpath'd, so a
 * symlink counts as where it points, and must lie inside some folder (`PATH_OUTSIDE_WORKSPACE`) unless
 * `allowOutside`. A missing target fails `INVALID_ARGUMENT` naming the path.
 *
 * Every path outside the folders gets the same answer, whether it exists or not: a path that is
 * outside as written is refused before the disk is touched, and a missing path that would lead outside
 * (its nearest existing ancestor resolves outside, or a dangling symlink on it points outside) is refused like
 * an existing one, never reported as missing.
 *
 * @throws ToolError NO_WORKSPACE | PATH_OUTSIDE_WORKSPACE | INVALID_ARGUMENT ({@link MissingPathError} for a
 *   missing or unreadable path), or `refuseInside.refuse`'s error
 */
export async function resolveTarget(
  pathArg: string | undefined,
  folders: readonly WorkspaceFolderRef[],
  options: ResolveOptions = {},
): Promise<ResolvedTarget> {
  if (folders.length === 0) {
    throw new ToolError('NO_WORKSPACE', `No workspace folder is open. ${hostAdvice().openFolder}`);
  }
  const realFolders = await folderSpellings(folders);
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
  const writtenIn = realFolders.flatMap((f) => [f.real, f.given]).find((spelling) => isWithin(spelling, candidate));
  if (writtenIn === undefined && !options.allowOutside) throw outsideWorkspace(pathArg);
  // Outside the folders (allowed), every segment of the absolute path counts.
  refuseSegments(writtenIn === undefined ? candidate : path.relative(writtenIn, candidate), options);
  let absPath: string;
  try {
    absPath = await fs.realpath(candidate);
  } catch (e) {
    if (!options.allowOutside) {
      const leadsTo = await wouldResolveTo(candidate);
      if (!realFolders.some((f) => isWithin(f.real, leadsTo))) throw outsideWorkspace(pathArg);
    }
    throw missingPath(pathArg, (e as NodeJS.ErrnoException).code);
  }
  const owner = realFolders.find((f) => isWithin(f.real, absPath));
  if (!owner && !options.allowOutside) throw outsideWorkspace(pathArg);
  const workdir = owner ? owner.real : base.real;
  const relPath = path.relative(workdir, absPath).split(path.sep).join('/') || '.';
  refuseSegments(owner ? relPath : absPath, options);
  // The target can vanish between realpath and stat (a concurrent rename): still the model's missing path.
  const stat = await fs.stat(absPath).catch(() => {
    throw missingPath(pathArg);
  });
  return {
    workdir,
    folderName: owner ? owner.name : base.name,
    absPath,
    relPath,
    kind: stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other',
  };
}

/** Throws `refuseInside.refuse(segment)` for the first segment of `relPath` (either separator) it names. */
function refuseSegments(relPath: string, options: ResolveOptions): void {
  const rule = options.refuseInside;
  if (!rule) return;
  const fold = (s: string) => (CASE_INSENSITIVE ? s.toLowerCase() : s);
  const names = new Set(rule.names.map(fold));
  const segment = relPath.split(/[\\/]/).find((s) => names.has(fold(s)));
  if (segment !== undefined) throw rule.refuse(segment);
}

/** Most symlinks {@link wouldResolveTo} follows (Linux's own limit, MAXSYMLINKS, is 40). */
const MAX_SYMLINKS = 40;

/**
 * Where the absolute path `candidate`, which does not resolve, would lead: its deepest ancestor that resolves
 * (realpath), then, when the next segment is a symlink (a dangling one, or one into a missing place), where that
 * link points, followed the same way; segments that do not exist are taken as written. So a link to a missing
 * folder outside the workspace lands outside, as a link to an existing one does.
 */
async function wouldResolveTo(candidate: string, links = 0): Promise<string> {
  const rest: string[] = [];
  let dir = candidate;
  let real: string | undefined;
  while ((real = await fs.realpath(dir).catch(() => undefined)) === undefined) {
    const parent = path.dirname(dir);
    if (parent === dir) return candidate;
    rest.unshift(path.basename(dir));
    dir = parent;
  }
  if (rest.length === 0) return real;
  const link = links < MAX_SYMLINKS ? await fs.readlink(path.join(real, rest[0]!)).catch(() => undefined) : undefined;
  if (link === undefined) return path.join(real, ...rest);
  return wouldResolveTo(path.resolve(real, link, ...rest.slice(1)), links + 1);
}

function outsideWorkspace(pathArg: string | undefined): ToolError {
  return new ToolError(
    'PATH_OUTSIDE_WORKSPACE',
    `path ${quoteValue(pathArg ?? '.')} resolves outside the workspace folders (symlinks are followed). Search inside the workspace instead.`,
  );
}

/** The error of a `path` that does not resolve inside the workspace: missing, or not readable by this user. */
export class MissingPathError extends ToolError {
  constructor(
    readonly pathArg: string | undefined,
    /** True when it may exist, but a folder on the way cannot be entered by this user (EACCES). */
    readonly permissionDenied: boolean,
    advice?: string,
  ) {
    super(
      'INVALID_ARGUMENT',
      permissionDenied
        ? `path ${quoteValue(pathArg ?? '.')} cannot be read: a folder on the way is not readable by the user Scout runs as (permission denied). Search another path, or ask the user to fix the permissions.`
        : `path ${quoteValue(pathArg ?? '.')} does not exist in the workspace. ${advice ?? 'Check the spelling, or omit path to search the whole workspace.'}`,
    );
  }
}

function missingPath(pathArg: string | undefined, errno?: string): ToolError {
  return new MissingPathError(pathArg, errno === 'EACCES');
}
