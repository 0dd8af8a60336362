import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { quoteValue, ToolError } from '../errors';
import { GLOB_FIX } from '../ripgrep/exit';
import { escapeGlobLiteral, GlobSyntaxError, parseRipgrepGlob, type RipgrepGlob } from '../ripgrep/globs';
import { VCS_DIRECTORIES } from '../ripgrep/argv';
import type { ToolEnv } from '../tool';
import { folderSpellings, type FolderSpellings, type ResolvedTarget } from '../workspace/folders';
import { displayPath } from './page';
import { insideVcsMetadata, resolveSearchTarget } from './target';

/**
 * How glob's `pattern` and grep's `include` are read, beyond rg's own glob syntax. Models
 * send what a person would type; each of these used to answer "No files found":
 * - an absolute path inside a workspace folder (`/home/me/app/src/**\/*.ts`) is read relative to that folder
 *   (and, with no `path`, searches that folder); one outside every folder is refused, naming the folders. A
 *   leading `/` keeps rg's meaning otherwise: anchored at the folder (`/src/*.ts`). When its first segment
 *   names nothing in the folder, the result is empty and says so, whether or not such a path exists outside
 *   (only a value that starts like the folder's own path, or with `/.` or `/..`, is refused as outside);
 * - in a multi-root workspace with no `path`, a value starting with another folder's name (`api/src`) is
 *   read in that folder, as `path` would be, unless the first folder has an entry of that name;
 * - a value naming an existing directory (`src`, `src/`, `./src`, `src/lib`, `[id]`) lists the files under it:
 *   it is read as `src/**`. Relative values are looked up under `path` first, then under the workspace folder;
 * - a value naming an existing file whose name holds glob syntax (`app/[id]/page.tsx`) is read literally, and
 *   so are the brackets of leading segments that name an existing folder (`app/[id]/*.tsx`: a Next.js route
 *   folder, where rg would read `[id]` as a class matching "i" or "d");
 * - a leading `./` anchors the value at the workspace folder, like a leading `/` (`./package.json` is
 *   `/package.json`, not every package.json in the tree);
 * - a leading `#` is escaped (rg would take the glob for a comment and apply no filter);
 * - `..` segments are taken back with the segment before them, from the workdir (`src/../*.txt` is `/*.txt`), and
 *   `.` and empty segments are dropped (`src/./d1/*.ts`, `src//d1/*.ts` are `src/d1/*.ts`): rg matches paths
 *   without them. An absolute value is read so before it is matched against the folders' paths
 *   (`/work/x/../x/src/*.ts` is `src/*.ts` in /work/x). One that climbs out of the workspace folder is refused as
 *   a `path` outside it is, one after a wildcard segment or inside `{ }` as unresolvable.
 * Whenever the value read differs from the value sent (other than the `#` escape), the result carries a note
 * saying how it was read. A value that still finds nothing gets the further readings of `rereadings.ts`.
 */

/** glob's `pattern` or grep's `include`, as the model sent it. */
export interface GlobArgument {
  readonly name: 'pattern' | 'include';
  readonly value: string;
}

/** A glob argument as Scout searches it. */
export interface ReadGlob {
  /** The glob passed to rg or matched by Scout. */
  readonly glob: string;
  readonly parsed: RipgrepGlob;
  /** When `glob` differs from the model's value: one result note line saying how it was read. */
  readonly note?: string;
  /** A note for an empty result only: why nothing could match (a leading `/` naming nothing in the folder). */
  readonly emptyNote?: string;
  /**
   * How the value was read, for `rereadings.ts`: `name` when it named an existing directory or file (nothing
   * else to try), `rooted` when anchored by a leading `/` or an absolute path or folder name (so never
   * relative to `path`), `glob` otherwise.
   */
  readonly reading: 'name' | 'rooted' | 'glob';
}

