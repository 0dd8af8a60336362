/**
 * Tester finding 1: big but ordinary searches used to fail with SEARCH_RAW_OUTPUT_OVERFLOW and lose
 * everything. Now rg is stopped at `scout.search.rawOutputMaxBytes` and what it printed is a truncated result
 * (a documented deviation from seed 000); the error stays only when nothing usable was read.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createGlobTool } from '../../../src/core/search/glob';
import { createGrepTool } from '../../../src/core/search/grep';
import { folder, memorySpill, RG_PATH, runTool, toolFailure } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

const budget = { maxFiles: 1000, timeMs: 600_000, maxRetryChecks: 16, maxListings: 4 };
const globTool = createGlobTool(budget);
const grepTool = createGrepTool(budget);

const NOTE = /\n\[ripgrep printed more than ([\d,]+) bytes \(setting scout\.search\.rawOutputMaxBytes\), so Scout stopped it there and this result is incomplete: it holds (.*), and more exist\. To see everything, narrow the search: (.*)\.\]\n/;

describe('searches past the raw-output cap return what was read', function () {
  this.timeout(120_000);

  describe('grep "import" over 2,000 files with 100,000 import lines, at the default cap', () => {
    let root: string;
    before(() => {
      root = makeTree({ '.gitignore': 'node_modules/\n' });
      const lines = Array.from({ length: 50 }, (_, i) => `import { thing${i} } from "../lib/module-number-${i}/index-of-the-module";`).join('\n');
      for (let i = 0; i < 2000; i++) {
        const dir = path.join(root, 'packages', `pkg${i % 40}`, 'src');
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, `file${i}.ts`), `${lines}\nexport const x${i} = 1;\n`);
      }
    });
    after(() => removeTree(root));

    it('is a truncated result: the first page, a note saying how much was read and what to narrow, the rest saved', async () => {
      const spill = memorySpill();
      const out = await runTool(grepTool, { pattern: 'import' }, { folders: [folder(root)], spill });
      assert.equal(out.value.incomplete, true);
      assert.equal(out.summary.truncated, true);
      assert.ok(out.value.matches.length > 250 && out.value.matches.length < 100_000, String(out.value.matches.length));
      const note = NOTE.exec(out.text);
      assert.ok(note, out.text.slice(-1500));
      assert.equal(note[1], '20,000,000');
      assert.match(note[2]!, /^the [\d,]+ matches in [\d,]+ files ripgrep printed by then \("packages\/pkg\d+\/src\/file\d+\.ts", the file it was printing then, may miss some of its matches; the others hold all of theirs\)$/);
      assert.equal(note[3], 'a smaller path, an include glob such as "*.ts", or a more specific pattern');
      assert.match(out.text, /\[[\d,]+ more matches not shown: these are the first 250 of [\d,]+ matches/);
      assert.equal(spill.texts.length, 1);
      assert.ok(NOTE.test(spill.texts[0]!), 'the saved result carries the note too');
      assert.match(spill.texts[0]!, /^Scout grep "import": [\d,]+ matches in [\d,]+ files, incomplete result \(all Scout read\), [\d,]+ lines\n\n/, 'and does not call itself complete');
      assert.match(out.text, /\. Everything Scout read is saved at untitled:Spill-1\. /);
      // Every match kept is a whole, real line.
      for (const m of out.value.matches.slice(-50)) assert.match(m.line, /^import \{ thing\d+ \} from/);
    });
  });

  describe('grep cut at the cap in the middle of a file that sorts anywhere in the list', () => {
    let root: string;
    before(() => {
      const lines = Array.from({ length: 50 }, (_, i) => `match line ${i}`).join('\n');
      root = makeTree(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, `${lines}\n`])));
    });
    after(() => removeTree(root));

    it('names the one file that may miss matches, in the note and the value; every other file is whole', async () => {
      for (const rawOutputMaxBytes of [30_000, 100_000]) {
        const out = await runTool(grepTool, { pattern: 'match' }, { folders: [folder(root)], search: { rawOutputMaxBytes }, spill: memorySpill() });
        assert.equal(out.value.incomplete, true);
        const perFile = new Map<string, number>();
        for (const m of out.value.matches) perFile.set(m.path, (perFile.get(m.path) ?? 0) + 1);
        const short = [...perFile].filter(([, n]) => n < 50).map(([p]) => p);
        assert.ok(short.length <= 1, `at most one file is partial: ${short.join(', ')}`);
        // A file rg had not finished may have all its matches even so; one it had is never named.
        const partial = out.value.partialFile?.path;
        if (short.length) assert.equal(partial, short[0], 'the partial file is named');
        const held = NOTE.exec(out.text)![2]!;
        if (partial === undefined) assert.match(held, /\(each holds all of its matches\)$/);
        else {
          assert.ok(perFile.has(partial), `the value names a listed file: ${partial}`);
          assert.match(held, new RegExp(`\\("${partial.replace('.', '\\.')}", the file it was printing then, may miss some of its matches; the others hold all of theirs\\)$`));
        }
      }
    });
  });

  describe('grep cut at the cap in a file whose name reads like the note', () => {
    const name = 'b.txt, the file it was printing then, may miss some of its matches; c.md';
    let root: string;
    before(() => (root = makeTree({ [name]: `${Array.from({ length: 400 }, (_, i) => `match line ${i}`).join('\n')}\n` })));
    after(() => removeTree(root));

    it('names it quoted, and gives its path in the value', async () => {
      const out = await runTool(grepTool, { pattern: 'match' }, { folders: [folder(root)], search: { rawOutputMaxBytes: 20_000 }, spill: memorySpill() });
      assert.deepEqual(out.value.partialFile, { path: name });
      assert.ok(NOTE.exec(out.text)![2]!.endsWith(`(${JSON.stringify(name)}, the file it was printing then, may miss some of its matches; the others hold all of theirs)`), out.text);
    });
  });

  describe('glob over a pnpm-shaped node_modules (glob lists ignored files by contract)', () => {
    let root: string;
    before(() => {
      root = makeTree({ '.gitignore': 'node_modules/\n', 'src/main.js': 'x' });
      for (let p = 0; p < 60; p++) {
        const pkg = path.join(root, 'node_modules/.pnpm', `package-number-${p}@1.${p}.0`, 'node_modules', `package-number-${p}`);
        for (const sub of ['lib', 'dist', 'esm']) {
          mkdirSync(path.join(pkg, sub), { recursive: true });
          for (let f = 0; f < 10; f++) writeFileSync(path.join(pkg, sub, `module-${f}.js`), 'x');
        }
      }
    });
    after(() => removeTree(root));

    it('lists what rg printed before the cap, oldest first, with the note, a sampled page and the list saved', async () => {
      const spill = memorySpill();
      const out = await runTool(globTool, { pattern: '**/*.js' }, { folders: [folder(root)], search: { rawOutputMaxBytes: 50_000 }, spill });
      assert.equal(out.value.incomplete, true);
      assert.equal(out.summary.truncated, true);
      assert.ok(out.value.paths.length > 100 && out.value.paths.length < 1801, String(out.value.paths.length));
      assert.ok(out.value.paths.every((p) => p.endsWith('.js')), 'no path cut in the middle');
      const note = NOTE.exec(out.text);
      assert.ok(note, out.text);
      assert.equal(note[2], `the ${out.value.paths.length.toLocaleString('en-US')} files ripgrep listed by then, the least recently modified`);
      assert.equal(note[3], 'a path, or a more specific pattern such as "src/**/*.js"');
      assert.ok(NOTE.test(spill.texts[0]!));
      const heading = `Scout glob "**/*.js": ${out.value.paths.length.toLocaleString('en-US')} files, incomplete result (all Scout read), ${spill.texts[0]!.split('\n').length.toLocaleString('en-US')} lines`;
      assert.equal(spill.texts[0]!.split('\n')[0], heading, 'the saved list does not call itself complete');
      assert.match(out.text, /\. Everything Scout read is saved at untitled:Spill-1\. /);
      assert.deepEqual(out.value.page, out.text.split('\n\n')[0]!.split('\n'), 'the panel page is the model page');
    });

    it('keeps SEARCH_RAW_OUTPUT_OVERFLOW when not one whole path was read', async () => {
      const error = await toolFailure(globTool, { pattern: '**/*.js', path: 'node_modules' }, { folders: [folder(root)], search: { rawOutputMaxBytes: 20 } });
      assert.equal(error.code, 'SEARCH_RAW_OUTPUT_OVERFLOW');
      assert.match(error.message, /more than 20 bytes of raw ripgrep output \(setting scout\.search\.rawOutputMaxBytes\)/);
    });
  });

  describe("Scout's own retry suggestion", () => {
    let root: string;
    before(() => {
      root = makeTree({ '.git/HEAD': 'ref: refs/heads/main\n', '.gitignore': 'node_modules/\n', 'src/a.ts': 'nothing here\n' });
      for (let p = 0; p < 300; p++) writeFileSync(path.join(mkdirSync(path.join(root, 'node_modules', `p${p}`), { recursive: true })!, 'index.js'), 'module.exports = "needle_nm";\n'.repeat(20));
    });
    after(() => removeTree(root));

    it('can be followed even when its search passes the cap: path "node_modules" gives a truncated result', async () => {
      const empty = await runTool(grepTool, { pattern: 'needle_nm' }, { folders: [folder(root)] });
      assert.match(empty.text, /call grep again with the same pattern, and path "node_modules" \(300 files, ignored\)/);
      const retry = await runTool(grepTool, { pattern: 'needle_nm', path: 'node_modules' }, { folders: [folder(root)], search: { rawOutputMaxBytes: 30_000 } });
      assert.equal(retry.value.incomplete, true);
      assert.ok(retry.value.matches.length > 0);
      assert.ok(NOTE.test(retry.text), retry.text);
    });

    it('never blames a file for the write rg was stopped in (EPIPE, ECONNRESET): 30 stopped runs, no unreadable path', async () => {
      for (let run = 0; run < 30; run++) {
        const cut = await runTool(grepTool, { pattern: 'needle_nm', path: 'node_modules' }, { folders: [folder(root)], search: { rawOutputMaxBytes: 30_000 } });
        assert.equal(cut.value.incomplete, true);
        assert.deepEqual([cut.value.unreadable, /could not be read/.test(cut.text)], [undefined, false], `run ${run}: ${cut.text.slice(-600)}`);
      }
    });

    it('keeps SEARCH_RAW_OUTPUT_OVERFLOW when not one match was read (one line longer than the cap)', async () => {
      writeFileSync(path.join(root, 'src/minified.js'), `var a="${'x'.repeat(5000)}needle_min";\n`);
      const error = await toolFailure(grepTool, { pattern: 'needle_min' }, { folders: [folder(root)], search: { rawOutputMaxBytes: 2000 } });
      assert.equal(error.code, 'SEARCH_RAW_OUTPUT_OVERFLOW');
    });
  });
});

