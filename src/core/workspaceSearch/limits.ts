/**
 * The fixed budgets of `workspace_search`. Every number is a default from seed 003 unless marked otherwise;
 * they are constants (not settings) because the tool's promise to a model is that these bounds never move.
 */
export const WORKSPACE_SEARCH_LIMITS = {
  /** Longest raw `query`, in UTF-16 code units, before trimming. */
  maxQueryLength: 256,
  /** Longest `path` argument, in UTF-16 code units. */
  maxPathLength: 512,
  /** Default and upper bound of `maxResults` (matching lines reported). */
  maxResults: 100,
  /** Regular files one traversal collects. */
  maxFiles: 2_000,
  /** Directories one traversal opens, the search root included. */
  maxDirectories: 512,
  /** Deepest entry visited, counted in path segments below the search root (rg `--max-depth 16`). */
  maxDepth: 16,
  /** Directory entries examined in all, skipped entries included. */
  maxEntries: 4_096,
  /** Bytes one file may hold; larger files are skipped. */
  maxFileBytes: 2 * 1024 * 1024,
  /** Bytes all file reads together may consume (reservations included). */
  maxTotalReadBytes: 64 * 1024 * 1024,
  /** Bytes per read call; cancellation is checked between chunks. */
  readChunkBytes: 64 * 1024,
  /** UTF-16 code units of one preview, omission markers not counted. */
  maxPreviewLength: 500,
  /** UTF-8 bytes of the serialised report (model text and value alike). */
  maxReportBytes: 128 * 1024,
} as const;
