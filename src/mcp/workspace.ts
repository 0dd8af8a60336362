import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
import { showControlPictures } from '../core/controlCharacters';
import type { Logger } from '../core/tool';
import type { WorkspaceFolderRef } from '../core/workspace/folders';
import { folderAt } from '../cli/env';

/** The client's side of MCP roots, as the server reaches it. */
export interface RootsSource {
  /** True when the client declared the `roots` capability in `initialize`. */
  supported(): boolean;
  /** Sends `roots/list`; rejects when the client answers with an error or not in time. */
  list(): Promise<Root[]>;
}

/**
 * The workspace folders of the MCP server's tool calls (issue 17), in this order of precedence:
 * 1. `--cwd` when given: that one folder, and the client's roots are never asked for;
 * 2. the client's MCP roots (`roots/list`), when it declared the capability and lists at least one `file:` root:
 *    several act as a multi-root workspace, the first being the default, as in VS Code;
 * 3. the server process's working directory.
 *
 * The roots are asked for on the first call that needs them and kept until the client sends
 * `notifications/roots/list_changed` ({@link rootsChanged}); a failed `roots/list` is logged, falls back to the
 * working directory for that call, and is asked again on the next one.
 */
export class McpWorkspace {
  private roots: Promise<readonly WorkspaceFolderRef[]> | undefined;

  constructor(
    private readonly options: {
      /** `--cwd`, when given. */
      readonly given?: string;
      /** The process's working directory, the last resort. */
      readonly cwd: string;
      readonly source: RootsSource;
      readonly log: Logger;
    },
  ) {}

  /**
   * The folders for a call starting now. Never rejects. Calls made while `roots/list` is pending share its
   * answer (a call cancelled meanwhile stops in its tool, which sees its aborted signal).
   */
  async folders(): Promise<readonly WorkspaceFolderRef[]> {
    const { given, cwd, source, log } = this.options;
    if (given !== undefined) return [folderAt(given)];
    if (!source.supported()) return [folderAt(cwd)];
    const asked = (this.roots ??= source.list().then((roots) => foldersFromRoots(roots, log)));
    try {
      const folders = await asked;
      if (folders.length > 0) return folders;
      log.info(`the client lists no file roots; the workspace is the working directory ${cwd}`);
    } catch (e) {
      if (this.roots === asked) this.roots = undefined;
      log.warn(`roots/list failed (${(e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ')}); the workspace is the working directory ${cwd}`);
    }
    return [folderAt(cwd)];
  }

  /** The client's roots changed (`notifications/roots/list_changed`): the next call asks for them again. */
  rootsChanged(): void {
    this.roots = undefined;
  }
}

/**
 * Workspace folders for MCP roots (`file://` URIs, which the SDK checks): each root is a folder at its path,
 * named by the root's `name` when that is a usable folder name (no `/`, `\` or unsafe character, since a
 * tool's `path` may start with it and results quote it), else after its last path segment. A root that names
 * no local path (`file://server/share`) is logged and skipped.
 */
export function foldersFromRoots(roots: readonly Root[], log: Logger): WorkspaceFolderRef[] {
  const folders: WorkspaceFolderRef[] = [];
  for (const root of roots) {
    let dir: string;
    try {
      dir = fileURLToPath(root.uri);
    } catch {
      log.warn(`skipping the root ${JSON.stringify(root.uri)}: it names no folder on this machine`);
      continue;
    }
    const name = root.name?.trim();
    const usable = name && !/[\\/]/.test(name) && showControlPictures(name) === name;
    folders.push(usable ? { name, path: path.resolve(dir) } : folderAt(dir));
  }
  return folders;
}
