import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A file's content, or a symlink to create (`target` is written verbatim, so it may be relative). */
export type TreeEntry = string | Buffer | { readonly symlink: string };

/**
 * Creates a fresh directory under the OS temp folder holding `entries` (relative path → content), with
 * parent directories made as needed, and returns its realpath. Paths are `/`-separated; a path given as a
 * Buffer-keyed pair in `rawNames` may hold bytes that are not UTF-8.
 */
export function makeTree(entries: Record<string, TreeEntry>, rawNames: readonly (readonly [Buffer, TreeEntry])[] = []): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'scout-test-')));
  for (const [rel, entry] of Object.entries(entries)) writeEntry(path.join(root, rel), entry);
  for (const [name, entry] of rawNames) writeEntry(Buffer.concat([Buffer.from(`${root}/`), name]), entry);
  return root;
}

function writeEntry(file: string | Buffer, entry: TreeEntry): void {
  const dir = typeof file === 'string' ? path.dirname(file) : path.dirname(file.toString('latin1'));
  mkdirSync(dir, { recursive: true });
  if (typeof entry === 'object' && !Buffer.isBuffer(entry)) symlinkSync(entry.symlink, file);
  else writeFileSync(file, entry);
}

/** Sets the modification time of `root/rel` to `seconds` since the epoch. */
export function setMtime(root: string, rel: string, seconds: number): void {
  utimesSync(path.join(root, rel), seconds, seconds);
}

/** Removes a tree made by {@link makeTree}. */
export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/**
 * Writes `files` files of `bytesPerFile` bytes each under `root/dir`, spread over 10 subdirectories: text of
 * accented words that makes a Unicode-word-boundary regex (see {@link SLOW_PATTERN}) crawl.
 */
export function writeSlowCorpus(root: string, dir: string, files: number, bytesPerFile: number): void {
  const words = ['alpha', 'bêta', 'gamma', 'délta', 'epsilon', 'zêta', 'ëta', 'thêta', 'iota', 'kappa'];
  let line = '';
  let state = 7;
  while (line.length < 200) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    line += `${words[state % words.length]} `;
  }
  const block = `${line}\n`.repeat(Math.ceil(bytesPerFile / (line.length + 1)));
  for (let i = 0; i < files; i++) {
    const sub = path.join(root, dir, `d${i % 10}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, `f${i}.txt`), block);
  }
}

/**
 * A regex rg searches slowly over {@link writeSlowCorpus} text (about 1–2 MB/s per thread): Unicode word
 * boundaries on non-ASCII text force its slowest engine, and the pattern has no literal to prefilter on.
 */
export const SLOW_PATTERN = '(?:\\b\\w+\\b\\W+){40}\\d';
