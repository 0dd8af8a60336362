/**
 * CLI start: a one-shot run loads only what its tool needs, and the built CLI (`node dist/cli.js`)
 * reuses V8's code cache from an earlier run, kept in a folder only its user may enter. These run the built
 * bundles: `npm run build` first. No timing is asserted (speed lives in `npm run bench`, case cli-start).
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI_TOOL_NAMES, loadTool } from '../../../src/cli/tools';
import { TOOLS } from '../../../src/core/registry';
import { cliEnvironment, DIST_CLI } from '../../helpers/cli';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

/** Node's built-in modules that only the web tools, workspace_search's worker or the MCP server load. */
const NOT_FOR_A_SEARCH = ['https', 'http', 'tls', 'dns', 'zlib', 'worker_threads', 'crypto'];

/** A preload script that prints, at exit, the built-in modules the process loaded (`process.moduleLoadList`). */
const LOADED_BUILTINS = `process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)))));`;

describe('CLI start: what a run loads', function () {
  this.timeout(60_000);
  let root: string;
  let tmp: string;
  before(() => {
    root = makeTree({ 'a.txt': 'needle\n' });
    tmp = mkdtempSync(path.join(os.tmpdir(), 'scout-cli-start-'));
    writeFileSync(path.join(tmp, 'loaded.js'), LOADED_BUILTINS);
  });
  after(() => {
    removeTree(root);
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Runs the built CLI with TMPDIR = `tmpdir` (where its code cache goes) and the module list preloaded. */
  const run = (args: string[], tmpdir: string) => {
    const r = spawnSync(process.execPath, ['--require', path.join(tmp, 'loaded.js'), DIST_CLI, ...args], { encoding: 'utf8', env: cliEnvironment({ TMPDIR: tmpdir }) });
    const at = r.stderr.lastIndexOf('\nLOADED ');
    return { status: r.status, stdout: r.stdout, stderr: r.stderr.slice(0, at), loaded: JSON.parse(r.stderr.slice(at + 8)) as string[] };
  };
  const cacheDir = (tmpdir: string) => path.join(tmpdir, `scout-cli-${process.getuid!()}`);

  it('has a lazy loader for exactly the tools of the registry', () => {
    assert.deepEqual(CLI_TOOL_NAMES, Object.keys(TOOLS));
    for (const name of CLI_TOOL_NAMES) assert.equal(loadTool(name), TOOLS[name], name);
  });

  it('runs glob and grep without loading the web stack or worker threads', () => {
    const tmpdir = mkdtempSync(path.join(tmp, 'a-'));
    for (const [tool, input] of [['glob', '{"pattern":"*"}'], ['grep', '{"pattern":"needle"}']] as const) {
      const r = run([tool, input, '--cwd', root], tmpdir);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /a\.txt/);
      assert.deepEqual(r.loaded.filter((m) => NOT_FOR_A_SEARCH.includes(m)), [], `${tool} loaded ${r.loaded.join(', ')}`);
      assert.ok(r.loaded.includes('child_process'), 'the run did load what it needs');
    }
  });

  it('writes a code cache on the first run and reads it, unchanged, on the next', () => {
    const tmpdir = mkdtempSync(path.join(tmp, 'b-'));
    const first = run(['glob', '{"pattern":"*"}', '--cwd', root], tmpdir);
    assert.equal(first.status, 0, first.stderr);
    const [cache, ...others] = readdirSync(cacheDir(tmpdir));
    assert.ok(cache?.endsWith('.v8cache') && others.length === 0, String(readdirSync(cacheDir(tmpdir))));
    assert.equal(statSync(cacheDir(tmpdir)).mode & 0o777, 0o700);
    const written = statSync(path.join(cacheDir(tmpdir), cache)).mtimeMs;
    const second = run(['glob', '{"pattern":"*"}', '--cwd', root], tmpdir);
    assert.equal(second.stdout, first.stdout);
    assert.equal(statSync(path.join(cacheDir(tmpdir), cache)).mtimeMs, written, 'a cache that was used is not written again');
  });

  it('runs correctly from a damaged cache, and replaces it', () => {
    const tmpdir = mkdtempSync(path.join(tmp, 'c-'));
    const first = run(['glob', '{"pattern":"*"}', '--cwd', root], tmpdir);
    const [cache] = readdirSync(cacheDir(tmpdir));
    writeFileSync(path.join(cacheDir(tmpdir), cache!), Buffer.alloc(4096, 0xab));
    const damaged = run(['glob', '{"pattern":"*"}', '--cwd', root], tmpdir);
    assert.equal(damaged.status, 0, damaged.stderr);
    assert.equal(damaged.stdout, first.stdout);
    assert.notEqual(readdirSync(cacheDir(tmpdir)).length, 0);
    assert.ok(statSync(path.join(cacheDir(tmpdir), cache!)).size !== 4096, 'the damaged cache was replaced');
  });

  it('ignores a cache folder that others may write to, and writes nothing there', () => {
    const tmpdir = mkdtempSync(path.join(tmp, 'd-'));
    mkdirSync(cacheDir(tmpdir));
    chmodSync(cacheDir(tmpdir), 0o777);
    const r = run(['glob', '{"pattern":"*"}', '--cwd', root], tmpdir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /a\.txt/);
    assert.deepEqual(readdirSync(cacheDir(tmpdir)), []);
  });

  /** A copy of the built CLI (launcher and bundle) in a new folder under `tmp`; returns the launcher's path. */
  const copyCli = (): string => {
    const dist = mkdtempSync(path.join(tmp, 'dist-'));
    for (const name of ['cli.js', 'cliMain.js']) copyFileSync(path.join(path.dirname(DIST_CLI), name), path.join(dist, name));
    return path.join(dist, 'cli.js');
  };
  const runCopy = (cli: string, pattern: string, tmpdir: string) =>
    spawnSync(process.execPath, [cli, 'glob', JSON.stringify({ pattern }), '--cwd', root, '--rg', RG_PATH], { encoding: 'utf8', env: cliEnvironment({ TMPDIR: tmpdir }) });

  it('never runs the cache of a bundle changed in place with the same size and modification time (tester: a version bump kept by cp -p)', () => {
    const tmpdir = mkdtempSync(path.join(tmp, 'e-'));
    const cli = copyCli();
    const bundle = path.join(path.dirname(cli), 'cliMain.js');
    // A whole second, which file systems store exactly.
    const mtime = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(bundle, mtime, mtime);
    assert.equal(runCopy(cli, 'zzz', tmpdir).stdout.split('\n')[0], 'No files found');
    const before = statSync(bundle);
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replaceAll('No files found', 'No FILEZ found'));
    utimesSync(bundle, mtime, mtime);
    const after = statSync(bundle);
    assert.deepEqual([after.size, after.mtimeMs], [before.size, before.mtimeMs], 'same size and modification time');
    assert.equal(runCopy(cli, 'zzz', tmpdir).stdout.split('\n')[0], 'No FILEZ found', 'the edited bundle ran');
  });

  it('keeps a cache per checkout: two copies of the CLI run by one user do not remove each other\'s', () => {
    const tmpdir = mkdtempSync(path.join(tmp, 'f-'));
    const [one, two] = [copyCli(), copyCli()];
    for (const cli of [one, two, one, two]) assert.equal(runCopy(cli, '*', tmpdir).status, 0);
    assert.equal(readdirSync(cacheDir(tmpdir)).filter((n) => n.endsWith('.v8cache')).length, 2, String(readdirSync(cacheDir(tmpdir))));
  });

  it('leaves no temporary file when the cache cannot be put in place (a folder holds its name)', () => {
    const tmpdir = mkdtempSync(path.join(tmp, 'g-'));
    const cli = copyCli();
    runCopy(cli, '*', tmpdir);
    const [cache] = readdirSync(cacheDir(tmpdir));
    rmSync(path.join(cacheDir(tmpdir), cache!));
    mkdirSync(path.join(cacheDir(tmpdir), cache!));
    for (let i = 0; i < 2; i++) assert.match(runCopy(cli, '*', tmpdir).stdout, /a\.txt/);
    assert.deepEqual(readdirSync(cacheDir(tmpdir)), [cache]);
  });
});
