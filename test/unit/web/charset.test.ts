import * as assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { charsetFromContentType, charsetFromLabel, charsetFromMarkup, decodeText } from '../../../src/core/web/http/charset';

const JAPANESE = '日本語のページです。東京';
const CHINESE = '中文网页，简体字测试';

describe('web/http charset', () => {
  it('decodes Shift_JIS declared only by <meta charset>', () => {
    const bytes = iconv.encode(`<html><head><meta charset="Shift_JIS"></head><body><p>${JAPANESE}</p></body></html>`, 'shift_jis');
    const decoded = decodeText(bytes, 'text/html', 10_000, true);
    assert.equal(decoded.source, 'meta');
    assert.equal(decoded.charset, 'windows-31j');
    assert.ok(decoded.text.includes(JAPANESE));
  });

  it('decodes a charset declared by <meta http-equiv>, ignoring one inside a comment', () => {
    const html = `<!-- <meta charset="iso-8859-2"> --><meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><p>${JAPANESE}</p>`;
    const decoded = decodeText(iconv.encode(html, 'shift_jis'), undefined, 10_000, true);
    assert.equal(decoded.source, 'meta');
    assert.ok(decoded.text.includes(JAPANESE));
  });

  it('decodes GBK declared by the Content-Type header', () => {
    const bytes = iconv.encode(`<p>${CHINESE}</p>`, 'gbk');
    const decoded = decodeText(bytes, 'text/html; charset=GBK', 10_000, true);
    assert.equal(decoded.source, 'header');
    assert.equal(decoded.charset, 'gb18030');
    assert.equal(decoded.text, `<p>${CHINESE}</p>`);
  });

  it('decodes windows-1252 labelled as ISO-8859-1, as browsers do', () => {
    const bytes = Buffer.from([0x93, 0x71, 0x75, 0x6f, 0x74, 0x65, 0x94, 0x20, 0x80, 0x35]); // “quote” €5
    assert.equal(decodeText(bytes, 'text/plain; charset=iso-8859-1', 100, false).text, '\u201cquote\u201d \u20ac5');
  });

  it('lets a byte order mark override a contradicting header, and strips it', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('café – ok', 'utf8')]);
    const decoded = decodeText(bytes, 'text/html; charset=windows-1252', 100, true);
    assert.equal(decoded.source, 'bom');
    assert.equal(decoded.text, 'café – ok');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo', 'utf16le')]);
    assert.equal(decodeText(utf16, 'text/plain; charset=utf-8', 100, false).text, 'héllo');
  });

  it('defaults to UTF-8, or windows-1252 when the bytes are not UTF-8', () => {
    assert.equal(decodeText(Buffer.from('naïve ✓', 'utf8'), undefined, 100, true).text, 'naïve ✓');
    const latin = decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9]), undefined, 100, true);
    assert.deepEqual([latin.text, latin.charset, latin.source], ['café', 'windows-1252', 'default']);
  });

  it('detects GBK, windows-1251 and Shift_JIS pages that declare no encoding, and keeps windows-1252 for Western text', () => {
    const page = (title: string, text: string): string => `<!DOCTYPE html><html><head><title>${title}</title><style>body{margin:0}</style></head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><p>${text}</p></body></html>`;
    const cases: [string, string, string][] = [
      [page('新闻', '简体中文网页内容。今天北京的天气很好，我们去公园散步吧。'), 'gbk', 'gb18030'],
      [page('Новости', 'Совет директоров утвердил бюджет на следующий год.'), 'windows-1251', 'windows-1251'],
      [page('日本', '日本語のテキスト、東京の天気は晴れです。'), 'shift_jis', 'windows-31j'],
    ];
    for (const [html, encoding, charset] of cases) {
      const decoded = decodeText(iconv.encode(html, encoding), 'text/html', 10_000, true);
      assert.deepEqual([decoded.text, decoded.charset, decoded.source, decoded.assumed], [html, charset, 'detected', true], encoding);
    }
    const french = decodeText(iconv.encode(page('Café', 'Crème brûlée, naïve façade. Le café est très bon à Paris, déjà.'), 'windows-1252'), 'text/html', 10_000, true);
    assert.deepEqual([french.charset, french.source], ['windows-1252', 'default']);
  });

  it('decodes at most maxChars characters and says the text was cut, never splitting a surrogate pair', () => {
    const decoded = decodeText(Buffer.from('ab😀cd'.repeat(1000), 'utf8'), 'text/plain', 3, false);
    assert.deepEqual([decoded.text, decoded.truncated], ['ab', true]);
    const whole = decodeText(Buffer.from('abc', 'utf8'), 'text/plain', 3, false);
    assert.deepEqual([whole.text, whole.truncated], ['abc', false]);
  });

  it('maps labels the WHATWG way and ignores unknown ones', () => {
    assert.equal(charsetFromLabel('"UTF8"'), 'utf-8');
    assert.equal(charsetFromLabel('x-sjis'), 'windows-31j');
    assert.equal(charsetFromLabel('no-such-charset'), undefined);
    assert.equal(charsetFromContentType('text/html; charset="euc-kr"'), 'cp949');
    assert.equal(charsetFromContentType('text/html'), undefined);
    assert.equal(charsetFromMarkup(Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a/>')), 'windows-1252');
    assert.equal(charsetFromMarkup(Buffer.from('<meta charset="utf-16">')), 'utf-8');
  });

  it('ignores labels the web does not decode: UTF-7 and the "replacement" ones', () => {
    // The input that broke it: a <meta> naming UTF-7 made the UTF-8 page decode as UTF-7 ("A+AEI-C" became "ABC").
    const bytes = Buffer.from('<html><head><meta charset="utf-7"></head><body>A+AEI-C café +ADw-script+AD4-</body></html>', 'utf8');
    const decoded = decodeText(bytes, 'text/html', 10_000, true);
    assert.equal(decoded.charset, 'utf-8');
    assert.ok(decoded.text.includes('A+AEI-C café +ADw-script+AD4-'), decoded.text);
    for (const label of ['utf-7', 'UTF7', 'iso-2022-kr', 'hz-gb-2312', 'csiso2022kr']) assert.equal(charsetFromLabel(label), undefined, label);
    assert.equal(charsetFromLabel('gb2312'), 'gb18030');
    assert.equal(charsetFromLabel('latin1'), 'windows-1252');
    assert.equal(charsetFromLabel('koi8-r'), 'koi8-r');
  });
});
