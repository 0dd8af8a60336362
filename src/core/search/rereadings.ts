import { quoteValue } from '../errors';
import { grepArgv } from '../ripgrep/argv';
import { escapeGlobLiteral } from '../ripgrep/globs';
import type { ToolEnv } from '../tool';
import type { ResolvedTarget } from '../workspace/folders';
import { Counter } from './explain';
import { includeFilter } from './include';
import { parseGlobArgument, type GlobArgument, type ReadGlob } from './patterns';

/**
 * Further readings of a glob argument (glob's `pattern`, grep's `include`) that found nothing as read by
 * patterns.ts. Each fixes a way models write globs that rg reads otherwise; they are tried in this order only
 * after an empty result, so a glob that finds files keeps rg's meaning, and the first reading that finds
 * files is used, with a note:
 * 1. relative to `path`: a glob with "/" is matched from the workspace folder, so `lib/*.ts` with path `src`
 *    is also tried as `src/lib/*.ts`;
 * 2. folders at any depth: a value whose last segment has no wildcard (`lib`, `workflows`, `nested/deep`,
 *    `**\/src`), or that ends with "/" (`**\/src/`, `src/**\/`, `**\/`), names folders, and glob and include
 *    select files: it is read as the files under them (`**\/lib/**`).
 * (Brackets of an existing folder, `app/[id]/*.tsx`, are read literally before any search: see patterns.ts.)
 */
export async function rereadings(argument: GlobArgument, read: ReadGlob, target: ResolvedTarget): Promise<ReadGlob[]> {
  if (read.reading === 'name') return [];
  const out: ReadGlob[] = [];
  const add = (glob: string, note: string) => {
    if (glob === read.glob || out.some((r) => r.glob === glob)) return;
    try {
      out.push({ glob, parsed: parseGlobArgument(argument, glob), note: `[${argument.name} ${quoteValue(argument.value)} ${note}]`, reading: 'glob' });
    } catch {
      // A reading that rg would reject, or that reaches into VCS metadata, is not tried.
    }
  };
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
  return out;
}

/**
 * The glob of every file under the folders `glob` names (see {@link rereadings}, 3), or undefined when its
 * last segment is a wildcard (it may name files).
 */
function underFolders(glob: string): string | undefined {
  const base = glob.replace(/\/+$/, '');
  if (!glob.endsWith('/') && (base === '' || /[*?[\]{}\\]/.test(base.slice(base.lastIndexOf('/') + 1)))) return undefined;
  if (base === '' || base === '**' || base.endsWith('/**')) return base === '' ? '**' : base;
  return base.startsWith('/') || base.startsWith('**/') ? `${base}/**` : `**/${base}/**`;
}

/**
 * For grep: the first of {@link rereadings} of `include` that selects at least one file under the search
 * path, when `include` as read selects none (an include that selects files but whose files hold no match
 * keeps its meaning). Each check is an `rg --files` run that stops at the first file.
 */
export async function includeRereading(argument: GlobArgument, read: ReadGlob, target: ResolvedTarget, env: ToolEnv): Promise<ReadGlob | undefined> {
  if (target.kind !== 'directory') return undefined;
  const others = await rereadings(argument, read, target);
  if (others.length === 0) return undefined;
  const counter = new Counter('grep', env, target, { maxFiles: 1, timeMs: env.config.search.timeoutMs, maxRetryChecks: 0, maxListings: 0 });
  const selects = async (glob: ReadGlob) => {
    const filter = includeFilter(glob.parsed);
    return (await counter.paths(grepArgv('', target.relPath, filter.walk, { output: 'files' }), target.relPath, filter.keeps)).paths.length > 0;
  };
  if (await selects(read)) return undefined;
  for (const other of others) if (await selects(other)) return other;
  return undefined;
}
