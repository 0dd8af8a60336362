/**
 * Turns a recorded tool call ({@link ToolRun}) into what its card shows ({@link CardModel}) and the list of
 * things a card row can open ({@link CardTarget}). No `vscode` import.
 *
 * The card reads the tool's canonical `value` (see `ToolOutput.value`) defensively: a value of a shape the
 * panel does not know (an older run, a changed tool) still gives a card, showing the first lines of the
 * model text. Every list is bounded, so a card stays small whatever the run produced.
 */
import { showInvisibleCharacters } from '../../core/controlCharacters';
import { countOf } from '../../core/spill';
import type { ToolRun } from '../runRecord';
import { adviseOnError } from './errorSummary';
import { cutText, findAll, previewLine, utf8RangesToUtf16, type LineRange, type MatchHint } from './match';
import type { CardBody, CardCount, CardModel, CountKind, FileRow, SourceRow } from './protocol';

/**
 * Rows (files plus lines) one grep or workspace_search card lists; the rest are counted and left to the full
 * result. A glob card lists its whole page instead (see {@link buildCard}).
 */
export const MAX_CARD_ROWS = 60;
/** UTF-16 code units of a line preview or snippet on a card. */
export const MAX_PREVIEW_CHARS = 240;
/** Sources one web_search card lists: the most `scout.webSearch.searchMaxResults` allows, so the card lists what the model got. */
export const MAX_CARD_SOURCES = 50;
/** Lines, and UTF-16 code units, of the Markdown excerpt on a web_fetch card or a text card. */
export const EXCERPT_LINES = 12;
export const EXCERPT_CHARS = 2000;
/** UTF-16 code units of one argument value on a card. */
export const MAX_ARG_CHARS = 200;

/** What a run's value says its paths are relative to: an absolute `workdir`, or a workspace `folder` name. */
export interface Workdir {
  readonly workdir?: string;
  readonly folder?: string;
}

/** Something a card row opens: a file (at a line, selecting the match when it can be found) or a URL. */
export type CardTarget =
  | ({ readonly kind: 'file'; readonly path: string; readonly lineNumber?: number; readonly match?: MatchHint } & Workdir)
  | { readonly kind: 'url'; readonly url: string };

/** A card and the targets its rows refer to by index. */
export interface BuiltCard {
  readonly card: CardModel;
  readonly targets: readonly CardTarget[];
}

/**
 * Builds the card of `run`. Pure and deterministic, so the targets of a row can be rebuilt on a click.
 *
 * A card shows the model's view: a glob card lists exactly the page the model got (glob's `page`, the
 * round-robin sample when sampling applied), grep and workspace_search cards the first of the matches the
 * model got in its order, and then how many more the full result holds.
 */
export function buildCard(run: ToolRun): BuiltCard {
  const targets: CardTarget[] = [];
  const body = run.status === 'done' ? buildBody(run, targets) : { kind: 'none' as const };
  const card: CardModel = {
    id: run.id,
    tool: run.tool,
    args: describeArgs(run.input),
    source: run.source,
    status: run.status,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    progress: run.status === 'running' ? run.progress : undefined,
    counts: countsOf(run),
    truncated: hitLimit(run),
    error: run.error && { code: run.error.code, message: run.error.message, ...adviseOnError(run.tool, run.error) },
    body,
    hasText: typeof run.text === 'string' && run.text.length > 0,
    hasFullResult: run.status === 'done' && run.spillUri !== undefined,
  };
  return { card, targets };
}

/**
 * Whether the run hit a limit that left part of its answer out. A workspace_search whose only reason is
 * skipped files (`truncatedBy: ['skippedFiles']`, binary or too large) searched everything it could: the
 * card shows them in its "skipped" count, not as truncated.
 */
function hitLimit(run: ToolRun): boolean {
  if (!(run.summary?.truncated ?? false)) return false;
  const reasons = run.tool === 'workspace_search' && isRecord(run.value) && Array.isArray(run.value.truncatedBy) ? run.value.truncatedBy : undefined;
  return !reasons || reasons.some((r) => r !== 'skippedFiles');
}

/**
 * The arguments as `name: value` pairs: strings as they are, other values as JSON, each cut to a bound, with
 * unsafe characters shown as control pictures and invisible ones as `\u200b` (see `showInvisibleCharacters`).
 */
