import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { seededRandom } from '../helpers/seededRandom';

/**
 * The generated source tree the glob and grep benchmarks run on: 50,000 files, about 300 MiB.
 *
 * - `packages/`, `apps/`, `docs/`, `scripts/`, `vendor/`, `fixtures/`, `i18n/`, `assets/` hold source-like
 *   text (TypeScript-, Python-, Go-, Markdown-, JSON-flavoured lines) with log-uniform sizes, directories
 *   up to 16 levels deep, and a few minified files with lines of 5,000–60,000 bytes;
 * - a few hundred hidden files (`.github/`, `.vscode/`, `.config/`, dotfiles inside packages) and a `.git/`;
 * - a few hundred files ignored by the root `.gitignore` (`build/`, `coverage/`, `*.tmp`); `.git/` makes the
 *   tree a repository, because rg honours `.gitignore` only inside one;
 * - file names that are not UTF-8 (Latin-1 bytes and a stray 0xFF) under `i18n/legacy/`;
 * - binary files (with NUL bytes) under `assets/`, which grep skips;
 * - one 20 MiB log file, `fixtures/logs/server-2025.log`;
 * - modification times at whole seconds spread over 2025, except `vendor/` (one batch sharing one
 *   timestamp, as a checkout leaves), so `--sort=modified` meets both distinct times and ties.
 *
 * Two tokens are planted on whole lines: {@link SELECTIVE_TOKEN} on exactly {@link SELECTIVE_VISIBLE} lines
 * that grep sees (plus some in hidden and ignored files, which it must skip), and {@link BROAD_TOKEN} on
 * {@link BROAD_VISIBLE} lines, sized so rg's `--json` output for it stays just under the 20,000,000-byte
 * raw-output cap. Everything derives from one seed: the tree is byte-identical on every machine.
 */
export const SELECTIVE_TOKEN = 'scoutBenchNeedle';
export const SELECTIVE_VISIBLE = 10_000;
export const BROAD_TOKEN = 'scoutBenchBroad';
export const BROAD_VISIBLE = 39_500;
export const CORPUS_FILES = 50_000;
export const CORPUS_TARGET_BYTES = 300 * 1024 * 1024;
const LOG_BYTES = 20 * 1024 * 1024;
/** Bump when the generator changes, so a stale cached corpus is regenerated. */
const CORPUS_VERSION = 1;
const SEED = 0x5c0_7be7;

/** Where the corpus is kept between runs: outside the repository, under the user's cache folder. */
export function defaultCorpusDir(): string {
  return path.join(os.homedir(), '.cache', 'scout-bench', `corpus-v${CORPUS_VERSION}`);
}

/** What a generated corpus holds; saved as `manifest.json` beside `tree/` once generation completed. */
export interface CorpusManifest {
  readonly version: number;
  /** The tree the benchmarks search (`<dir>/tree`), set when read back. */
  readonly root: string;
  /** Regular files under `tree/`, every kind included. */
  readonly files: number;
  /** Their total size in bytes. */
  readonly bytes: number;
  readonly hiddenFiles: number;
  readonly ignoredFiles: number;
  readonly binaryFiles: number;
  readonly nonUtf8Names: number;
  readonly maxDepth: number;
  readonly logFile: { readonly path: string; readonly bytes: number };
  readonly selective: { readonly token: string; readonly visibleLines: number; readonly hiddenOrIgnoredLines: number };
  readonly broad: { readonly token: string; readonly visibleLines: number };
  /** Modification times, seconds since the epoch. */
  readonly mtimes: { readonly min: number; readonly max: number; readonly tiedBatch: number };
  /** Seconds the generation took (informational). */
  readonly generatedInSeconds: number;
}

/**
 * Returns the corpus under `dir`, generating it first unless a complete one of this version is there
 * (`manifest.json` is written last, so an interrupted generation is redone from scratch).
 *
 * @param log receives one line when generation starts and one when it ends.
 */
