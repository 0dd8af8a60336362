import { isUtf8 } from 'node:buffer';

/** One path of rg's NUL-separated output: its text, and its exact bytes (base64) when they are not UTF-8. */
export interface ListedPath {
  /** The path, decoded lossily (U+FFFD) when it is not UTF-8. */
  readonly path: string;
  /** The exact bytes of a name that is not valid UTF-8, base64; undefined otherwise. */
  readonly base64?: string;
}

/**
 * Decodes the path `out[start, end)` of `rg --files --null` (or `--files-with-matches --null`) output, `strip`
 * leading bytes dropped (see `outputPrefixLength` in search/target.ts).
 */
export function decodePath(out: Buffer, start: number, end: number, strip: number): ListedPath {
  const from = Math.min(start + strip, end);
  const path = out.toString('utf8', from, end);
  return path.includes('\uFFFD') && !isUtf8(out.subarray(from, end)) ? { path, base64: out.toString('base64', from, end) } : { path };
}

/**
 * Decodes `rg --files --null` output: paths each ended by a NUL byte, `strip` leading bytes dropped from
 * each (see `outputPrefixLength`). Names that are not valid UTF-8 are decoded lossily (U+FFFD) and also
 * listed with their exact bytes. All-UTF-8 output (the common case) is decoded in one pass and split;
 * otherwise each name is decoded on its own, which keeps the UTF-8 names in compact one-byte strings.
 */
export function decodePathList(out: Buffer, strip: number): { paths: string[]; nonUtf8Paths: { index: number; base64: string }[] } {
  const nonUtf8Paths: { index: number; base64: string }[] = [];
  if (out.length === 0) return { paths: [], nonUtf8Paths };
  if (isUtf8(out)) {
    const records = out.toString('utf8', 0, out[out.length - 1] === 0 ? out.length - 1 : out.length).split('\0');
    return { paths: strip ? records.map((p) => p.slice(strip)) : records, nonUtf8Paths };
  }
  const paths: string[] = [];
  for (let cursor = 0; cursor < out.length; ) {
    let stop = out.indexOf(0, cursor);
    if (stop < 0) stop = out.length;
    const { path, base64 } = decodePath(out, cursor, stop, strip);
    if (base64 !== undefined) nonUtf8Paths.push({ index: paths.length, base64 });
    paths.push(path);
    cursor = stop + 1;
  }
  return { paths, nonUtf8Paths };
}
