/**
 * Turns a recorded tool call ({@link ToolRun}) into what its card shows ({@link CardModel}) and the list of
 * things a card row can open ({@link CardTarget}). No `vscode` import.
 *
 * The card reads the tool's canonical `value` (see `ToolOutput.value`) defensively: a value of a shape the
 * panel does not know (an older run, a changed tool) still gives a card, showing the first lines of the
 * model text. Every list is bounded, so a card stays small whatever the run produced.
 */
import type { ToolRun } from '../runRecord';
import { cutText, findMatch, previewLine, utf8RangeToUtf16, type LineRange, type MatchHint } from './match';
import type { CardBody, CardCount, CardModel, FileRow, SourceRow } from './protocol';

/** Rows (files plus lines) one card lists; the rest are counted and left to the full result. */
export const MAX_CARD_ROWS = 60;
/** UTF-16 code units of a line preview or snippet on a card. */
export const MAX_PREVIEW_CHARS = 240;
/** Sources one web_search card lists. */
export const MAX_CARD_SOURCES = 20;
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

/** Builds the card of `run`. Pure and deterministic, so the targets of a row can be rebuilt on a click. */
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
    truncated: run.summary?.truncated ?? false,
    error: run.error,
    body,
    hasText: typeof run.text === 'string' && run.text.length > 0,
  };
  return { card, targets };
}

/** The arguments as `name: value` pairs: strings as they are, other values as JSON, each cut to a bound. */
export function describeArgs(input: unknown): { name: string; value: string }[] {
  if (!isRecord(input)) return input === undefined ? [] : [{ name: 'input', value: cutText(safeJson(input), MAX_ARG_CHARS) }];
  return Object.keys(input).map((name) => {
    const v = input[name];
    const text = typeof v === 'string' ? v : Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.map((x) => JSON.stringify(x)).join(', ') : safeJson(v);
    return { name, value: cutText(text, MAX_ARG_CHARS) };
  });
}

function countsOf(run: ToolRun): CardCount[] {
  const s = run.summary;
  if (!s) return [];
  const counts: CardCount[] = [];
  if (s.matches !== undefined) counts.push({ label: run.tool === 'web_search' ? 'sources' : 'matches', value: s.matches });
  if (s.files !== undefined) counts.push({ label: 'files', value: s.files });
  if (s.skipped !== undefined) counts.push({ label: 'skipped', value: s.skipped });
  return counts;
}

function buildBody(run: ToolRun, targets: CardTarget[]): CardBody {
  const value = run.value;
  switch (run.tool) {
    case 'glob': {
      if (isRecord(value) && isStringArray(value.paths)) {
        return fileList(value.paths.map((path) => ({ path })), run.summary?.files, targets, workdirOf(value));
      }
      break;
    }
    case 'grep': {
      const matches = isRecord(value) ? lineMatches(value.matches) : undefined;
      if (isRecord(value) && matches) return fileList(matches, run.summary?.matches, targets, workdirOf(value));
      break;
    }
    case 'workspace_search': {
      // The report (seed 003) names its query and case rule; `preview` is the clipped line.
      const matches = isRecord(value) ? lineMatches(value.matches) : undefined;
      if (isRecord(value) && matches) {
        const query = typeof value.query === 'string' ? value.query : '';
        const hint = query ? { literal: query, caseSensitive: value.caseSensitive === true } : undefined;
        return fileList(
          matches.map((m) => ({ ...m, range: m.range ?? (hint && m.line !== undefined ? findMatch(m.line, hint) : undefined), match: m.match ?? hint })),
          run.summary?.matches,
          targets,
          workdirOf(value),
        );
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
  /** Where the match is in `line`. */
  readonly range?: LineRange;
  /** How to find the match again in the file's current line. */
  readonly match?: MatchHint;
}

/**
 * Groups matches by file in first-seen order, listing at most {@link MAX_CARD_ROWS} rows (files plus lines).
 * `total` is the run's own count of items (matches, or files for glob), which the stored value may not hold
 * in full; `omitted` is how many of them the card leaves out.
 */
function fileList(items: readonly ListedMatch[], total: number | undefined, targets: CardTarget[], workdir: Workdir): CardBody {
  const files: { path: string; target: number; lines: FileRow['lines'][number][] }[] = [];
  const byPath = new Map<string, (typeof files)[number]>();
  let rows = 0;
  let shown = 0;
  for (const item of items) {
    let file = byPath.get(item.path);
    const rowsNeeded = (file ? 0 : 1) + (item.lineNumber !== undefined ? 1 : 0);
    if (rows + rowsNeeded > MAX_CARD_ROWS) continue;
    shown++;
    if (!file) {
      file = { path: item.path, target: targets.push({ kind: 'file', path: item.path, ...workdir }) - 1, lines: [] };
      byPath.set(item.path, file);
      files.push(file);
    }
    if (item.lineNumber !== undefined) {
      const line = item.line ?? '';
      const target = targets.push({ kind: 'file', path: item.path, ...workdir, lineNumber: item.lineNumber, match: item.match }) - 1;
      const preview = previewLine(line, MAX_PREVIEW_CHARS, item.range);
      file.lines.push({ lineNumber: item.lineNumber, preview: preview.text, highlight: preview.highlight, target });
    }
    rows += rowsNeeded;
  }
  return { kind: 'files', files, omitted: Math.max(total ?? 0, items.length) - shown };
}

/**
 * Reads `[{path, lineNumber, line}]`, accepting `line` as the number and `preview`/`text` as the text.
 * The first of grep's `submatches` (UTF-8 byte offsets into the line, as rg reports them) gives the match
 * range and the matched text to look for again; a non-UTF-8 line (`lineBase64`) has no usable range.
 */
function lineMatches(raw: unknown): ListedMatch[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: ListedMatch[] = [];
  for (const m of raw) {
    if (!isRecord(m) || typeof m.path !== 'string') continue;
    const lineNumber = lineNo(m.lineNumber) ?? lineNo(m.line);
    const text = [m.preview, m.text, m.line].find((t): t is string => typeof t === 'string');
    const first = Array.isArray(m.submatches) ? m.submatches[0] : undefined;
    const range =
      text !== undefined && m.lineBase64 === undefined && isRecord(first) && nonNegativeInt(first.start) !== undefined && nonNegativeInt(first.end) !== undefined
        ? utf8RangeToUtf16(text, first.start as number, first.end as number)
        : undefined;
    const match = range && range.end > range.start ? { literal: text!.slice(range.start, range.end), caseSensitive: true } : undefined;
    out.push({ path: m.path, lineNumber, line: text, range, match });
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
  return { kind: 'sources', answers, sources, omitted };
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