export function describeArgs(input: unknown): { name: string; value: string }[] {
  if (!isRecord(input)) return input === undefined ? [] : [{ name: 'input', value: shown(safeJson(input), MAX_ARG_CHARS) }];
  return Object.keys(input).map((name) => {
    const v = input[name];
    const text = typeof v === 'string' ? v : Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.map((x) => JSON.stringify(x)).join(', ') : safeJson(v);
    return { name: showInvisibleCharacters(cutText(name, MAX_ARG_CHARS)), value: shown(text, MAX_ARG_CHARS) };
  });
}

/** The words of each count kind (singular, plural) and what it counts. */
const COUNT_WORDS: Record<CountKind, { one: string; many: string; description: string }> = {
  matches: { one: 'match', many: 'matches', description: 'Matching lines' },
  filesWithMatches: { one: 'file with matches', many: 'files with matches', description: 'Files holding at least one matching line' },
  filesScanned: { one: 'file scanned', many: 'files scanned', description: 'Files read and searched' },
  skipped: { one: 'skipped', many: 'skipped', description: 'Files found but not searched (too large, binary, unreadable, or past a limit)' },
  filesFound: { one: 'file found', many: 'files found', description: 'Files whose path matches the glob' },
  sources: { one: 'source', many: 'sources', description: 'Web pages the search returned' },
};

function count(kind: CountKind, value: number): CardCount {
  const words = COUNT_WORDS[kind];
  return { kind, value, text: countOf(value, words.one, words.many), description: words.description };
}

/**
 * The counts of a finished run in the one vocabulary every card uses. The run summary's `files` means files
 * found for glob, files with matches for grep and files scanned for workspace_search (whose files with
 * matches are counted from its report's matches).
 */
function countsOf(run: ToolRun): CardCount[] {
  const s = run.summary;
  if (!s) return [];
  const counts: CardCount[] = [];
  const add = (kind: CountKind, value: number | undefined) => {
    if (value !== undefined) counts.push(count(kind, value));
  };
  switch (run.tool) {
    case 'glob':
      add('filesFound', s.files);
      break;
    case 'grep':
      add('matches', s.matches);
      add('filesWithMatches', s.files);
      break;
    case 'workspace_search': {
      add('matches', s.matches);
      const matches = isRecord(run.value) && Array.isArray(run.value.matches) ? run.value.matches : undefined;
      add('filesWithMatches', matches && new Set(matches.map((m) => (isRecord(m) ? m.path : undefined)).filter((p) => typeof p === 'string')).size);
      add('filesScanned', s.files);
      add('skipped', s.skipped);
      break;
    }
    case 'web_search':
      add('sources', s.matches);
      break;
    case 'web_fetch':
      break;
  }
  return counts;
}

function buildBody(run: ToolRun, targets: CardTarget[]): CardBody {
  const value = run.value;
  switch (run.tool) {
    case 'glob': {
      if (isRecord(value) && isStringArray(value.paths)) {
        // Over the cap the model got `page` (the head or the round-robin sample); otherwise every path.
        const page = isStringArray(value.page) ? value.page : value.paths;
        return fileList(page.map((path) => ({ path })), run.summary?.files, targets, workdirOf(value), { maxRows: Infinity, unit: ['more file', 'more files'] });
      }
      break;
    }
    case 'grep': {
      const matches = isRecord(value) ? grepMatches(value.matches) : undefined;
      if (isRecord(value) && matches) return fileList(matches, run.summary?.matches, targets, workdirOf(value), MATCH_LIST);
      break;
    }
    case 'workspace_search': {
      // The report (seed 003) names its query and case rule; `preview` is the line clipped around its first match.
      const matches = isRecord(value) ? reportMatches(value) : undefined;
      if (isRecord(value) && matches) {
        const omitted = nonNegativeInt(value.omittedMatches) ?? 0;
        const total = run.summary?.matches === undefined ? undefined : run.summary.matches - omitted;
        return fileList(matches, total, targets, workdirOf(value), MATCH_LIST);
      }
      break;
    }
    case 'web_search': {
      const body = sourceList(value, targets);
      if (body) return body;
      break;
    }
    case 'web_fetch': {
      const body = fetchedPage(value, targets);
      if (body) return body;
      break;
    }
  }
  return typeof run.text === 'string' && run.text ? { kind: 'text', text: excerpt(run.text) } : { kind: 'none' };
}

interface ListedMatch {
  readonly path: string;
  readonly lineNumber?: number;
  readonly line?: string;
  /** Where the matches are in `line`. */
  readonly ranges?: readonly LineRange[];
  /** How to find the first match again in the file's current line. */
  readonly match?: MatchHint;
}

interface ListShape {
  /** Rows (files plus lines) listed at most. */
  readonly maxRows: number;
  /** The noun of what `total` counts, after a number: singular and plural. */
  readonly unit: readonly [string, string];
}

