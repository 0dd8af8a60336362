import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isToolError, type ToolErrorCode } from '../../../src/core/errors';
import { globTool, type GlobValue } from '../../../src/core/search/glob';
import { countOf, partsAdvice, readingParts } from '../../../src/core/spill';
import type { ToolOutput } from '../../../src/core/tool';
import { failingSpill, folder, memorySpill, searchEnv, type SearchEnvOptions } from '../../helpers/searchEnv';
import { makeTree, removeTree, setMtime } from '../../helpers/tree';

function glob(input: unknown, options: SearchEnvOptions): Promise<ToolOutput<GlobValue>> {
  const env = searchEnv(options);
  return globTool.run(globTool.parse(input, env.config), env);
}

async function globError(input: unknown, options: SearchEnvOptions): Promise<{ code: ToolErrorCode; message: string }> {
  try {
    await glob(input, options);
  } catch (e) {
    assert.ok(isToolError(e), String(e));
    return { code: e.code, message: e.message };
  }
  assert.fail('expected a ToolError');
}

/** The path lines of a glob text: everything before the blank line. */
const listed = (text: string) => text.split('\n\n')[0]!.split('\n');

describe('glob tool', () => {
  let root: string;
  let outside: string;
  const order = ['docs/readme.md', 'src/b.ts', '.hidden/h.ts', 'ignored/i.ts', 'src/a.ts', '.gitignore', '-dir/x.ts', 'app/(auth)/users/[id]/page.tsx', '-1', '--pre=x'];

  before(() => {
    outside = makeTree({ 'secret.txt': 'outside the workspace\n' });
    root = makeTree({
      'src/a.ts': 'a',
      'src/b.ts': 'b',
      '.hidden/h.ts': 'h',
      '.gitignore': 'ignored/\n',
      'ignored/i.ts': 'i',
      'docs/readme.md': 'r',
      '-dir/x.ts': 'x',
      'app/(auth)/users/[id]/page.tsx': 'p',
      '-1': 'one',
      '--pre=x': 'pre',
      '.git/config': 'c',
      '.git/HEAD': 'h',
      '.svn/entries': 's',
      '.jj/repo': 'j',
      'sub/.hg/store': 'h',
      '.bzr/branch': 'b',
      'deep/.sl/x': 's',
      loop: { symlink: '.' },
      spin1: { symlink: 'spin2' },
      spin2: { symlink: 'spin1' },
      out: { symlink: outside },
    });
    order.forEach((rel, i) => setMtime(root, rel, 1_700_000_000 + i * 60));
  });
  after(() => {
    removeTree(root);
    removeTree(outside);
  });

  it('lists files oldest-modified first, hidden and ignored included, VCS metadata excluded, symlinks not followed', async () => {
    const out = await glob({ pattern: '*' }, { folders: [folder(root)] });
    assert.deepEqual(out.value.paths, order);
    assert.equal(out.text, `${order.join('\n')}\n\nPaths are relative to ${root}.`);
    assert.deepEqual(out.value.root, '.');
    assert.equal(out.value.workdir, root);
    assert.deepEqual(out.summary, { files: order.length, truncated: false });
    assert.equal(out.spill, undefined);
  });

  it('matches names at any depth without "/", and workdir-relative paths with "/"', async () => {
    assert.deepEqual((await glob({ pattern: '*.ts' }, { folders: [folder(root)] })).value.paths, ['src/b.ts', '.hidden/h.ts', 'ignored/i.ts', 'src/a.ts', '-dir/x.ts']);
    assert.deepEqual((await glob({ pattern: 'src/*.ts' }, { folders: [folder(root)] })).value.paths, ['src/b.ts', 'src/a.ts']);
    assert.deepEqual((await glob({ pattern: '*.{md,tsx}' }, { folders: [folder(root)] })).value.paths, ['docs/readme.md', 'app/(auth)/users/[id]/page.tsx']);
  });

  it('returns exactly "No files found" for an empty result', async () => {
    const out = await glob({ pattern: '*.nothing' }, { folders: [folder(root)] });
    assert.equal(out.text, 'No files found');
    assert.deepEqual(out.value.paths, []);
    assert.deepEqual(out.summary, { files: 0, truncated: false });
  });

  it('takes leading-dash and flag-like patterns as globs', async () => {
    assert.deepEqual((await glob({ pattern: '-1' }, { folders: [folder(root)] })).value.paths, ['-1']);
    assert.deepEqual((await glob({ pattern: '--pre=x' }, { folders: [folder(root)] })).value.paths, ['--pre=x']);
    assert.deepEqual((await glob({ pattern: '--files' }, { folders: [folder(root)] })).value.paths, []);
  });

  it('searches a directory named -dir and a path with glob syntax literally', async () => {
    const dash = await glob({ pattern: '*', path: '-dir' }, { folders: [folder(root)] });
    assert.deepEqual([dash.value.root, dash.value.paths], ['-dir', ['-dir/x.ts']]);
    const literal = await glob({ pattern: '*.tsx', path: 'app/(auth)/users/[id]' }, { folders: [folder(root)] });
    assert.deepEqual(literal.value.paths, ['app/(auth)/users/[id]/page.tsx']);
  });

  it('runs no shell: $(touch PWNED) creates nothing', async () => {
    const out = await glob({ pattern: '$(touch PWNED)', path: '.' }, { folders: [folder(root)] });
    assert.equal(out.text, 'No files found');
    assert.equal(existsSync(path.join(root, 'PWNED')), false);
    assert.equal(existsSync(path.join(process.cwd(), 'PWNED')), false);
    await globError({ pattern: '*', path: '`touch PWNED`' }, { folders: [folder(root)] });
    assert.equal(existsSync(path.join(root, 'PWNED')), false);
  });

  it('rejects a path that is a file, missing, or a symlink loop', async () => {
    assert.match((await globError({ pattern: '*', path: 'src/a.ts' }, { folders: [folder(root)] })).message, /is a file; glob lists files under a directory/);
    assert.deepEqual((await globError({ pattern: '*', path: 'nope' }, { folders: [folder(root)] })).code, 'INVALID_ARGUMENT');
    assert.deepEqual((await globError({ pattern: '*', path: 'spin1' }, { folders: [folder(root)] })).code, 'INVALID_ARGUMENT');
  });

  it('follows a symlink given as path when it stays inside the workspace', async () => {
    const out = await glob({ pattern: '*.md', path: 'loop/docs' }, { folders: [folder(root)] });
    assert.deepEqual(out.value.paths, ['docs/readme.md']);
  });

  it('refuses a symlink out of the workspace unless allowPathsOutsideWorkspace', async () => {
    const refused = await globError({ pattern: '*', path: 'out' }, { folders: [folder(root)] });
    assert.equal(refused.code, 'PATH_OUTSIDE_WORKSPACE');
    const allowed = await glob({ pattern: '*', path: 'out' }, { folders: [folder(root)], search: { allowPathsOutsideWorkspace: true } });
    assert.deepEqual(allowed.value.paths, [`${path.relative(root, outside)}/secret.txt`]);
  });

  it('fails NO_WORKSPACE with no folder open', async () => {
    assert.equal((await globError({ pattern: '*' }, { folders: [] })).code, 'NO_WORKSPACE');
  });

  it('refuses "!*.ts" and "*.ts,*.txt" up front, and lists both kinds with "*.{ts,md}"', async () => {
    assert.match((await globError({ pattern: '!*.ts' }, { folders: [folder(root)] })).message, /^pattern must be one positive glob/);
    assert.match((await globError({ pattern: '*.ts,*.txt' }, { folders: [folder(root)] })).message, /^pattern must be ONE glob.*"\*\.\{ts,txt\}"/);
    const both = await glob({ pattern: '*.{ts,md}' }, { folders: [folder(root)] });
    assert.deepEqual([...both.value.paths].sort(), ['-dir/x.ts', '.hidden/h.ts', 'docs/readme.md', 'ignored/i.ts', 'src/a.ts', 'src/b.ts']);
  });

  it('maps an invalid glob to SEARCH_INVALID_PATTERN', async () => {
    const error = await globError({ pattern: '[' }, { folders: [folder(root)] });
    assert.equal(error.code, 'SEARCH_INVALID_PATTERN');
    assert.match(error.message, /^pattern "\[" is not a valid glob: unclosed character class; missing '\]'\. Fix it/);
  });

  it('is cancelled before rg starts when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    assert.equal((await globError({ pattern: '*' }, { folders: [folder(root)], signal: controller.signal })).code, 'SEARCH_ABORTED');
  });
});

