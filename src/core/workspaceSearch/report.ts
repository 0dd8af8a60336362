import { escapeUnsafeInJson } from '../controlCharacters';
import { WORKSPACE_SEARCH_LIMITS as LIMITS } from './limits';
import type { SkipReason } from './reader';
import type { TraversalLimit } from './traversal';

/** One matching line in the report. */
export interface WorkspaceSearchMatch {
  /** File path relative to the workspace folder, `/`-separated (a `\` in a POSIX file name is kept). */
  readonly path: string;
  /** 1-based line number. */
  readonly line: number;
  /** 1-based UTF-16 column of the first match in the line. */
  readonly column: number;
  /** The line, at most 500 UTF-16 code units plus `…` where text was left out. */
  readonly preview: string;
}

/**
 * Why a report is incomplete (`truncated: true`), in the order the checks run:
 * traversal limits (`files`, `directories`, `depth`, `entries`), `unreadableDirectories` (partial listing),
 * `readBudget` (64 MiB spent), `skippedFiles`, `maxResults` (the scan stopped at the result limit),
 * `previewClipped` (some preview was cut) and `reportSize` (matches dropped to fit 128 KiB).
 */
export type TruncationReason = TraversalLimit | 'unreadableDirectories' | 'readBudget' | 'skippedFiles' | 'maxResults' | 'previewClipped' | 'reportSize';

const REASON_ORDER: readonly TruncationReason[] = [
  'files',
  'directories',
  'depth',
  'entries',
  'unreadableDirectories',
  'readBudget',
  'skippedFiles',
  'maxResults',
  'previewClipped',
  'reportSize',
];

/**
 * The canonical `workspace_search` result: the model sees this value as JSON (seed 003: `JSON.stringify`,
 * with unsafe and invisible characters in names and previews escaped, see {@link reportText}), and the
 * results panel renders the same value.
 */
export interface WorkspaceSearchReport {
  readonly query: string;
  readonly caseSensitive: boolean;
  readonly maxResults: number;
  /** Name of the workspace folder the search ran in; every path is relative to it. */
  readonly workspaceFolder: string;
  /** The searched file or directory relative to that folder (`.` for the folder itself). */
  readonly path: string;
  /** Matching lines collected (at most `maxResults`), including any in `omittedMatches`. */
  readonly matchCount: number;
  /** Matching lines collected but dropped from the end of `matches` to keep the report within 128 KiB. */
  readonly omittedMatches: number;
  /** True whenever any limit, skipped file, partial listing or clipped preview applied. */
  readonly truncated: boolean;
  readonly truncatedBy: TruncationReason[];
  /** Regular files the traversal found (at most 2,000). */
  readonly filesFound: number;
  /** Files read and searched. */
  readonly scannedFiles: number;
  /** Files found but not searched (see `skippedFileReasons`). */
  readonly skippedFiles: number;
  readonly skippedFileReasons: Partial<Record<SkipReason, number>>;
  /** Directories listed, the root included. */
  readonly directories: number;
  /** Directory entries examined, skipped ones included. */
  readonly entries: number;
  /** Entries not followed: symlinks, excluded directories, special files, entries past a limit. */
  readonly skippedEntries: number;
  /** Directories below the root that could not be listed in full. */
  readonly unreadableDirectories: number;
  /** File bytes read from disk. */
  readonly readBytes: number;
  readonly matches: WorkspaceSearchMatch[];
}

/** What the report says about the request itself. */
export type ReportHeader = Pick<WorkspaceSearchReport, 'query' | 'caseSensitive' | 'maxResults' | 'workspaceFolder' | 'path'>;

/** What a scan found, as plain data (posted back from the worker): the report's counts and matches. */
export type ScanOutcome = Pick<
  WorkspaceSearchReport,
  | 'matches'
  | 'filesFound'
  | 'scannedFiles'
  | 'skippedFiles'
  | 'skippedFileReasons'
  | 'directories'
  | 'entries'
  | 'skippedEntries'
  | 'unreadableDirectories'
  | 'readBytes'
> & {
  /** Every truncation reason that applied, except `reportSize` (decided when the report is built). */
  readonly reasons: TruncationReason[];
};

/**
 * Builds the final report and its text, which are the same JSON (seed 003). When the text would pass
 * 128 KiB of UTF-8, matches are dropped from the end until it fits, `omittedMatches` says how many, and
 * `reportSize` joins `truncatedBy`. Paths and previews are already bounded, so the fields other than
 * `matches` stay far below the cap.
 *
 * @returns `value` and `text === reportText(value)` (`JSON.parse(text)` deep-equals `value`), with
 *   `Buffer.byteLength(text) <= 131072`
 */
export function buildReport(header: ReportHeader, outcome: ScanOutcome): { value: WorkspaceSearchReport; text: string } {
  const { reasons, matches, ...rest } = outcome;
  const assemble = (kept: number): WorkspaceSearchReport => {
    const truncatedBy = REASON_ORDER.filter((r) => reasons.includes(r) || (r === 'reportSize' && kept < matches.length));
    return {
      query: header.query,
      caseSensitive: header.caseSensitive,
      maxResults: header.maxResults,
      workspaceFolder: header.workspaceFolder,
      path: header.path,
      matchCount: matches.length,
      omittedMatches: matches.length - kept,
      truncated: truncatedBy.length > 0,
      truncatedBy,
      filesFound: rest.filesFound,
      scannedFiles: rest.scannedFiles,
      skippedFiles: rest.skippedFiles,
      skippedFileReasons: { ...rest.skippedFileReasons },
      directories: rest.directories,
      entries: rest.entries,
      skippedEntries: rest.skippedEntries,
      unreadableDirectories: rest.unreadableDirectories,
      readBytes: rest.readBytes,
      matches: matches.slice(0, kept),
    };
  };
  const full = assemble(matches.length);
  const fullText = reportText(full);
  if (Buffer.byteLength(fullText) <= LIMITS.maxReportBytes) return { value: full, text: fullText };

  // Keep the longest prefix of matches that fits: sizes are summed once, then the estimate is verified
  // (a count's digits can shift a few bytes) and stepped down if needed.
  const emptyBytes = Buffer.byteLength(reportText(assemble(0)));
  let kept = 0;
  let bytes = emptyBytes;
  while (kept < matches.length) {
    const next = Buffer.byteLength(reportText(matches[kept])) + (kept > 0 ? 1 : 0);
    if (bytes + next > LIMITS.maxReportBytes) break;
    bytes += next;
    kept++;
  }
  for (;;) {
    const value = assemble(kept);
    const text = reportText(value);
    if (Buffer.byteLength(text) <= LIMITS.maxReportBytes || kept === 0) return { value, text };
    kept--;
  }
}

/**
 * The text of a report (or of one part, for its size): `JSON.stringify`, with the characters grep escapes in
 * a quoted name escaped too (`escapeUnsafeInJson`: bidi controls such as U+202E, U+2028, C1 controls such as
 * U+0085, DEL, invisible characters). `JSON.stringify` leaves those raw, and a file's name or line could then
 * reorder or break the lines the model and the user read. The text parses back to the same value.
 */
export function reportText(value: unknown): string {
  return escapeUnsafeInJson(JSON.stringify(value));
}
