import * as vscode from 'vscode';

/** The URI scheme of Scout's saved complete results: `scout-result:/grep-needle-300-matches-3.txt`. */
export const RESULT_SCHEME = 'scout-result';

/**
 * Scout's saved complete results as a read-only file system under {@link RESULT_SCHEME}, registered with
 * `isReadonly`, so an editor showing one cannot be typed into and is never dirty: closing it (Close All
 * included) never asks to save. Each result is a file in `dir` (the extension's storage), so a reload
 * serves the tabs the workbench restores. Only {@link put} and {@link remove} change what is there; every
 * write through the file system API is refused.
 */
export class ResultFiles implements vscode.FileSystemProvider {
  /** Text written but not yet on disk (the disk write runs in the background), by file name. */
  private readonly pending = new Map<string, Uint8Array>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  /** @param dir the folder the results are kept in (made on the first write) */
  constructor(private readonly dir: vscode.Uri) {}

  /** The URI of the result file `name` (a bare file name, see `resultName`). */
  uri(name: string): vscode.Uri {
    return vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${name}` });
  }

  /**
   * Saves `text` as the file `name`: readable at once, on disk when the returned promise resolves.
   * @throws Error when the storage folder cannot be written (the text stays readable until {@link remove})
   */
  async put(name: string, text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text);
    this.pending.set(name, bytes);
    this.changed.fire([{ type: vscode.FileChangeType.Created, uri: this.uri(name) }]);
    await vscode.workspace.fs.createDirectory(this.dir);
    const file = vscode.Uri.joinPath(this.dir, name);
    await vscode.workspace.fs.writeFile(file, bytes);
    if (this.pending.get(name) === bytes) this.pending.delete(name);
    // Released while it was being written: the write must not bring it back for the next reload.
    else await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
  }

  /** Deletes the file `name`; a missing one is not an error. */
  async remove(name: string): Promise<void> {
    this.pending.delete(name);
    try {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.dir, name));
    } catch (e) {
      if (!(e instanceof vscode.FileSystemError && e.code === 'FileNotFound')) throw e;
    }
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri: this.uri(name) }]);
  }

  /** The names of the result files on disk (none when the folder is not there yet). */
  async names(): Promise<string[]> {
    try {
      return (await vscode.workspace.fs.readDirectory(this.dir)).filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
    } catch {
      return [];
    }
  }

  /** The text of the file `name`. @throws vscode.FileSystemError FileNotFound when there is none */
  async text(name: string): Promise<string> {
    return new TextDecoder().decode(await this.bytes(name));
  }

  private async bytes(name: string): Promise<Uint8Array> {
    const held = this.pending.get(name);
    if (held) return held;
    if (!name || name.includes('/')) throw vscode.FileSystemError.FileNotFound(this.uri(name));
    try {
      return await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.dir, name));
    } catch {
      throw vscode.FileSystemError.FileNotFound(this.uri(name));
    }
  }

  // vscode.FileSystemProvider: the root folder and its files, read-only.

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const bytes = await this.bytes(uri.path.slice(1));
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: bytes.byteLength, permissions: vscode.FilePermission.Readonly };
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    if (uri.path !== '/') throw vscode.FileSystemError.FileNotFound(uri);
    const names = new Set([...(await this.names()), ...this.pending.keys()]);
    return [...names].map((name) => [name, vscode.FileType.File]);
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.bytes(uri.path.slice(1));
  }

  createDirectory(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
