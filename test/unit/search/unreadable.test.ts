/**
 * Entries that cannot be read cost only themselves, and error text never quotes a
 * file. Root reads everything, so when the tests run as root rg runs as `nobody` (see `unprivilegedRipgrep`),
 * and the command-line case runs the built CLI as `nobody` too; as another user, permissions apply anyway.
 */
import * as assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncOptionsWithStringEncoding, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGlobTool, type GlobValue } from '../../../src/core/search/glob';
import { createGrepTool, type GrepValue } from '../../../src/core/search/grep';
import { folder, readableCopy, RG_PATH, runTool, searchEnv, toolFailure, unprivilegedIds, unprivilegedRipgrep, type SearchEnvOptions } from '../../helpers/searchEnv';
import { makeRealisticWorkspace, makeTree, removeTree, type RealisticWorkspace } from '../../helpers/tree';

const budget = { maxFiles: 1000, timeMs: 600_000, maxRetryChecks: 16, maxListings: 4 };
const globTool = createGlobTool(budget);
const grepTool = createGrepTool(budget);



/**
 * Runs the built CLI (`node dist/cli.js <tool> <input> --cwd <cwd>`) as an unprivileged user (`nobody` when
 * the tests run as root), with copies of the CLI, rg and, when needed, node in `bin`: the checkout may sit
 * where only root may go (a CI clone under /root).
 */
