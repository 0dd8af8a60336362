/**
 * Redaction of a search provider's API key from everything Scout shows (issue 5: keys never appear in
 * results, errors or logs, even when a provider echoes them; issue 16: not in another case, encoding or
 * piece either).
 *
 * The guarantee ({@link redactSecret}): after redaction, `text` holds no run of {@link MIN_PIECE} or more
 * consecutive characters of the key, where
 * - ASCII letters match in either case (a host name comes back lowercased, an error may upper-case it),
 * - each character may also be written percent-encoded (`%41` or `%61` for `A`, hex digits in either case),
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

/** One character of `text` as read for matching: a `%XX` escape counts as the character it encodes. */
interface Unit {
  readonly char: string;
  readonly start: number;
  readonly end: number;
}

function decodedUnits(text: string): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < text.length; ) {
    const escape = text[i] === '%' ? /^%([0-9a-fA-F]{2})/.exec(text.slice(i, i + 3)) : null;
    if (escape && parseInt(escape[1]!, 16) < 0x80) {
      units.push({ char: String.fromCharCode(parseInt(escape[1]!, 16)), start: i, end: i + 3 });
      i += 3;
    } else {
      units.push({ char: text[i]!, start: i, end: i + 1 });
      i += 1;
    }
  }
  return units;
}

/** ASCII letters in lower case, every other character unchanged (so lengths and positions are kept). */
function foldCase(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}
