import { createWriteStream, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { seededRandom } from '../../helpers/seededRandom';

/**
 * The generated tree the `workspace_search` benchmark scans: 2,000 files, about 60 MiB, in 8 × 5 directories
 * (49 directories and 2,048 entries, inside every traversal budget; 60 MiB plus reservations stays inside
 * the 64 MiB read budget). Content is code-like ASCII lines, with non-ASCII comments (accents, CJK, emoji)
 * in about one file in seven. The query {@link CORPUS_QUERY} is planted {@link CORPUS_PLANTED} times in mixed
 * case across the tree — fewer than the 100-result limit, so a search must read every file, as rg does.
 * Everything derives from a fixed seed, so the corpus is identical on every machine.
 */
export const CORPUS_QUERY = 'scoutNeedle';
export const CORPUS_PLANTED = 90;
export const CORPUS_FILES = 2_000;
export const CORPUS_TARGET_BYTES = 60 * 1024 * 1024;
/** Bump when the generator changes, so a stale cached corpus is not reused. */
const CORPUS_VERSION = 1;

/** Where the corpus is kept between runs: outside the repository, under the user's cache folder. */
export function defaultCorpusDir(): string {
  return path.join(os.homedir(), '.cache', 'scout-bench', `workspace-search-v${CORPUS_VERSION}`);
}

/** What a generated corpus holds (saved as `manifest.json` once complete; the files are under `tree/`). */
export interface CorpusManifest {
  readonly version: number;
  /** The directory searched (`<dir>/tree`). */
  readonly root: string;
  readonly files: number;
  readonly bytes: number;
  readonly query: string;
  /** Lines holding the query (one occurrence each). */
  readonly plantedLines: number;
}

const WORDS = [
  'const', 'let', 'return', 'function', 'await', 'async', 'value', 'result', 'index', 'count', 'buffer', 'options',
  'config', 'handler', 'request', 'response', 'error', 'message', 'items', 'length', 'parse', 'format', 'render',
  'update', 'state', 'props', 'context', 'module', 'export', 'import', 'interface', 'string', 'number', 'boolean',
  'promise', 'resolve', 'reject', 'callback', 'listener', 'event', 'target', 'source', 'stream', 'chunk', 'offset',
];
const NON_ASCII = ['// Größe prüfen', '// café déjà vu', '// 检查输入的长度', '// ✅ geprüft 🚀', '// Ελληνικά σχόλια', '// Привет, мир'];
const CASES = ['scoutNeedle', 'ScoutNeedle', 'SCOUTNEEDLE', 'scoutneedle'];

/**
 * Creates the corpus under `dir/tree` unless a complete one of this version is already there (the
 * manifest, which names the query, stays outside the searched tree). Files are written one at a time
 * through a stream, so generation needs little memory.
 */
export async function ensureCorpus(dir: string = defaultCorpusDir()): Promise<CorpusManifest> {
  const manifestPath = path.join(dir, 'manifest.json');
  const root = path.join(dir, 'tree');
  const existing = await fs.readFile(manifestPath, 'utf8').then((t) => JSON.parse(t) as CorpusManifest).catch(() => undefined);
  if (existing?.version === CORPUS_VERSION) return { ...existing, root };
  await fs.rm(dir, { recursive: true, force: true });
  const rand = seededRandom(0x5c0_07);
  // Log-normal-ish sizes, scaled so they add up to the target.
  const weights = Array.from({ length: CORPUS_FILES }, () => Math.exp(rand() * 3.5));
  const scale = CORPUS_TARGET_BYTES / weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(200, Math.round(w * scale)));
  const planted = new Map<number, number>();
  for (let k = 0; k < CORPUS_PLANTED; k++) {
    const file = Math.floor(((k + rand()) / CORPUS_PLANTED) * CORPUS_FILES);
    planted.set(file, (planted.get(file) ?? 0) + 1);
  }
  let bytes = 0;
  for (let i = 0; i < CORPUS_FILES; i++) {
    const folder = path.join(root, `pkg${Math.floor(i / 250)}`, `part${Math.floor((i % 250) / 50)}`);
    await fs.mkdir(folder, { recursive: true });
    const lines: string[] = [];
    let size = 0;
    const unicode = rand() < 1 / 7;
    while (size < sizes[i]!) {
      let line = '  '.repeat(Math.floor(rand() * 4));
      const wordCount = 3 + Math.floor(rand() * 12);
      for (let w = 0; w < wordCount; w++) line += `${WORDS[Math.floor(rand() * WORDS.length)]}${rand() < 0.3 ? '(' : ' '}`;
      if (unicode && rand() < 0.2) line += NON_ASCII[Math.floor(rand() * NON_ASCII.length)];
      lines.push(line);
      size += Buffer.byteLength(line) + 1;
    }
    for (let p = planted.get(i) ?? 0; p > 0; p--) {
      const at = Math.floor(rand() * lines.length);
      lines[at] = `${lines[at]} ${CASES[Math.floor(rand() * CASES.length)]} here`;
    }
    const file = path.join(folder, `file${String(i).padStart(4, '0')}.ts`);
    const out = createWriteStream(file);
    for (const line of lines) {
      if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    bytes += (await fs.stat(file)).size;
  }
  const manifest: CorpusManifest = { version: CORPUS_VERSION, root, files: CORPUS_FILES, bytes, query: CORPUS_QUERY, plantedLines: CORPUS_PLANTED };
  await fs.writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  return manifest;
}
