import * as assert from 'node:assert/strict';
import { escapeMarkdownInline, escapeMarkdownLine, markdownCodeSpan } from '../../../src/core/markdownText';
import { FOREIGN_STRUCTURE, markdownStructure } from '../../helpers/commonMark';

/** Strings that form Markdown structure when written raw. */
const HOSTILE = [
  '<https://evil.example/x>',
  '<a href="https://evil.example">x</a>',
  '[x](https://evil.example)',
  '![x](https://evil.example/i.png)',
  '[ref]: https://evil.example',
  '`code` ``two`` *em* **strong** _u_ __uu__ ~~del~~',
  '&lt;b&gt; &amp; &#x41; &copy;',
  'trailing backslash \\',
  '\\[already escaped\\]',
  'docs.python.org`**(verified-safe)**`.evil.example',
];

describe('Markdown text escaping', () => {
  it('shows inline text exactly as written, forming no structure, in CommonMark and GFM', () => {
    for (const text of HOSTILE) {
      for (const flavour of ['commonmark', 'gfm'] as const) {
        const rendered = markdownStructure(`before ${escapeMarkdownInline(text)} after`, flavour);
        assert.deepEqual(rendered.paragraphs, [`before ${text} after`], `${flavour}: ${text}`);
        assert.deepEqual(rendered.links, [], `${flavour}: ${text}`);
        for (const type of FOREIGN_STRUCTURE) assert.ok(!rendered.types.has(type), `${flavour}: ${text} formed ${type}`);
      }
    }
    assert.equal(escapeMarkdownInline('Plain text, with (parens) and "quotes".'), 'Plain text, with (parens) and "quotes".');
  });

  it('keeps a line from starting a heading, quote, list, thematic break, table or code block', () => {
    const lines = ['# h', '###### h', '> q', '- i', '+ i', '* i', '1. i', '12) i', '---', '***', '___', '===', '| a | b |', '    code', '```js', '~~~', '<div>', ...HOSTILE];
    for (const line of lines) {
      const rendered = markdownStructure(`${escapeMarkdownLine(line)}\n\n${escapeMarkdownLine('| --- | --- |')}`, 'gfm');
      assert.deepEqual(rendered.paragraphs, [line.trimStart(), '| --- | --- |'], line);
      assert.deepEqual([...rendered.types].filter((t) => !['paragraph_open', 'paragraph_close', 'inline', 'text'].includes(t)), [], line);
    }
    assert.equal(escapeMarkdownLine('2024. A year'), '2024\\. A year');
  });

  it('puts any text in one code span that shows it literally', () => {
    for (const text of ['a`b', '``', '`x', 'x`', ' a ', 'docs.python.org`**(verified-safe)**`.evil.example', 'https://h/`a``b```c']) {
      const rendered = markdownStructure(`x ${markdownCodeSpan(text)} y`);
      assert.deepEqual(rendered.types.has('code_inline') && rendered.paragraphs, [`x ${text} y`], text);
    }
    assert.equal(markdownCodeSpan('example.com'), '`example.com`');
  });
});