export function ensureCorpus(dir: string = defaultCorpusDir(), log: (line: string) => void = () => undefined): CorpusManifest {
  const manifestPath = path.join(dir, 'manifest.json');
  const root = path.join(dir, 'tree');
  if (existsSync(manifestPath)) {
    const existing = JSON.parse(readFileSync(manifestPath, 'utf8')) as CorpusManifest;
    if (existing.version === CORPUS_VERSION) return { ...existing, root };
  }
  log(`generating the benchmark corpus in ${dir} (once; about a minute)…`);
  const started = performance.now();
  rmSync(dir, { recursive: true, force: true });
  const stats = writeTree(root);
  const manifest: CorpusManifest = { version: CORPUS_VERSION, root, ...stats, generatedInSeconds: Math.round((performance.now() - started) / 100) / 10 };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  log(`corpus ready: ${manifest.files} files, ${(manifest.bytes / 2 ** 20).toFixed(0)} MiB in ${manifest.generatedInSeconds} s`);
  return manifest;
}

// ---------------------------------------------------------------------------------------------------------

type Kind = 'source' | 'minified' | 'hidden' | 'ignored' | 'binary' | 'vcs' | 'log';

interface PlannedFile {
  /** Path below the tree root, `/`-separated; a Buffer when the name is not UTF-8. */
  readonly rel: string | Buffer;
  readonly kind: Kind;
  /** Target size in bytes (content is generated to at least this size). */
  size: number;
  mtime: number;
  selective: number;
  broad: number;
}

const WORDS = (
  'value result index count buffer options config handler request response error message items length ' +
  'parse format render update state props context module stream chunk offset target source event listener ' +
  'cache entry record node tree path query token scope range limit budget worker queue task batch signal ' +
  'reader writer store client server session user account order invoice payment widget layout theme style'
).split(' ');
const TYPES = ['string', 'number', 'boolean', 'Buffer', 'Promise<void>', 'Record<string, unknown>', 'Options', 'Result', 'Node', 'Config'];
const DIR_WORDS = [
  'src', 'lib', 'core', 'utils', 'internal', 'components', 'handlers', 'services', 'models', 'views', 'api', 'common',
  'helpers', 'adapters', 'parsers', 'render', 'state', 'store', 'io', 'net', 'util', 'shared', 'features', 'impl',
];
const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'js', 'py', 'go', 'rs', 'md', 'json', 'css', 'yaml'];

/** Lines are drawn from a fixed pool: fast to generate, and still varied like source text. */
function linePool(rand: () => number, size: number): string[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const id = (): string => `${pick(WORDS)}${rand() < 0.5 ? pick(WORDS).replace(/^./, (c) => c.toUpperCase()) : ''}`;
  const type = (): string => pick(TYPES);
  const templates: (() => string)[] = [
    () => `const ${id()} = ${id()}(${id()}, ${Math.floor(rand() * 1000)});`,
    () => `import { ${id()}, ${id()} } from './${id()}';`,
    () => `export function ${id()}(${id()}: ${type()}, ${id()}: ${type()}): ${type()} {`,
    () => `return ${id()}.${id()}(${id()});`,
    () => `// ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} before the ${pick(WORDS)} is ${pick(WORDS)}`,
    () => `if (${id()} === ${Math.floor(rand() * 100)} && !${id()}) {`,
    () => '}',
    () => `${id()}: ${type()};`,
    () => `def ${id()}(self, ${id()}, ${id()}=None):`,
    () => `func (${id()} *${id()}) ${id()}(${id()} ${type()}) error {`,
    () => `  "${id()}": "${pick(WORDS)}-${Math.floor(rand() * 100)}",`,
    () => `for (const ${id()} of ${id()}.${id()}) ${id()}.push(${id()});`,
    () => `throw new Error(\`${pick(WORDS)} ${pick(WORDS)} failed: \${${id()}}\`);`,
    () => `- ${pick(WORDS)} the ${pick(WORDS)} with \`${id()}\` when ${pick(WORDS)} is ${pick(WORDS)}.`,
    () => '',
  ];
  const pool: string[] = [];
  for (let i = 0; i < size; i++) pool.push(`${'  '.repeat(Math.floor(rand() * 5))}${pick(templates)()}`);
  return pool;
}

