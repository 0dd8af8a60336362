import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { isToolError } from '../../../src/core/errors';
import { RgJsonReader, stripTerminator, type RgData, type RgSubmatch } from '../../../src/core/ripgrep/jsonStream';
import { RecordSplitter } from '../../../src/core/ripgrep/records';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

interface Read {
  path: RgData;
  line: string;
  lineNumber: number;
  submatches: readonly RgSubmatch[];
  lineBase64: string | undefined;
}

/** Feeds `chunks` to a fresh reader and returns what it handed on. */
function read(chunks: readonly Buffer[]): Read[] {
  const out: Read[] = [];
  const reader = new RgJsonReader((path, line, lineNumber, submatches, lineBase64) => out.push({ path: { ...path }, line, lineNumber, submatches, lineBase64 }));
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  assert.equal(reader.matches, out.length);
  return out;
}

/** The reference reading: JSON.parse of every match line, as rg documents the format. */
function reference(output: Buffer): Read[] {
  return output
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l))
    .filter((m) => m.type === 'match')
    .map(({ data }) => ({
      path: data.path.text !== undefined ? { text: data.path.text } : { bytes: data.path.bytes },
      line: stripTerminator(data.lines.text ?? Buffer.from(data.lines.bytes, 'base64').toString('utf8')),
      lineNumber: data.line_number,
      submatches: data.submatches.map((s: RgSubmatch) => ({ start: s.start, end: s.end })),
      lineBase64: data.lines.bytes,
    }));
}