/** A glob or grep call's search target and glob argument, resolved together. */
export interface SearchCall {
  readonly target: ResolvedTarget;
  readonly glob?: ReadGlob;
  /** When `path` was read otherwise than written (surrounding white space dropped): a note saying so. */
  readonly pathNote?: string;
}

/** The notes of a call's reading (of `path`, then of the glob argument), for the result. */
export function readingNotes(call: { readonly pathNote?: string; readonly glob?: ReadGlob }): string[] {
  return [call.pathNote, call.glob?.note].filter((n): n is string => n !== undefined);
}

/**
 * Resolves `path` (see `resolveSearchTarget`) and reads the glob argument against it. An absolute glob inside a
 * workspace folder, or one starting with a folder's name in a multi-root workspace, picks that folder when
 * `path` is omitted.
 *
 * @throws ToolError NO_WORKSPACE | PATH_OUTSIDE_WORKSPACE (also for an absolute glob outside every folder, or one
 *   whose `..` climbs out of the folder) | INVALID_ARGUMENT (a glob reaching into VCS metadata, in another folder
 *   than `path`, or with a `..` after a wildcard) |
 *   SEARCH_INVALID_PATTERN (a glob rg would reject)
 */
export async function resolveSearchCall(
  env: ToolEnv,
  pathArg: string | undefined,
  accepts: 'directory' | 'file-or-directory',
  argument?: GlobArgument,
): Promise<SearchCall> {
  const spellings = argument !== undefined && (argument.value.startsWith('/') || (env.folders.length > 1 && pathArg === undefined)) ? await folderSpellings(env.folders) : [];
  const absolute = argument !== undefined && argument.value.startsWith('/') ? absoluteGlob(argument.value, spellings) : undefined;
  const named = argument !== undefined && absolute === undefined && pathArg === undefined ? await folderNamePrefix(argument.value, spellings) : undefined;
  const inFolder = absolute?.kind === 'inFolder' ? absolute : named;
  const { target, note: pathNote } = await resolveSearchTarget(pathArg ?? inFolder?.folder.real, env, accepts);
  const call = { target, ...(pathNote ? { pathNote } : {}) };
  if (!argument) return call;
  if (inFolder && inFolder.folder.real !== target.workdir) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `${argument.name} ${quoteValue(argument.value)} is in workspace folder ${quoteValue(inFolder.folder.name)}, but path ${quoteValue(pathArg ?? '.')} is in workspace folder ${quoteValue(target.folderName)}. Give a path in ${quoteValue(inFolder.folder.name)} (or omit path), or ${article(argument.name)} relative to ${quoteValue(target.folderName)}.`,
    );
  }
  let relative: Relative;
  let emptyNote: string | undefined;
  if (inFolder) relative = { text: inFolder.rest, anchored: true, ...(inFolder === named ? { folderName: inFolder.folder.name } : { absolute: true }) };
  else if (absolute?.kind === 'rooted') {
    if (!(await existsInFolder(target.workdir, absolute.firstSegment))) {
      if (startsLikeAFolderPath(absolute.firstSegment, spellings)) throw outsideFolders(argument, env, target);
      emptyNote = rootedElsewhere(argument, absolute.firstSegment, target);
    }
    relative = { text: argument.value.slice(1), anchored: true };
  } else relative = { text: argument.value, anchored: false };
  const glob = await readGlob(argument, relative, target);
  return { ...call, glob: emptyNote ? { ...glob, emptyNote } : glob };
}

