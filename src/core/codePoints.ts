/**
 * The first `max` UTF-16 code units of `text`, one fewer when the cut would split a surrogate pair, so the
 * result never ends in half a character.
 */
export function cutAtCodePoint(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * Bytes of a body that can hold its first `maxChars` UTF-16 code units in any encoding Scout decodes: every
 * one needs at most 4 bytes per code point (UTF-8, GB18030, UTF-16 surrogate pairs), plus one partial
 * sequence at the end. Decoding only this prefix keeps the cost proportional to `maxChars`.
 */
export function bytesForChars(maxChars: number): number {
  return maxChars * 4 + 4;
}
