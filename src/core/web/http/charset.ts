import { analyse } from 'chardet';
import iconv from 'iconv-lite';
import labelsToNames from 'whatwg-encoding/lib/labels-to-names.json';
import { bytesForChars, cutAtCodePoint } from '../../codePoints';

/**
 * Where the charset of a body came from. The order of precedence is the WHATWG "encoding sniffing
 * algorithm" (HTML §13.2.3.2): a byte order mark, then the `Content-Type` charset, then a `<meta>` (or XML
 * declaration) in the head, then, when nothing declared one, what the bytes say: `detected` (an encoding
 * detector's confident guess, as the standard allows a user agent to make) or `default` (valid UTF-8, or else
 * windows-1252).
 */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'detected' | 'default';

export interface DecodedText {
  /** The decoded text, at most `maxChars` UTF-16 code units, without a BOM. */
  readonly text: string;
  /** True when the body holds more text than `text`. */
  readonly truncated: boolean;
  /** The iconv-lite encoding used (e.g. `utf-8`, `shift_jis`, `gb18030`, `windows-1252`). */
  readonly charset: string;
  readonly source: CharsetSource;
  /**
   * Nothing declared the charset and the body holds a byte outside ASCII, so the charset is Scout's guess
   * (UTF-8 when the bytes are valid UTF-8, else the detector's, else windows-1252): a result should say so.
   */
  readonly assumed: boolean;
}

/**
 * Most bytes searched for a `<meta>` charset declaration: the head, up to `</head>` or `<body`, but no further
 * than this. WHATWG's prescan reads the first 1,024 bytes (HTML §13.2.3.2), and a declaration the parser meets
 * later in the head makes a browser "change the encoding" and parse again (§13.2.3.4), so a page whose
 * `<meta charset>` comes after a few KB of scripts is still read in its charset. Scout looks through the
 * whole head directly instead; real heads carry up to about 1 MB of scripts and styles.
 */
const META_SEARCH_BYTES = 1024 * 1024;

/** Label → encoding name, from the WHATWG Encoding Standard's label table (`whatwg-encoding`). */
const WHATWG_LABELS: Readonly<Record<string, string>> = labelsToNames;

/**
 * WHATWG encoding names (Encoding Standard §4.2) whose web decoder is iconv-lite's codec of another name:
 * Shift_JIS decodes as windows-31j, GBK as GB18030, EUC-KR as windows-949, Big5 with the HKSCS extensions,
 * ISO-8859-8-I as ISO-8859-8. Every other name is iconv-lite's name lowercased.
 */
const ICONV_CODEC: Readonly<Record<string, string>> = {
  Shift_JIS: 'windows-31j',
  GBK: 'gb18030',
  'EUC-KR': 'cp949',
  Big5: 'big5hkscs',
  'ISO-8859-8-I': 'iso-8859-8',
  'EUC-JP': 'eucjp',
};

/**
 * Maps a charset label (from a header, `<meta>` or XML declaration) to an encoding iconv-lite can decode.
 * Labels are those of the WHATWG Encoding Standard (the label table of the `whatwg-encoding` package), so
 * `latin1` and `us-ascii` mean windows-1252 and `gb2312` means GBK; a label the web does not know, such as
 * `utf-7`, or one it maps to the "replacement" decoder, gives undefined and is ignored.
 */