describe('glob tool: names, roots and over-cap pages', () => {
  it('keeps a non-UTF-8 name (lossy text plus its bytes) and a name with a newline', async () => {
    const raw = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]);
    const root = makeTree({ 'line\nbreak.txt': 'x' }, [[raw, 'latin-1 name']]);
    try {
      const out = await glob({ pattern: '*.txt' }, { folders: [folder(root)] });
      assert.deepEqual([...out.value.paths].sort(), ['caf\uFFFD.txt', 'line\nbreak.txt']);
      const index = out.value.paths.indexOf('caf\uFFFD.txt');
      assert.deepEqual(out.value.nonUtf8Paths, [{ index, base64: raw.toString('base64') }]);
    } finally {
      removeTree(root);
    }
  });

  it('in a multi-root workspace, a path starting with a folder name searches that folder and the note names it', async () => {
    const first = makeTree({ 'one.txt': '1' });
    const second = makeTree({ 'sub/two.txt': '2' });
    try {
      const folders = [folder(first, 'first'), folder(second, 'second')];
      const out = await glob({ pattern: '*.txt', path: 'second/sub' }, { folders });
      assert.equal(out.text, `sub/two.txt\n\nPaths are relative to ${second} (workspace folder "second").`);
      const fallback = await glob({ pattern: '*.txt' }, { folders });
      assert.deepEqual([fallback.value.workdir, fallback.value.paths], [first, ['one.txt']]);
    } finally {
      removeTree(first);
      removeTree(second);
    }
  });

  it("gives the saved list's own length and reading parts, counted from the names, not by scanning the list", async () => {
    // Long names (parts shorter than 1,500 lines) and names listed quoted, among them one not UTF-8.
    const files: Record<string, string> = {};
    for (let i = 0; i < 3_000; i++) files[i % 97 === 0 ? ` leading space ${i}.txt` : `${'d'.repeat(40 + (i % 60))}/f${i}.txt`] = '';
    const root = makeTree(files);
    writeFileSync(Buffer.concat([Buffer.from(`${root}/latin1_`), Buffer.from([0xe9]), Buffer.from('.txt')]), '');
    try {
      const spill = memorySpill();
      const out = await glob({ pattern: '*' }, { folders: [folder(root)], search: { globMaxResults: 10 }, spill });
      const saved = spill.texts[0]!;
      assert.ok(saved.includes('\n"latin1_\\xe9.txt" (not UTF-8') && saved.includes('\n" leading space '), 'names listed quoted are in the list');
      const heading = saved.slice(0, saved.indexOf('\n'));
      assert.equal(heading, `Scout glob "*": 3,001 files, complete result, ${countOf(saved.split('\n').length, 'line')}`);
      // Planned as the list itself reads, with the heading counted as saveCompleteResult counts it.
      const plan = readingParts([saved.slice(heading.length + 1)], [heading.replace(/[\d,]+ lines$/, '0 lines').length + 16]);
      assert.ok(plan.partLines < 1_500, 'long names make parts shorter than 1,500 lines');
      assert.ok(out.text.includes(partsAdvice(plan)), out.text.slice(-600));
    } finally {
      removeTree(root);
    }
  });

  describe('over the cap', () => {
    let root: string;
    const all: string[] = [];
    before(() => {
      root = makeTree({});
      // 60 in big/ (the oldest), then 30 in mid/, 5 in small/ and 5 top-level files: 100 files. The
      // modification-time head is all big/, so a sample differs from it.
      const plan: [string, number][] = [['big/f', 60], ['mid/f', 30], ['small/f', 5], ['top', 5]];
      let t = 1_700_000_000;
      for (const [prefix, n] of plan) {
        for (let i = 0; i < n; i++) {
          const rel = `${prefix}${String(i).padStart(2, '0')}.txt`;
          mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
          writeFileSync(path.join(root, rel), rel);
          setMtime(root, rel, (t += 10));
          all.push(rel);
        }
      }
    });
    after(() => removeTree(root));

    it('samples round-robin across top-level entries and spills the complete list in mtime order', async () => {
      const spill = memorySpill();
      const out = await glob({ pattern: '*' }, { folders: [folder(root)], search: { globMaxResults: 20 }, spill });
      const page = listed(out.text);
      assert.equal(page.length, 20);
      assert.deepEqual(out.value.paths, all);
      assert.deepEqual(page, [...page].sort((a, b) => all.indexOf(a) - all.indexOf(b)), 'the page keeps mtime order');
      const perGroup = (prefix: string) => page.filter((p) => p.startsWith(prefix)).length;
      // Eight entries (big, mid, small, top0…top4): a first round takes one of each, four more rounds one
      // each of the three directories.
      assert.deepEqual([perGroup('big/'), perGroup('mid/'), perGroup('small/'), perGroup('top')], [5, 5, 5, 5]);
      assert.match(out.text, /\[80 more files not shown\. This page samples 20 of the 100 files round-robin across the entries directly under the workspace folder \(oldest first within each\) and reaches all 8 entries\. The complete result is saved at untitled:Spill-1\. Open that document to read every result\.\]\nPaths are relative to /);
      assert.equal(spill.texts[0], `Scout glob "*": 100 files, complete result, 104 lines\n\n${all.join('\n')}\n\nPaths are relative to ${root}.`);
      assert.deepEqual(out.spill, { uri: 'untitled:Spill-1', hint: 'Open that document to read every result.' });
      assert.deepEqual(out.summary, { files: 100, truncated: true });
    });

    it('tells the model to narrow path when the page cannot reach every entry', async () => {
      const out = await glob({ pattern: '*' }, { folders: [folder(root)], search: { globMaxResults: 6 }, spill: memorySpill() });
      assert.match(out.text, /and reaches 6 of those 8 entries; set path to one entry to list all of its files\./);
    });

    it('keeps the plain footer when the sample is the head (one group)', async () => {
      const out = await glob({ pattern: '*', path: 'big' }, { folders: [folder(root)], search: { globMaxResults: 10 }, spill: memorySpill() });
      assert.deepEqual(listed(out.text), all.filter((p) => p.startsWith('big/')).slice(0, 10));
      assert.match(out.text, /\[50 more files not shown: these are the 10 least recently modified of 60\. The complete result is saved at untitled:Spill-1\./);
    });

    it('shows the modification-time head with sampling off', async () => {
      const out = await glob({ pattern: '*' }, { folders: [folder(root)], search: { globMaxResults: 20, sampleOverCapGlobResults: false }, spill: memorySpill() });
      assert.deepEqual(listed(out.text), all.slice(0, 20));
      assert.match(out.text, /\[80 more files not shown: these are the 20 least recently modified of 100\./);
    });

    it('keeps the inline page and says so when the spill fails or there is none', async () => {
      const env = searchEnv({ folders: [folder(root)], search: { globMaxResults: 20 }, spill: failingSpill });
      const failed = await globTool.run({ pattern: '*' }, env);
      assert.equal(listed(failed.text).length, 20);
      assert.match(failed.text, /The complete result could not be saved; narrow the search to see the rest\.\]/);
      assert.equal(failed.spill, undefined);
      assert.match(env.warnings.join('\n'), /disk full/);
      const none = await glob({ pattern: '*' }, { folders: [folder(root)], search: { globMaxResults: 20 } });
      assert.match(none.text, /The complete result could not be saved/);
      assert.deepEqual(none.value.paths, all, 'the value stays complete');
    });
  });

  describe('over the cap with everything under one folder', () => {
    let root: string;
    before(() => {
      root = makeTree({});
      let t = 1_700_000_000;
      // src/m0 holds the 20 oldest files, then src/m1 the next 20, and so on: the head is all src/m0.
      for (let m = 0; m < 10; m++) {
        for (let i = 0; i < 20; i++) {
          const rel = `packages/app/src/m${m}/f${String(i).padStart(2, '0')}.ts`;
          mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
          writeFileSync(path.join(root, rel), 'x');
          setMtime(root, rel, (t += 10));
        }
      }
    });
    after(() => removeTree(root));

    it('samples across the first folder that branches, says where, and gives the panel the same page', async () => {
      const out = await glob({ pattern: '*.ts' }, { folders: [folder(root)], search: { globMaxResults: 100 }, spill: memorySpill() });
      const page = listed(out.text);
      assert.equal(page.length, 100);
      for (let m = 0; m < 10; m++) assert.equal(page.filter((p) => p.startsWith(`packages/app/src/m${m}/`)).length, 10, `m${m}`);
      assert.match(out.text, /\[100 more files not shown\. This page samples 100 of the 200 files round-robin across the entries directly under "packages\/app\/src" \(oldest first within each\) and reaches all 10 entries\./);
      assert.deepEqual(out.value.page, page);
    });

    it('does the same under a path, and keeps the head when the list does not branch at all', async () => {
      const under = await glob({ pattern: '*.ts', path: 'packages' }, { folders: [folder(root)], search: { globMaxResults: 10 }, spill: memorySpill() });
      assert.match(under.text, /round-robin across the entries directly under "packages\/app\/src"/);
      const one = await glob({ pattern: '*.ts', path: 'packages/app/src/m3' }, { folders: [folder(root)], search: { globMaxResults: 5 }, spill: memorySpill() });
      assert.match(one.text, /\[15 more files not shown: these are the 5 least recently modified of 20\./);
    });
  });

  it('runs a glob with 32 levels of braces, the most accepted, through rg', async () => {
    const root = makeTree({ 'b.txt': 'x', 'a.txt': 'x' });
    try {
      const out = await glob({ pattern: `${'{a,'.repeat(32)}b${'}'.repeat(32)}.txt` }, { folders: [folder(root)] });
      assert.deepEqual([...out.value.paths].sort(), ['a.txt', 'b.txt']);
    } finally {
      removeTree(root);
    }
  });
});
