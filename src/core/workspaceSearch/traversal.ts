import * as fs from 'node:fs';
import * as path from 'node:path';
import { isToolError, ToolError } from '../errors';
import { throwIfCancelled, type CancellationCheck } from './cancellation';
import { WORKSPACE_SEARCH_LIMITS as LIMITS } from './limits';
import type { ExcludedNameTest } from './target';

/** A regular file found by the traversal (by its directory entry; it is checked again before reading). */
export interface DiscoveredFile {
  /** Absolute path: the canonical search root joined with the entry names below it. */
  readonly absPath: string;
  /** Path relative to the workspace folder with `/` separators; a `\` inside a POSIX name is kept. */
  readonly relPath: string;
}

/** A traversal budget that cut the walk short. */
export type TraversalLimit = 'files' | 'directories' | 'depth' | 'entries';

/** What one traversal found, with every budget it spent. */
export interface Discovery {
  /** Regular files in walk order (depth first, each directory's entries sorted by name). */
  readonly files: DiscoveredFile[];
  /** Directories listed, the root included. */
  directories: number;
  /** Directory entries examined (every kind, skipped ones included). */
  entries: number;
  /** Entries not followed: discovered symlinks, excluded or too-deep directories, special files, entries past a limit. */
  skippedEntries: number;
  /** Directories below the root that could not be listed (completely or partly); the report is partial. */
  unreadableDirectories: number;
  readonly limitsReached: Set<TraversalLimit>;
}

/** The directory tree to walk: the canonical root and its path relative to the workspace folder. */
export interface TraversalRoot {
  readonly absPath: string;
  /** `/`-separated, `.` for the workspace folder itself. */
  readonly relPath: string;
}

/** How a traversal is driven. */
export interface TraversalControl {
  readonly isCancelled: CancellationCheck;
  /**
   * Test seam: called right before a directory below the root is listed, so a test can make it vanish or
   * unreadable at that moment. The tool never sets it.
   */
  readonly beforeList?: (absDir: string) => void;
}

/**
 * Lists the regular files under a directory within seed 003's budgets: 2,000 files, 512 directories
 * listed, depth 16 below the root (a directory at depth 16 is not listed, like rg `--max-depth 16`) and
 * 4,096 directory entries examined. Directories are streamed (`opendir`), and the entries read from each
 * are sorted by name (UTF-16 code-unit order) before they are visited, depth first. Discovered symlinks,
 * excluded directory names and special files (FIFOs, sockets, devices) are skipped and counted, never
 * opened. The walk ends at the first file past the file budget; after the first entry past the entry
 * budget no directory is listed any more (files already listed still count). So reaching a limit exactly
 * is not reported as truncation. Synchronous: it runs in the search worker.
 *
 * @throws ToolError WORKSPACE_SEARCH_FAILED when the root cannot be listed; WORKSPACE_SEARCH_ABORTED.
 */
export function discoverFiles(root: TraversalRoot, isExcluded: ExcludedNameTest, control: TraversalControl): Discovery {
  const { isCancelled } = control;
  const found: Discovery = { files: [], directories: 0, entries: 0, skippedEntries: 0, unreadableDirectories: 0, limitsReached: new Set() };
  let filesFull = false;
  let entriesSpent = false;

  /** One directory's entries within the entry budget, sorted by name; undefined when it cannot be opened. */
  const list = (absDir: string, relDir: string, isRoot: boolean): fs.Dirent[] | undefined => {
    let dir: fs.Dir;
    if (!isRoot) control.beforeList?.(absDir);
    try {
      dir = fs.opendirSync(absDir);
    } catch (e) {
      if (isRoot) {
        throw new ToolError('WORKSPACE_SEARCH_FAILED', `cannot list the directory "${relDir || '.'}" (${(e as NodeJS.ErrnoException).code ?? e}). Check its permissions, or search a readable folder.`);
      }
      found.unreadableDirectories++;
      return undefined;
    }
    found.directories++;
    const entries: fs.Dirent[] = [];
    try {
      for (;;) {
        throwIfCancelled(isCancelled);
        const entry = dir.readSync();
        if (!entry) break;
        if (found.entries === LIMITS.maxEntries) {
          found.limitsReached.add('entries');
          entriesSpent = true;
          break;
        }
        found.entries++;
        entries.push(entry);
      }
    } catch (e) {
      if (isToolError(e)) throw e;
      found.unreadableDirectories++; // listing failed part way: keep what was read; the report is partial
    } finally {
      try {
        dir.closeSync();
      } catch {
        // already closed by a failed read
      }
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };

  const walk = (absDir: string, relDir: string, depth: number): void => {
    const entries = list(absDir, relDir, depth === 0);
    // The root is canonical and names hold no separator, so joining needs no normalisation (path.join's).
    const absPrefix = absDir.endsWith(path.sep) ? absDir : absDir + path.sep;
    for (const entry of entries ?? []) {
      if (filesFull) return;
      const absPath = absPrefix + entry.name;
      const kind = entryKind(entry, absPath);
      if (kind === 'file') {
        if (found.files.length === LIMITS.maxFiles) {
          found.skippedEntries++;
          found.limitsReached.add('files');
          filesFull = true;
          return;
        }
        found.files.push({ absPath, relPath: relDir ? `${relDir}/${entry.name}` : entry.name });
      } else if (kind === 'directory' && !isExcluded(entry.name)) {
        if (depth + 1 >= LIMITS.maxDepth) {
          found.skippedEntries++;
          found.limitsReached.add('depth');
        } else if (found.directories === LIMITS.maxDirectories) {
          found.skippedEntries++;
          found.limitsReached.add('directories');
        } else if (entriesSpent) {
          found.skippedEntries++;
        } else {
          walk(absPath, relDir ? `${relDir}/${entry.name}` : entry.name, depth + 1);
        }
      } else {
        found.skippedEntries++;
      }
    }
  };

  walk(root.absPath, root.relPath === '.' ? '' : root.relPath, 0);
  return found;
}

/** The entry's type from its dirent, or from `lstat` when the file system reports none (DT_UNKNOWN). */
function entryKind(entry: fs.Dirent, absPath: string): 'file' | 'directory' | 'other' {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(absPath, { throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  return stat?.isFile() ? 'file' : stat?.isDirectory() ? 'directory' : 'other';
}
