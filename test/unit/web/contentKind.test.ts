import * as assert from 'node:assert/strict';
import { classifyContent } from '../../../src/core/web/convert/contentKind';

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('web/convert classifyContent', () => {
  it('finds a PDF served as text/html by its signature, and takes application/pdf as a PDF', () => {
    const result = classifyContent(bytes('%PDF-1.7\n%âãÏÓ\n1 0 obj <<>>'), 'text/html; charset=utf-8');
    assert.deepEqual(result, { kind: 'pdf', mime: 'text/html', description: 'a PDF document' });
    assert.equal(classifyContent(bytes('\n\n%PDF-1.4 after junk'), 'application/pdf').kind, 'pdf');
    assert.equal(classifyContent(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'application/pdf').description, 'a PNG image');
  });

  it('finds binary bytes whatever the header, but not in UTF-16 text', () => {
    assert.equal(classifyContent(Buffer.from([0x41, 0x00, 0x01, 0x02, 0x42]), 'text/plain').kind, 'binary');
    assert.equal(classifyContent(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), undefined).description, 'a PNG image');
    assert.equal(classifyContent(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>hi</p>', 'utf16le')]), 'text/html').kind, 'html');
    assert.equal(classifyContent(Buffer.from('plain', 'utf16le'), 'text/plain; charset=utf-16le').kind, 'text');
  });

  it('reads a declared HTML or text page with a stray control byte as declared, and random bytes declared as HTML as binary (tester: one vertical tab in <title> refused the page)', () => {
    const page = `<!doctype html><html><head><title>Release notes\x0b 2.4</title></head><body>${'<p>Paragraph of ordinary text about the release.</p>'.repeat(40)}\x07</body></html>`;
    assert.equal(classifyContent(bytes(page), 'text/html; charset=utf-8').kind, 'html');
    assert.equal(classifyContent(bytes(page.replace(/<[^>]+>/g, '')), 'text/plain').kind, 'text');
    assert.equal(classifyContent(bytes(page), undefined).kind, 'binary', 'an undeclared body is sniffed strictly (WHATWG)');
    let seed = 7;
    const random = Buffer.from(Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16 & 0xff));
    assert.equal(classifyContent(random, 'text/html').kind, 'binary');
  });

  it('trusts a binary Content-Type', () => {
    assert.equal(classifyContent(bytes('GIF-ish but declared'), 'image/png').kind, 'binary');
    assert.equal(classifyContent(bytes('zip?'), 'application/zip').kind, 'binary');
  });

  it('passes text, Markdown, JSON, XML and scripts through as text', () => {
    for (const type of ['text/plain', 'text/markdown; charset=utf-8', 'application/json', 'application/ld+json', 'application/rss+xml', 'image/svg+xml', 'text/css', 'application/javascript']) {
      assert.equal(classifyContent(bytes('{"a": 1}'), type).kind, 'text', type);
    }
  });

  it('converts text/html and XHTML, and sniffs HTML only when the type is missing or generic', () => {
    assert.equal(classifyContent(bytes('anything'), 'text/html').kind, 'html');
    assert.equal(classifyContent(bytes('<html/>'), 'application/xhtml+xml').kind, 'html');
    assert.equal(classifyContent(bytes('  <!DOCTYPE html><p>x'), undefined).kind, 'html');
    assert.equal(classifyContent(bytes('<html><body>x'), 'application/octet-stream').kind, 'html');
    assert.equal(classifyContent(bytes('<html><body>x'), 'text/plain').kind, 'text');
    assert.equal(classifyContent(bytes('just words'), undefined).kind, 'text');
  });
});
