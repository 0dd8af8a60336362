import * as assert from 'node:assert/strict';
import { InputLines, TopLevelIdScanner, type OverlongLine } from '../../../src/mcp/inputLines';

/** The id {@link TopLevelIdScanner} finds in `text`, fed `step` bytes at a time. */
function scanId(text: string, step = Infinity): unknown {
  const scanner = new TopLevelIdScanner();
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += Math.min(step, bytes.length)) scanner.feed(bytes.subarray(i, i + step));
  return scanner.id;
}

/** Writes `chunks` to an {@link InputLines} and collects what it passes on and what it reports. */
async function throughLines(maxLineBytes: number, chunks: (string | Buffer)[]): Promise<{ lines: string[]; overlong: OverlongLine[] }> {
  const overlong: OverlongLine[] = [];
  const stream = new InputLines(maxLineBytes, (line) => overlong.push(line));
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await ended;
  return { lines, overlong };
}

describe('MCP input lines', () => {
  describe('TopLevelIdScanner', () => {
    it('finds the top-level id wherever it stands, also after params (where the SDK client writes it)', () => {
      for (const step of [1, 3, Infinity]) {
        assert.equal(scanId('{"jsonrpc":"2.0","id":7,"method":"ping"}', step), 7);
        assert.equal(scanId('{"method":"tools/call","params":{"name":"grep","arguments":{"id":99,"pattern":"x"}},"jsonrpc":"2.0","id":42}', step), 42);
        assert.equal(scanId(' \n{ "id" : "req-\\"1\\"\\\\" , "method":"x"}', step), 'req-"1"\\');
        assert.equal(scanId('{"params":{"a":[{"id":1},"\\"id\\":5"]},"id":-3}', step), -3);
      }
    });

    it('takes no id from inside a string, a nested object, a key that only starts with id, or a value that is no id', () => {
      assert.equal(scanId('{"method":"x","params":{"id":5}}'), undefined);
      assert.equal(scanId('{"note":"\\"id\\":5","idx":6}'), undefined);
      assert.equal(scanId('{"id":null,"method":"x"}'), undefined);
      assert.equal(scanId('{"id":1.5}'), undefined);
      assert.equal(scanId('{"id":{"a":1}}'), undefined);
      assert.equal(scanId('[{"id":1}]'), undefined);
      assert.equal(scanId('not json "id":1'), undefined);
      assert.equal(scanId(`{"id":"${'x'.repeat(5000)}","method":"x"}`), undefined, 'an id too long to keep');
      assert.equal(scanId(`{"id":"${'x'.repeat(5000)}\\"},\\"id\\":1","method":"x","id":2}`), 2, 'the scan goes on inside the long string');
    });
  });

  describe('InputLines', () => {
    it('passes each line whole with its line feed, one chunk per line, however the input was cut', async () => {
      const input = '{"a":1}\n{"b":"é"}\r\n{"c":3}\n';
      const bytes = Buffer.from(input);
      const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
      assert.deepEqual((await throughLines(100, chunks)).lines, ['{"a":1}\n', '{"b":"é"}\r\n', '{"c":3}\n']);
      assert.deepEqual((await throughLines(100, [input + input])).lines, ['{"a":1}\n', '{"b":"é"}\r\n', '{"c":3}\n', '{"a":1}\n', '{"b":"é"}\r\n', '{"c":3}\n']);
    });

    it('drops blank lines, and a last line without a line feed', async () => {
      assert.deepEqual((await throughLines(100, ['\n  \n\t\r\n{"a":1}\n\r\n{"unfinished":'])).lines, ['{"a":1}\n']);
    });

    it('drops a line over the limit without holding it, reports its size and request id, and goes on', async () => {
      const long = `{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"pattern":"${'a'.repeat(300)}"}},"id":12}`;
      const { lines, overlong } = await throughLines(100, ['{"x":1}\n', long.slice(0, 150), long.slice(150), '\n{"y":2}\n', `${'b'.repeat(101)}\n`]);
      assert.deepEqual(lines, ['{"x":1}\n', '{"y":2}\n']);
      assert.deepEqual(overlong, [
        { bytes: Buffer.byteLength(long), id: 12 },
        { bytes: 101, id: undefined },
      ]);
    });

    it('passes a line of exactly the limit', async () => {
      const line = `{"p":"${'a'.repeat(92)}"}`;
      assert.equal(Buffer.byteLength(line), 100);
      assert.deepEqual(await throughLines(100, [`${line}\n`]), { lines: [`${line}\n`], overlong: [] });
    });
  });
});
