/**
 * How web_fetch treats a body:
 * - `html`: converted to Markdown;
 * - `text`: passed through (plain text, Markdown, JSON, XML, CSS, JavaScript, …);
 * - `pdf`: its text extracted with pdf.js, page by page;
 * - `binary`: not shown; the result says the content type is unsupported.
 */
export type ContentKind = 'html' | 'text' | 'pdf' | 'binary';

export interface ContentClass {
  readonly kind: ContentKind;
  /** The `Content-Type` essence (`type/subtype`, lowercase), or '' when the header is missing. */
  readonly mime: string;
  /** For `binary`: what the bytes are, as a phrase ("a PDF document"), from their signature or the header. */
  readonly description?: string;
}

/** File signatures (WHATWG MIME Sniffing §6 and common formats) that mark a body as binary whatever its header says. */
const SIGNATURES: readonly [bytes: readonly (number | null)[], description: string][] = [
  [[0x25, 0x21, 0x50, 0x53], 'a PostScript document'], // %!PS
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50], 'a WebP image'],
  [[0x00, 0x00, 0x01, 0x00], 'an icon image'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (or an Office document)'],
  [[0x1f, 0x8b, 0x08], 'a gzip archive'],
  [[0x42, 0x5a, 0x68], 'a bzip2 archive'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'an xz archive'],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], 'a 7-Zip archive'],
  [[0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], 'a RAR archive'],
  [[0x7f, 0x45, 0x4c, 0x46], 'an ELF executable'],
  [[0x4d, 0x5a], 'a Windows executable'],
  [[0x00, 0x61, 0x73, 0x6d], 'a WebAssembly module'],
  [[0x49, 0x44, 0x33], 'an MP3 audio file'],
  [[0x4f, 0x67, 0x67, 0x53], 'an Ogg media file'],
  [[0x66, 0x4c, 0x61, 0x43], 'a FLAC audio file'],
  [[null, null, null, null, 0x66, 0x74, 0x79, 0x70], 'an MP4 media file'],
  [[0x1a, 0x45, 0xdf, 0xa3], 'a WebM/Matroska media file'],
  [[0x77, 0x4f, 0x46, 0x46], 'a WOFF font'],
  [[0x77, 0x4f, 0x46, 0x32], 'a WOFF2 font'],
  [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 'an old Microsoft Office document'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], 'an SQLite database'],
];

/** WHATWG MIME Sniffing §7.1: bytes that never occur in text ("binary data bytes"), checked in the resource header. */
const RESOURCE_HEADER_BYTES = 1445;

const TEXT_APPLICATION = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-sh',
  'application/x-httpd-php',
  'application/sql',
  'application/graphql',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-ndjson',
  'application/csv',
]);

/** The PDF signature `%PDF-` (ISO 32000-1 §7.5.2: a PDF file starts with its header line). */
const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d];

/**
 * Classifies a response body by its `Content-Type` and its first bytes (at most 1445 are read, so the cost
 * does not grow with the body). The bytes win where they are certain: a body starting `%PDF-` is `pdf`
 * whatever its header says, and any other known binary signature, or control bytes that never occur in text
 * within the first 1445 bytes (unless a BOM or the header says UTF-16), make the body `binary` even when
 * served as `text/html`. A body declared `application/pdf` without another signature is `pdf` too (pdf.js
 * finds a PDF header that junk precedes). A body declared as HTML or text is binary only when control bytes
 * are more than a stray few (see {@link tolerated}). HTML is `text/html`, `application/xhtml+xml`, or an untyped body that starts like an HTML document.
 */
export function classifyContent(bytes: Uint8Array, contentType: string | undefined): ContentClass {
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const pdf: ContentClass = { kind: 'pdf', mime, description: 'a PDF document' };
  if (PDF_SIGNATURE.every((b, i) => bytes[i] === b)) return pdf;
  const signature = SIGNATURES.find(([sig]) => sig.every((b, i) => b === null || bytes[i] === b));
  if (signature) return { kind: 'binary', mime, description: signature[1] };
  if (mime === 'application/pdf' || mime === 'application/x-pdf') return pdf;
  const utf16 = (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe) || /charset\s*=\s*"?utf-16/i.test(contentType ?? '');
  const html = mime === 'text/html' || mime === 'application/xhtml+xml';
  const text = mime.startsWith('text/') || mime.endsWith('+json') || mime.endsWith('+xml') || TEXT_APPLICATION.has(mime);
  if (!utf16 && binaryBytes(bytes) > (html || text ? tolerated(bytes) : 0)) return { kind: 'binary', mime, description: 'binary data' };

  if (html) return { kind: 'html', mime };
  if (text) return { kind: 'text', mime };
  const declaredBinary = /^(image|audio|video|font|model)\//.test(mime) || /^application\/(zip|gzip|x-(tar|7z|rar|bzip2|xz)|msword|vnd\.|wasm)/.test(mime);
  if (declaredBinary) return { kind: 'binary', mime, description: `${mime} content` };
  return { kind: looksLikeHtml(bytes) ? 'html' : 'text', mime };
}

/** How many binary data bytes (WHATWG MIME Sniffing §3) the resource header of `bytes` holds. */
function binaryBytes(bytes: Uint8Array): number {
  const end = Math.min(bytes.length, RESOURCE_HEADER_BYTES);
  let count = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i]!;
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) count++;
  }
  return count;
}

/**
 * Binary data bytes a body declared as HTML or text may hold in its resource header and still be read as
 * declared: one in 64 bytes. Browsers never sniff a declared `text/html`, and real pages carry a stray few
 * (a vertical tab or bell pasted from a word processor or an old manual page, shown as control pictures);
 * binary content mislabelled as text holds about one in ten.
 */
function tolerated(bytes: Uint8Array): number {
  return Math.floor(Math.min(bytes.length, RESOURCE_HEADER_BYTES) / 64);
}

/** WHATWG MIME Sniffing §7.1 "rules for identifying an unknown MIME type", HTML patterns only. */
function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 512)).toString('latin1').trimStart().toLowerCase();
  return /^<(!doctype html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--)[\s>]/.test(head);
}