export function charsetFromLabel(label: string): string | undefined {
  const key = label.trim().toLowerCase().replace(/^["']|["']$/g, '');
  const name = Object.prototype.hasOwnProperty.call(WHATWG_LABELS, key) ? WHATWG_LABELS[key] : undefined;
  if (name === undefined) return undefined;
  const codec = ICONV_CODEC[name] ?? name.toLowerCase();
  return iconv.encodingExists(codec) ? codec : undefined;
}


/** The `charset` parameter of a `Content-Type` value, if it names a known encoding. */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/i.exec(contentType ?? '');
  return match ? charsetFromLabel(match[1]!) : undefined;
}

/** The encoding a byte order mark announces, and the BOM's length in bytes. */
export function charsetFromBom(bytes: Uint8Array): { charset: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  return undefined;
}

/**
 * The charset declared in the head (the bytes up to `</head>` or `<body`, at most {@link META_SEARCH_BYTES}):
 * `<meta charset=…>`, `<meta http-equiv="Content-Type" content="…; charset=…">`, or an XML declaration's
 * `encoding`. Comments, scripts and styles are skipped, so a `<meta>` inside them declares nothing.
 * A declared UTF-16 means UTF-8 (WHATWG: a byte-oriented prescan cannot have read UTF-16).
 */
export function charsetFromMarkup(bytes: Uint8Array): string | undefined {
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, META_SEARCH_BYTES)).toString('latin1');
  const xml = /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([^"']+)["']/i.exec(start);
  const meta = xml ? undefined : metaCharsetLabel(start);
  const label = xml?.[1] ?? meta;
  if (label === undefined) return undefined;
  const charset = charsetFromLabel(label);
  return charset?.startsWith('utf-16') ? 'utf-8' : charset;
}

function metaCharsetLabel(start: string): string | undefined {
  const withoutHidden = start.replace(/<!--[\s\S]*?(?:-->|$)|<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, '');
  const end = withoutHidden.search(/<\/head[\s>]|<body[\s>]/i);
  const head = end < 0 ? withoutHidden : withoutHidden.slice(0, end);
  for (const tag of head.matchAll(/<meta\b[^>]*>/gi)) {
    const text = tag[0];
    const direct = /\scharset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'/>;]+))/i.exec(text);
    if (direct) return direct[1] ?? direct[2] ?? direct[3];
    if (/\shttp-equiv\s*=\s*["']?content-type/i.test(text)) {
      const content = /\scontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(text);
      const inner = /charset\s*=\s*["']?([^"';\s]+)/i.exec(content?.[1] ?? content?.[2] ?? '');
      if (inner) return inner[1];
    }
  }
  return undefined;
}

/**
 * Decodes a body to text with iconv-lite, choosing the charset by BOM, then `Content-Type`, then markup
 * (when `sniffMarkup`), then UTF-8 if the bytes are valid UTF-8, else windows-1252 (the web's default for
 * legacy pages; `assumed` says when that guess mattered). Only the prefix `bytesForChars(maxChars)` is decoded, so cost stays proportional to
 * `maxChars`. `moreBytes` says `bytes` is itself a prefix of a longer body.
 */
export function decodeText(bytes: Uint8Array, contentType: string | undefined, maxChars: number, sniffMarkup: boolean, moreBytes = false): DecodedText {
  const bom = charsetFromBom(bytes);
  let charset: string;
  let source: CharsetSource;
  if (bom) {
    charset = bom.charset;
    source = 'bom';
  } else {
    const header = charsetFromContentType(contentType);
    const markup = header || !sniffMarkup ? undefined : charsetFromMarkup(bytes);
    if (header) {
      charset = header;
      source = 'header';
    } else if (markup) {
      charset = markup;
      source = 'meta';
    } else if (isUtf8(bytes)) {
      charset = 'utf-8';
      source = 'default';
    } else {
      const detected = detectCharset(bytes);
      charset = detected ?? 'windows-1252';
      source = detected ? 'detected' : 'default';
    }
  }
  const assumed = (source === 'default' || source === 'detected') && !isAscii(bytes);
  const prefix = bytes.subarray(0, bytesForChars(maxChars));
  const decoded = iconv.decode(Buffer.from(prefix.buffer, prefix.byteOffset, prefix.length), charset, { stripBOM: true });
  const truncated = decoded.length > maxChars || prefix.length < bytes.length || moreBytes;
  return { text: truncated ? cutAtCodePoint(decoded, maxChars) : decoded, truncated, charset, source, assumed };
}

/** Bytes of a body the encoding detector reads (its start; a page's language shows within it). */
const DETECTOR_SAMPLE_BYTES = 64 * 1024;

/**
 * Least confidence (chardet's 0–100) at which the detector's guess is used. Measured on short pages with the
 * markup left out: GBK text scores 100, windows-1251 Russian 50 and more, while French windows-1252 text is
 * taken for ISO-8859-2 at 13, so below this the web's default, windows-1252, is kept. Scout's choice.
 */
const MIN_DETECTOR_CONFIDENCE = 25;

/**
 * The encoding chardet (a port of ICU's detector) finds in the start of a body that is not UTF-8, with tags,
 * scripts, styles and comments left out so the ASCII markup does not drown the text; undefined when it is not
 * confident ({@link MIN_DETECTOR_CONFIDENCE}), names an encoding the web does not decode, or only says
 * windows-1252 again.
 */
function detectCharset(bytes: Uint8Array): string | undefined {
  const sample = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, DETECTOR_SAMPLE_BYTES)).toString('latin1');
  const text = sample.replace(/<!--[\s\S]*?(?:-->|$)|<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)|<[^>]*>/gi, ' ');
  const best = analyse(Buffer.from(text, 'latin1'))[0];
  if (!best || best.confidence < MIN_DETECTOR_CONFIDENCE) return undefined;
  const charset = charsetFromLabel(best.name);
  return charset === undefined || charset === 'windows-1252' || charset.startsWith('utf-') ? undefined : charset;
}

/** True when every byte of `bytes` is ASCII (below 0x80). */
function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** True when the first MiB of `bytes` is valid UTF-8 (a sequence cut by that sample's end is tolerated). */
function isUtf8(bytes: Uint8Array): boolean {
  const sample = 1 << 20;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, sample), { stream: bytes.length > sample });
    return true;
  } catch {
    return false;
  }
}