function unprivilegedCli(bin: string): (tool: string, input: object, cwd: string) => SpawnSyncReturns<string> {
  const cli = path.resolve(__dirname, '../../../dist/cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build" before these tests.`);
  const ids = unprivilegedIds();
  const spawnOptions: SpawnSyncOptionsWithStringEncoding = { cwd: bin, encoding: 'utf8', env: { PATH: '', TMPDIR: os.tmpdir() }, ...(ids ?? {}) };
  // cli.js runs the bundle beside it (cliMain.js), so both are copied.
  const cliCopy = readableCopy(cli, bin);
  readableCopy(path.join(path.dirname(cli), 'cliMain.js'), bin);
  const rg = readableCopy(RG_PATH, bin, 0o755);
  const node = ids && spawnSync(process.execPath, ['-e', ''], spawnOptions).status !== 0 ? readableCopy(process.execPath, bin, 0o755) : process.execPath;
  return (tool, input, cwd) => spawnSync(node, [cliCopy, tool, JSON.stringify(input), '--cwd', cwd, '--rg', rg], spawnOptions);
}

/** The too-long path as rg reports it: `deep/` and all 17 long folder names (the one it cannot open). */
const DEEP = /^deep\/d00x+(\/d\d\dx+){16}$/;

describe('unreadable entries cost only themselves', function () {
  this.timeout(120_000);
  let ws: RealisticWorkspace;
  let bin: string;
  let options: SearchEnvOptions;
  /** `private/` (mode 700, owned by the test user) is unreadable only to another user. */
  const dropped = unprivilegedIds() !== undefined;
  before(() => {
    ws = makeRealisticWorkspace({ unreadable: true });
    bin = mkdtempSync(path.join(os.tmpdir(), 'scout-rg-'));
    options = { folders: [folder(ws.root)], ripgrepPath: unprivilegedRipgrep(bin) };
  });
  after(() => {
    ws.remove();
    removeTree(bin);
  });

  const reasons = (value: { unreadable?: { path?: string; reason: string }[] }) => (value.unreadable ?? []).map((u) => `${DEEP.test(u.path ?? '') ? 'deep/…' : u.path} ${u.reason}`);

  it('glob lists every readable file and names the unreadable folders (chmod 000, root-only, too long)', async () => {
    const out = await runTool(globTool, { pattern: '*' }, options);
    for (const file of ['src/app.ts', 'docs/guide.md', 'node_modules/left-pad/index.js', '.cache/data.txt', 'locked.txt']) assert.ok(out.value.paths.includes(file), file);
    assert.ok(!out.value.paths.some((p) => p.startsWith('locked/') || p.startsWith('private/') || p.startsWith('deep/')));
    assert.deepEqual(reasons(out.value), ['deep/… name too long', 'locked permission denied', ...(dropped ? ['private permission denied'] : [])]);
    assert.equal(out.summary.skipped, dropped ? 3 : 2);
    const noteLine = out.text.split('\n').find((l) => l.includes('could not be read'))!;
    // A path is quoted with at most 200 characters, then "…".
    assert.match(noteLine, new RegExp(`^\\[${dropped ? 3 : 2} paths could not be read, so the result leaves them out: "deep/d00x+"… \\(name too long\\), "locked" \\(permission denied\\)`));
  });

  it('grep returns every match it found, and names the file it could not open', async () => {
    const out = await runTool(grepTool, { pattern: 'needle' }, options);
    assert.deepEqual([...new Set(out.value.matches.map((m) => m.path))].sort(), ['docs/guide.md', 'packages/api/src/server.ts', 'src/app.ts']);
    assert.deepEqual(reasons(out.value), ['deep/… name too long', 'locked permission denied', 'locked.txt permission denied', ...(dropped ? ['private permission denied'] : [])]);
    assert.match(out.text, /\n\[\d paths could not be read, so the result leaves them out: "deep\/.*, and \d more\.\]\nPaths are relative to /);
  });

  it('answers an unreadable path with an empty result that says why, not a failure', async () => {
    const out = await runTool(globTool, { pattern: '*', path: 'locked' }, options);
    assert.deepEqual(out.value.paths, []);
    assert.match(out.text, /^No files found\n\n\[1 path could not be read, so the result leaves it out: "locked" \(permission denied\)\.\]\n/);
  });

  it('keeps fatal errors errors: a bad regex, a missing rg (raw output over the cap is a truncated result, see overflow.test.ts)', async () => {
    assert.equal((await toolFailure(grepTool, { pattern: 'a(' }, options)).code, 'SEARCH_INVALID_PATTERN');
    const cut = await runTool(grepTool, { pattern: 'e' }, { ...options, search: { rawOutputMaxBytes: 1000 } });
    assert.equal(cut.value.incomplete, true);
    assert.match(cut.text, /\[ripgrep printed more than 1,000 bytes/);
    assert.equal((await toolFailure(globTool, { pattern: '*' }, { ...options, ripgrepPath: path.join(bin, 'no-such-rg') })).code, 'SEARCH_FAILED');
  });

  it('runs `node dist/cli.js` as an unprivileged user against the chmod 000 folder', function () {
    const cliRun = (tool: string, input: object) => unprivilegedCli(bin)(tool, input, ws.root);

    const glob = cliRun('glob', { pattern: '*.ts' });
    assert.equal(glob.status, 0, `${glob.stdout}${glob.stderr}`);
    const lines = String(glob.stdout).split('\n');
    for (const file of ['src/app.ts', '.hidden.ts', 'packages/api/src/server.ts']) assert.ok(lines.includes(file), `${file} in\n${glob.stdout}`);
    assert.ok(lines.some((l) => /^\[\d paths could not be read, so the result leaves them out: .*"locked" \(permission denied\)/.test(l)), String(glob.stdout));

    const grep = cliRun('grep', { pattern: 'needle', include: '*.ts' });
    assert.equal(grep.status, 0, `${grep.stdout}${grep.stderr}`);
    assert.match(String(grep.stdout), /^packages\/api\/src\/server\.ts\nLine 1: export const server = "needle";\n\nsrc\/app\.ts\nLine 2: /);
    assert.match(String(grep.stdout), /"locked" \(permission denied\)/);
  });
});

describe('a workspace folder this user cannot read', function () {
  this.timeout(60_000);
  let bin: string;
  let parent: string;
  before(() => {
    bin = mkdtempSync(path.join(os.tmpdir(), 'scout-rg-'));
    parent = makeTree({ 'locked-ws/src/a.ts': 'needle\n' });
    chmodSync(parent, 0o755);
    chmodSync(path.join(parent, 'locked-ws'), 0o000);
  });
  after(() => {
    chmodSync(path.join(parent, 'locked-ws'), 0o755);
    removeTree(parent);
    removeTree(bin);
  });

  it('says the folder cannot be read, not that ripgrep could not be started (CLI run as an unprivileged user)', function () {
    const cliRun = unprivilegedCli(bin);
    const ws = path.join(parent, 'locked-ws');
    for (const [tool, input] of [['glob', { pattern: '*.ts' }], ['grep', { pattern: 'needle' }]] as const) {
      const run = cliRun(tool, input, ws);
      assert.equal(run.status, 1, `${run.stdout}${run.stderr}`);
      assert.equal(
        String(run.stdout),
        `Error: The workspace folder ${ws} cannot be read by the user Scout runs as (permission denied), so it cannot be searched. Ask the user to fix the folder's permissions or to open another folder.\n(code: SEARCH_FAILED)\n`,
      );
    }
    // A path inside it, from a readable workspace folder: it cannot be read, rather than "does not exist".
    const inside = cliRun('grep', { pattern: 'needle', path: 'locked-ws/src' }, parent);
    assert.match(String(inside.stdout), /^Error: path "locked-ws\/src" cannot be read: a folder on the way is not readable by the user Scout runs as \(permission denied\)\./);
  });
});

describe('error text quotes no file contents', function () {
  this.timeout(60_000);
  const SECRET = 'SCOUT_IGNORE_FILE_SECRET';

  it('reports an ignore file rg cannot parse by path and line only', async () => {
    const root = makeTree({ '.git/HEAD': 'x', '.gitignore': `ok\n${SECRET}{\n`, 'sub/.ignore': `${SECRET}[\n${SECRET}{\n`, 'a.txt': 'needle\n' });
    try {
      for (const out of [await runTool(grepTool, { pattern: 'needle' }, { folders: [folder(root)] }), await runTool(grepTool, { pattern: 'absent' }, { folders: [folder(root)] })]) {
        assert.ok(!out.text.includes(SECRET) && !JSON.stringify(out.value).includes(SECRET), out.text);
        assert.match(out.text, /\n\[ripgrep could not parse a rule in 2 ignore files and did not apply it: "\.gitignore" \(line 2\), "sub\/\.ignore" \(line 2\)\.\]\n/);
      }
    } finally {
      removeTree(root);
    }
  });

  it('never shows the text of a file a .git file points rg to outside the workspace, nor its path', async () => {
    const outside = makeTree({ '.git/info/exclude': `${SECRET}{\n`, '.git/worktrees/wt/commondir': '../..\n' });
    const root = makeTree({ '.git': `gitdir: ${outside}/.git/worktrees/wt\n`, 'a.txt': 'needle\n' });
    mkdirSync(path.join(root, 'locked'));
    writeFileSync(path.join(root, 'locked', 'x'), 'x');
    try {
      const out = await runTool(grepTool, { pattern: 'needle' }, { folders: [folder(root)] });
      for (const seen of [out.text, JSON.stringify(out.value)]) {
        assert.ok(!seen.includes(SECRET), seen);
        assert.ok(!seen.includes(outside), seen);
      }
      assert.match(out.text, /\[ripgrep could not parse a rule in 1 ignore file and did not apply it: a file outside the workspace folder \(line 1\)\.\]/);
      assert.deepEqual((out.value as GrepValue).unreadable, [{ reason: 'ignore file rule not applied', line: 1 }]);
    } finally {
      removeTree(root);
      removeTree(outside);
    }
  });

  it('does not quote the ignore file when rg also fails for another reason', async () => {
    const root = makeTree({ '.git/HEAD': 'x', '.gitignore': `${SECRET}{\n`, 'a.txt': 'needle\n' });
    try {
      const error = await toolFailure(globTool, { pattern: '*' }, { folders: [folder(root)], ripgrepPath: '/no/such/rg' });
      assert.ok(!error.message.includes(SECRET));
      const regex = await toolFailure(grepTool, { pattern: '(' }, { folders: [folder(root)] });
      assert.equal(regex.code, 'SEARCH_INVALID_PATTERN');
      assert.ok(!regex.message.includes(SECRET), regex.message);
    } finally {
      removeTree(root);
    }
  });

  it('glob values never carry such text either', async () => {
    const root = makeTree({ '.git/HEAD': 'x', '.gitignore': `${SECRET}{\n`, 'a.txt': 'x' });
    try {
      const out = await runTool(globTool, { pattern: '*' }, { folders: [folder(root)] });
      assert.ok(!JSON.stringify((out.value as GlobValue)).includes(SECRET));
    } finally {
      removeTree(root);
    }
  });
});

describe("each line of ripgrep's error output stands on its own", function () {
  this.timeout(60_000);
  const roots: string[] = [];
  after(() => roots.forEach(removeTree));

  it('names every ignore file of a directory that rg reports in one message (its later lines have no "rg: ")', async () => {
    // rg prints "rg: ./sub/.rgignore: line 1: …\n./sub/.ignore: line 1: …": one message, two files.
    const root = makeTree({ '.git/HEAD': 'x', '.rgignore': 'a{\n', 'sub/.rgignore': 'b\\\n', 'sub/.ignore': 'c{\n', 'sub/f.txt': 'needle\n', 'top.txt': 'needle\n' });
    roots.push(root);
    const out = await runTool(grepTool, { pattern: 'needle' }, { folders: [folder(root)] });
    assert.deepEqual(out.value.unreadable, [
      { path: '.rgignore', reason: 'ignore file rule not applied', line: 1 },
      { path: 'sub/.ignore', reason: 'ignore file rule not applied', line: 1 },
      { path: 'sub/.rgignore', reason: 'ignore file rule not applied', line: 1 },
    ]);
    assert.match(out.text, /\n\[ripgrep could not parse a rule in 3 ignore files and did not apply it: "\.rgignore" \(line 1\), "sub\/\.ignore" \(line 1\), "sub\/\.rgignore" \(line 1\)\.\]\n/);
  });

  it('keeps a line without a path (a general warning) apart from the path line after it', async () => {
    const root = makeTree({ 'ws/.rgignore': 'a{\n', 'ws/top.txt': 'needle\n' });
    roots.push(root);
    mkdirSync(path.join(root, 'empty'));
    // A wrapper, as `scout.ripgrepPath` may name one, that first runs rg where it finds no file: rg's own
    // pathless warning ("rg: No files were searched, …", two lines) lands just before the real search's lines.
    const wrapper = path.join(root, 'rg-wrapper.sh');
    writeFileSync(wrapper, `#!/bin/sh\n(cd "${root}/empty" && "${RG_PATH}" --no-config needle >/dev/null)\nexec "${RG_PATH}" "$@"\n`);
    chmodSync(wrapper, 0o755);
    const env = searchEnv({ folders: [folder(path.join(root, 'ws'))], ripgrepPath: wrapper });
    const out = await grepTool.run(grepTool.parse({ pattern: 'needle' }, env.config), env);
    assert.deepEqual(out.value.unreadable, [{ path: '.rgignore', reason: 'ignore file rule not applied', line: 1 }]);
    assert.match(out.text, /\n\[ripgrep could not parse a rule in 1 ignore file and did not apply it: "\.rgignore" \(line 1\)\.\]\n/);
    assert.deepEqual(env.warnings, ["grep: ripgrep said: rg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped."]);
  });
});
