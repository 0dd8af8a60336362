import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isToolError, type ToolErrorCode } from '../../../src/core/errors';
import { grepTool, type GrepValue } from '../../../src/core/search/grep';
import { countOf, partsAdvice, readingParts } from '../../../src/core/spill';
import type { ToolOutput } from '../../../src/core/tool';
import { processesUnder } from '../../helpers/processes';
import { failingSpill, folder, memorySpill, RG_PATH, searchEnv, type SearchEnvOptions } from '../../helpers/searchEnv';
import { makeTree, removeTree, SLOW_PATTERN, writeSlowCorpus } from '../../helpers/tree';

function grep(input: unknown, options: SearchEnvOptions): Promise<ToolOutput<GrepValue>> {
  const env = searchEnv(options);
  return grepTool.run(grepTool.parse(input, env.config), env);
}

async function grepError(input: unknown, options: SearchEnvOptions): Promise<{ code: ToolErrorCode; message: string }> {
  try {
    await grep(input, options);
  } catch (e) {
    assert.ok(isToolError(e), String(e));
    return { code: e.code, message: e.message };
  }
  assert.fail('expected a ToolError');
}

const files = (out: ToolOutput<GrepValue>) => [...new Set(out.value.matches.map((m) => m.path))];

/**
 * Writes `bin/rg-split`, which runs the real rg and then prints the match holding "needle 3" after every other
 * message, so that file's matches come in two parts; returns its path.
 */
function writeSplittingRg(bin: string): string {
  const wrapper = path.join(bin, 'rg-split');
  writeFileSync(
    wrapper,
    [
      `#!${process.execPath}`,
      "const { spawnSync } = require('node:child_process');",
      `const r = spawnSync(${JSON.stringify(RG_PATH)}, process.argv.slice(2), { encoding: 'utf8', maxBuffer: 1 << 26 });`,
      "const lines = r.stdout.split('\\n').filter(Boolean);",
      "const i = lines.findIndex((l) => l.includes('needle 3'));",
      'const moved = lines.splice(i, 1);',
      "process.stdout.write([...lines, ...moved].join('\\n') + '\\n');",
      // exitCode, not exit(): a large write to a pipe finishes after the call returns.
      'process.exitCode = r.status ?? 2;',
    ].join('\n'),
    { mode: 0o755 },
  );
  return wrapper;
}

