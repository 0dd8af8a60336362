import { promises as fs, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, McpError, type Root } from '@modelcontextprotocol/sdk/types.js';
import { showControlPictures } from '../core/controlCharacters';
import { quoteValue, ToolError } from '../core/errors';
import type { Logger } from '../core/tool';
import type { WorkspaceFolderRef } from '../core/workspace/folders';
import { folderAt } from '../cli/env';
import { oneLineError } from './diagnostics';

/** The client's side of MCP roots, as the server reaches it. */
export interface RootsSource {
  /** True when the client declared the `roots` capability in `initialize`. */
  supported(): boolean;
  /** Sends `roots/list`; rejects when the client answers with an error or not in time. */
  list(): Promise<Root[]>;
}

/** How the server finds its workspace: the command line's choice and the client's roots. */
export interface McpWorkspaceOptions {
  /** `--cwd`, when given. */
  readonly given?: string;
  /** The process's working directory, the last resort. */
  readonly cwd: string;
  /** The user's home folder: like the file system root, too broad to be a workspace nobody chose. */
  readonly home: string;
  readonly source: RootsSource;
  readonly log: Logger;
}

/** The folders of a call, and a note for its result when some of the client's roots were skipped. */
export interface McpFolders {
  readonly folders: readonly WorkspaceFolderRef[];
  /** One sentence naming each skipped root and why, for the model (the log has it too). */
  readonly note?: string;
}

/** What {@link McpWorkspace.clientRoots} says when `roots/list` failed or timed out. */
const ROOTS_UNREAD = 'the client did not answer roots/list';

/** Most roots an error message lists. */
const ROOTS_LISTED_MAX = 5;

/**
 * The workspace folders of the MCP server's tool calls, in this order of precedence:
 * 1. `--cwd` when given: that one folder, and the client's roots are never asked for;
 * 2. the client's MCP roots (`roots/list`), when it declared the capability and lists at least one: several
 *    act as a multi-root workspace, the first being the default, as in VS Code. A root that is not an existing
 *    folder is skipped with a warning; when none is, the call fails `NO_WORKSPACE` naming them. Folder names
 *    are made unique (`src`, `src (2)`), so a `path` that starts with one means one folder;
 * 3. the server process's working directory, when the client does not declare roots or lists none, unless it
 *    is the file system root or the user's home folder (where Claude Desktop and Cline start servers): a call
 *    then fails `NO_WORKSPACE`, telling the user to add `--cwd` to the server's configuration, since a
 *    workspace nobody chose must not be the whole disk. A root that is the file system root or the home
 *    folder is refused in the same way (skipped with a warning, or `NO_WORKSPACE` when it is the only one).
 *
 * The roots are asked for on the first call that needs them and kept until the client sends
 * `notifications/roots/list_changed` ({@link rootsChanged}). A `roots/list` that fails (an error answer, or
 * none in time) is logged once and not sent again until then either: a client that never answers would
 * otherwise add the whole timeout to every call. Meanwhile the calls use the roots the client listed last;
 * with none listed yet they fail `NO_WORKSPACE`: the working directory of a client that declared roots is
 * nobody's choice (it searched 30,000 files of an unrelated folder).
 */
export class McpWorkspace {
  private asked: Promise<readonly Root[]> | undefined;
  /** The last non-empty answer to `roots/list`, used while a later one fails. */
  private lastRoots: readonly Root[] | undefined;
  /** `roots/list` failed: the client is not asked again until its roots change. */
  private failed = false;
  /** Warnings and notes already logged for the current roots (each is logged once). */
  private readonly logged = new Set<string>();

  constructor(private readonly options: McpWorkspaceOptions) {}

  /**
   * The folders for a call starting now. Calls made while `roots/list` is pending share its answer (a call
   * cancelled meanwhile stops in its tool, which sees its aborted signal).
   *
   * @throws ToolError NO_WORKSPACE when no root is an existing folder, or when the working directory would
   *   be the workspace and is the file system root or the home folder.
   */
  async folders(): Promise<McpFolders> {
    const { given, cwd, home } = this.options;
    if (given !== undefined) return { folders: [folderAt(given)] };
    const roots = await this.clientRoots();
    if (typeof roots !== 'string') return this.foldersOfRoots(roots);
    if (roots === ROOTS_UNREAD) {
      if (this.lastRoots) return this.foldersOfRoots(this.lastRoots);
      throw new ToolError(
        'NO_WORKSPACE',
        `Scout has no workspace folder: the client did not answer roots/list, so Scout does not know which folders it may search. It asks again when the client sends notifications/roots/list_changed. Reopen the folder in the client, or add "--cwd", "/path/to/project" to the server's arguments in the client's MCP configuration.`,
      );
    }
    const tooBroad = tooBroadToSearch(cwd, home);
    if (tooBroad) {
      throw new ToolError(
        'NO_WORKSPACE',
        `Scout has no workspace folder: the MCP server runs in ${cwd} (${tooBroad}), which it will not search as a workspace nobody chose, and ${roots}. Add "--cwd", "/path/to/project" to the server's arguments in the client's MCP configuration, or use a client that shares its workspace roots with MCP servers.`,
      );
    }
    this.logOnce('info', `${roots}; the workspace is the working directory ${cwd}`);
    return { folders: [folderAt(cwd)] };
  }

  /** The client's roots changed (`notifications/roots/list_changed`): the next call asks for them again. */
  rootsChanged(): void {
    this.asked = undefined;
    this.failed = false;
    this.logged.clear();
  }

