import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliEnvironment } from '../../helpers/cli';
import { requireFreshBuild, textOf } from '../mcp/support';

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../../..');
const manifest = require(path.join(REPO, 'package.json')) as { bin: Record<string, string>; dependencies: Record<string, string> };
/** What the CLI and the MCP server run (see .npmignore). */
const BUNDLES = ['cli', 'cliMain', 'mcp', 'convertWorker', 'pdfjs', 'workspaceSearchWorker'].map((b) => `dist/${b}.js`);

/**
 * The npm package as people outside VS Code install it: `npm pack` of this checkout (its dist/ as built; the
 * published tarball is built by the prepack script), then `npm install --omit=dev` of the tarball in an empty
 * folder, which takes its one dependency, @vscode/ripgrep, from the registry or npm's cache. The installed
 * `scout` command runs glob, grep and the MCP server with the rg of that dependency, and nothing of the
 * checkout (no PATH rg: PATH holds only Node's folder).
 */
describe('the npm package: npm pack, npm install --omit=dev, the scout command', function () {
  this.timeout(240_000);
  let tmp: string;
  let scout: string;
  let workspace: string;
  let env: Record<string, string>;
  let packed: { files: { path: string }[]; size: number; filename: string };
  before(async () => {
    requireFreshBuild();
    tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'scout-npm-package-')));
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: REPO, maxBuffer: 16 << 20 });
    packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;
    const install = path.join(tmp, 'install');
    mkdirSync(install);
    writeFileSync(path.join(install, 'package.json'), '{ "name": "scout-install-test", "private": true }\n');
    await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', path.join(tmp, packed.filename)], { cwd: install, maxBuffer: 16 << 20 });
    scout = path.join(install, 'node_modules', '.bin', 'scout');
    workspace = path.join(tmp, 'workspace');
    mkdirSync(path.join(workspace, 'src'), { recursive: true });
    writeFileSync(path.join(workspace, 'src', 'app.ts'), 'export const GREETING = "hello";\n');
    writeFileSync(path.join(workspace, 'README.md'), '# Demo\n');
    env = { ...cliEnvironment(), PATH: path.dirname(process.execPath) };
  });
  after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

  it('holds the bundles the CLI and the MCP server run, and nothing of the extension or the sources', () => {
    const files = packed.files.map((f) => f.path).sort();
    const docs = readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    assert.ok(docs.includes('docs/settings.md') && docs.includes('docs/cli.md'), docs.join());
    assert.deepEqual(files, [...BUNDLES, ...docs, 'LICENSE', 'README.md', 'package.json'].sort());
    for (const link of readFileSync(path.join(REPO, 'README.md'), 'utf8').matchAll(/\]\((docs\/[^)#]+)/g)) {
      assert.ok(files.includes(link[1]!), `README links to ${link[1]}, which the package must hold`);
    }
    assert.equal(manifest.bin.scout, 'dist/cli.js');
    assert.deepEqual(Object.keys(manifest.dependencies), ['@vscode/ripgrep'], 'every other library is bundled into dist/');
  });

  it('installs only @vscode/ripgrep and its platform binary beside scout', () => {
    const installed = readdirSync(path.join(tmp, 'install', 'node_modules'), { recursive: true, withFileTypes: false }) as string[];
    const packages = installed.filter((p) => /^(@[^/]+\/)?[^/@]+$/.test(p) && !p.startsWith('.') && !/^@[^/]+$/.test(p)).sort();
    assert.deepEqual(packages, ['@vscode/ripgrep', `@vscode/ripgrep-${process.platform}-${process.arch}`, 'scout']);
  });

  it('runs glob and grep with the rg of its @vscode/ripgrep dependency', async () => {
    const glob = await run(scout, ['glob', '{"pattern":"*.ts"}', '--verbose'], { cwd: workspace, env });
    assert.equal(glob.stdout, `src/app.ts\n\nPaths are relative to ${workspace}.\n`);
    assert.match(glob.stderr, new RegExp(`^\\[info\\] using ripgrep ${tmp}/install/node_modules/@vscode/ripgrep-${process.platform}-${process.arch}/bin/rg \\(bundled @vscode/ripgrep-${process.platform}-${process.arch}\\)$`, 'm'));
    assert.doesNotMatch(glob.stderr, /\[warn\]/);
    const grep = await run(scout, ['grep', '{"pattern":"GREETING"}'], { cwd: workspace, env });
    assert.equal(grep.stdout, `src/app.ts\nLine 1: export const GREETING = "hello";\n\nPaths are relative to ${workspace}.\n`);
  });

  it('names itself scout in its usage text, as its bin was run', async () => {
    const help = await run(scout, ['--help'], { cwd: workspace, env });
    assert.match(help.stdout, /^Usage: scout <tool> \['<json arguments>'\] \[options\]\n {7}scout mcp \[options\]\n/);
    assert.match(help.stdout, /\nExample: scout grep /);
    assert.doesNotMatch(help.stdout, /dist\/cli\.js/);
    const bad = await run(scout, ['mcp', '--help'], { cwd: workspace, env });
    assert.match(bad.stdout, /^Usage: scout mcp \[options\]/);
  });

  it('serves the tools over MCP as `scout mcp` to the SDK client', async () => {
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: scout, args: ['mcp', '--cwd', workspace], env, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['glob', 'grep', 'web_fetch', 'web_search', 'workspace_search']);
      const result = await client.callTool({ name: 'grep', arguments: { pattern: 'GREETING' } });
      assert.equal(textOf(result), `src/app.ts\nLine 1: export const GREETING = "hello";\n\nPaths are relative to ${workspace}.`);
    } finally {
      await client.close();
    }
  });
});
