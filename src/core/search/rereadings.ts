import { quoteValue } from '../errors';
import { grepArgv } from '../ripgrep/argv';
import { escapeGlobLiteral, matchesPath } from '../ripgrep/globs';
import type { ToolEnv } from '../tool';
import type { ResolvedTarget } from '../workspace/folders';
import { listGlob } from './arguments';
import { Counter } from './explain';
import { includeFilter } from './include';
import { parseGlobArgument, type GlobArgument, type ReadGlob } from './patterns';

/**
 * Further readings of a glob argument (glob's `pattern`, grep's `include`) that found nothing as read by
 * patterns.ts. Each fixes a way models write globs that rg reads otherwise; they are tried in this order only
 * after an empty result, so a glob that finds files keeps rg's meaning, and the first reading that finds
 * files is used, with a note:
 * 1. white space at either end (`" top.md"`), read without it;
 * 2. relative to `path`: a glob with "/" is matched from the workspace folder, so `lib/*.ts` with path `src`
 *    is also tried as `src/lib/*.ts`;
 * 3. folders at any depth: a value whose last segment has no wildcard (`lib`, `workflows`, `nested/deep`,
 *    `**\/src`) or is a brace list of names (`{lib,docs}`), or that ends with "/" (`**\/src/`, `src/**\/`,
 *    `**\/`), names folders, and glob and include select files: it is read as the files under them
 *    (`**\/lib/**`);
 * 4. a list: `a|b` and white-space-separated globs (`src/**|test/**`, `*.ts *.md`) as the one glob they
 *    mean (`{src/**,test/**}`, `*.{ts,md}`; a part without "/" among parts with one gets `**\/`, so it keeps
 *    matching at any depth; see `listGlob`); when that finds nothing too, the empty result names braces;
 * 5. the path a value spells another way: `\` as a path separator (`src\main.ts`, `C:\ws\src\x.ts`; on Linux
 *    and macOS `\` escapes the next character, so `src\main.ts` meant `srcmain.ts`), the workspace folder's
 *    own path after `**\/` (`**\/home/me/ws/src/*.ts`), and in a single-root workspace a leading folder name
 *    (`ws/src/*.ts`; a Windows drive path is read from its segment that names the folder);
 * 6. case: globs are case-sensitive, as in rg, so a value with ASCII letters is tried case-insensitively last
 *    (`*.md` finds `Readme.MD`), each letter as a class of both cases (`*.[mM][dD]`), so the same glob works
 *    for rg's `--glob`, for grep's file type and for Scout's own matcher.
 * (Brackets of an existing folder, `app/[id]/*.tsx`, are read literally before any search: see patterns.ts.)
 */
