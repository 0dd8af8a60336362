import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isWithin, resolveTarget, type WorkspaceFolderRef } from '../../core/workspace/folders';

/**
 * The absolute real path of a file a search run listed, for opening it from its card. No `vscode` import.
 *
 * Result paths are relative to the run's workdir (seed 000; seed 003 likewise): the workspace folder its
 * `path` argument resolved into. The run's value names it (`workdir`, or the folder's name); for a value that
 * does not, it is found again with the same {@link resolveTarget} the tool used. Then every other open folder is tried (the
 * workspace may have changed since the run). The file is
 * realpath'd and must lie inside an open folder, so a card never opens a file outside the workspace, not
 * through `..`, an absolute path or a symlink, whatever `scout.search.allowPathsOutsideWorkspace` says.
 *
 * @param run.workdir the absolute workdir the run's value reports, if any
 * @param run.folder the name of the workspace folder the run's value reports, if any
 * @param run.pathArg the run's `path` argument (anything; only a string is used)
 * @param resultPath the path as the run's value lists it
 * @throws Error with a message for the user when no folder is open, the file is gone, or it lies outside
 */
export async function locateRunFile(
  folders: readonly WorkspaceFolderRef[],
  run: { readonly workdir?: string; readonly folder?: string; readonly pathArg?: unknown },
  resultPath: string,
): Promise<string> {
  if (folders.length === 0) throw new Error('Open the workspace folder the search ran in to open its results.');
  const realFolders = await Promise.all(folders.map((f) => fs.realpath(f.path).catch(() => path.resolve(f.path))));
  const named = folders.findIndex((f) => f.name === run.folder);
  const workdir =
    run.workdir ??
    (named >= 0 ? realFolders[named] : undefined) ??
    (await resolveTarget(typeof run.pathArg === 'string' ? run.pathArg : undefined, folders).then(
      (t) => t.workdir,
      () => undefined,
    ));
  const bases = [...new Set([...(workdir ? [workdir] : []), ...realFolders])];
  let outside = false;
  for (const base of bases) {
    const real = await fs.realpath(path.resolve(base, resultPath)).catch(() => undefined);
    if (!real) continue;
    if (realFolders.some((f) => isWithin(f, real))) return real;
    outside = true;
  }
  throw new Error(
    outside
      ? `"${resultPath}" resolves outside the workspace folders, so Scout will not open it.`
      : `"${resultPath}" no longer exists in the workspace folders.`,
  );
}
