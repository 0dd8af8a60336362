import { closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';

/**
 * The entry point of `node dist/cli.js`: runs the CLI bundle `dist/cliMain.js` through
 * V8's code cache, so a run after the first one neither parses the bundle nor compiles the functions the
 * last run used. Node 20 has no module compile cache of its own (`module.enableCompileCache` came in Node 22);
 * this is the same technique for one file. Without a usable cache it simply compiles the bundle, as Node would.
 *
 * The cache lives in `<os tmpdir>/scout-cli-<uid>/`, a folder only this user may enter (created with mode 700
 * and checked before use: a directory, not a link, owned by the user, no access for group or others), because
 * V8 trusts cached code once its version, flags and source length match. Each file is named after the bundle's
 * place (a hash of its path) and its identity on disk (device, inode, size, modification and change times: a
 * copy that keeps the modification time, `cp -p` or an unpacked archive, still gets a new inode and change
 * time) and the Node version, so a changed bundle never meets an old cache; the last run that found no usable
 * cache writes one (to a temporary name, then renamed) when the process exits, and removes the caches of
 * older bundles at the same place (another checkout's cache is left alone). Off POSIX (no user id to check)
 * the bundle runs without a cache. Every cache failure is silent: it only costs the time the cache would have
 * saved.
 */
function launch(): void {
  const file = path.join(__dirname, 'cliMain.js');
  const source = readFileSync(file, 'utf8').replace(/^#!.*/, '');
  const cache = cacheFile(file);
  let cachedData: Buffer | undefined;
  if (cache) {
    try {
      const fd = openSync(cache, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        cachedData = readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      // no cache yet
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (cache && (!cachedData || script.cachedDataRejected)) process.once('exit', () => saveCache(cache, script, file));
  const main = new Module(file, module);
  main.filename = file;
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  run(main.exports, Module.createRequire(file), main, file, path.dirname(file));
}

/** Where the cache of the bundle `file` is kept, or undefined when no safe folder is at hand. */
function cacheFile(file: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const dir = path.join(os.tmpdir(), `scout-cli-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    // it exists already (checked below), or cannot be made
  }
  try {
    const folder = lstatSync(dir);
    if (!folder.isDirectory() || folder.uid !== uid || (folder.mode & 0o077) !== 0) return undefined;
    const bundle = statSync(file, { bigint: true });
    const identity = [bundle.dev, bundle.ino, bundle.size, bundle.mtimeNs, bundle.ctimeNs].join('-');
    return path.join(dir, `${cachePrefix(file)}${identity}-${process.version}-${process.arch}.v8cache`);
  } catch {
    return undefined;
  }
}

/**
 * The start of the cache file names of the bundle at `file`: `cliMain-` and the 32-bit FNV-1a hash of its path
 * (UTF-16 code units), in hex, so two checkouts of one user keep a cache each.
 */
function cachePrefix(file: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193) >>> 0;
  return `cliMain-${hash.toString(16).padStart(8, '0')}-`;
}

/**
 * Writes the script's code cache (with every function compiled so far) and removes older caches of the bundle
 * at `file`.
 */
function saveCache(cache: string, script: vm.Script, file: string): void {
  const temporary = `${cache}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, cache);
    const dir = path.dirname(cache);
    const prefix = cachePrefix(file);
    for (const name of readdirSync(dir)) {
      if (name.startsWith(prefix) && path.join(dir, name) !== cache) unlinkSync(path.join(dir, name));
    }
  } catch {
    // the next run compiles again; a temporary file left by a failed rename goes
    try {
      unlinkSync(temporary);
    } catch {
      // not there
    }
  }
}

launch();