describe('grep tool', () => {
  let root: string;
  let outside: string;
  const longLine = `${'a'.repeat(100_000)}needle${'b'.repeat(99_994)}`;
  const badName = Buffer.from([0x62, 0x61, 0x64, 0xff, 0x2e, 0x74, 0x78, 0x74]);

  before(() => {
    outside = makeTree({ 'secret.txt': 'needle outside\n' });
    root = makeTree(
      {
        '.git/HEAD': 'ref: refs/heads/main\n',
        '.gitignore': 'ignored/\n',
        'src/b.ts': 'const needle = 1;\nother\nneedle(); needle();\n',
        'src/a.ts': 'export const x = "needle";\n',
        'crlf.txt': 'windows needle\r\nnext\r\n',
        'multi.txt': 'héllo wörld 日本語 needle\n',
        'long.txt': `${longLine}\n`,
        'nul.bin': 'aaa\0bbb needle\n',
        '.hidden/h.txt': 'needle in a hidden file\n',
        'ignored/i.txt': 'needle in an ignored file\n',
        '-dir/x.txt': 'value -1 here\n--pre=x flag-like\n$(touch PWNED)\n',
        'app/(auth)/users/[id]/page.tsx': 'export default function Page() { return "needle"; }\n',
        'loop': { symlink: '.' },
        'out': { symlink: outside },
      },
      [
        [badName, 'needle in a file with a non-UTF-8 name\n'],
        [Buffer.from('latin1.txt'), Buffer.from('caf\xe9 needle\n', 'latin1')],
      ],
    );
  });
  after(() => {
    removeTree(root);
    removeTree(outside);
  });
  afterEach(() => assert.deepEqual(processesUnder(root), [], 'no rg left running'));

  it('groups Line N rows under each file, files in path order, and states the workdir', async () => {
    const out = await grep({ pattern: 'needle', include: '*.ts' }, { folders: [folder(root)] });
    assert.equal(out.text, ['src/a.ts', 'Line 1: export const x = "needle";', '', 'src/b.ts', 'Line 1: const needle = 1;', 'Line 3: needle(); needle();', '', `Paths are relative to ${root}.`].join('\n'));
    assert.deepEqual(out.value.matches[2], { path: 'src/b.ts', lineNumber: 3, line: 'needle(); needle();', submatches: [{ start: 0, end: 6 }, { start: 10, end: 16 }] });
    assert.deepEqual(out.summary, { matches: 3, files: 2, truncated: false });
  });

  it('skips hidden, ignored and binary files while walking, but searches them when named as path', async () => {
    const walked = files(await grep({ pattern: 'needle' }, { folders: [folder(root)] }));
    for (const skipped of ['.hidden/h.txt', 'ignored/i.txt', 'nul.bin']) assert.ok(!walked.includes(skipped), `${skipped} skipped`);
    assert.deepEqual(files(await grep({ pattern: 'needle', path: '.hidden' }, { folders: [folder(root)] })), ['.hidden/h.txt']);
    assert.deepEqual(files(await grep({ pattern: 'needle', path: 'ignored' }, { folders: [folder(root)] })), ['ignored/i.txt']);
    const nul = await grep({ pattern: 'needle', path: 'nul.bin' }, { folders: [folder(root)] });
    assert.equal(nul.text.split('\n')[1], 'Line 1: aaa\u2400bbb needle');
  });

  it('returns exactly "No matches found" for an empty result', async () => {
    const out = await grep({ pattern: 'absent-token' }, { folders: [folder(root)] });
    assert.equal(out.text, 'No matches found');
    assert.deepEqual(out.summary, { matches: 0, files: 0, truncated: false });
  });

  it('strips CR/LF and reports byte offsets after multibyte text', async () => {
    const crlf = await grep({ pattern: 'windows', path: 'crlf.txt' }, { folders: [folder(root)] });
    assert.equal(crlf.value.matches[0]!.line, 'windows needle');
    assert.match(crlf.text, /^crlf\.txt\nLine 1: windows needle\n/);
    const multi = await grep({ pattern: 'needle', path: 'multi.txt' }, { folders: [folder(root)] });
    const start = Buffer.byteLength('héllo wörld 日本語 ');
    assert.deepEqual(multi.value.matches[0]!.submatches, [{ start, end: start + 6 }]);
  });

  it('shows a window around a match in the middle of a 200,000-character line', async () => {
    const out = await grep({ pattern: 'needle', path: 'long.txt' }, { folders: [folder(root)] });
    const row = out.text.split('\n')[1]!;
    assert.match(row, /^Line 1: …a+needleb+… \(line truncated\)$/);
    assert.ok(Buffer.byteLength(row) < 2000 + 40);
    assert.equal(out.value.matches[0]!.line, longLine, 'the value keeps the whole line');
  });

  it('keeps going past a non-UTF-8 file name and line: lossy text and exact bytes in the value, the name quoted with its raw byte', async () => {
    const out = await grep({ pattern: 'needle' }, { folders: [folder(root)] });
    const bad = out.value.matches.find((m) => m.pathBase64 !== undefined)!;
    assert.equal(bad.path, 'bad\uFFFD.txt');
    assert.deepEqual(Buffer.from(bad.pathBase64!, 'base64'), badName);
    const latin1 = out.value.matches.find((m) => m.path === 'latin1.txt')!;
    assert.equal(latin1.line, 'caf\uFFFD needle');
    assert.deepEqual(Buffer.from(latin1.lineBase64!, 'base64'), Buffer.from('caf\xe9 needle\n', 'latin1'));
    assert.ok(out.text.includes('\n"bad\\xff.txt" (not UTF-8: each \\xHH is a raw byte)\nLine 1: needle in a file'), out.text);
    assert.ok(files(out).includes('src/a.ts'), 'the rest of the search is intact');
  });

  it('lists files whose names decode to the same text in the order of their bytes, whatever order rg finished them in', async () => {
    // Three names that are not UTF-8 and all read "twin\uFFFD.txt"; rg searches them on parallel threads.
    const twins = [0xff, 0xc3, 0xfe].map((b) => Buffer.concat([Buffer.from('twins/twin'), Buffer.from([b]), Buffer.from('.txt')]));
    const dir = makeTree({}, twins.map((name) => [name, 'needle\n'.repeat(50)] as const));
    try {
      for (let run = 0; run < 5; run++) {
        const out = await grep({ pattern: 'needle' }, { folders: [folder(dir)], search: { grepMaxMatches: 1 }, spill: memorySpill() });
        const order = [...new Set(out.value.matches.map((m) => m.pathBase64!))].map((b64) => Buffer.from(b64, 'base64')[10]);
        assert.deepEqual(order, [0xc3, 0xfe, 0xff]);
      }
    } finally {
      removeTree(dir);
    }
  });

  it('joins one file\'s matches that come in two parts (rg never prints them so; a wrapper around it does)', async () => {
    const dir = makeTree({ 'a.txt': 'needle 1\nneedle 2\nneedle 3\n', 'b.txt': 'needle b\n' });
    const bin = makeTree({});
    const wrapper = writeSplittingRg(bin);
    try {
      const out = await grep({ pattern: 'needle' }, { folders: [folder(dir)], ripgrepPath: wrapper });
      assert.equal(out.text, ['a.txt', 'Line 1: needle 1', 'Line 2: needle 2', 'Line 3: needle 3', '', 'b.txt', 'Line 1: needle b', '', `Paths are relative to ${dir}.`].join('\n'));
      assert.deepEqual(out.summary, { matches: 4, files: 2, truncated: false });
    } finally {
      removeTree(dir);
      removeTree(bin);
    }
  });

  it('lists more than a thousand files in path order, and joins a file printed in two parts far apart (the files are sorted in runs while rg runs)', async () => {
    // 2,100 files in an order that is not their paths' order, beyond two runs of sorted files; a.txt's last
    // match comes after every other file's.
    const names = Array.from({ length: 2100 }, (_, i) => `f/${String((i * 7919) % 2100).padStart(4, '0')}.txt`);
    const dir = makeTree({ 'a.txt': 'needle 1\nneedle 2\nneedle 3\n', ...Object.fromEntries(names.map((n) => [n, 'needle\n'])) });
    const bin = makeTree({});
    const wrapper = writeSplittingRg(bin);
    try {
      const out = await grep({ pattern: 'needle' }, { folders: [folder(dir)], ripgrepPath: wrapper, search: { grepMaxMatches: 5000 } });
      const listed = files(out);
      assert.deepEqual(listed, ['a.txt', ...[...names].sort()]);
      assert.deepEqual(out.value.matches.slice(0, 3).map((m) => m.line), ['needle 1', 'needle 2', 'needle 3']);
      assert.ok(out.text.startsWith('a.txt\nLine 1: needle 1\nLine 2: needle 2\nLine 3: needle 3\n\nf/0000.txt\nLine 1: needle\n\nf/0001.txt\n'));
      assert.deepEqual(out.summary, { matches: 2103, files: 2101, truncated: false });
    } finally {
      removeTree(dir);
      removeTree(bin);
    }
  });

  it('matches "$" at the end of a CRLF line, with the right preview and offsets; "\\r$" still finds CRLF lines', async () => {
    const crlf = makeTree({ 'win.ts': 'const a = 1;\r\nhere;\r\nx = "日本";\r\n', 'unix.ts': 'here;\nlast\n', 'mixed.txt': 'lone\rcr;\r\n' });
    try {
      const out = await grep({ pattern: 'here;$' }, { folders: [folder(crlf)] });
      assert.deepEqual(out.value.matches.map((m) => [m.path, m.lineNumber, m.line, m.submatches]), [
        ['unix.ts', 1, 'here;', [{ start: 0, end: 5 }]],
        ['win.ts', 2, 'here;', [{ start: 0, end: 5 }]],
      ]);
      assert.match(out.text, /\nwin\.ts\nLine 2: here;\n/);
      const utf8 = await grep({ pattern: '"日本";$' }, { folders: [folder(crlf)] });
      assert.deepEqual(utf8.value.matches.map((m) => [m.lineNumber, m.submatches]), [[3, [{ start: 4, end: 13 }]]]);
      const word = await grep({ pattern: '\\w+;$' }, { folders: [folder(crlf)] });
      assert.deepEqual(word.value.matches.map((m) => `${m.path}:${m.lineNumber}`).sort(), ['mixed.txt:1', 'unix.ts:1', 'win.ts:1', 'win.ts:2']);
      const cr = await grep({ pattern: '\\r$' }, { folders: [folder(crlf)] });
      assert.deepEqual(cr.value.matches.map((m) => `${m.path}:${m.lineNumber}`).sort(), ['mixed.txt:1', 'win.ts:1', 'win.ts:2', 'win.ts:3']);
      assert.equal(cr.value.matches.find((m) => m.path === 'mixed.txt')!.line, 'lone\rcr;', 'a lone CR stays in the line');
      assert.match(cr.text, /\nLine 1: lone\u240dcr;\n/);
    } finally {
      removeTree(crlf);
    }
  });

  it('reports a pattern ending in a lone backslash as written, not as the unclosed group of rg\'s wrapper', async () => {
    for (const pattern of ['\\', 'a\\', 'a\\\\\\']) {
      const error = await grepError({ pattern }, { folders: [folder(root)] });
      assert.equal(error.code, 'SEARCH_INVALID_PATTERN');
      // Searched as literal text too (a trailing backslash is text in a file name or a Windows path).
      assert.equal(error.message, `pattern ${JSON.stringify(pattern)} ends with a backslash that escapes nothing. Write \\\\ for a literal backslash, or remove it, and call again. (Searched as literal text, it matches nothing either.)`);
    }
    assert.equal((await grep({ pattern: 'a\\\\' }, { folders: [folder(root)] })).text, 'No matches found', 'an escaped backslash is fine');
  });

  it('maps an invalid regex to SEARCH_INVALID_PATTERN, never to no matches', async () => {
    const error = await grepError({ pattern: '[' }, { folders: [folder(root)] });
    assert.equal(error.code, 'SEARCH_INVALID_PATTERN');
    assert.match(error.message, /unclosed character class/);
    assert.equal((await grepError({ pattern: 'x', include: '*.{ts' }, { folders: [folder(root)] })).code, 'SEARCH_INVALID_PATTERN');
  });

  it('maps a look-around pattern PCRE2 cannot compile to SEARCH_INVALID_PATTERN with the fix, not to a ripgrep failure', async () => {
    for (const [pattern, said] of [['(?<=fo+)o', /lookbehind assertion is not limited/], ['(?<=x', /missing closing parenthesis/]] as const) {
      const error = await grepError({ pattern }, { folders: [folder(root)] });
      assert.equal(error.code, 'SEARCH_INVALID_PATTERN', error.message);
      assert.match(error.message, said);
      assert.match(error.message, /PCRE2's for a pattern with look-around or backreferences\) and call again/);
      assert.doesNotMatch(error.message, /not supported|another rg binary/);
    }
  });

  it('treats leading-dash and flag-like patterns as regexes, and -dir as a path', async () => {
    const minus = await grep({ pattern: '-1', path: '-dir' }, { folders: [folder(root)] });
    assert.equal(minus.text.split('\n').slice(0, 2).join('\n'), '-dir/x.txt\nLine 1: value -1 here');
    const pre = await grep({ pattern: '--pre=x' }, { folders: [folder(root)] });
    assert.deepEqual(pre.value.matches.map((m) => [m.path, m.lineNumber]), [['-dir/x.txt', 2]]);
  });

  it('runs no shell: $(touch PWNED) in pattern, include or path creates nothing', async () => {
    const literal = await grep({ pattern: '\\$\\(touch PWNED\\)' }, { folders: [folder(root)] });
    assert.deepEqual(literal.value.matches.map((m) => m.line), ['$(touch PWNED)']);
    await grep({ pattern: '$(touch PWNED)', include: '$(touch PWNED)' }, { folders: [folder(root)] });
    await grepError({ pattern: 'x', path: '$(touch PWNED)' }, { folders: [folder(root)] });
    assert.equal(existsSync(path.join(root, 'PWNED')), false);
    assert.equal(existsSync(path.join(process.cwd(), 'PWNED')), false);
  });

  it('takes a path with glob syntax literally', async () => {
    const out = await grep({ pattern: 'needle', path: 'app/(auth)/users/[id]/page.tsx' }, { folders: [folder(root)] });
    assert.deepEqual(files(out), ['app/(auth)/users/[id]/page.tsx']);
  });

  it('finishes despite a symlink loop in the tree, and follows a path through it', async () => {
    assert.ok((await grep({ pattern: 'needle' }, { folders: [folder(root)] })).value.matches.length > 0);
    assert.deepEqual(files(await grep({ pattern: 'needle', path: 'loop/loop/src' }, { folders: [folder(root)] })), ['src/a.ts', 'src/b.ts']);
  });

  it('refuses a symlink out of the workspace unless allowed', async () => {
    assert.equal((await grepError({ pattern: 'needle', path: 'out' }, { folders: [folder(root)] })).code, 'PATH_OUTSIDE_WORKSPACE');
    assert.equal((await grepError({ pattern: 'needle', path: '../' }, { folders: [folder(root)] })).code, 'PATH_OUTSIDE_WORKSPACE');
    const allowed = await grep({ pattern: 'needle', path: 'out' }, { folders: [folder(root)], search: { allowPathsOutsideWorkspace: true } });
    assert.deepEqual(files(allowed), [`${path.relative(root, outside)}/secret.txt`]);
  });

  it('fails NO_WORKSPACE with no folder open', async () => {
    assert.equal((await grepError({ pattern: 'x' }, { folders: [] })).code, 'NO_WORKSPACE');
  });

  it('refuses a path that is neither a file nor a directory (a FIFO rg would block on)', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const error = await grepError({ pattern: 'x', path: 'pipe' }, { folders: [folder(root)] });
    assert.equal(error.code, 'INVALID_ARGUMENT');
    assert.match(error.message, /neither a regular file nor a directory/);
  });

  it('fails SEARCH_RAW_OUTPUT_OVERFLOW past rawOutputMaxBytes', async () => {
    // One file whose every match line alone is far past the cap, so the overflow cannot depend on which file
    // rg happens to print first.
    const dir = makeTree({ 'big.txt': `${'needle '.repeat(400)}\n`.repeat(5) });
    try {
      const error = await grepError({ pattern: 'needle' }, { folders: [folder(dir)], search: { rawOutputMaxBytes: 1000 } });
      assert.equal(error.code, 'SEARCH_RAW_OUTPUT_OVERFLOW');
    } finally {
      removeTree(dir);
    }
  });

  describe('a carriage return inside a matched line', () => {
    let crRoot: string;
    before(() => (crRoot = makeTree({ 'a.txt': 'MARK a\rLine 99: forged\nMARK b\n' })));
    after(() => removeTree(crRoot));

    it('cannot forge a row in the inline page or the spill text; the value keeps the exact line', async () => {
      const spill = memorySpill();
      const out = await grep({ pattern: 'MARK' }, { folders: [folder(crRoot)], search: { grepMaxMatches: 1 }, spill });
      assert.equal(out.text.split('\n').slice(0, 2).join('\n'), 'a.txt\nLine 1: MARK a\u240DLine 99: forged');
      assert.equal(spill.texts[0]!.split('\n').slice(0, 5).join('\n'), 'Scout grep "MARK": 2 matches in 1 file, complete result, 7 lines\n\na.txt\nLine 1: MARK a\u240DLine 99: forged\nLine 2: MARK b');
      for (const text of [out.text, spill.texts[0]!]) {
        assert.doesNotMatch(text, /\r/);
        assert.equal(text.split('\n').filter((l) => l.startsWith('Line 99')).length, 0);
      }
      assert.equal(out.value.matches[0]!.line, 'MARK a\rLine 99: forged');
    });
  });

  it('echoes at most 200 characters of a 10,000-character invalid regex; look-around runs on PCRE2 instead of failing', async () => {
    const pattern = `${'a'.repeat(9_990)}(b`;
    const error = await grepError({ pattern }, { folders: [folder(root)] });
    assert.equal(error.code, 'SEARCH_INVALID_PATTERN');
    assert.ok(error.message.startsWith(`ripgrep rejected pattern "${'a'.repeat(200)}"… as a regular expression:\n`), error.message.slice(0, 300));
    assert.match(error.message, /error: unclosed group/);
    assert.ok(error.message.length < 1_500, `${error.message.length} characters`);
    const lookAround = await grep({ pattern: 'a(?=b)' }, { folders: [folder(root)] });
    assert.match(lookAround.text, /^No matches found\n\n\[pattern "a\(\?=b\)" uses look-around or a backreference, so it ran on ripgrep's PCRE2 engine \(--pcre2\)\.\]\n/);
  });

  describe('over the cap', () => {
    const matches = Array.from({ length: 12 }, (_, i) => `needle ${i}`);
    let capRoot: string;
    before(() => (capRoot = makeTree({ 'a.txt': `${matches.slice(0, 4).join('\n')}\n`, 'b.txt': `${matches.slice(4).join('\n')}\n` })));
    after(() => removeTree(capRoot));

    it('shows the first matches, counts the rest and spills the complete result', async () => {
      const spill = memorySpill();
      const out = await grep({ pattern: 'needle' }, { folders: [folder(capRoot)], search: { grepMaxMatches: 5 }, spill });
      assert.equal(
        out.text,
        [
          'a.txt', 'Line 1: needle 0', 'Line 2: needle 1', 'Line 3: needle 2', 'Line 4: needle 3', '', 'b.txt', 'Line 1: needle 4', '',
          '[7 more matches not shown: these are the first 5 of 12 matches in 2 files. The complete result is saved at untitled:Spill-1. Open that document to read every result.]',
          `Paths are relative to ${capRoot}.`,
        ].join('\n'),
      );
      assert.equal(spill.texts.length, 1);
      assert.equal(spill.texts[0]!.split('\n').filter((l) => l.startsWith('Line ')).length, 12);
      assert.ok(spill.texts[0]!.endsWith(`Line 8: needle 11\n\nPaths are relative to ${capRoot}.`));
      assert.equal(out.value.matches.length, 12);
      assert.deepEqual(out.summary, { matches: 12, files: 2, truncated: true });
    });

    it("gives the saved text's own length and reading parts, counted from the files' rows, not by scanning it", async () => {
      // Many files, rows of every width (long ones cut), and files whose rows are changed by control pictures.
      const files: Record<string, string> = {};
      for (let i = 0; i < 400; i++) {
        const rows = Array.from({ length: 1 + (i % 7) }, (_, j) => `needle ${'w'.repeat((i * 37 + j * 101) % 400)}${i % 50 === 0 ? '\u001b[31m' : ''}`);
        files[`dir${i % 9}/file-${String(i).padStart(3, '0')}.txt`] = `${rows.join('\n')}\n`;
      }
      const root = makeTree(files);
      try {
        const spill = memorySpill();
        const out = await grep({ pattern: 'needle' }, { folders: [folder(root)], search: { grepMaxMatches: 5 }, spill });
        const saved = spill.texts[0]!;
        const heading = saved.slice(0, saved.indexOf('\n'));
        assert.equal(heading, `Scout grep "needle": ${countOf(out.value.matches.length, 'match', 'matches')} in 400 files, complete result, ${countOf(saved.split('\n').length, 'line')}`);
        // Planned as the text itself reads, with the heading counted as saveCompleteResult counts it.
        const plan = readingParts([saved.slice(heading.length + 1)], [heading.replace(/[\d,]+ lines$/, '0 lines').length + 16]);
        assert.ok(plan.partLines < 1_500, 'wide rows make parts shorter than 1,500 lines');
        assert.ok(out.text.includes(partsAdvice(plan)), out.text.slice(-600));
      } finally {
        removeTree(root);
      }
    });

    it('keeps the page and says the result could not be saved when the spill fails', async () => {
      const out = await grep({ pattern: 'needle' }, { folders: [folder(capRoot)], search: { grepMaxMatches: 5 }, spill: failingSpill });
      assert.match(out.text, /\[7 more matches not shown: these are the first 5 of 12 matches in 2 files\. The complete result could not be saved; narrow the search to see the rest\.\]/);
      assert.equal(out.spill, undefined);
    });
  });

  describe('in a multi-root workspace', () => {
    it('searches the folder a path starts with, relative to that folder', async () => {
      const api = makeTree({ 'src/server.ts': 'needle api\n' });
      const web = makeTree({ 'src/client.ts': 'needle web\n' });
      try {
        const folders = [folder(web, 'web'), folder(api, 'api')];
        const out = await grep({ pattern: 'needle', path: 'api/src' }, { folders });
        assert.equal(out.text, `src/server.ts\nLine 1: needle api\n\nPaths are relative to ${api} (workspace folder "api").`);
        assert.deepEqual(files(await grep({ pattern: 'needle', path: 'src' }, { folders })), ['src/client.ts']);
      } finally {
        removeTree(api);
        removeTree(web);
      }
    });
  });
});

describe('grep tool: timeout and cancellation on a slow search', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = makeTree({});
    writeSlowCorpus(root, 'big', 40, 500_000);
  });
  after(() => removeTree(root));

  it('aborts at timeoutMs with SEARCH_ABORTED and leaves no rg process', async () => {
    const error = await grepError({ pattern: SLOW_PATTERN }, { folders: [folder(root)], search: { timeoutMs: 300 } });
    assert.equal(error.code, 'SEARCH_ABORTED');
    assert.match(error.message, /did not finish within 300 ms/);
    assert.deepEqual(processesUnder(root), []);
  });

  it('aborts when the caller cancels, and leaves no rg process', async () => {
    const controller = new AbortController();
    const running = grepError({ pattern: SLOW_PATTERN }, { folders: [folder(root)], signal: controller.signal });
    // Wait for rg to start, however long a busy machine takes (bounded by rounds, and by the test's timeout).
    for (let i = 0; i < 500 && processesUnder(root).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(processesUnder(root).length, 1, 'rg is running');
    controller.abort();
    const error = await running;
    assert.equal(error.code, 'SEARCH_ABORTED');
    assert.match(error.message, /cancelled/);
    assert.deepEqual(processesUnder(root), []);
  });
});