/** `a pattern`, `an include`. */
function article(name: string): string {
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

/**
 * A glob argument relative to the workdir: `anchored` when it came with a leading `/` (rg anchors such a glob
 * at the workdir), `absolute` when that `/` began the folder's own path, `folderName` when the value started
 * with the name of the folder (multi-root).
 */
interface Relative {
  readonly text: string;
  readonly anchored: boolean;
  readonly absolute?: boolean;
  readonly folderName?: string;
  /**
   * How {@link resolveSegments} changed `text`: `dotDot` when it took back `..` segments, `dot` when it only
   * dropped `.` and empty (`//`) segments.
   */
  readonly resolved?: 'dotDot' | 'dot';
}

/** A glob in a folder (`rest` relative to it), or rooted (`/x/…` with no folder prefix). */
type FolderGlob = { kind: 'inFolder'; folder: FolderSpellings; rest: string };
type AbsoluteGlob = FolderGlob | { kind: 'rooted'; firstSegment: string };

/**
 * An absolute glob (`value` starts with `/`) in the workspace folder whose path it starts with, or else rooted. A
 * value whose segments before its first wildcard, resolved ({@link resolveSegments}: `.`, `..` and `//`), leave
 * it inside a folder is read as that (`/work/x/../x/src/*.ts` and `/work/./x/src/*.ts` are `src/*.ts` in
 * /work/x); any other keeps its `..`, for the caller to refuse.
 */
function absoluteGlob(value: string, folders: readonly FolderSpellings[]): AbsoluteGlob {
  const segments = value.slice(1).split('/');
  const wildcard = segments.findIndex((s) => SEGMENT_WILDCARDS.test(s));
  const literal = wildcard < 0 ? segments.length : wildcard;
  const resolved = resolveSegments(segments.slice(0, literal).join('/'));
  const inside = resolved !== undefined && 'text' in resolved ? globInFolder(`/${[...(resolved.text === '' ? [] : [resolved.text]), ...segments.slice(literal)].join('/')}`, folders) : undefined;
  return inside ?? globInFolder(value, folders) ?? { kind: 'rooted', firstSegment: segments[0]! };
}

/** The absolute glob `value` in the workspace folder whose path (real or as given, the longest) it starts with. */
function globInFolder(value: string, folders: readonly FolderSpellings[]): FolderGlob | undefined {
  const spellings = folders.flatMap((folder) => [folder.real, folder.given].map((prefix) => ({ folder, prefix })));
  spellings.sort((a, b) => b.prefix.length - a.prefix.length);
  for (const { folder, prefix } of spellings) {
    if (value === prefix || value === `${prefix}/`) return { kind: 'inFolder', folder, rest: '' };
    if (value.startsWith(`${prefix}/`)) return { kind: 'inFolder', folder, rest: value.slice(prefix.length + 1) };
  }
  return undefined;
}

/**
 * A relative glob whose first segment is the name of a workspace folder (multi-root, no `path`), read in that
 * folder like a `path` starting with it (`api/src` → `src` in folder "api"). Not when the first folder, which
 * is searched without `path`, has an entry of that name: then the value means that entry, as before.
 */
async function folderNamePrefix(value: string, folders: readonly FolderSpellings[]): Promise<FolderGlob | undefined> {
  if (folders.length < 2) return undefined;
  const text = value.replace(/^(?:\.\/)+/, '');
  const slash = text.indexOf('/');
  const first = slash < 0 ? text : text.slice(0, slash);
  const folder = folders.find((f) => f.name === first);
  if (!folder || (await existsInFolder(folders[0]!.real, first))) return undefined;
  return { kind: 'inFolder', folder, rest: slash < 0 ? '' : text.slice(slash + 1) };
}

/** True when the first segment of a rooted glob is a wildcard or an entry of the folder (rg's anchored glob). */
async function existsInFolder(workdir: string, firstSegment: string): Promise<boolean> {
  if (firstSegment === '.' || firstSegment === '..') return false;
  if (/[*?[\]{}\\]/.test(firstSegment) || firstSegment === '') return true;
  return fs.lstat(path.join(workdir, firstSegment)).then(
    () => true,
    () => false,
  );
}

/**
 * True when a rooted glob reads as an absolute path on this machine: its first segment is `.` or `..`, or the
 * first segment of a workspace folder's path (`/home/…` for a folder in /home). The answer depends on the
 * workspace only, never on what exists outside it.
 */
function startsLikeAFolderPath(firstSegment: string, folders: readonly FolderSpellings[]): boolean {
  if (firstSegment === '.' || firstSegment === '..') return true;
  return folders.some((f) => [f.real, f.given].some((p) => p.split(/[\\/]/).find((s) => s !== '') === firstSegment));
}

function outsideFolders(argument: GlobArgument, env: ToolEnv, target: ResolvedTarget): ToolError {
  const several = env.folders.length > 1;
  const where = several ? `the workspace folders (${env.folders.map((f) => displayPath(f.path)).join(', ')})` : `the workspace folder ${displayPath(target.workdir)}`;
  const tool = argument.name === 'pattern' ? 'glob lists' : 'grep searches';
  return new ToolError(
    'PATH_OUTSIDE_WORKSPACE',
    `${argument.name} ${quoteValue(argument.value)} is an absolute path outside ${where}, and ${tool} only files inside ${several ? 'them' : 'it'}. Give ${article(argument.name)} relative to the folder (such as "src/**/*.ts"), or an absolute path inside it.`,
  );
}

/** The empty-result note of a rooted glob whose first segment is not in the folder (see {@link startsLikeAFolderPath}). */
function rootedElsewhere(argument: GlobArgument, firstSegment: string, target: ResolvedTarget): string {
  const tool = argument.name === 'pattern' ? 'glob lists' : 'grep searches';
  return `[${argument.name} ${quoteValue(argument.value)} starts with "/", which anchors it at the workspace folder ${displayPath(target.workdir)}, and that folder has no entry ${quoteValue(firstSegment)}. ${tool[0]!.toUpperCase()}${tool.slice(1)} only files inside the workspace folder: drop the "/" to match at any depth.]`;
}

/** A `..` path segment anywhere in a glob, also as a branch of `{ }` (`{../a,b}`). */
const DOT_DOT_SEGMENT = /(?:^|[/{,])\.\.(?=$|[/},])/;

/**
 * A `.` segment, or a branch starting with "/" or "./", inside `{ }` (`{./src/*.ts,a}`, `src/{a/.,b}`,
 * `{/ws/x,a}`): rg matches paths relative to the workdir, which hold neither, so the branch would match
 * nothing; Scout reads them away only outside braces.
 */
const PLACED_IN_BRACES = /[{,](?:\.(?=[/},])|\/)|\/\.(?=[},])/;