const MATCH_LIST: ListShape = { maxRows: MAX_CARD_ROWS, unit: ['more match', 'more matches'] };

/**
 * Groups matches by file in first-seen order, listing at most `shape.maxRows` rows (files plus lines).
 * `total` is the run's own count of items (matches, or files for glob), which the stored value may not hold
 * in full; `omitted` is how many of them the card leaves out.
 */
function fileList(items: readonly ListedMatch[], total: number | undefined, targets: CardTarget[], workdir: Workdir, shape: ListShape): CardBody {
  const files: { path: string; target: number; lines: FileRow['lines'][number][] }[] = [];
  const byPath = new Map<string, (typeof files)[number]>();
  let rows = 0;
  let shown = 0;
  for (const item of items) {
    let file = byPath.get(item.path);
    const rowsNeeded = (file ? 0 : 1) + (item.lineNumber !== undefined ? 1 : 0);
    if (rows + rowsNeeded > shape.maxRows) continue;
    shown++;
    if (!file) {
      file = { path: showInvisibleCharacters(item.path), target: targets.push({ kind: 'file', path: item.path, ...workdir }) - 1, lines: [] };
      byPath.set(item.path, file);
      files.push(file);
    }
    if (item.lineNumber !== undefined) {
      const target = targets.push({ kind: 'file', path: item.path, ...workdir, lineNumber: item.lineNumber, match: item.match }) - 1;
      const preview = previewLine(item.line ?? '', MAX_PREVIEW_CHARS, item.ranges);
      file.lines.push({ lineNumber: item.lineNumber, preview: preview.text, highlights: preview.highlights, target });
    }
    rows += rowsNeeded;
  }
  const omitted = Math.max(total ?? 0, items.length) - shown;
  return { kind: 'files', files, omitted, ...(omitted > 0 ? { more: `${countOf(omitted, ...shape.unit)} in the full result` } : {}) };
}

/**
 * Reads grep's `[{path, lineNumber, line, submatches}]`. rg's `submatches` (UTF-8 byte offsets into the line)
 * give every match range; the first one's text is what the editor looks for again. A non-UTF-8 line
 * (`lineBase64`) has no usable ranges.
 */
function grepMatches(raw: unknown): ListedMatch[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: ListedMatch[] = [];
  for (const m of raw) {
    if (!isRecord(m) || typeof m.path !== 'string') continue;
    const line = typeof m.line === 'string' ? m.line : undefined;
    const submatches = Array.isArray(m.submatches) ? m.submatches.filter(isRecord) : [];
    const byteRanges = submatches.flatMap((s) => {
      const start = nonNegativeInt(s.start);
      const end = nonNegativeInt(s.end);
      return start !== undefined && end !== undefined ? [{ start, end }] : [];
    });
    const ranges = line !== undefined && m.lineBase64 === undefined ? utf8RangesToUtf16(line, byteRanges) : [];
    const first = ranges.find((r) => r.end > r.start);
    out.push({ path: m.path, lineNumber: lineNo(m.lineNumber), line, ranges, match: first && { literal: line!.slice(first.start, first.end), caseSensitive: true } });
  }
  return out;
}

/**
 * Reads workspace_search's report: `[{path, line, preview}]` with the report's `query` and `caseSensitive`.
 * Every occurrence of the query in the preview is a match range (the report gives only the first one's
 * column, in the unclipped line).
 */
function reportMatches(value: Record<string, unknown>): ListedMatch[] | undefined {
  if (!Array.isArray(value.matches)) return undefined;
  const query = typeof value.query === 'string' ? value.query : '';
  const hint = query ? { literal: query, caseSensitive: value.caseSensitive === true } : undefined;
  const out: ListedMatch[] = [];
  for (const m of value.matches) {
    if (!isRecord(m) || typeof m.path !== 'string') continue;
    const preview = typeof m.preview === 'string' ? m.preview : undefined;
    const ranges = hint && preview !== undefined ? findAll(preview, hint, MAX_PREVIEW_CHARS) : [];
    out.push({ path: m.path, lineNumber: lineNo(m.line), line: preview, ranges, match: hint });
  }
  return out;
}

/** Where a value's paths are relative to: its absolute `workdir` (glob, grep) or its `workspaceFolder` name (workspace_search). */
function workdirOf(value: Record<string, unknown>): Workdir {
  return {
    ...(typeof value.workdir === 'string' && value.workdir ? { workdir: value.workdir } : {}),
    ...(typeof value.workspaceFolder === 'string' && value.workspaceFolder ? { folder: value.workspaceFolder } : {}),
  };
}

