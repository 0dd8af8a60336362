import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DIST_CLI, runCliAsync } from '../../helpers/cli';

const REPO = path.resolve(__dirname, '../../..');
const MCP_CODE = /node_modules\/@modelcontextprotocol\/sdk\/|^src\/mcp\//;

describe('MCP server: bundles and command line', function () {
  this.timeout(60_000);
  let outdir: string;
  /** The inputs esbuild put into dist/<entry>.js, from a build of esbuild.mjs with --metafile. */
  let inputs: (entry: string) => string[];
  before(() => {
    outdir = mkdtempSync(path.join(os.tmpdir(), 'scout-mcp-bundle-'));
    const build = spawnSync(process.execPath, ['esbuild.mjs', `--outdir=${outdir}`, '--metafile'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    inputs = (entry) => Object.keys(JSON.parse(readFileSync(path.join(outdir, `${entry}.meta.json`), 'utf8')).inputs);
  });
  after(() => rmSync(outdir, { recursive: true, force: true }));

  it('keeps the MCP server and its SDK out of extension.js and the CLI (cli.js, cliMain.js), in mcp.js, which cliMain.js loads for the mcp command', () => {
    for (const entry of ['extension', 'cli', 'cliMain', 'convertWorker', 'workspaceSearchWorker']) {
      assert.deepEqual(inputs(entry).filter((i) => MCP_CODE.test(i)), [], entry);
    }
    const mcp = inputs('mcp');
    for (const file of [/^node_modules\/@modelcontextprotocol\/sdk\/dist\/\w+\/server\/index\.js$/, /^node_modules\/@modelcontextprotocol\/sdk\/dist\/\w+\/server\/stdio\.js$/, /^src\/mcp\/server\.ts$/]) {
      assert.ok(mcp.some((i) => file.test(i)), String(file));
    }
    assert.match(readFileSync(path.join(outdir, 'cliMain.js'), 'utf8'), /require\("\.\/mcp\.js"\)/);
  });

  it('bundles one zod, the one Scout uses, and no web page stack, into mcp.js', () => {
    const zod = inputs('mcp').filter((i) => /\/zod\//.test(i));
    assert.ok(zod.length > 0);
    assert.deepEqual(zod.filter((i) => !i.startsWith('node_modules/zod/')), []);
    assert.deepEqual(inputs('mcp').filter((i) => /node_modules\/(linkedom|turndown|@mozilla\/readability|iconv-lite)\//.test(i)), []);
  });

  const usageErrors: [string, string[], RegExp][] = [
    ['JSON arguments', ['mcp', '{}'], /^scout: mcp takes no JSON arguments: each client call brings its own\./],
    ['--json', ['mcp', '--json'], /^scout: --json does not apply to mcp: a client receives the model text of every call\./],
    ['a --cwd that is not a directory', ['mcp', '--cwd', '/no/such/dir'], /^scout: --cwd \/no\/such\/dir is not a directory\./],
    ['an invalid --allow-private-host', ['mcp', '--allow-private-host', 'not a host!'], /^scout: --allow-private-host needs/],
    ['a --roots-timeout that is no whole number of ms', ['mcp', '--roots-timeout', '1.5'], /^scout: --roots-timeout needs a whole number of ms from 1 to 600000, not "1\.5"\./],
  ];
  for (const [what, args, message] of usageErrors) {
    it(`refuses mcp with ${what} (exit 2, usage on stderr, nothing on stdout)`, async () => {
      const r = await runCliAsync(args, {}, DIST_CLI);
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /node dist\/cli\.js mcp \[options\]/);
      assert.equal(r.stdout, '');
    });
  }

  it('shows mcp --help with the options that apply to the server: not --json, but --roots-timeout', async () => {
    const r = await runCliAsync(['mcp', '--help'], {}, DIST_CLI);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^Usage: node dist\/cli\.js mcp \[options\]\n/);
    const options = r.stdout.split('\n').filter((line) => /^ {2}-/.test(line)).map((line) => line.trim().split(/\s/)[0]);
    assert.deepEqual(options, ['--cwd', '--rg', '--config', '--verbose', '--provider', '--provider-url', '--allow-private-host', '--roots-timeout', '-h,']);
  });

  it('marks the options of one command in the general help, and refuses --roots-timeout for a tool run', async () => {
    const help = await runCliAsync(['--help'], {}, DIST_CLI);
    assert.match(help.stdout, /\n {2}--json +print the canonical result value as JSON instead of the model text \(not with mcp\)\n/);
    assert.match(help.stdout, /\n {2}--roots-timeout MS +ms to wait for the client's answer to roots\/list .* \(mcp only\)\n/);
    const r = await runCliAsync(['glob', '{"pattern":"*"}', '--roots-timeout', '100'], {}, DIST_CLI);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^scout: --roots-timeout applies only to mcp: a one-shot run has no client to ask for roots\./);
  });
});