export async function rereadings(argument: GlobArgument, read: ReadGlob, target: ResolvedTarget, folderCount: number): Promise<Rereading[]> {
  if (read.reading === 'name') return [];
  const out: Rereading[] = [];
  const add = (glob: string, note: string, vainNote?: string) => {
    if (glob === read.glob || out.some((r) => r.glob === glob)) return;
    try {
      out.push({ glob, parsed: parseGlobArgument(argument, glob), note: `[${argument.name} ${quoteValue(argument.value)} ${note}]`, reading: 'glob', ...(vainNote ? { vainNote } : {}) });
    } catch {
      // A reading that rg would reject, or that reaches into VCS metadata, is not tried.
    }
  };
  // White space around a glob (`" top.md"`) is a slip far more often than part of a name; rg keeps it.
  const trimmed = read.glob.trim();
  if (trimmed !== read.glob && trimmed !== '') add(trimmed, `matched nothing with the white space at its ends, so it was read without it, as ${quoteValue(trimmed)}.`);
  const subPath = read.reading === 'glob' && target.kind === 'directory' && target.relPath !== '.' ? target.relPath : undefined;
  // A leading "/" here is a "./" the model wrote (patterns.ts), or rg's own anchor.
  const text = read.glob.startsWith('/') ? read.glob.slice(1) : read.glob;

  const fromWorkdir = read.glob.startsWith('/') || text.replace(/\/$/, '').includes('/');
  if (subPath !== undefined && fromWorkdir && !text.startsWith('**/') && !text.startsWith(`${subPath}/`)) {
    const glob = `${escapeGlobLiteral(subPath)}/${text}`;
    add(glob, `matched nothing from the workspace folder (a glob with "/" is matched from there), so it was read relative to path, as ${quoteValue(glob)}.`);
  }
  const folders = underFolders(read.glob);
  if (folders !== undefined) {
    const what = read.glob.endsWith('/') ? 'matches folders only' : 'matched no file and names folders';
    add(folders, `${what}, so it was read as ${quoteValue(folders)}: every file under the folders it names.`);
  }
  const list = asAlternation(read.glob);
  if (list !== undefined) {
    const vain = `[${argument.name} ${quoteValue(argument.value)} is read as one glob ("|" and spaces are literal), and as the list ${quoteValue(list)} it matches nothing either. For several globs use braces: "{a,b}".]`;
    add(list, `matched nothing as one glob, so it was read as the list ${quoteValue(list)} (a glob gives alternatives in braces).`, vain);
  }
  const spelled = pathSpelled(read.glob, target, folderCount);
  if (spelled !== undefined) add(spelled.glob, `matched nothing as written, so it was read as ${quoteValue(spelled.glob)}, ${spelled.why}.`);
  for (const glob of [read.glob, ...(list === undefined ? [] : [list]), ...(spelled === undefined ? [] : [spelled.glob])]) {
    const folded = caseInsensitiveGlob(glob);
    if (folded !== undefined) add(folded, `matched nothing as written (globs are case-sensitive), so it was read case-insensitively, as ${quoteValue(folded)}.`);
  }
  return out;
}

/** A further reading of a glob argument (see {@link rereadings}). */
export interface Rereading extends ReadGlob {
  /** A note for the empty result when this reading finds nothing either. */
  readonly vainNote?: string;
}

/**
 * `glob` as brace alternation when it is a list: parts split at `|`, or else at white space when each part
 * holds a wildcard, "/" or "." (see {@link rereadings}, 4); two or more parts, made one glob by
 * {@link listGlob}. Undefined otherwise, or when no one glob means the list.
 */
function asAlternation(glob: string): string | undefined {
  const parts = (glob.includes('|') ? glob.split('|') : glob.split(/\s+/)).map((p) => p.trim()).filter((p) => p !== '');
  // Split at white space, each part must look like a glob or a file name: "$(touch x)" is no list.
  const listLike = glob.includes('|') || parts.every((p) => /[*?/.]/.test(p));
  if (parts.length < 2 || !listLike) return undefined;
  const one = listGlob(parts, false);
  return 'glob' in one ? one.glob : undefined;
}

/**
 * The workdir-relative glob a value names when spelled with `\` separators, the folder's absolute path after
 * `**\/`, or a leading folder name (see {@link rereadings}, 5), and why; undefined when it spells none.
 */
function pathSpelled(glob: string, target: ResolvedTarget, folderCount: number): { glob: string; why: string } | undefined {
  const reasons: string[] = [];
  let text = glob;
  // A "\" after a name character is a Windows separator ("src\*.ts" too); a leading one is an escape.
  if (/[\w.*:)\]-]\\./.test(text)) {
    text = text.replace(/\\/g, '/');
    reasons.push('each backslash read as "/"');
  }
  const workdir = target.workdir.replace(/^\/+/, '');
  const afterStars = text.replace(/^(?:\*\*\/)+\/?/, '');
  if (afterStars !== text && afterStars.startsWith(`${workdir}/`)) {
    text = afterStars.slice(workdir.length + 1);
    reasons.push('relative to the workspace folder, whose path it holds');
  } else {
    const segments = text.split('/');
    const drive = /^[A-Za-z]:$/.test(segments[0]!);
    const at = drive ? segments.lastIndexOf(target.folderName) : folderCount === 1 && segments[0] === target.folderName ? 0 : -1;
    if (at >= 0 && at < segments.length - 1) {
      text = segments.slice(at + 1).join('/');
      reasons.push(`relative to the workspace folder ${quoteValue(target.folderName)}, which it starts ${drive ? 'from' : 'with'}`);
    }
  }
  if (reasons.length === 0 || text === '' || text === glob) return undefined;
  return { glob: text.includes('/') ? text : `/${text}`, why: reasons.join(' and ') };
}

