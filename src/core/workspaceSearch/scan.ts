import { throwIfCancelled } from './cancellation';
import { WORKSPACE_SEARCH_LIMITS as LIMITS } from './limits';
import { LiteralLineMatcher } from './matcher';
import { classifyText, closeOpenedFile, defaultCanonicalPathMethod, openCheckedFile, readOpenedFile, readReservation, type CanonicalPathMethod, type SkipReason } from './reader';
import type { ScanOutcome, TruncationReason, WorkspaceSearchMatch } from './report';
import { excludedNameTest } from './target';
import { discoverFiles, type DiscoveredFile, type TraversalControl } from './traversal';

/** Everything the scan needs, as plain data (it is posted to the search worker). */
export interface ScanRequest {
  /** The canonical search root (a directory or a regular file). */
  readonly rootPath: string;
  /** The root relative to its workspace folder, `/`-separated (`.` for the folder). */
  readonly rootRelPath: string;
  readonly rootKind: 'file' | 'directory';
  /** `scout.workspaceSearch.excludedDirectories`. */
  readonly excludedDirectories: readonly unknown[];
  /** Where excluded names compare case-insensitively (`win32`, `darwin`). */
  readonly platform: NodeJS.Platform;
  readonly query: string;
  readonly caseSensitive: boolean;
  readonly maxResults: number;
}


/** How the scan is driven: cancellation, progress, and test seams. */
export interface ScanControl extends TraversalControl {
  /** Called with files done and files found, every {@link PROGRESS_EVERY} files. */
  readonly progress?: (done: number, total: number) => void;
  /**
   * Test seam: called after a file was discovered and right before it is opened for reading, so a test
   * can swap the file (symlink, FIFO, deletion) at the worst moment. The tool never sets it.
   */
  readonly beforeOpen?: (file: DiscoveredFile) => void;
  /** How files are re-checked for containment; {@link defaultCanonicalPathMethod} unless a test picks one. */
  readonly canonicalPathMethod?: CanonicalPathMethod;
}

/** Files between progress reports. */
export const PROGRESS_EVERY = 250;

/**
 * The `workspace_search` scan (seed 003), synchronous so that it runs as one task in the search worker:
 * walks the root within the traversal budgets, then reads each file in walk order within the read budgets
 * (2 MiB per file, 64 MiB in all, reserving before each read) and collects matching lines until
 * `maxResults`. When the result limit is reached with files or lines left, the scan stops there and says
 * so (`maxResults`), without looking further. Cancellation is checked between every file-system call.
 *
 * @throws ToolError WORKSPACE_SEARCH_FAILED (root cannot be listed) | WORKSPACE_SEARCH_ABORTED
 */
export function scanWorkspace(request: ScanRequest, control: ScanControl): ScanOutcome {
  const { isCancelled } = control;
  throwIfCancelled(isCancelled);
  const isExcluded = excludedNameTest(request.excludedDirectories, request.platform);
  const discovery =
    request.rootKind === 'file'
      ? undefined
      : discoverFiles({ absPath: request.rootPath, relPath: request.rootRelPath }, isExcluded, control);
  const files: DiscoveredFile[] = discovery?.files ?? [{ absPath: request.rootPath, relPath: request.rootRelPath }];
  const reasons = new Set<TruncationReason>(discovery?.limitsReached);
  if (discovery && discovery.unreadableDirectories > 0) reasons.add('unreadableDirectories');

  const method = control.canonicalPathMethod ?? defaultCanonicalPathMethod();
  const matcher = new LiteralLineMatcher(request.query, request.caseSensitive);
  const matches: WorkspaceSearchMatch[] = [];
  const skippedFileReasons: Partial<Record<SkipReason, number>> = {};
  let scannedFiles = 0;
  let skippedFiles = 0;
  let readBytes = 0;
  let consumed = 0;
  const skip = (reason: SkipReason) => {
    skippedFiles++;
    skippedFileReasons[reason] = (skippedFileReasons[reason] ?? 0) + 1;
  };

  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    if (i > 0 && i % PROGRESS_EVERY === 0) control.progress?.(i, files.length);
    control.beforeOpen?.(file);
    throwIfCancelled(isCancelled);
    const opened = openCheckedFile(file, request.rootPath, isCancelled, method);
    if ('skipped' in opened) {
      skip(opened.skipped);
      continue;
    }
    const reservation = readReservation(opened.size);
    if (consumed + reservation > LIMITS.maxTotalReadBytes) {
      closeOpenedFile(opened);
      reasons.add('readBudget');
      break;
    }
    const read = readOpenedFile(opened, matcher.readBuffer(reservation), isCancelled);
    consumed += read.consumed;
    readBytes += read.bytesRead;
    if ('skipped' in read) {
      skip(read.skipped);
      continue;
    }
    const kind = classifyText(read.bytes);
    if (typeof kind !== 'string') {
      skip(kind.skipped);
      continue;
    }
    scannedFiles++;
    const found = matcher.match(read.bytes, kind, request.maxResults - matches.length);
    for (const m of found.lines) {
      matches.push({ path: file.relPath, line: m.line, column: m.column, preview: m.preview });
      if (m.clipped) reasons.add('previewClipped');
    }
    if (matches.length === request.maxResults && (found.more || i < files.length - 1)) {
      reasons.add('maxResults');
      break;
    }
  }
  if (skippedFiles > 0) reasons.add('skippedFiles');
  return {
    matches,
    filesFound: files.length,
    scannedFiles,
    skippedFiles,
    skippedFileReasons,
    directories: discovery?.directories ?? 0,
    entries: discovery?.entries ?? 0,
    skippedEntries: discovery?.skippedEntries ?? 0,
    unreadableDirectories: discovery?.unreadableDirectories ?? 0,
    readBytes,
    reasons: [...reasons],
  };
}