/** Characters that make a path segment a glob: a `..` after one cannot be taken back. */
const SEGMENT_WILDCARDS = /[*?[\]{}\\]/;

/**
 * Why a glob's segments cannot be resolved: a `..` climbs above the workdir, follows a segment with a wildcard
 * (`*`, `{a,b}`), or is a branch of `{ }`; or a `.` segment or a "/"-rooted branch sits inside `{ }`
 * (`placedInBraces`).
 */
type DotDotProblem =
  | { readonly kind: 'outside' }
  | { readonly kind: 'afterWildcard'; readonly segment: string }
  | { readonly kind: 'inBraces' }
  | { readonly kind: 'placedInBraces' };

/**
 * `text` (a workdir-relative glob, `/`-separated) with its `.` and empty segments dropped (`src/./d1/*.ts` and
 * `src//d1/*.ts` → `src/d1/*.ts`) and each `..` segment taken back together with the segment before it
 * (`src/lib/../*.ts` → `src/*.ts`, `src/..` → the empty glob of the workdir itself). rg matches paths below its
 * working directory, which never hold `.`, `..` or `//`, so a glob with one would match nothing. A trailing `/`
 * is kept (it means directories only).
 *
 * @returns undefined when `text` has no such segment; `{ text, dotDot }` when each one could be resolved
 *   (`dotDot` when it had `..`); `{ problem }` when a `..` climbs above the workdir (`../*`, `src/../../*.txt`),
 *   or follows a segment with a wildcard or sits inside `{ }` (`**\/../x`, `{../a,b}`), whose parent no glob
 *   can name, and when a `.` segment or a branch starting with "/" sits inside `{ }` ({@link PLACED_IN_BRACES}).
 */