/**
 * `glob` with each ASCII letter outside a class or an escape made a class of its two cases (`*.md` →
 * `*.[mM][dD]`), or undefined when it has no such letter (see {@link rereadings}, 5).
 */
export function caseInsensitiveGlob(glob: string): string | undefined {
  let out = '';
  let changed = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      out += glob.slice(i, i + 2);
      i++;
    } else if (c === '[') {
      // A class is kept as it is, up to its "]" (a "]" first, or after "!" or "^", is a member).
      let end = i + 1;
      if (glob[end] === '!' || glob[end] === '^') end++;
      if (glob[end] === ']') end++;
      while (end < glob.length && glob[end] !== ']') end++;
      out += glob.slice(i, end + 1);
      i = end;
    } else if (/[a-zA-Z]/.test(c)) {
      out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
      changed = true;
    } else out += c;
  }
  return changed ? out : undefined;
}

/**
 * The glob of every file under the folders `glob` names (see {@link rereadings}, 3), or undefined when its
 * last segment is a wildcard (it may name files).
 */
function underFolders(glob: string): string | undefined {
  const base = glob.replace(/\/+$/, '');
  const last = base.slice(base.lastIndexOf('/') + 1);
  // A brace list of plain names (`{lib,docs}`) names folders as one name does.
  if (!glob.endsWith('/') && (base === '' || (/[*?[\]{}\\]/.test(last) && !NAME_LIST.test(last)))) return undefined;
  if (base === '' || base === '**' || base.endsWith('/**')) return base === '' ? '**' : base;
  return base.startsWith('/') || base.startsWith('**/') ? `${base}/**` : `**/${base}/**`;
}

/** A `{a,b}` alternation of two or more names that hold no wildcard. */
const NAME_LIST = /^\{[^*?[\]{}\\,/]+(?:,[^*?[\]{}\\,/]+)+\}$/;

/**
 * For grep: the first of {@link rereadings} of `include` that selects at least one file under the search
 * path (or, when path is a file, matches that file's path), when `include` as read selects none (an include
 * that selects files but whose files hold no match keeps its meaning), and the notes of readings that selected
 * none either (`vainNotes`). Under a folder each check is an `rg --files` run that stops at the first file.
 */
export async function includeRereading(argument: GlobArgument, read: ReadGlob, target: ResolvedTarget, env: ToolEnv): Promise<{ found?: ReadGlob; vainNotes: string[] }> {
  const none = { vainNotes: [] };
  if (target.kind === 'other') return none;
  const others = await rereadings(argument, read, target, env.folders.length);
  if (others.length === 0) return none;
  const counter = target.kind === 'directory' ? new Counter('grep', env, target, { maxFiles: 1, timeMs: env.config.search.timeoutMs, maxRetryChecks: 0, maxListings: 0 }) : undefined;
  const selects = async (glob: ReadGlob) => {
    if (!counter) return matchesPath(glob.parsed, target.relPath);
    const filter = includeFilter(glob.parsed);
    return (await counter.paths(grepArgv('', target.relPath, filter.walk, { output: 'files' }), target.relPath, filter.keeps)).paths.length > 0;
  };
  if (await selects(read)) return none;
  for (const other of others) if (await selects(other)) return { found: other, vainNotes: [] };
  return { vainNotes: vainNotes(others) };
}

/** The notes of readings that found nothing (see {@link Rereading.vainNote}). */
export function vainNotes(tried: readonly Rereading[]): string[] {
  return tried.flatMap((r) => (r.vainNote ? [r.vainNote] : []));
}
