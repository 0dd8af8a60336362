import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { processesUnder } from '../../helpers/processes';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree, SLOW_PATTERN, writeSlowCorpus } from '../../helpers/tree';

const MAIN = path.resolve(__dirname, '../../../src/cli/main.ts');
/** tsx's loader by absolute URL, so the CLI runs from source whatever its working directory. */
const TSX = pathToFileURL(require.resolve('tsx')).href;

/** Runs the CLI from source (through tsx) and returns its exit status and output. */
function cli(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', TSX, MAIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, PATH: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('CLI', function () {
  this.timeout(60_000);
  let root: string;
  before(() => (root = makeTree({ 'src/a.ts': 'const needle = 1;\n', 'src/b.ts': 'needle();\n', 'README.md': '# needle\n' })));
  after(() => removeTree(root));

  it('prints exactly the model text and exits 0', () => {
    const r = cli(['grep', '{"pattern":"needle","include":"*.ts"}'], root);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `src/a.ts\nLine 1: const needle = 1;\n\nsrc/b.ts\nLine 1: needle();\n\nPaths are relative to ${root}.\n`);
    assert.equal(r.stderr, '');
  });

  it('prints the canonical value with --json, and runs in --cwd', () => {
    const r = cli(['glob', '{"pattern":"*.md"}', '--json', '--cwd', root], path.dirname(root));
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { workdir: root, root: '.', paths: ['README.md'] });
  });

  it('exits 1 with the Error text and code for a tool error', () => {
    const r = cli(['grep', '{"pattern":"["}'], root);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^Error: ripgrep rejected pattern "\[" as a regular expression:/);
    assert.match(r.stdout, /\n\(code: SEARCH_INVALID_PATTERN\)\n$/);
    const invalid = cli(['glob', '{"pattern":" "}', '--json'], root);
    assert.equal(invalid.status, 1);
    assert.equal(JSON.parse(invalid.stdout).error.code, 'INVALID_ARGUMENT');
  });

  const usageErrors: [string, string[], RegExp][] = [
    ['no tool', [], /name a tool to run/],
    ['an unknown tool', ['find', '{}'], /unknown tool "find"/],
    ['invalid JSON', ['glob', '{pattern:'], /not valid JSON/],
    ['an unknown option', ['glob', '{}', '--bogus'], /unknown option --bogus/],
    ['a missing option value', ['glob', '{}', '--cwd'], /--cwd needs a value \(DIR\)/],
    ['a repeated single option', ['glob', '{}', '--json', '--json'], /--json may be given only once/],
    ['a missing --cwd directory', ['glob', '{}', '--cwd', '/no/such/dir'], /--cwd \/no\/such\/dir is not a directory/],
    ['an unknown setting', ['glob', '{}', '--config', 'search.nope=1'], /unknown setting "search.nope"/],
    ['a setting of the wrong type', ['glob', '{}', '--config=search.globMaxResults=many'], /needs a number/],
    ['too many arguments', ['glob', '{}', 'extra'], /expected a tool and one JSON argument/],
  ];
  for (const [name, args, message] of usageErrors) {
    it(`exits 2 with usage for ${name}`, () => {
      const r = cli(args, root);
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /Usage: node dist\/cli\.js <tool>/);
      assert.equal(r.stdout, '');
    });
  }

  it('prints help with --help and exits 0', () => {
    const r = cli(['--help'], root);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /Tools: glob, grep/);
    assert.match(r.stdout, /--config KEY=VALUE/);
  });

  it('applies --config settings and spills over-cap results to a temp file', () => {
    const r = cli(['glob', '{"pattern":"*"}', '--config', 'search.globMaxResults=1', '--config', 'search.sampleOverCapGlobResults=false'], root);
    assert.equal(r.status, 0, r.stderr);
    const uri = /saved at (file:\S+)\. It is a plain text file at (\S+); read it/.exec(r.stdout);
    assert.ok(uri, r.stdout);
    const file = fileURLToPath(uri[1]!);
    assert.equal(file, uri[2]);
    try {
      assert.ok(path.basename(file).startsWith('scout-spill-glob-'));
      assert.equal(readFileSync(file, 'utf8').split('\n\n')[0]!.split('\n').length, 3);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('uses --rg, and warns then falls back to the packaged rg when --rg does not exist', () => {
    assert.equal(cli(['glob', '{"pattern":"*.md"}', '--rg', RG_PATH], root).status, 0);
    const missing = cli(['glob', '{"pattern":"*.md"}', '--rg', '/no/rg'], root);
    // The packaged rg is still found after the missing configured one, with a warning.
    assert.equal(missing.status, 0);
    assert.match(missing.stderr, /ripgrep not found at \/no\/rg \(configured path\)/);
  });

  it('cancels a running search on Ctrl-C: SEARCH_ABORTED, exit 1, no rg left', async () => {
    writeSlowCorpus(root, 'slow', 40, 500_000);
    const child = spawn(process.execPath, ['--import', TSX, MAIN, 'grep', JSON.stringify({ pattern: SLOW_PATTERN })], { cwd: root });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    for (let i = 0; i < 100 && !processesUnder(root).some((p) => p.argv[0] === RG_PATH); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(processesUnder(root).some((p) => p.argv[0] === RG_PATH), 'rg started');
    child.kill('SIGINT');
    assert.equal(await exited, 1);
    assert.match(stdout, /^Error: The search was cancelled/);
    assert.match(stdout, /\(code: SEARCH_ABORTED\)/);
    assert.deepEqual(processesUnder(root), []);
    assert.equal(existsSync(path.join(root, 'PWNED')), false);
  });
});