function plannedTree(rand: () => number): { files: PlannedFile[]; maxDepth: number; dirs: Set<string> } {
  const files: PlannedFile[] = [];
  const taken = new Set<string>();
  const dirs = new Set<string>();
  let maxDepth = 0;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const add = (dir: string, base: string, ext: string, kind: Kind): void => {
    const prefix = dir === '.' ? '' : `${dir}/`;
    const suffix = ext ? `.${ext}` : '';
    let rel = `${prefix}${base}${suffix}`;
    for (let n = 2; taken.has(rel); n++) rel = `${prefix}${base}${n}${suffix}`;
    taken.add(rel);
    dirs.add(path.posix.dirname(rel));
    maxDepth = Math.max(maxDepth, rel.split('/').length);
    files.push({ rel, kind, size: 0, mtime: 0, selective: 0, broad: 0 });
  };
  const name = (): string => `${pick(WORDS)}${pick(WORDS).replace(/^./, (c) => c.toUpperCase())}`;
  /** A subtree: `count` directories below `base`, each child of a recent one, so depths vary up to `maxLevels`. */
  const subtree = (base: string, count: number, maxLevels: number): string[] => {
    const made: { dir: string; level: number }[] = [{ dir: base, level: 0 }];
    for (let i = 1; i < count; i++) {
      let parent = made[made.length - 1 - Math.floor(rand() ** 3 * made.length)]!;
      if (parent.level >= maxLevels) parent = made[0]!;
      made.push({ dir: `${parent.dir}/${pick(DIR_WORDS)}${i % 7 === 0 ? `-${i}` : ''}`, level: parent.level + 1 });
    }
    return [...new Set(made.map((m) => m.dir))];
  };

  // Fixed parts first, then the packages fill the rest up to CORPUS_FILES (the root .gitignore included).
  for (const f of ['HEAD', 'config', 'description', 'index', 'packed-refs', 'refs/heads/main', 'logs/HEAD']) add('.git', f, '', 'vcs');
  for (let i = 0; i < 13; i++) add(`.git/objects/${(i * 37).toString(16).padStart(2, '0')}`, `${(i * 7919).toString(16)}object`, 'pack', 'vcs');
  for (let i = 0; i < 20; i++) add('.github/workflows', name(), 'yml', 'hidden');
  for (let i = 0; i < 5; i++) add('.vscode', name(), 'json', 'hidden');
  for (const dir of subtree('.config', 12, 3)) for (let i = 0; i < 12; i++) add(dir, name(), pick(['json', 'toml', 'yaml']), 'hidden');
  for (const f of ['README', 'package', 'tsconfig', 'CHANGELOG', 'LICENSE']) add('.', f, f === 'package' || f === 'tsconfig' ? 'json' : 'md', 'source');
  for (const dir of subtree('build', 15, 4)) for (let i = 0; i < 10; i++) add(dir, name(), 'js', 'ignored');
  for (const dir of subtree('coverage', 10, 3)) for (let i = 0; i < 10; i++) add(dir, name(), 'html', 'ignored');
  for (const dir of subtree('assets', 8, 2)) for (let i = 0; i < 25; i++) add(dir, name(), pick(['png', 'woff2', 'ico']), 'binary');
  for (const dir of subtree('docs', 60, 5)) for (let i = 0; i < 25; i++) add(dir, name(), 'md', 'source');
  for (const dir of subtree('scripts', 8, 2)) for (let i = 0; i < 25; i++) add(dir, name(), pick(['sh', 'py', 'mjs']), 'source');
  for (const dir of subtree('vendor/libtiles', 40, 6)) for (let i = 0; i < 25; i++) add(dir, name(), pick(['c', 'h', 'js']), 'source');
  for (const dir of subtree('fixtures', 20, 4)) for (let i = 0; i < 25; i++) add(dir, name(), pick(['json', 'txt', 'snap']), 'source');
  for (const dir of subtree('i18n', 12, 2)) for (let i = 0; i < 25; i++) add(dir, name(), 'json', 'source');
  for (let i = 0; i < 20; i++) add(`apps/web/public/static`, `bundle-${i}.min`, 'js', 'minified');
  files.push({ rel: 'fixtures/logs/server-2025.log', kind: 'log', size: LOG_BYTES, mtime: 0, selective: 0, broad: 0 });
  dirs.add('fixtures/logs');
  // Names that are not UTF-8: Latin-1 é / ü / ß and a stray 0xFF, as old archives carry.
  const latin1 = [Buffer.from([0x72, 0xe9, 0x73, 0x75, 0x6d, 0xe9]), Buffer.from([0x6d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]), Buffer.from([0x73, 0x74, 0x72, 0x61, 0xdf, 0x65]), Buffer.from([0x62, 0x61, 0x64, 0xff])];
  for (let i = 0; i < 60; i++) {
    files.push({ rel: Buffer.concat([Buffer.from('i18n/legacy/'), latin1[i % latin1.length]!, Buffer.from(`-${i}.txt`)]), kind: 'source', size: 0, mtime: 0, selective: 0, broad: 0 });
  }
  dirs.add('i18n/legacy');

  const apps = ['web', 'desktop', 'admin'];
  for (const app of apps) for (const dir of subtree(`apps/${app}/src`, 90, 10)) for (let i = 0; i < 15; i++) add(dir, name(), pick(EXTENSIONS), 'source');

  // Packages: hidden dotfiles and ignored *.tmp beside the sources, the rest source files.
  const packages = Array.from({ length: 40 }, (_, i) => `packages/${pick(WORDS)}-${i}`);
  for (const pkg of packages) {
    for (const dot of ['.eslintrc', '.npmignore', '.prettierrc']) add(pkg, dot, 'json', 'hidden');
    add(`${pkg}/src`, name(), 'tmp', 'ignored');
  }
  const pkgDirs = packages.map((pkg) => [...subtree(`${pkg}/src`, 55, 12), ...subtree(`${pkg}/test`, 8, 3)]);
  let p = 0;
  while (files.length < CORPUS_FILES - 1) {
    const list = pkgDirs[p++ % pkgDirs.length]!;
    add(pick(list), name(), pick(EXTENSIONS), 'source');
  }
  return { files, maxDepth, dirs };
}

