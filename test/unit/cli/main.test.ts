import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, programName } from '../../../src/cli/flags';
import { CLI_MAIN, TSX_LOADER } from '../../helpers/cli';
import { processesUnder } from '../../helpers/processes';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree, SLOW_PATTERN, writeSlowCorpus } from '../../helpers/tree';


/** Runs the CLI from source (through tsx) and returns its exit status and output. */
function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI_MAIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, PATH: '', ...env } });
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

  it('reads a pattern and a glob the way the model meant them, and says so', () => {
    const literal = cli(['grep', '{"pattern":"needle();"}'], root);
    assert.equal(literal.status, 0, literal.stderr);
    assert.equal(literal.stdout, `src/b.ts\nLine 1: needle();\n\n[pattern "needle();" matched nothing as a regex, so it was searched as literal text (--fixed-strings).]\nPaths are relative to ${root}.\n`);
    const cased = cli(['glob', '{"pattern":"readme.md"}', '--json'], root);
    assert.deepEqual(JSON.parse(cased.stdout), { workdir: root, root: '.', paths: ['README.md'], readAs: '[rR][eE][aA][dD][mM][eE].[mM][dD]' });
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
    // The name of the VS Code setting, as docs/settings.md lists it, said which key to give instead.
    ['a setting named with "scout."', ['glob', '{}', '--config', 'scout.search.timeoutMs=5000'], /unknown setting "scout\.search\.timeoutMs": the key is search\.timeoutMs, without the "scout\." of the VS Code setting\. Give --config search\.timeoutMs=5000\./],
    ['a setting of the wrong type', ['glob', '{}', '--config=search.globMaxResults=many'], /needs a number/],
    ['too many arguments', ['glob', '{}', 'extra'], /expected a tool and one JSON argument/],
    // Numeric settings have the ranges of NUMERIC_SETTING_LIMITS (package.json's minimum/maximum/integer).
    ['a zero page size', ['glob', '{"pattern":"*"}', '--config', 'search.globMaxResults=0'], /setting "search\.globMaxResults" must be an integer from 1 to 10000, not 0\./],
    ['a negative page size', ['glob', '{"pattern":"*"}', '--config', 'search.globMaxResults=-1'], /must be an integer from 1 to 10000, not -1\./],
    ['a huge page size', ['glob', '{"pattern":"*"}', '--config', 'search.globMaxResults=1e9'], /must be an integer from 1 to 10000, not 1000000000\./],
    ['a fractional page size', ['glob', '{"pattern":"*"}', '--config', 'search.globMaxResults=2.5'], /must be an integer from 1 to 10000, not 2\.5\./],
    ['a missing --rg binary', ['glob', '{"pattern":"*.md"}', '--rg', '/nonexistent/rg'], /--rg \/nonexistent\/rg is not an executable file\./],
    ['a directory as --rg', ['glob', '{"pattern":"*.md"}', '--rg', '/'], /--rg \/ is not an executable file\./],
    // Exit 1 with no output reads as rg finding nothing: a false "No files found".
    ['a program that is not ripgrep as --rg (/bin/false)', ['glob', '{"pattern":"*.md"}', '--rg', '/bin/false'], /--rg \/bin\/false is not ripgrep: its --version did not print "ripgrep <version>"\. Pass the path of ripgrep 13 or later\./],
    ['a program that is not ripgrep as --rg (/bin/true)', ['grep', '{"pattern":"x"}', '--rg', '/bin/true'], /--rg \/bin\/true is not ripgrep/],
    ['an invalid --allow-private-host', ['web_fetch', '{"url":"http://127.0.0.1/"}', '--allow-private-host', 'notanip!!'], /--allow-private-host needs IP addresses, CIDR ranges or host names, and "notanip!!" is none of them\./],
    ['an empty --allow-private-host', ['web_fetch', '{"url":"http://127.0.0.1/"}', '--allow-private-host', ''], /--allow-private-host needs .* and "" is none of them\./],
    ['an invalid allowedPrivateHosts list', ['glob', '{}', '--config', 'webFetch.allowedPrivateHosts=["10.0.0.0/8","10.0.0.0/33"]'], /setting "webFetch\.allowedPrivateHosts" needs .* "10\.0\.0\.0\/33" is none of them/],
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

  it('names the key without "scout." for the server too, quoted for the shell when the value needs it', () => {
    assert.throws(() => parseCommandLine(['mcp', '--config', 'scout.search.timeoutMs=5000'], root), /the key is search\.timeoutMs, without the "scout\." of the VS Code setting\. Give --config search\.timeoutMs=5000\./);
    assert.throws(() => parseCommandLine(['glob', '--config', 'scout.webFetch.allowedPrivateHosts=["10.0.0.1"]'], root), /Give --config 'webFetch\.allowedPrivateHosts=\["10\.0\.0\.1"\]'\./);
    assert.throws(() => parseCommandLine(['glob', '--config', 'scout.search.nope=1'], root), /^UsageError: unknown setting "scout\.search\.nope"\. Settings are section\.key/);
  });

  // "Give --config search.timeoutMs=5" suggested a value the setting refuses (its minimum is 100).
  it('suggests a value within the setting\'s range for a "scout." key given one outside it', () => {
    const cases: [string, string][] = [
      ['scout.search.timeoutMs=5', 'and its value must be an integer from 100 to 2147483647, not 5. Give --config search.timeoutMs=100.'],
      ['scout.search.globMaxResults=1e9', 'and its value must be an integer from 1 to 10000, not 1000000000. Give --config search.globMaxResults=10000.'],
      ['scout.search.globMaxResults=2.4', 'and its value must be an integer from 1 to 10000, not 2.4. Give --config search.globMaxResults=2.'],
      // A value of the wrong type was suggested back as it was given, and refused in turn.
      ['scout.search.timeoutMs=abc', 'and its value needs an integer from 100 to 2147483647, not "abc" (the default is 30000). Give --config search.timeoutMs=30000.'],
      ['scout.search.allowPathsOutsideWorkspace=yes', 'and its value needs true or false, not "yes". Give --config search.allowPathsOutsideWorkspace=true or --config search.allowPathsOutsideWorkspace=false.'],
    ];
    for (const [given, tail] of cases) {
      const key = given.slice(0, given.indexOf('='));
      assert.throws(() => parseCommandLine(['glob', '--config', given], root), (e: unknown) => e instanceof Error && e.message === `unknown setting "${key}": the key is ${key.slice('scout.'.length)}, without the "scout." of the VS Code setting, ${tail}`);
      for (const suggested of [...tail.matchAll(/--config (\S+?)\.?(?= |$)/g)].map((m) => m[1]!)) {
        assert.doesNotThrow(() => parseCommandLine(['glob', '--config', suggested], root), suggested);
      }
    }
  });

  it('accepts addresses, CIDR ranges and host names for --allow-private-host', () => {
    const hosts = ['127.0.0.1', '::1', '[fd00::1]', '10.0.0.0/8', 'intranet.example', 'localhost'];
    const line = parseCommandLine(['web_fetch', ...hosts.flatMap((h) => ['--allow-private-host', h])], root);
    assert.deepEqual(line.settings.config.webFetch.allowedPrivateHosts, hosts);
  });

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
      const [heading, listing] = readFileSync(file, 'utf8').split('\n\n');
      assert.equal(heading, 'Scout glob "*": 3 files, complete result, 7 lines', 'the file starts with the self-describing first line');
      assert.equal(listing!.split('\n').length, 3);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('runs the --rg binary, and names where the rg it runs comes from with --verbose', () => {
    const given = cli(['glob', '{"pattern":"*.md"}', '--rg', RG_PATH, '--verbose'], root);
    assert.equal(given.status, 0, given.stderr);
    assert.match(given.stderr, new RegExp(`^\\[info\\] using ripgrep ${RG_PATH.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(--rg\\)$`, 'm'));
    const bundled = cli(['glob', '{"pattern":"*.md"}', '--verbose'], root);
    assert.equal(bundled.status, 0, bundled.stderr);
    assert.match(bundled.stderr, /^\[info\] using ripgrep \S+\/node_modules\/@vscode\/ripgrep-linux-x64\/bin\/rg \(bundled @vscode\/ripgrep-linux-x64\)$/m);
  });

  it('deletes its own spill files older than 24 hours when it writes a new one, and keeps newer ones', () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'scout-cli-tmp-'));
    try {
      const old = path.join(tmp, 'scout-spill-glob-1-1.txt');
      const recent = path.join(tmp, 'scout-spill-grep-2-2.txt');
      const other = path.join(tmp, 'unrelated.txt');
      for (const f of [old, recent, other]) writeFileSync(f, 'x');
      const longAgo = (Date.now() - 25 * 3600_000) / 1000;
      for (const f of [old, other]) utimesSync(f, longAgo, longAgo);
      const r = cli(['glob', '{"pattern":"*"}', '--config', 'search.globMaxResults=1'], root, { TMPDIR: tmp });
      assert.equal(r.status, 0, r.stderr);
      const left = readdirSync(tmp);
      assert.ok(!left.includes(path.basename(old)), left.join(', '));
      assert.ok(left.includes(path.basename(recent)) && left.includes('unrelated.txt'), left.join(', '));
      assert.equal(left.filter((f) => f.startsWith('scout-spill-glob-')).length, 1, 'the new spill');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('ends quietly with the run\'s own status when the reader closes stdout early (| head -c 10)', async () => {
    const zod = path.resolve(__dirname, '../../../node_modules/zod');
    for (const mode of [['--json'], []]) {
      const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI_MAIN, 'grep', '{"pattern":"export"}', '--cwd', zod, ...mode], { env: { ...process.env, PATH: '' } });
      let head = '';
      let stderr = '';
      child.stdout.once('data', (c: Buffer) => {
        head = c.subarray(0, 10).toString();
        child.stdout.destroy();
      });
      child.stderr.on('data', (c) => (stderr += c));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(stderr, '', `${mode.join(' ')}: nothing on stderr`);
      assert.equal(status, 0, mode.join(' '));
      assert.equal(head.length, 10);
    }
  });

  // A closed terminal fails a write with EIO, not EPIPE; the handler threw it and Node aborted (signal 6).
  it('ends with the run\'s own status when writing to a closed terminal fails with EIO', async () => {
    const dir = makeTree({ 'a.txt': 'needle\n' });
    try {
      // No pseudo-terminal can be made from Node, so the terminal's answer to every write is played by a preload.
      const preload = path.join(dir, 'closed-terminal.cjs');
      writeFileSync(preload, "process.stdout.write = function () { process.nextTick(() => this.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO', errno: -5, syscall: 'write' }))); return false; };\n");
      const child = spawn(process.execPath, ['--require', preload, '--import', TSX_LOADER, CLI_MAIN, 'grep', '{"pattern":"needle"}', '--cwd', dir]);
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      const [status, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
      assert.deepEqual([status, signal], [0, null], stderr);
      assert.equal(stderr, '');
    } finally {
      removeTree(dir);
    }
  });

  // SIGHUP is a closed terminal, SIGQUIT Ctrl-\: each ended the CLI at once and left a slow rg searching for nobody.
  for (const sig of ['SIGINT', 'SIGHUP', 'SIGQUIT'] as const) {
    it(`cancels a running search on ${sig === 'SIGINT' ? 'Ctrl-C' : sig}: SEARCH_ABORTED, exit 1, no rg left`, async () => {
      writeSlowCorpus(root, 'slow', 40, 500_000);
      const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI_MAIN, 'grep', JSON.stringify({ pattern: SLOW_PATTERN })], { cwd: root });
      let stdout = '';
      child.stdout.on('data', (c) => (stdout += c));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      for (let i = 0; i < 500 && !processesUnder(root).some((p) => p.argv[0] === RG_PATH); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(processesUnder(root).some((p) => p.argv[0] === RG_PATH), 'rg started');
      child.kill(sig);
      assert.equal(await exited, 1);
      assert.match(stdout, /^Error: The search was cancelled/);
      assert.match(stdout, /\(code: SEARCH_ABORTED\)/);
      assert.deepEqual(processesUnder(root), []);
      assert.equal(existsSync(path.join(root, 'PWNED')), false);
    });
  }
});

describe('CLI: programName', () => {
  it('is the bin name when run through the package bin, node dist/cli.js for a script', () => {
    assert.equal(programName('/usr/lib/node_modules/.bin/scout'), 'scout');
    assert.equal(programName('/repo/dist/cli.js'), 'node dist/cli.js');
    assert.equal(programName('/repo/src/cli/main.ts'), 'node dist/cli.js');
    assert.equal(programName(undefined), 'node dist/cli.js');
  });
});