function resolveSegments(text: string): { readonly text: string; readonly dotDot: boolean } | { readonly problem: DotDotProblem } | undefined {
  if (text.includes('{') && PLACED_IN_BRACES.test(text)) return { problem: { kind: 'placedInBraces' } };
  const segments = text.split('/');
  const last = segments.length - 1;
  const dotDot = DOT_DOT_SEGMENT.test(text);
  if (!dotDot && !segments.some((segment, i) => segment === '.' || (segment === '' && i < last))) return undefined;
  const kept: string[] = [];
  for (const [i, segment] of segments.entries()) {
    if (segment === '.' || (segment === '' && i < last)) continue;
    if (segment !== '..') {
      if (DOT_DOT_SEGMENT.test(segment)) return { problem: { kind: 'inBraces' } };
      kept.push(segment);
      continue;
    }
    const parent = kept.pop();
    if (parent === undefined) return { problem: { kind: 'outside' } };
    if (SEGMENT_WILDCARDS.test(parent)) return { problem: { kind: 'afterWildcard', segment: parent } };
  }
  return { text: kept.join('/'), dotDot };
}

/**
 * The refusal of a glob argument whose segments cannot be resolved (see {@link resolveSegments}):
 * `PATH_OUTSIDE_WORKSPACE` when a `..` climbs out of the workspace folder, as a `path` outside it is;
 * `INVALID_ARGUMENT` after a wildcard or inside `{ }`.
 */
function dotDotError(argument: GlobArgument, problem: DotDotProblem, target: ResolvedTarget): ToolError {
  const subject = `${argument.name} ${quoteValue(argument.value)}`;
  const tool = argument.name === 'pattern' ? 'glob lists' : 'grep searches';
  if (problem.kind === 'outside') {
    return new ToolError(
      'PATH_OUTSIDE_WORKSPACE',
      `${subject} climbs out of the workspace folder ${displayPath(target.workdir)} with "..", and ${tool} only files inside it. Give ${article(argument.name)} relative to the folder, without "..": "src/**/*.ts" matches the .ts files under its folder "src".`,
    );
  }
  if (problem.kind === 'placedInBraces') {
    return new ToolError(
      'INVALID_ARGUMENT',
      `${subject} has a "." segment or a branch starting with "/" inside { }: ripgrep matches paths relative to the workspace folder, without ".", so that branch would match nothing. Write each branch relative to the folder ("{./src/*.ts,a.md}" is "{src/*.ts,a.md}") and call again.`,
    );
  }
  const where = problem.kind === 'inBraces' ? 'inside { }' : `after ${quoteValue(problem.segment)}`;
  return new ToolError(
    'INVALID_ARGUMENT',
    `${subject} has a ".." ${where}, which Scout cannot resolve: ripgrep matches paths without "..", so it would match nothing. Write the folders it means instead of ".." ("src/lib/../*.ts" is "src/*.ts"), or drop the "..", and call again.`,
  );
}

/** Characters that make a value a glob rather than a plain path (a `[id]` or `{x}` directory still counts as a path). */
const WILDCARDS = /[*?\\]/;

