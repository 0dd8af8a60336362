import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
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

/** What {@link makeRealisticWorkspace} adds besides the ordinary files. */
export interface RealisticOptions {
  /**
   * Entries an unprivileged user cannot read: `locked/` and `locked.txt` (mode 000), `private/` (mode 700, so
   * only its owner, root when the tests run as root, reads it), and `deep/…/deep.txt` at a path longer than
   * PATH_MAX (4,096 bytes), which no one can open by its path. Each holds "needle".
   */
  readonly unreadable?: boolean;
}

/** A workspace made by {@link makeRealisticWorkspace}. */
export interface RealisticWorkspace {
  readonly root: string;
  /** The token in `.git/config`'s remote URL: it must never show in a result. */
  readonly token: string;
  /** Removes everything (restoring permissions first). */
  remove(): void;
}

/** The token planted in the fixture's `.git/config`. */
const GIT_TOKEN = 'ghp_SCOUTFIXTURETOKEN0123456789';

/**
 * Files of {@link makeRealisticWorkspace}: the word "needle" is in files grep searches, "onlyskipped" only in
 * files it skips (hidden, git-ignored, or both).
 */
export const REALISTIC_FILES: Readonly<Record<string, string>> = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.git/config': `[remote "origin"]\n\turl = https://dev:${GIT_TOKEN}@github.com/acme/app.git\n`,
  '.gitignore': 'node_modules/\ndist/\n*.log\npackages/*/build/\nfoo/bar/\n.env\n',
  'package.json': '{ "name": "app", "private": true }\n',
  'src/app.ts': 'import { util } from "./lib/util";\nexport const app = util("needle");\n',
  'src/lib/util.ts': 'export function util(s: string): string {\n  return s;\n}\n',
  'src/lib/.generated.ts': 'export const generated = "onlyskipped";\n',
  '.hidden.ts': 'export const top = "onlyskipped";\n',
  '.hid/nested.ts': 'export const nested = "onlyskipped";\n',
  '.cache/data.txt': 'onlyskipped cache entry\n',
  '.github/workflows/ci.yml': 'run: npm test # onlyskipped\n',
  '.env': 'API_KEY=onlyskipped\n',
  'node_modules/left-pad/index.js': 'module.exports = "onlyskipped";\n',
  'node_modules/left-pad/package.json': '{ "name": "left-pad" }\n',
  'dist/app.js': 'var app = "onlyskipped";\n',
  'dist/app.js.map': '{"version":3}\n',
  'logs/server.log': 'ERROR onlyskipped\n',
  'packages/api/src/server.ts': 'export const server = "needle";\n',
  'packages/api/build/server.js': 'var server = "onlyskipped";\n',
  'foo/bar/x.txt': 'onlyskipped under foo/bar\n',
  'foo/y.txt': 'plain text\n',
  'docs/guide.md': '# Guide\n\nneedle in the docs\n',
};

/**
 * A workspace shaped like a real repository ({@link REALISTIC_FILES}): a `.git` folder whose config holds a
 * token, a `.gitignore` (node_modules/, dist/, *.log, packages/\*\/build/, foo/bar/, .env), dot folders and
 * dot-files at the top and below, and optionally entries that cannot be read ({@link RealisticOptions}).
 * Directories are mode 755 and files 644 (the root too), so another user can read what is meant to be read.
 */
export function makeRealisticWorkspace(options: RealisticOptions = {}): RealisticWorkspace {
  const root = makeTree(REALISTIC_FILES);
  const locked: string[] = [];
  if (options.unreadable) {
    writeEntry(path.join(root, 'locked/secret.txt'), 'needle locked away\n');
    writeEntry(path.join(root, 'locked.txt'), 'needle in a locked file\n');
    writeEntry(path.join(root, 'private/data.txt'), 'needle in a private folder\n');
    makeTooLongPath(root, 'deep', 'deep.txt', 'needle too deep\n');
  }
  openUp(root);
  if (options.unreadable) {
    chmodSync(path.join(root, 'private'), 0o700);
    for (const rel of ['locked', 'locked.txt']) {
      chmodSync(path.join(root, rel), 0o000);
      locked.push(path.join(root, rel));
    }
  }
  return {
    root,
    token: GIT_TOKEN,
    remove: () => {
      for (const entry of locked) chmodSync(entry, 0o755);
      // rm copes with paths longer than PATH_MAX (it works relative to each directory); rmSync does not.
      execFileSync('rm', ['-rf', root]);
    },
  };
}

/** Length of each directory name in {@link makeTooLongPath}: 17 of them make a path over 4,096 bytes. */
const LONG_NAME = 250;

/**
 * Writes `root/dir/<17 names of 250 characters>/file`, a path over PATH_MAX. It is made with short names, then
 * renamed from the deepest up, so no system call ever gets a path that long.
 */
function makeTooLongPath(root: string, dir: string, file: string, content: string): void {
  const levels = 17;
  const short = Array.from({ length: levels }, (_, i) => `d${i}`);
  writeEntry(path.join(root, dir, ...short, file), content);
  for (let i = 0; i <= levels; i++) chmodSync(path.join(root, dir, ...short.slice(0, i)), 0o755);
  for (let i = levels - 1; i >= 0; i--) {
    const parent = path.join(root, dir, ...short.slice(0, i));
    renameSync(path.join(parent, short[i]!), path.join(parent, `d${String(i).padStart(2, '0')}${'x'.repeat(LONG_NAME - 3)}`));
  }
}

/** Makes every directory under `root` (not below a too-long path) mode 755 and every file 644. */
function openUp(root: string): void {
  chmodSync(root, 0o755);
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) {
      if (full.length + LONG_NAME > 3000) continue;
      openUp(full);
    } else if (entry.isFile()) chmodSync(full, 0o644);
  }
}