/** The root .gitignore: what the `ignored` files match. */
const GITIGNORE = 'build/\ncoverage/\n*.tmp\n';

function writeTree(root: string): Omit<CorpusManifest, 'version' | 'root' | 'generatedInSeconds'> {
  const rand = seededRandom(SEED);
  const { files, maxDepth, dirs } = plannedTree(rand);
  const pool = linePool(rand, 20_000);

  // Sizes: log-uniform weights over a factor of ~100, scaled so the tree totals CORPUS_TARGET_BYTES.
  const fixedBytes = LOG_BYTES;
  const sized = files.filter((f) => f.kind !== 'log');
  const weights = sized.map((f) => (f.kind === 'minified' ? 60 : 1) * Math.exp(rand() * 4.6));
  const scale = (CORPUS_TARGET_BYTES - fixedBytes) / weights.reduce((a, b) => a + b, 0);
  sized.forEach((f, i) => (f.size = Math.max(40, Math.round(weights[i]! * scale))));

  // Modification times: whole seconds over 2025; vendor/ shares one timestamp.
  const year = Date.UTC(2025, 0, 1) / 1000;
  const tied = year + 200 * 86_400;
  let tiedBatch = 0;
  for (const f of files) {
    const isVendor = typeof f.rel === 'string' && f.rel.startsWith('vendor/');
    f.mtime = isVendor ? tied : year + Math.floor(rand() * 365 * 86_400);
    if (isVendor) tiedBatch++;
  }

  // Planted lines. grep searches text files that are neither hidden nor ignored.
  const searchable = files.filter((f) => f.kind === 'source' || f.kind === 'minified');
  const nonUtf8 = searchable.filter((f) => typeof f.rel !== 'string');
  const minified = files.filter((f) => f.kind === 'minified');
  for (let i = 0; i < 20; i++) nonUtf8[i % nonUtf8.length]!.selective++;
  for (let i = 0; i < 10; i++) minified[i % minified.length]!.selective++;
  for (let i = 30; i < SELECTIVE_VISIBLE; i++) searchable[Math.floor(rand() * searchable.length)]!.selective++;
  const hiddenOrIgnored = files.filter((f) => f.kind === 'hidden' || f.kind === 'ignored');
  for (let i = 0; i < 80; i++) hiddenOrIgnored[Math.floor(rand() * hiddenOrIgnored.length)]!.selective++;
  // The broad token clusters in a third of the searchable files, a few lines each.
  const broadFiles = searchable.filter(() => rand() < 1 / 3);
  for (let i = 0; i < BROAD_VISIBLE; i++) broadFiles[Math.floor(rand() * broadFiles.length)]!.broad++;
  for (let i = 0; i < 40; i++) hiddenOrIgnored[Math.floor(rand() * hiddenOrIgnored.length)]!.broad++;

  mkdirSync(root, { recursive: true });
  for (const dir of dirs) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, '.gitignore'), GITIGNORE);
  let bytes = Buffer.byteLength(GITIGNORE);
  for (const f of files) {
    const content = fileContent(f, rand, pool);
    const target = typeof f.rel === 'string' ? path.join(root, f.rel) : Buffer.concat([Buffer.from(`${root}/`), f.rel]);
    writeFileSync(target, content);
    utimesSync(target, f.mtime, f.mtime);
    bytes += content.length;
  }
  utimesSync(path.join(root, '.gitignore'), year, year);

  const count = (kind: Kind): number => files.filter((f) => f.kind === kind).length;
  return {
    files: files.length + 1,
    bytes,
    hiddenFiles: count('hidden') + count('vcs') + 1,
    ignoredFiles: count('ignored'),
    binaryFiles: count('binary'),
    nonUtf8Names: nonUtf8.length,
    maxDepth,
    logFile: { path: 'fixtures/logs/server-2025.log', bytes: files.find((f) => f.kind === 'log')!.size },
    selective: { token: SELECTIVE_TOKEN, visibleLines: SELECTIVE_VISIBLE, hiddenOrIgnoredLines: 80 },
    broad: { token: BROAD_TOKEN, visibleLines: BROAD_VISIBLE },
    mtimes: { min: Math.min(...files.map((f) => f.mtime)), max: Math.max(...files.map((f) => f.mtime)), tiedBatch },
  };
}