describe('a single line longer than the raw-output cap', () => {
  let root: string;
  before(() => {
    // A minified file: one 50 KB line holding the pattern, so rg's one match message passes a 10,000-byte cap.
    root = makeTree({ 'dist/app.min.js': `var a="needle";${'x=1;'.repeat(12_500)}\n` });
  });
  after(() => removeTree(root));

  it('fails SEARCH_RAW_OUTPUT_OVERFLOW, naming the setting that raises the limit, since narrowing cannot help', async () => {
    const error = await toolFailure(grepTool, { pattern: 'needle' }, { folders: [folder(root)], search: { rawOutputMaxBytes: 10_000 } });
    assert.equal(error.code, 'SEARCH_RAW_OUTPUT_OVERFLOW');
    assert.match(error.message, /\(setting scout\.search\.rawOutputMaxBytes\)/);
    assert.match(error.message, /where a single line is longer than that .*, ask the user to raise the limit\./);
  });
});

describe('a cut inside ripgrep’s closing summary', () => {
  let root: string;
  let summaryAt: number;
  let lastEndAt: number;
  before(() => {
    root = makeTree({ 'a.txt': 'foo\nfoo\nbar\nfoo\n', 'b.txt': 'foo\nfoo\nbar\nfoo\n', 'c.txt': 'foo\nfoo\nbar\nfoo\n' });
    const out = execFileSync(RG_PATH, ['--no-config', '--json', '--regexp=foo', '--', '.'], { cwd: root, encoding: 'utf8' });
    summaryAt = out.lastIndexOf('{"data":{"elapsed_total"');
    lastEndAt = out.lastIndexOf('{"type":"end"');
    assert.ok(summaryAt > lastEndAt && lastEndAt > 0, 'rg printed end messages, then its summary');
  });
  after(() => removeTree(root));

  it('is a complete result: every match was read, so it does not say more exist', async () => {
    // The input that showed it: rg's output was 2,731 bytes and any cap from 2,430 to 2,730 cut only its summary.
    const out = await runTool(grepTool, { pattern: 'foo' }, { folders: [folder(root)], search: { rawOutputMaxBytes: summaryAt + 100 } });
    assert.equal(out.value.matches.length, 9);
    assert.equal(out.value.incomplete, undefined);
    assert.doesNotMatch(out.text, /incomplete|more exist/);
  });

  it('stays incomplete when the cut falls before the summary, where another file could follow', async () => {
    const out = await runTool(grepTool, { pattern: 'foo' }, { folders: [folder(root)], search: { rawOutputMaxBytes: lastEndAt + 10 } });
    assert.equal(out.value.incomplete, true);
    assert.match(out.text, /this result is incomplete/);
  });
});
