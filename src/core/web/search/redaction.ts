/**
 * Redaction of a search provider's API key from everything Scout shows (keys never appear in
 * results, errors or logs, even when a provider echoes them; not in another case, encoding or
 * piece either).
 *
 * The guarantee ({@link redactSecret}): after redaction, `text` holds no run of {@link MIN_PIECE} or more
 * consecutive characters of the key, where
 * - ASCII letters match in either case (a host name comes back lowercased, an error may upper-case it),
 * - each character may also be written percent-encoded (`%41` or `%61` for `A`, hex digits in either case),
 *   and encoded again up to {@link MAX_PERCENT_LEVELS} times over (`%2541`, a URL inside a URL's query),
 * - and the key also counts in base64 and base64url (RFC 4648), at each of the three byte alignments it can
 *   have inside a longer encoded value (an HTTP Basic credential, a token), padding left out.
 * Each maximal run found is replaced by `[redacted]`. A key shorter than {@link MIN_PIECE} characters is
 * redacted only where it appears whole (in the same forms). Not covered: pieces shorter than
 * {@link MIN_PIECE} (a key cut by dots into host-name labels of 7 characters), other encodings (hex, HTML
 * entities, which providers' text has had decoded by then, and so on), and non-ASCII case variants.
 */

/** Shortest run of a key's characters that counts as a leaked piece, and is redacted. */
export const MIN_PIECE = 8;

const REDACTED = '[redacted]';

/**
 * `text` with every piece of `secret` (see the module comment for the forms) replaced by `[redacted]`;
 * `text` itself when there is no secret. Apply it before any length cut, so a cut cannot leave a longer
 * piece behind. Cost: O(text length × {@link MIN_PIECE}).
 */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  const pieceLength = Math.min(MIN_PIECE, secret.length);
  const pieces = new Set<string>();
  for (const form of secretForms(secret)) {
    const folded = foldCase(form);
    for (let i = 0; i + pieceLength <= folded.length; i++) pieces.add(folded.slice(i, i + pieceLength));
  }
  const units = decodedUnits(text);
  const folded = foldCase(units.map((u) => u.char).join(''));
  const covered = new Uint8Array(units.length);
  let found = false;
  for (let i = 0; i + pieceLength <= folded.length; i++) {
    if (pieces.has(folded.slice(i, i + pieceLength))) {
      covered.fill(1, i, i + pieceLength);
      found = true;
    }
  }
  if (!found) return text;
  let out = '';
  for (let i = 0; i < units.length; i++) {
    if (!covered[i]) out += text.slice(units[i]!.start, units[i]!.end);
    else if (i === 0 || !covered[i - 1]) out += REDACTED;
  }
  return out;
}

/**
 * `secret` and its base64 and base64url encodings at byte offsets 0, 1 and 2 of a longer value, each cut to
 * the characters that depend on the key's bytes alone (a character also made of a neighbouring byte's bits
 * could be anything).
 */
function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = [secret];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const base64 = encoded.slice(first, end);
    forms.push(base64, base64.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/**
 * Levels of percent-encoding undone before matching: `%41`, `%2541`, `%252541`, `%25252541`. A URL carried in
 * a query parameter of another URL (a redirect or tracking link in a search result) is encoded once more
 * for each level it is nested; four covers any such chain seen in practice.
 */
export const MAX_PERCENT_LEVELS = 4;

/** One character of `text` as read for matching: a `%XX` escape counts as the character it encodes. */
interface Unit {
  readonly char: string;
  readonly start: number;
  readonly end: number;
}

/**
 * The characters of `text` with percent-escapes of ASCII characters undone, up to {@link MAX_PERCENT_LEVELS}
 * levels: each pass merges a `%` unit and two hex-digit units after it into the one character they encode,
 * so a unit may span `%2541` (three levels of source text for one `A`).
 */
function decodedUnits(text: string): Unit[] {
  let units: Unit[] = Array.from({ length: text.length }, (_, i) => ({ char: text[i]!, start: i, end: i + 1 }));
  for (let level = 0; level < MAX_PERCENT_LEVELS; level++) {
    const next: Unit[] = [];
    let merged = false;
    for (let i = 0; i < units.length; i++) {
      const unit = units[i]!;
      const hi = units[i + 1]?.char;
      const lo = units[i + 2]?.char;
      if (unit.char === '%' && hi !== undefined && lo !== undefined && HEX.test(hi + lo) && parseInt(hi + lo, 16) < 0x80) {
        next.push({ char: String.fromCharCode(parseInt(hi + lo, 16)), start: unit.start, end: units[i + 2]!.end });
        i += 2;
        merged = true;
      } else {
        next.push(unit);
      }
    }
    units = next;
    if (!merged) break;
  }
  return units;
}

const HEX = /^[0-9a-fA-F]{2}$/;

/** ASCII letters in lower case, every other character unchanged (so lengths and positions are kept). */
function foldCase(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}
