import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isToolError, type ToolErrorCode } from '../../../src/core/errors';
import { runRipgrep, type RipgrepRunOptions } from '../../../src/core/ripgrep/process';
import { processesUnder } from '../../helpers/processes';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree, SLOW_PATTERN, writeSlowCorpus } from '../../helpers/tree';

function options(root: string, overrides: Partial<RipgrepRunOptions> = {}): RipgrepRunOptions {
  return {
    rgPath: RG_PATH,
    args: ['--no-config', '--json', '--regexp=needle', '--', '.'],
    cwd: root,
    signal: new AbortController().signal,
    timeoutMs: 30_000,
    graceMs: 3_000,
    rawOutputMaxBytes: 20_000_000,
    stderrMaxBytes: 65_536,
    onStdout: () => undefined,
    // The tests run rg as grep does, through the socket, unless they say otherwise.
    stdoutReading: 'batched',
    ...overrides,
  };
}

async function rejectsWith(promise: Promise<unknown>, code: ToolErrorCode, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (e) => {
    assert.ok(isToolError(e), `a ToolError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

/** Writes an executable /bin/sh script into `root` and returns its path. */
function script(root: string, name: string, body: string): string {
  const file = path.join(root, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('runRipgrep', function () {
  this.timeout(60_000);
  let root: string;
  let slow: RipgrepRunOptions['args'];

  before(() => {
    root = makeTree({ 'a.txt': 'needle\nhay\nneedle again\n' });
    writeSlowCorpus(root, 'slow', 40, 500_000);
    slow = ['--no-config', '--json', `--regexp=${SLOW_PATTERN}`, '--', 'slow'];
  });
  after(() => removeTree(root));
  afterEach(() => assert.deepEqual(processesUnder(root).map((p) => p.argv.join(' ')), [], 'no process left running'));

  it('streams stdout and reports exit 0, and exit 1 for no match', async () => {
    let bytes = 0;
    const found = await runRipgrep(options(root, { args: ['--no-config', '--json', '--regexp=needle', '--', 'a.txt'], onStdout: (c) => (bytes += c.length) }));
    assert.equal(found.exitCode, 0);
    assert.ok(bytes > 0);
    const none = await runRipgrep(options(root, { args: ['--no-config', '--json', '--regexp=zzzz', '--', 'a.txt'] }));
    assert.equal(none.exitCode, 1);
  });

  it('starts rg processes one per event-loop turn, so a burst does not hold the main thread for every fork at once', async () => {
    // The input that showed it: 32 concurrent tool calls, whose 14 rg spawns in one turn stalled the loop ~200 ms.
    const abort = new AbortController();
    const runs = [0, 1, 2].map(() => runRipgrep(options(root, { args: slow, signal: abort.signal })).catch((e: unknown) => e));
    const seen = [processesUnder(root).length];
    while (seen[seen.length - 1]! < 3 && seen.length < 100) {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(processesUnder(root).length);
    }
    abort.abort();
    await Promise.all(runs);
    assert.equal(seen[0], 0, 'no rg is spawned in the turn that started the searches');
    assert.equal(seen[seen.length - 1], 3, `all three started: ${seen.join(',')}`);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! - seen[i - 1]! <= 1, `two rg processes started in one turn: ${seen.join(',')}`);
  });

  it('reports exit 2 with rg stderr for an invalid regex', async () => {
    const exit = await runRipgrep(options(root, { args: ['--no-config', '--json', '--regexp=[', '--', '.'] }));
    assert.equal(exit.exitCode, 2);
    assert.match(exit.stderr, /regex parse error/);
    assert.equal(exit.stderrTruncated, false);
  });

  it('fails SEARCH_FAILED when rg cannot be started, naming the path', async () => {
    await rejectsWith(runRipgrep(options(root, { rgPath: path.join(root, 'no-such-rg') })), 'SEARCH_FAILED', /could not be started from .*no-such-rg/);
  });

  it('does not start rg when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await rejectsWith(runRipgrep(options(root, { rgPath: script(root, 'marker.sh', `touch "${root}/started"`), signal: controller.signal })), 'SEARCH_ABORTED', /cancelled/);
    assert.equal(existsSync(path.join(root, 'started')), false);
  });

  it('stops reading and kills rg once stdout passes rawOutputMaxBytes', async () => {
    let received = 0;
    await rejectsWith(
      runRipgrep(options(root, { args: ['--no-config', '--json', '--regexp=\\w+', '--', 'slow/d0'], rawOutputMaxBytes: 4096, onStdout: (c) => (received += c.length) })),
      'SEARCH_RAW_OUTPUT_OVERFLOW',
      /more than 4096 bytes/,
    );
    assert.ok(received <= 4096, `parsed ${received} bytes, not more than the cap`);
  });

  it('with rawOutputOverflow "truncate", hands on exactly rawOutputMaxBytes bytes, stops rg and resolves with stdoutCut', async () => {
    const chunks: Buffer[] = [];
    const exit = await runRipgrep(options(root, { args: ['--no-config', '--json', '--regexp=\\w+', '--', 'slow/d0'], rawOutputMaxBytes: 4096, rawOutputOverflow: 'truncate', onStdout: (c) => chunks.push(Buffer.from(c)) }));
    assert.equal(exit.stdoutCut, true);
    assert.equal(Buffer.concat(chunks).length, 4096);
    assert.ok(Buffer.concat(chunks).toString('utf8').startsWith('{"type":"begin"'), 'the head of the output, in order');
    assert.deepEqual(processesUnder(root), [], 'rg was stopped before the run resolved');
  });

  it('with rawOutputOverflow "truncate", output under the cap is an ordinary exit', async () => {
    const exit = await runRipgrep(options(root, { rawOutputOverflow: 'truncate' }));
    assert.equal(exit.stdoutCut, undefined);
    assert.ok(exit.exitCode === 0 || exit.exitCode === 1);
  });

  it('times out a slow search with SEARCH_ABORTED', async () => {
    await rejectsWith(runRipgrep(options(root, { args: slow, timeoutMs: 300 })), 'SEARCH_ABORTED', /did not finish within 300 ms/);
  });

  it('stops a slow search when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await rejectsWith(runRipgrep(options(root, { args: slow, signal: controller.signal })), 'SEARCH_ABORTED', /cancelled/);
  });

  it('kills the whole process tree: a wrapper and the rg it started', async () => {
    const wrapper = script(root, 'wrapper.sh', `"${RG_PATH}" "$@"\necho done`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await rejectsWith(runRipgrep(options(root, { rgPath: wrapper, args: slow, signal: controller.signal })), 'SEARCH_ABORTED');
  });

  it('escalates to SIGKILL after graceMs when SIGTERM is ignored', async () => {
    // An ignored signal stays ignored across exec, so both the shell and its rg ignore SIGTERM.
    const stubborn = script(root, 'stubborn.sh', `trap '' TERM\n"${RG_PATH}" "$@"\nsleep 30`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await rejectsWith(runRipgrep(options(root, { rgPath: stubborn, args: slow, signal: controller.signal, graceMs: 300 })), 'SEARCH_ABORTED');
  });

  it('stops rg and rejects with the error onStdout throws', async () => {
    const boom = new Error('parser gave up');
    const onStdout = (): void => {
      throw boom;
    };
    await rejectsWith(runRipgrep(options(root, { args: ['--no-config', '--json', '--regexp=\\w+', '--', 'slow'], onStdout })), 'SEARCH_FAILED', /parser gave up/);
  });

  it('fails SEARCH_FAILED when rg is killed by a signal it did not get from Scout', async () => {
    await rejectsWith(runRipgrep(options(root, { rgPath: script(root, 'suicide.sh', 'kill -KILL $$') })), 'SEARCH_FAILED', /killed by signal SIGKILL/);
  });

  it('keeps only the stderr tail, marked truncated', async () => {
    const noisy = script(root, 'noisy.sh', 'i=0; while [ $i -lt 2000 ]; do echo "line $i of noise" >&2; i=$((i+1)); done; echo "the last line" >&2; exit 2');
    const exit = await runRipgrep(options(root, { rgPath: noisy, stderrMaxBytes: 100 }));
    assert.equal(exit.exitCode, 2);
    assert.equal(exit.stderrTruncated, true);
    assert.ok(Buffer.byteLength(exit.stderr) <= 100);
    assert.ok(exit.stderr.endsWith('the last line\n'));
  });

  it('gives the same bytes through the socket, a pipe, and a pipe when no socket can be made (TMPDIR is a file)', async () => {
    const args = ['--no-config', '--json', '--regexp=\\w+', '--', 'slow/d1/f1.txt'];
    const read = async (stdoutReading: RipgrepRunOptions['stdoutReading'] = 'batched'): Promise<string[]> => {
      const chunks: Buffer[] = [];
      // A batched chunk is valid only during the call.
      const exit = await runRipgrep(options(root, { args, stdoutReading, onStdout: (c) => chunks.push(Buffer.from(c)) }));
      assert.equal(exit.exitCode, 0);
      // Drop the timing fields of rg's end and summary messages, the only bytes that differ between runs.
      // rg searches files in parallel, so they come in any order: compare the sorted lines.
      return Buffer.concat(chunks).toString('utf8').replace(/"elapsed(_total)?":\{[^}]*\}/g, '').split('\n').sort();
    };
    const bySocket = await read();
    assert.deepEqual(await read('stream'), bySocket);
    const file = path.join(root, 'tmpdir-is-a-file');
    writeFileSync(file, '');
    const before = process.env.TMPDIR;
    process.env.TMPDIR = file;
    try {
      assert.deepEqual(await read(), bySocket);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    assert.ok(bySocket.length > 1000, `${bySocket.length} lines`);
  });

  for (const stdoutReading of ['batched', 'stream'] as const) {
    it(`rg does not outlive a Scout process killed with SIGKILL: its next write fails and it exits (stdout ${stdoutReading})`, async () => {
      // rg searches a FIFO fed without end, so it would write for as long as it lives; killing the process that
      // reads it must end it, not leave it writing to nowhere.
      const dir = path.join(root, `orphan-${stdoutReading}`);
      mkdirSync(dir);
      execFileSync('mkfifo', [path.join(dir, 'endless')]);
      const feeder = createWriteStream(path.join(dir, 'endless'));
      feeder.on('error', () => undefined); // EPIPE once rg is gone.
      const line = Buffer.from('needle in an endless haystack\n'.repeat(1000));
      const feed = (): void => {
        while (!feeder.destroyed && feeder.write(line));
        if (!feeder.destroyed) feeder.once('drain', feed);
      };
      feed();
      const processTs = path.resolve(__dirname, '../../../src/core/ripgrep/process.ts');
      const code = `const { runRipgrep } = require(${JSON.stringify(processTs)});
        let told = false;
        runRipgrep({ rgPath: ${JSON.stringify(RG_PATH)}, args: ['--no-config', '--json', '--regexp=needle', '--', 'endless'], cwd: ${JSON.stringify(dir)},
          stdoutReading: '${stdoutReading}', signal: new AbortController().signal, timeoutMs: 600000, graceMs: 3000, rawOutputMaxBytes: 1e15, stderrMaxBytes: 65536,
          onStdout: () => { if (!told) { told = true; process.stdout.write('reading\\n'); } } });`;
      const scout = spawn(process.execPath, ['--import', 'tsx', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        scout.stdout.on('data', () => resolve());
        scout.on('exit', (c) => reject(new Error(`the Scout process exited with ${c} before rg wrote`)));
      });
      const rg = processesUnder(dir);
      assert.equal(rg.length, 1, 'rg is running');
      scout.kill('SIGKILL');
      for (let i = 0; i < 400 && processesUnder(dir).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      feeder.destroy();
      assert.deepEqual(processesUnder(dir), [], 'rg exited after the process reading it was killed');
    });
  }
});