async function readGlob(argument: GlobArgument, given: Relative, target: ResolvedTarget): Promise<ReadGlob> {
  let relative = given;
  let text = relative.text;
  let dotSlash = false;
  if (!relative.anchored) {
    while (text.startsWith('./')) {
      text = text.slice(2);
      dotSlash = true;
    }
    if (text === '.') text = '';
  }
  // rg matches paths below the workdir, which never hold ".", ".." or "//": resolved, the value is anchored at
  // the workdir, as a glob with "/" is.
  const resolved = resolveSegments(text);
  if (resolved !== undefined) {
    if ('problem' in resolved) throw dotDotError(argument, resolved.problem, target);
    text = resolved.text;
    relative = { ...relative, text, anchored: true, resolved: resolved.dotDot ? 'dotDot' : 'dot' };
  }
  // A value without wildcards that names an existing directory lists its files; one that names an existing
  // file despite glob syntax in its name ("app/[id]/page.tsx") is read literally.
  let directory: string | undefined;
  let file: string | undefined;
  if (!WILDCARDS.test(text)) {
    const name = text.endsWith('/') ? text.slice(0, -1) : text;
    const underPath = !relative.anchored && target.kind === 'directory' && target.relPath !== '.' ? [`${target.relPath}/${name}`.replace(/\/$/, '')] : [];
    for (const candidate of [...underPath, name]) {
      const kind = await entryKind(target.workdir, candidate);
      if (kind === 'directory') directory = candidate;
      else if (kind === 'file' && /[[\]{},]/.test(name) && !text.endsWith('/')) file = candidate;
      if (directory !== undefined || file !== undefined) break;
    }
  }
  // A glob whose leading segments name an existing folder once their [ ] are taken literally
  // ("app/[id]/*.tsx", Next.js routes) means that folder, not a character class.
  const literal = directory === undefined && file === undefined ? await literalBrackets(relative.anchored ? text.replace(/^\//, '') : text, target, !relative.anchored) : undefined;
  // "./x" anchors x at the workspace folder; with a "/" inside, rg anchors it anyway.
  const anchorDotSlash = dotSlash && text !== '' && !text.replace(/\/$/, '').includes('/');
  let glob: string;
  if (directory !== undefined) glob = directory === '' ? '**' : `${escapeGlobLiteral(directory)}/**`;
  else if (file !== undefined) glob = file.includes('/') ? escapeGlobLiteral(file) : `/${escapeGlobLiteral(file)}`;
  else if (literal !== undefined) glob = literal.glob;
  else if (anchorDotSlash) glob = `/${text}`;
  else if (!relative.anchored) glob = text.startsWith('#') ? `\\${text}` : text;
  else if (!relative.absolute && relative.folderName === undefined && relative.resolved === undefined) glob = argument.value;
  else glob = text.replace(/\/$/, '').includes('/') ? text : `/${text}`;

  const parsed = parseGlobArgument(argument, glob, directory?.split('/') ?? []);
  const reading = directory !== undefined || file !== undefined || literal !== undefined ? 'name' : relative.anchored ? 'rooted' : 'glob';
  const shown = glob.startsWith('\\#') ? glob.slice(1) : glob;
  if (shown === argument.value) return { glob, parsed, reading };
  const subject = `${argument.name} ${quoteValue(argument.value)}`;
  let note: string;
  if (file !== undefined) {
    note = `[${subject} names a file, so it was read literally as ${quoteValue(glob)} (in a glob, [ ] { } and , have a meaning).]`;
  } else if (literal !== undefined) {
    note = `[${subject} starts with the folder ${quoteValue(literal.folder)}, so its brackets were read literally, as ${quoteValue(glob)} (in a glob, [ ] is a character class).]`;
  } else if (relative.folderName !== undefined) {
    const names = directory === undefined ? '' : directory === '' ? ', the whole folder' : ', a directory in it';
    note = `[${subject} starts with the name of workspace folder ${quoteValue(relative.folderName)}, so it was read in that folder as ${quoteValue(glob)}${names}.]`;
  } else if (directory !== undefined) {
    const names = directory === '' ? (relative.absolute ? 'is the workspace folder' : 'names the folder searched') : relative.absolute ? 'is the absolute path of a directory in the workspace folder' : 'names a directory';
    note = `[${subject} ${names}, so it was read as ${quoteValue(glob)}: every file under it.]`;
  } else if (relative.resolved !== undefined) {
    const without = relative.resolved === 'dotDot' ? '".."' : '"." segments or "//"';
    note = `[${subject} was read as ${quoteValue(glob)}, the path it names from the workspace folder: ripgrep matches paths without ${without}.]`;
  } else if (relative.absolute) {
    note = `[${subject} is an absolute path in the workspace folder, so it was read relative to that folder as ${quoteValue(glob)}.]`;
  } else if (anchorDotSlash) {
    note = `[${subject} was read as ${quoteValue(glob)}: a leading "./" anchors it at the workspace folder.]`;
  } else if (dotSlash) {
    note = `[${subject} was read as ${quoteValue(glob)}: paths are matched without a leading "./".]`;
  } else {
    note = `[${subject} was read as ${quoteValue(glob)}.]`;
  }
  return { glob, parsed, note, reading };
}

/** Characters that make a path segment a glob other than by `[ ]`. */
const OTHER_WILDCARDS = /[*?{}\\]/;

/**
 * `text` (workdir-relative) with its leading segments taken literally, when they hold `[` or `]`, have no other
 * wildcard, are followed by more of the glob, and name an existing folder: under `path` first (when
 * `underPath` and path is a folder below the workdir), else under the workdir. The longest such folder wins.
 */
async function literalBrackets(text: string, target: ResolvedTarget, underPath: boolean): Promise<{ glob: string; folder: string } | undefined> {
  if (!/[[\]]/.test(text)) return undefined;
  const segments = text.split('/');
  let literal = 0;
  while (literal < segments.length - 1 && segments[literal] !== '' && !OTHER_WILDCARDS.test(segments[literal]!)) literal++;
  const bases = underPath && target.kind === 'directory' && target.relPath !== '.' ? [`${target.relPath}/`, ''] : [''];
  for (let k = literal; k > 0; k--) {
    const prefix = segments.slice(0, k);
    if (!prefix.some((s) => /[[\]]/.test(s))) return undefined;
    const rest = segments.slice(k).join('/');
    for (const base of bases) {
      const folder = `${base}${prefix.join('/')}`;
      if ((await entryKind(target.workdir, folder)) === 'directory') return { glob: `${escapeGlobLiteral(folder)}/${rest === '' ? '**' : rest}`, folder };
    }
  }
  return undefined;
}

/**
 * Parses `glob`, read from `argument`, as rg would, and refuses one that reaches into VCS metadata (its
 * literal directories, or `directories` it was read from).
 *
 * @throws ToolError SEARCH_INVALID_PATTERN (a glob rg would reject) | INVALID_ARGUMENT (VCS metadata)
 */
export function parseGlobArgument(argument: GlobArgument, glob: string, directories: readonly string[] = []): RipgrepGlob {
  let parsed: RipgrepGlob;
  try {
    parsed = parseRipgrepGlob(glob);
  } catch (e) {
    if (!(e instanceof GlobSyntaxError)) throw e;
    throw new ToolError('SEARCH_INVALID_PATTERN', `${argument.name} ${quoteValue(argument.value)} is not a valid glob: ${e.message}. ${GLOB_FIX}`);
  }
  const vcs = [...directories, ...parsed.literalDirectories].find((segment) => (VCS_DIRECTORIES as readonly string[]).includes(segment));
  if (vcs !== undefined) throw insideVcsMetadata(argument.name, argument.value, vcs);
  return parsed;
}

/**
 * What `rel` (workdir-relative, `/`-separated; empty for the workdir) is when reached without a symlink, as
 * rg's walk reaches it (rg does not follow symlinks): a directory, a file, or neither. Never looks outside the
 * workdir.
 */
export async function entryKind(workdir: string, rel: string): Promise<'directory' | 'file' | undefined> {
  if (rel === '') return 'directory';
  const segments = rel.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  let at = workdir;
  for (const [i, segment] of segments.entries()) {
    at = path.join(at, segment);
    const stat = await fs.lstat(at).catch(() => undefined);
    if (stat?.isDirectory()) continue;
    return stat?.isFile() && i === segments.length - 1 ? 'file' : undefined;
  }
  return 'directory';
}