describe('rg --json reader', () => {
  let root: string;
  let output: Buffer;

  before(() => {
    root = makeTree(
      {
        'multibyte.txt': 'héllo wörld 日本語 needle after multibyte\nplain needle\n',
        'crlf.txt': 'first needle line\r\nsecond needle\r\n',
        'escapes.txt': 'tab\there needle "quoted" back\\slash\nends with backslash n needle\\n\nctrl \u0001 needle\n',
        'noeol.txt': 'no newline at the end needle',
        'emoji.txt': '🙂🙂 needle 🙂 needle\n',
      },
      [
        [Buffer.from([0x62, 0x61, 0x64, 0xff, 0x2e, 0x74, 0x78, 0x74]), 'needle in a file with a non-UTF-8 name\n'],
        [Buffer.from('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x0a])],
      ],
    );
    const rg = spawnSync(RG_PATH, ['--no-config', '--json', '--sort=path', '--regexp=needle', '--', '.'], { cwd: root });
    assert.equal(rg.status, 0, rg.stderr.toString());
    output = rg.stdout;
  });
  after(() => removeTree(root));

  it('reads every match exactly as JSON.parse does', () => {
    const expected = reference(output);
    assert.equal(expected.length, 11);
    assert.deepEqual(read([output]), expected);
  });

  it('gives the same result for every split point, including inside UTF-8 characters and escapes', () => {
    const expected = read([output]);
    for (let cut = 1; cut < output.length; cut++) {
      assert.deepEqual(read([output.subarray(0, cut), output.subarray(cut)]), expected, `split at byte ${cut}`);
    }
  });

  it('gives the same result fed one byte at a time and in uneven chunks', () => {
    const expected = read([output]);
    assert.deepEqual(read([...output].map((b) => Buffer.from([b]))), expected);
    const chunks: Buffer[] = [];
    for (let i = 0, size = 1; i < output.length; i += size, size = (size * 7) % 97 + 1) chunks.push(output.subarray(i, i + size));
    assert.deepEqual(read(chunks), expected);
  });

  it('keeps byte offsets after multibyte text and strips CR/LF', () => {
    const all = read([output]);
    const multibyte = all.find((m) => m.path.text === './multibyte.txt' && m.lineNumber === 1)!;
    assert.equal(multibyte.line, 'héllo wörld 日本語 needle after multibyte');
    const start = Buffer.from('héllo wörld 日本語 ').length;
    assert.deepEqual(multibyte.submatches, [{ start, end: start + 6 }]);
    assert.notEqual(start, 'héllo wörld 日本語 '.length, 'a byte offset differs from a UTF-16 index here');
    const emoji = all.find((m) => m.path.text === './emoji.txt')!;
    assert.deepEqual(emoji.submatches.map((s) => s.start), [9, 21]);
    const crlf = all.filter((m) => m.path.text === './crlf.txt').map((m) => m.line);
    assert.deepEqual(crlf, ['first needle line', 'second needle']);
  });

  it('decodes escapes: tab, quotes, backslashes, a literal \\n and control characters', () => {
    const lines = read([output]).filter((m) => m.path.text === './escapes.txt').map((m) => m.line);
    assert.deepEqual(lines, ['tab\there needle "quoted" back\\slash', 'ends with backslash n needle\\n', 'ctrl \u0001 needle']);
  });

  it('keeps a non-UTF-8 path as bytes and a non-UTF-8 line lossy plus base64', () => {
    const all = read([output]);
    const badName = all.find((m) => m.path.bytes !== undefined)!;
    assert.deepEqual(Buffer.from(badName.path.bytes!, 'base64'), Buffer.from([0x2e, 0x2f, 0x62, 0x61, 0x64, 0xff, 0x2e, 0x74, 0x78, 0x74]));
    assert.equal(badName.line, 'needle in a file with a non-UTF-8 name');
    const latin1 = all.find((m) => m.path.text === './latin1.txt')!;
    assert.equal(latin1.line, 'caf\uFFFD needle');
    assert.deepEqual(Buffer.from(latin1.lineBase64!, 'base64'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x0a]));
    assert.deepEqual(latin1.submatches, [{ start: 5, end: 11 }]);
  });

  it('hands consecutive matches of one file the same path object', () => {
    const paths: RgData[] = [];
    const reader = new RgJsonReader((path) => paths.push(path));
    reader.push(output);
    reader.end();
    const crlf = paths.filter((p) => p.text === './crlf.txt');
    assert.equal(crlf.length, 2);
    assert.equal(crlf[0], crlf[1]);
  });

  it('shares one frozen submatch array between lines with the same single match, and no other', () => {
    const match = (path: string, line: string, start: number, ...more: number[]) =>
      JSON.stringify({
        type: 'match',
        data: { path: { text: path }, lines: { text: `${line}\n` }, line_number: 1, absolute_offset: 0, submatches: [start, ...more].map((s) => ({ match: { text: 'ab' }, start: s, end: s + 2 })) },
      });
    const lines = [match('a', 'ab', 0), match('b', 'ab', 0), match('c', 'xab', 1), match('d', 'abab', 0, 2), match('e', 'abab', 0, 2)];
    const got = read([Buffer.from(`${lines.join('\n')}\n`)]);
    assert.deepEqual(got.map((m) => m.submatches), [[{ start: 0, end: 2 }], [{ start: 0, end: 2 }], [{ start: 1, end: 3 }], [{ start: 0, end: 2 }, { start: 2, end: 4 }], [{ start: 0, end: 2 }, { start: 2, end: 4 }]]);
    assert.equal(got[0]!.submatches, got[1]!.submatches, 'the same offsets: one array');
    assert.notEqual(got[0]!.submatches, got[2]!.submatches);
    assert.ok(Object.isFrozen(got[0]!.submatches) && Object.isFrozen(got[0]!.submatches[0]), 'shared, so frozen');
    assert.notEqual(got[3]!.submatches, got[4]!.submatches, 'lines with several matches get their own arrays');
  });

  it('reads a match message laid out differently through JSON.parse', () => {
    const line = JSON.stringify({ type: 'match', data: { lines: { text: 'x needle\n' }, path: { text: 'a.txt' }, line_number: 3, absolute_offset: 0, submatches: [{ match: { text: 'needle' }, start: 2, end: 8 }] } });
    const spaced = '{ "type": "match", "data": {"path":{"text":"b.txt"},"lines":{"text":"y\\r\\n"},"line_number":4,"absolute_offset":9,"submatches":[]} }';
    const got = read([Buffer.from(`${line}\n${spaced}\n`)]);
    assert.deepEqual(got, [
      { path: { text: 'a.txt' }, line: 'x needle', lineNumber: 3, submatches: [{ start: 2, end: 8 }], lineBase64: undefined },
      { path: { text: 'b.txt' }, line: 'y', lineNumber: 4, submatches: [], lineBase64: undefined },
    ]);
  });

  const malformedInputs: [string, string][] = [
    ['not JSON', 'hello world\n'],
    ['a JSON array', '[1,2]\n'],
    ['an object without a type', '{"data":{}}\n'],
    ['a match without data', '{"type":"match","data":{}}\n'],
    ['a truncated match at the end of the stream', '{"type":"match","data":{"path":{"text":"a"},"lines":{"te'],
    ['a match with a string offset', '{"type":"match","data":{"path":{"text":"a"},"lines":{"text":"x"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"x"},"start":"0","end":1}]}}\n'],
  ];
  for (const [name, text] of malformedInputs) {
    it(`rejects ${name} as SEARCH_FAILED`, () => {
      assert.throws(() => read([Buffer.from(text)]), (e) => isToolError(e) && e.code === 'SEARCH_FAILED' && /could not read/.test(e.message));
    });
  }

  it('describes a malformed line without quoting it (it may hold a file\'s text)', () => {
    assert.throws(
      () => read([Buffer.from('password=hunter2 from a file\n')]),
      (e) => isToolError(e) && /a line of 28 bytes that is not one of rg's JSON messages/.test(e.message) && !/hunter2/.test(e.message),
    );
  });

  it('tells a cut inside the closing summary from its third byte on, and no cut before it', () => {
    // `{"d` starts only the summary: every other message starts `{"type"`. One or two bytes could start any.
    const summaryAt = output.lastIndexOf('{"data":{"elapsed_total"');
    assert.ok(summaryAt > 0);
    for (let cut = summaryAt - 40; cut < output.length - 1; cut++) {
      const reader = new RgJsonReader(() => undefined);
      reader.push(output.subarray(0, cut));
      assert.equal(reader.cutInSummary(), cut >= summaryAt + 3, `cut at byte ${cut}, the summary at ${summaryAt}`);
    }
  });

  it('tells, wherever the output is cut, whether the file of the last match may have lost matches', () => {
    const all = read([output]);
    const total = (path: RgData) => all.filter((m) => m.path.text === path.text && m.path.bytes === path.bytes).length;
    let whole = 0;
    for (let cut = 1; cut < output.length; cut++) {
      const got: Read[] = [];
      const reader = new RgJsonReader((path, line, lineNumber, submatches, lineBase64) => got.push({ path: { ...path }, line, lineNumber, submatches, lineBase64 }));
      reader.push(output.subarray(0, cut));
      const last = got[got.length - 1];
      if (!last || !reader.lastFileWhole()) continue;
      whole++;
      const read = got.filter((m) => m.path.text === last.path.text && m.path.bytes === last.path.bytes).length;
      assert.equal(read, total(last.path), `cut at byte ${cut}: said whole with ${read} of ${total(last.path)} matches`);
    }
    // Inside every `end` message (from its type on) and at every `begin`, the file before is known to be done,
    // and so right after an `end` message, with nothing of the next one read.
    const text = output.toString('latin1');
    const ends = text.split('{"type":"end"').length - 1;
    assert.ok(whole > ends * 20, `${whole} cuts known whole, ${ends} end messages`);
    for (let at = text.indexOf('{"type":"end"'); at >= 0; at = text.indexOf('{"type":"end"', at + 1)) {
      const reader = new RgJsonReader(() => undefined);
      reader.push(output.subarray(0, text.indexOf('\n', at) + 1));
      assert.equal(reader.lastFileWhole(), true, `right after the end message at byte ${at}`);
    }
  });

  it('skips begin, end, context and summary messages without handing them on', () => {
    const text = [
      '{"type":"begin","data":{"path":{"text":"a"}}}',
      '{"type":"context","data":{"path":{"text":"a"},"lines":{"text":"c\\n"},"line_number":1,"absolute_offset":0,"submatches":[]}}',
      '{"type":"end","data":{"path":{"text":"a"},"binary_offset":null,"stats":{}}}',
      '{"data":{"elapsed_total":{"human":"0s","nanos":1,"secs":0},"stats":{}},"type":"summary"}',
      '',
    ].join('\n');
    assert.deepEqual(read([Buffer.from(text)]), []);
  });
});

describe('RecordSplitter', () => {
  it('splits on the separator across chunks, skips empty records and flushes the last one', () => {
    const records: string[] = [];
    const splitter = new RecordSplitter(0, (buf, s, e) => records.push(buf.toString('utf8', s, e)));
    for (const part of ['a\0b', 'c\0\0', 'd', 'e', '\0f']) splitter.push(Buffer.from(part));
    splitter.end();
    assert.deepEqual(records, ['a', 'bc', 'de', 'f']);
  });

  it('keeps what it carries over when the chunk is overwritten after the call, as the socket reader does', () => {
    const records: string[] = [];
    const splitter = new RecordSplitter(0x0a, (buf, s, e) => records.push(buf.toString('utf8', s, e)));
    // One reused read buffer: a record with no separator yet, then one ended in the next read.
    const buffer = Buffer.alloc(8);
    for (const part of ['abcdefgh', 'ijk\nlm', 'n\n']) {
      buffer.fill(0x3f);
      buffer.write(part);
      splitter.push(buffer.subarray(0, part.length));
    }
    splitter.end();
    assert.deepEqual(records, ['abcdefghijk', 'lmn']);
  });
});
