/**
 * Small PDF files made in the test (ISO 32000-1): pages of text in the standard Helvetica font, a file whose
 * pages hold no text (as a scanned document without a text layer), and a password-protected one.
 */

export interface PdfFixtureOptions {
  /**
   * Adds a standard security handler (revision 2) whose user password is not empty, so a reader needs a
   * password to open the file. The content streams stay plain: no reader gets that far without the password.
   */
  readonly encrypted?: boolean;
}

/**
 * A PDF with one page per entry of `pages`; each page shows its paragraphs top down, one line each, with a
 * blank line between paragraphs. An empty page has an empty content stream. Text is ASCII.
 */
export function pdfDocument(pages: readonly (readonly string[])[], options: PdfFixtureOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pageTree = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids = pages.map((paragraphs) => {
    const ops = paragraphs.length === 0 ? '' : ['BT', '/F1 11 Tf', '14 TL', '72 740 Td', ...paragraphs.flatMap((p, i) => [...(i > 0 ? ['T*'] : []), `(${escapePdfString(p)}) Tj`, 'T*']), 'ET'].join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
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
