import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { openStdoutSocket, sweepStaleFolders, type StdoutSocket } from '../../../src/core/ripgrep/stdoutSocket';
import { makeTree, removeTree } from '../../helpers/tree';

/** Runs `fn` with TMPDIR set to `dir` (os.tmpdir() reads it on every call), then puts it back. */
async function withTmpdir<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

/**
 * Spawns `node -e script` with stdout on the socket's rg end, reads it all, and returns the bytes, the number
 * of chunks and how the writer exited.
 */
function readWriter(socket: StdoutSocket, script: string): Promise<{ bytes: Buffer; chunks: number; code: number | null; ends: number }> {
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', socket.rgEnd, 'inherit'] });
  socket.releaseRgEnd();
  const chunks: Buffer[] = [];
  let ends = 0;
  return new Promise((resolve, reject) => {
    let code: number | null | undefined;
    let ended = false;
    const done = (): void => {
      if (code !== undefined && ended) resolve({ bytes: Buffer.concat(chunks), chunks: chunks.length, code, ends });
    };
    socket.read(
      // A chunk is valid only during the call.
      (chunk) => chunks.push(Buffer.from(chunk)),
      () => {
        ends++;
        ended = true;
        done();
      },
      reject,
    );
    child.on('close', (c) => {
      code = c;
      socket.drain();
      done();
    });
  });
}

describe('rg stdout socket', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = makeTree({});
  });
  after(() => removeTree(root));

  it('hands on every byte in order, each chunk a view of one reused buffer, and ends once', async () => {
    // Thousands of small writes, as rg's search threads make them: one per file's results.
    const script = "const fs=require('fs');for(let i=0;i<5000;i++)fs.writeSync(1,`{\"line\":${i},\"text\":\"${'x'.repeat(i%300)}\"}\\n`)";
    const socket = await openStdoutSocket();
    assert.ok(socket, 'a socket pair can be made in the OS temporary folder');
    const kept: Buffer[] = [];
    const result = await readWriter(
      {
        ...socket,
        read: (onChunk, onEnd, onError) => socket.read((c) => (kept.push(c), onChunk(c)), onEnd, onError),
      },
      script,
    );
    socket.close();
    assert.equal(result.code, 0);
    assert.equal(result.ends, 1);
    const lines = result.bytes.toString('utf8').split('\n');
    assert.equal(lines.length, 5001);
    lines.slice(0, 5000).forEach((line, i) => assert.equal(line, `{"line":${i},"text":"${'x'.repeat(i % 300)}"}`));
    // The reader reuses one buffer for its reads, so it copies nothing: every chunk is a view of that buffer.
    assert.ok(kept.length > 1, 'the output came in more than one read');
    assert.ok(kept.every((chunk) => chunk.buffer === kept[0]!.buffer && chunk.byteOffset === kept[0]!.byteOffset));
  });

  it('leaves nothing in the temporary folder: the folder and name of the pair are gone before rg starts', async () => {
    const tmp = path.join(root, 'tmp-clean');
    mkdirSync(tmp);
    const socket = await withTmpdir(tmp, openStdoutSocket);
    assert.ok(socket);
    assert.deepEqual(readdirSync(tmp), []);
    const result = await readWriter(socket, "process.stdout.write('ok\\n')");
    socket.close();
    assert.equal(result.bytes.toString(), 'ok\n');
    assert.deepEqual(readdirSync(tmp), []);
  });

  it('returns undefined where no pair can be made: a TMPDIR that is a file, missing, or too long for a socket name', async () => {
    const here = path.join(root, 'unusable');
    const file = path.join(here, 'not-a-folder');
    const long = path.join(here, 'l'.repeat(120));
    mkdirSync(long, { recursive: true });
    writeFileSync(file, '');
    for (const dir of [file, path.join(here, 'missing'), long]) {
      assert.equal(await withTmpdir(dir, openStdoutSocket), undefined, dir);
    }
    assert.deepEqual(readdirSync(long), [], 'nothing is made in a folder whose path is too long');
    assert.deepEqual(readdirSync(here).sort(), ['l'.repeat(120), 'not-a-folder'], 'and no socket under a shortened name beside it');
  });

  it('a writer whose reader closed gets an error at its next write (EPIPE, or ECONNRESET), as with a pipe', async () => {
    const socket = await openStdoutSocket();
    assert.ok(socket);
    // Writes until a write fails, then exits with 3 and the error code on stderr.
    const child = spawn(
      process.execPath,
      ['-e', "const fs=require('fs');try{for(;;)fs.writeSync(1,Buffer.alloc(4096,120))}catch(e){process.stderr.write(e.code);process.exit(3)}"],
      { stdio: ['ignore', socket.rgEnd, 'pipe'] },
    );
    socket.releaseRgEnd();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await new Promise<void>((resolve) => socket.read(() => resolve(), () => undefined, () => undefined));
    socket.close();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 3);
    // A Unix socket closed with bytes still unread in it resets the connection instead: the write fails all the same.
    assert.ok(stderr === 'EPIPE' || stderr === 'ECONNRESET', stderr);
  });

  it("removes this user's pair folders left by a killed process, and nothing else", async () => {
    const tmp = path.join(root, 'tmp-stale');
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    const make = (name: string, old: boolean, withSocketName = false): string => {
      const dir = path.join(tmp, name);
      mkdirSync(dir, { recursive: true });
      if (withSocketName) writeFileSync(path.join(dir, 'stdout'), '');
      if (old) utimesSync(dir, hourAgo, hourAgo);
      return dir;
    };
    make('scout-rg-Ab12Cd', true, true);
    make('scout-rg-Ef34Gh', true);
    make('scout-rg-Ij56Kl', false); // a pair being made right now
    make('scout-rg-too-long', true);
    make('other-Mn78Op', true);
    const elsewhere = make('../elsewhere', true);
    symlinkSync(elsewhere, path.join(tmp, 'scout-rg-Qr90St'));
    await sweepStaleFolders(tmp);
    assert.deepEqual(readdirSync(tmp).sort(), ['other-Mn78Op', 'scout-rg-Ij56Kl', 'scout-rg-Qr90St', 'scout-rg-too-long']);
    assert.ok(existsSync(elsewhere), 'a symlink is never followed');

    // Opening a socket sweeps its temporary folder, in the background.
    const other = path.join(root, 'tmp-stale-2');
    const left = make('../tmp-stale-2/scout-rg-Uv12Wx', true);
    const socket = await withTmpdir(other, openStdoutSocket);
    socket?.close();
    for (let i = 0; i < 200 && existsSync(left); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(existsSync(left), false);
  });
});