function sourceList(value: unknown, targets: CardTarget[]): CardBody | undefined {
  if (!isRecord(value)) return undefined;
  const raw = Array.isArray(value.sources) ? value.sources : Array.isArray(value.results) ? value.results : undefined;
  if (!raw) return undefined;
  const answers: { query?: string; text: string }[] = [];
  if (typeof value.answer === 'string' && value.answer) answers.push({ text: excerpt(value.answer) });
  if (Array.isArray(value.answers)) {
    for (const a of value.answers) {
      if (isRecord(a) && typeof a.answer === 'string' && a.answer) answers.push({ query: typeof a.query === 'string' ? a.query : undefined, text: excerpt(a.answer) });
      else if (isRecord(a) && typeof a.text === 'string' && a.text) answers.push({ query: typeof a.query === 'string' ? a.query : undefined, text: excerpt(a.text) });
    }
  }
  const sources: SourceRow[] = [];
  let omitted = 0;
  for (const s of raw) {
    if (!isRecord(s) || typeof s.url !== 'string' || !isWebUrl(s.url)) continue;
    if (sources.length >= MAX_CARD_SOURCES) {
      omitted++;
      continue;
    }
    sources.push({
      title: cutText(typeof s.title === 'string' && s.title.trim() ? s.title.trim() : s.url, MAX_PREVIEW_CHARS),
      url: s.url,
      snippet: typeof s.snippet === 'string' && s.snippet ? cutText(s.snippet, MAX_PREVIEW_CHARS) : undefined,
      provider: typeof s.provider === 'string' ? s.provider : undefined,
      publishedAt: [s.date, s.publishedAt].find((d): d is string => typeof d === 'string' && d !== ''),
      target: targets.push({ kind: 'url', url: s.url }) - 1,
    });
  }
  return { kind: 'sources', answers, sources, omitted, ...(omitted > 0 ? { more: `${countOf(omitted, 'more source')} in the full result` } : {}) };
}

function fetchedPage(value: unknown, targets: CardTarget[]): CardBody | undefined {
  if (!isRecord(value)) return undefined;
  const finalUrl = [value.finalUrl, value.url].find((u): u is string => typeof u === 'string' && isWebUrl(u));
  if (!finalUrl) return undefined;
  const text = [value.markdown, value.text, value.content, value.body].find((t): t is string => typeof t === 'string') ?? '';
  const redirectTo = typeof value.redirectTo === 'string' && isWebUrl(value.redirectTo) ? value.redirectTo : undefined;
  return {
    kind: 'page',
    finalUrl,
    target: targets.push({ kind: 'url', url: finalUrl }) - 1,
    status: nonNegativeInt(value.statusCode) ?? nonNegativeInt(value.status),
    contentType: typeof value.contentType === 'string' ? cutText(value.contentType, MAX_ARG_CHARS) : undefined,
    chars: text.length,
    bytes: nonNegativeInt(value.bytes) ?? nonNegativeInt(value.byteLength) ?? nonNegativeInt(value.size),
    extracted: typeof value.extracted === 'boolean' ? value.extracted : undefined,
    truncated: typeof value.truncated === 'boolean' ? value.truncated : undefined,
    format: typeof value.format === 'string' ? cutText(value.format, MAX_ARG_CHARS) : undefined,
    redirectTo: redirectTo ? { url: redirectTo, target: targets.push({ kind: 'url', url: redirectTo }) - 1 } : undefined,
    excerpt: excerpt(text),
  };
}

/** The first {@link EXCERPT_LINES} lines of `text`, at most {@link EXCERPT_CHARS} code units, `…` when cut. */
export function excerpt(text: string): string {
  const lines = text.split(/\r?\n/);
  let out = lines.slice(0, EXCERPT_LINES).join('\n');
  let cutShort = lines.length > EXCERPT_LINES;
  if (out.length > EXCERPT_CHARS) {
    out = cutText(out, EXCERPT_CHARS).slice(0, -1);
    cutShort = true;
  }
  return cutShort ? `${out.replace(/\s+$/, '')}\n…` : out;
}

/** True for an absolute `http:` or `https:` URL: the only links a card offers. */
export function isWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** `text` cut to `max` code units with its unsafe and invisible characters made visible (`showInvisibleCharacters`). */
function shown(text: string, max: number): string {
  return showInvisibleCharacters(cutText(text, max));
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function nonNegativeInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

function lineNo(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
