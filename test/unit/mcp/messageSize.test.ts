import * as assert from 'node:assert/strict';
import { jsonStringBytes, messageBytes, splitJsonParts } from '../../../src/mcp/messageSize';

/** What `JSON.stringify` makes of `text`, in UTF-8 bytes, without the quotes: the rule jsonStringBytes follows. */
const stringified = (text: string) => Buffer.byteLength(JSON.stringify(text), 'utf8') - 2;

/** Strings whose JSON is longer than their UTF-16 length, or than their UTF-8 length. */
const TRICKY = [
  '',
  'plain ascii',
  'quote " and backslash \\',
  'controls \u0000\u0001\u0008\t\n\u000b\u000c\r\u001f end',
  'DEL \u007f, NEL \u0085, LS \u2028, PS \u2029',
  'é ñ ü: two bytes; 中文: three; 😀🎉: four per pair',
  'lone high \ud800 then text, lone low \udc00, reversed \udc00\ud800, high at end \ud83d',
  'src/app/[id]/"quoted"\\path.ts\n'.repeat(50),
];

describe('MCP message sizes', () => {
  it('jsonStringBytes counts what JSON.stringify writes, escapes and all', () => {
    for (const text of TRICKY) assert.equal(jsonStringBytes(text), stringified(text), JSON.stringify(text));
    assert.equal(messageBytes({ text: 'é"' }), Buffer.byteLength('{"text":"é\\""}'));
  });

  it('splitJsonParts cuts at line ends, never above the budget, and the parts join to the text', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `${'"\\'.repeat(i % 17)}dir-${i}/é${'x'.repeat(i % 40)}😀\n`);
    const text = lines.join('');
    for (const maxBytes of [128, 300, 1000, 4096]) {
      const parts = splitJsonParts(text, maxBytes);
      assert.equal(parts.join(''), text, `maxBytes ${maxBytes}`);
      for (const part of parts) {
        assert.ok(stringified(part) <= maxBytes, `a part of ${stringified(part)} bytes over ${maxBytes}`);
        // Every line here fits the budget, so every part ends with a whole line.
        assert.ok(part.endsWith('\n'), JSON.stringify(part.slice(-20)));
      }
      // Greedy: a part and the first line of the next would not have fitted together.
      for (let i = 0; i + 1 < parts.length; i++) {
        const nextLine = parts[i + 1]!.slice(0, parts[i + 1]!.indexOf('\n') + 1);
        assert.ok(stringified(parts[i]! + nextLine) > maxBytes);
      }
    }
  });

  it('splitJsonParts cuts a line longer than the budget at a code point, never inside a surrogate pair', () => {
    const line = `${'😀"a'.repeat(1000)}\nshort\n`;
    const parts = splitJsonParts(line, 50);
    assert.equal(parts.join(''), line);
    for (const part of parts) {
      assert.ok(stringified(part) <= 50);
      assert.ok(!/[\ud800-\udbff]$/.test(part) && !/^[\udc00-\udfff]/.test(part), JSON.stringify(part));
    }
    assert.ok(parts.length > 100);
    assert.ok(parts.at(-1)!.endsWith('short\n'));
  });

  it('splitJsonParts keeps a text that fits as one part, an empty text as one empty part, and refuses a budget under one code point', () => {
    assert.deepEqual(splitJsonParts('a\nb', 1000), ['a\nb']);
    assert.deepEqual(splitJsonParts('', 1000), ['']);
    assert.throws(() => splitJsonParts('a', 5), RangeError);
    // The costliest code point (a lone surrogate, 6 bytes) fits a budget of 6.
    assert.deepEqual(splitJsonParts('\ud800\ud800', 6), ['\ud800', '\ud800']);
  });
});
