import * as zlib from 'node:zlib';

/**
 * Small PDF files made in the test (ISO 32000-1): pages of text in the standard Helvetica font, a file whose
 * pages hold no text (as a scanned document without a text layer), a password-protected one, and one whose
 * small compressed content stream inflates to hundreds of MB (a decompression bomb).
 */

export interface PdfFixtureOptions {
  /**
   * Adds a standard security handler (revision 2) whose user password is not empty, so a reader needs a
   * password to open the file. The content streams stay plain: no reader gets that far without the password.
   */
  readonly encrypted?: boolean;
  /**
   * The first page's content stream, FlateDecode-compressed, in place of its plain one (see {@link flateBomb}):
   * its text operators followed by this many bytes of spaces.
   */
  readonly compressedFirstPage?: Buffer;
  /**
   * Each glyph painted this many times over itself (fake bold, as some generators draw it): a `TJ` array whose
   * kerning moves back by the glyph's width after each copy but the last.
   */
  readonly overprint?: number;
  /** The font's encoding names the glyphs of codes 1 to 31 `g1`…`g31`, names that map to no Unicode character. */
  readonly glyphsWithoutUnicode?: boolean;
}

/**
 * The compressed content stream of a decompression-bomb page: `BT /F1 11 Tf 72 740 Td (text) Tj ET` followed
 * by `inflatedBytes` spaces, deflated (zlib format) a MiB at a time, so neither side is ever held whole
 * (800 MB of spaces deflate to about 800 KB).
 */
export async function flateBomb(text: string, inflatedBytes: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  deflate.write(`BT /F1 11 Tf 72 740 Td (${escapePdfString(text)}) Tj ET\n`);
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  for (let left = inflatedBytes; left > 0; left -= chunk.length) {
    if (!deflate.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/**
 * A PDF with one page per entry of `pages`; each page shows its paragraphs top down, one line each, with a
 * blank line between paragraphs. An empty page has an empty content stream. Text is Latin-1 bytes: codes
 * below 0x20 are glyphs WinAnsiEncoding maps to no character (as a font without a Unicode mapping gives).
 */
export function pdfDocument(pages: readonly (readonly string[])[], options: PdfFixtureOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pageTree = add('');
  const encoding = options.glyphsWithoutUnicode ? `<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 ${Array.from({ length: 31 }, (_, i) => `/g${i + 1}`).join(' ')}] >>` : '/WinAnsiEncoding';
  const font = add(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding ${encoding} >>`);
  const kids = pages.map((paragraphs, n) => {
    const show = (p: string): string => (options.overprint ? `[${Array.from(p, (c) => Array(c === ' ' ? 1 : options.overprint).fill(`(${escapePdfString(c)})`).join(' 600 ')).join(' ')}] TJ` : `(${escapePdfString(p)}) Tj`);
    const ops = paragraphs.length === 0 ? '' : ['BT', '/F1 11 Tf', '14 TL', '72 740 Td', ...paragraphs.flatMap((p, i) => [...(i > 0 ? ['T*'] : []), show(p), 'T*']), 'ET'].join('\n');
    const compressed = n === 0 ? options.compressedFirstPage : undefined;
    const content = compressed
      ? add(`<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n${compressed.toString('latin1')}\nendstream`)
      : add(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
    return add(`<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`);
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  objects[pageTree - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let trailerExtra = '';
  if (options.encrypted) {
    const encrypt = add(`<< /Filter /Standard /V 1 /R 2 /O <${'7a'.repeat(32)}> /U <${'3c'.repeat(32)}> /P -44 >>`);
    trailerExtra = ` /Encrypt ${encrypt} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`;
  }

  let file = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets = objects.map((body, i) => {
    const offset = Buffer.byteLength(file, 'latin1');
    file += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(file, 'latin1');
  file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  file += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(file, 'latin1');
}

/** A PDF literal string's body: backslash and parentheses escaped (ISO 32000-1 §7.3.4.2). */
function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, '\\$&');
}