  /** The roots the client lists (at least one), or why there are none to use, as a clause. */
  private async clientRoots(): Promise<readonly Root[] | string> {
    const { source } = this.options;
    if (!source.supported()) return 'the client does not share workspace roots';
    if (this.failed) return ROOTS_UNREAD;
    const asked = (this.asked ??= source.list());
    try {
      const roots = await asked;
      if (roots.length === 0) return 'the client lists no workspace roots';
      this.lastRoots = roots;
      return roots;
    } catch (e) {
      // The connection closed while the client was asked: the server is stopping, nothing to remember.
      if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) return 'the client went away';
      if (this.asked === asked) {
        this.asked = undefined;
        this.failed = true;
        const instead = this.lastRoots ? 'keeps the roots it listed last' : 'refuses the tools that search the workspace';
        this.logOnce('warn', `roots/list failed (${oneLineError(e)}); Scout ${instead} until the client sends notifications/roots/list_changed`);
      }
      return ROOTS_UNREAD;
    }
  }

  private async foldersOfRoots(roots: readonly Root[]): Promise<McpFolders> {
    const checked = await Promise.all(roots.map((root) => checkRoot(root, this.options.home)));
    const usable = checked.filter((c): c is { root: Root; dir: string } => c.dir !== undefined);
    const unusable = checked.filter((c): c is { root: Root; problem: string } => c.problem !== undefined);
    const listed = unusable.slice(0, ROOTS_LISTED_MAX).map((c) => `${quoteValue(c.root.uri)} (${c.problem})`);
    const more = unusable.length > ROOTS_LISTED_MAX ? ` and ${unusable.length - ROOTS_LISTED_MAX} more` : '';
    if (usable.length === 0) {
      throw new ToolError(
        'NO_WORKSPACE',
        `The client's workspace ${unusable.length === 1 ? 'root is not a folder' : 'roots are not folders'} Scout can search: ${listed.join('; ')}${more}. Open a project folder in the client, or start the server with --cwd DIR.`,
      );
    }
    for (const c of unusable) this.logOnce('warn', `skipping the root ${quoteValue(c.root.uri)}: ${c.problem}`);
    const folders = namedFolders(usable);
    folders.forEach((folder, i) => {
      if (folder.name !== naturalName(usable[i]!)) this.logOnce('info', `two roots would be named ${quoteValue(naturalName(usable[i]!))}: the folder ${folder.path} is named ${quoteValue(folder.name)}`);
    });
    if (unusable.length === 0) return { folders };
    return { folders, note: `Scout skipped the client's ${unusable.length === 1 ? 'root' : 'roots'} ${listed.join('; ')}${more}.` };
  }

  private logOnce(level: 'info' | 'warn', message: string): void {
    if (this.logged.has(message)) return;
    this.logged.add(message);
    this.options.log[level](message);
  }
}

/**
 * `root` checked on disk: its folder (`dir`, absolute), or the `problem` that keeps it from being one: it names
 * no local path (`file://server/share`), does not exist, cannot be read, is not a directory, or is the file
 * system root or `home` (see {@link tooBroadToSearch}).
 */
async function checkRoot(root: Root, home: string): Promise<{ root: Root; dir: string; problem?: undefined } | { root: Root; dir?: undefined; problem: string }> {
  let dir: string;
  try {
    dir = path.resolve(fileURLToPath(root.uri));
  } catch {
    return { root, problem: 'it names no folder on this machine' };
  }
  try {
    const stat = await fs.stat(dir);
    if (!stat.isDirectory()) return { root, problem: `${dir} is a file, not a folder` };
    const tooBroad = tooBroadToSearch(dir, home);
    return tooBroad ? { root, problem: `${dir} is ${tooBroad}, too broad to search as a workspace` } : { root, dir };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { root, problem: code === 'ENOENT' || code === 'ENOTDIR' ? `${dir} does not exist` : `${dir} cannot be read (${code ?? oneLineError(e)})` };
  }
}

/**
 * Workspace folders for the client's roots, in its order: each named by the root's `name` when that is a
 * usable folder name (not `.` or `..`, no `/`, `\` or unsafe character, since a tool's `path` may start with it
 * and results quote it), else after its last path segment. Names are made unique, deterministically: the first
 * root keeps a name, a later one with the same name gets the first free `name (2)`, `name (3)`, … (a name
 * another root has as its own is never given to a second one).
 */
export function namedFolders(roots: readonly { root: Root; dir: string }[]): WorkspaceFolderRef[] {
  const natural = roots.map(naturalName);
  const own = new Set(natural);
  const given = new Set<string>();
  return roots.map(({ dir }, i) => {
    let name = natural[i]!;
    if (given.has(name)) {
      let n = 2;
      while (own.has(`${name} (${n})`) || given.has(`${name} (${n})`)) n += 1;
      name = `${name} (${n})`;
    }
    given.add(name);
    return { name, path: dir };
  });
}

function naturalName({ root, dir }: { root: Root; dir: string }): string {
  const name = root.name?.trim();
  const usable = name && name !== '.' && name !== '..' && !/[\\/]/.test(name) && showControlPictures(name) === name;
  return usable ? name : folderAt(dir).name;
}

/**
 * Why `dir` is too broad to be a workspace nobody chose (`the file system root`, `your home folder`), or
 * undefined when it is not.
 */
export function tooBroadToSearch(dir: string, home: string): string | undefined {
  // Both checks see through symlinks: a link to `/` or to the home folder searches what it points to.
  const resolved = path.resolve(dir);
  const real = realOrResolved(resolved);
  const what = path.parse(real).root === real ? 'the file system root' : real === realOrResolved(home) ? 'your home folder' : undefined;
  return what && real !== resolved ? `a link to ${what}` : what;
}

function realOrResolved(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}