function fileContent(f: PlannedFile, rand: () => number, pool: readonly string[]): Buffer {
  if (f.kind === 'binary' || f.kind === 'vcs') {
    const out = Buffer.alloc(f.size);
    // Random bytes with a NUL every 64 bytes, so rg's binary detection skips the file.
    for (let i = 0; i + 4 <= out.length; i += 4) out.writeUInt32LE(((rand() * 2 ** 32) & (i % 64 === 0 ? 0xffff00 : ~0)) >>> 0, i);
    return out;
  }
  if (f.kind === 'log') return logContent(f.size, rand);
  const lines: string[] = [];
  let size = 0;
  const long = f.kind === 'minified';
  while (size < f.size || lines.length < f.selective + f.broad) {
    let line = pool[Math.floor(rand() * pool.length)]!;
    if (long) {
      const parts: string[] = [];
      const target = 5_000 + Math.floor(rand() * 55_000);
      for (let n = 0; n < target; n += line.length + 1) parts.push((line = pool[Math.floor(rand() * pool.length)]!.trim()));
      line = parts.join(';');
    }
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  // Planted lines replace distinct lines: one token per line, so planted lines equal rg's matched lines.
  const slots = new Set<number>();
  const plant = (n: number, token: string): void => {
    for (let k = 0; k < n; k++) {
      let at = Math.floor(rand() * lines.length);
      while (slots.has(at)) at = (at + 1) % lines.length;
      slots.add(at);
      const head = lines[at]!;
      const cut = long ? Math.floor(rand() * head.length) : head.length - head.trimStart().length;
      lines[at] = `${head.slice(0, cut)}${token}(${WORDS[k % WORDS.length]}); ${head.slice(cut)}`;
    }
  };
  plant(f.selective, SELECTIVE_TOKEN);
  plant(f.broad, BROAD_TOKEN);
  return Buffer.from(`${lines.join('\n')}\n`);
}

function logContent(size: number, rand: () => number): Buffer {
  const levels = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'];
  const routes = ['/api/items', '/api/orders', '/api/session', '/healthz', '/static/app.js', '/api/search'];
  const lines: string[] = [];
  let bytes = 0;
  let t = Date.UTC(2025, 5, 1);
  while (bytes < size) {
    t += Math.floor(rand() * 900);
    const line = `${new Date(t).toISOString()} ${levels[Math.floor(rand() * levels.length)]} [worker-${Math.floor(rand() * 8)}] request id=${Math.floor(rand() * 1e9).toString(36)} path=${routes[Math.floor(rand() * routes.length)]} status=${rand() < 0.95 ? 200 : 500} ms=${Math.floor(rand() * 400)}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}
