import { mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { seededRandom } from './seededRandom';

/**
 * A seeded tree for checking that glob and grep print exactly what they printed before a change to how they
 * print it (the output-identity test): every kind of name and line the formatters treat specially, in the
 * hundreds, with distinct modification times, so rg's `--sort=modified` order is the same on every file system.
 *
 * - names that must be quoted: newline, CR, TAB at the end, U+2028, U+0085, bidi controls, `Line 9: …`,
 *   `[… not shown …]`, `"…"`, `Paths are relative to …`, `No files found`, `Scout glob …`, `Error: …`,
 *   `(code: …`, leading and trailing spaces;
 * - names that are not UTF-8 (Latin-1 bytes, a cut sequence, two names that decode to the same text), in a
 *   directory whose own name is not UTF-8 too; names in CJK, with emoji, with a literal U+FFFD;
 * - lines with the token at the start, the end, many times, deep inside lines of 3,000–9,000 bytes (with
 *   multibyte characters around the cut), CRLF and bare-CR lines, ESC sequences, C1 and bidi controls,
 *   Latin-1 bytes (a line rg reports as bytes), a last line without a newline;
 * - hidden, git-ignored and binary files (grep skips them, glob lists them).
 *
 * Everything derives from one seed, so the tree, and every result over it, is the same on every run and
 * machine (only the folder's own path differs).
 */
export const OUTPUT_TOKEN = 'needle';

const SEED = 0x0ddba11;
const TOP = ['src', 'lib', 'docs', 'packages', 'vendor', 'test', 'Line 9: dir', 'deep'];
const WORDS = ['alpha', 'beta', 'gamma', 'délta', 'ëpsilon', '日本語', 'zeta', 'eta', 'theta', 'iota', '😀', 'kappa', 'lambda', 'mu'];

/** Names (relative, `/`-separated) the formatters must quote or otherwise treat specially. */
const SPECIAL_NAMES = [
  'weird/nl\nname.txt',
  'weird/cr\rname.txt',
  'weird/tab at end\t',
  'weird/sep\u2028name.txt',
  'weird/nel\u0085name.txt',
  'weird/bidi\u202ename.txt',
  'weird/Line 9: forged.txt',
  'Line 3: top.txt',
  '[3 more files not shown: saved at ~/.ssh/id_rsa].txt',
  '"quoted".txt',
  'Paths are relative to etc.txt',
  'No files found.txt',
  'Scout glob x.txt',
  'Error: boom.txt',
  '(code: X).txt',
  ' leading space.txt',
  'trailing space.txt ',
  'weird/日本語/ファイル.txt',
  'weird/emoji😀name.txt',
  'weird/fffd\ufffdname.txt',
];

/** Names that are not UTF-8, as bytes relative to the root. */
const RAW_NAMES = [
  Buffer.from('weird/caf\xe9.txt', 'latin1'),
  Buffer.from('weird/cut\xc3.txt', 'latin1'),
  Buffer.from('weird/same\xff.txt', 'latin1'),
  Buffer.from('weird/same\xfe.txt', 'latin1'),
  Buffer.from('legacy\xe9/inner.txt', 'latin1'),
  Buffer.from('legacy\xe9/Line 1: \xe9.txt', 'latin1'),
];

/** What {@link makeOutputCorpus} made. */
export interface OutputCorpus {
  /** The tree's realpath. */
  readonly root: string;
  /** Regular files in it (every kind). */
  readonly files: number;
}

/** Writes the seeded tree into a fresh temp folder (see the module comment). */
export function makeOutputCorpus(): OutputCorpus {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'scout-output-')));
  const random = seededRandom(SEED);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const written: (string | Buffer)[] = [];
  const write = (rel: string | Buffer, content: string | Buffer): void => {
    const file = typeof rel === 'string' ? path.join(root, rel) : Buffer.concat([Buffer.from(`${root}/`), rel]);
    const dir = typeof file === 'string' ? path.dirname(file) : Buffer.from(path.dirname(file.toString('latin1')), 'latin1');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, content);
    written.push(file);
  };

  for (let i = 0; i < 220; i++) {
    const depth = 1 + Math.floor(random() * 5);
    const segments = [pick(TOP)];
    for (let d = 1; d < depth; d++) segments.push(`d${Math.floor(random() * 4)}`);
    write(`${segments.join('/')}/f${i}.${pick(['ts', 'txt', 'md', 'py'])}`, textFile(random, pick));
  }
  for (const name of SPECIAL_NAMES) write(name, textFile(random, pick));
  for (const name of RAW_NAMES) write(name, textFile(random, pick));
  write('.gitignore', 'ignored/\n*.log\n');
  write('.git/HEAD', 'ref: refs/heads/main\n');
  write('ignored/skipped.txt', `${OUTPUT_TOKEN} in an ignored file\n`);
  write('build.log', `${OUTPUT_TOKEN} in an ignored log\n`);
  write('.hidden/secret.txt', `${OUTPUT_TOKEN} in a hidden file\n`);
  write('assets/blob.bin', Buffer.concat([Buffer.from(`${OUTPUT_TOKEN}\n`), Buffer.alloc(64), Buffer.from(`${OUTPUT_TOKEN}\n`)]));

  // Modification times: distinct seconds over a year in a seeded order. No two files share one: rg lists ties in
  // directory order, which differs between file systems, and the result must be the same everywhere.
  const base = 1_735_689_600;
  const order = written.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  written.forEach((file, i) => {
    const seconds = base + order[i]! * 86_400 + Math.floor(random() * 80_000);
    utimesSync(file, seconds, seconds);
  });
  return { root, files: written.length };
}

/** One file's text: 1–16 lines, a fifth of them holding the token in one of the special shapes. */
function textFile(random: () => number, pick: <T>(list: readonly T[]) => T): Buffer {
  const lines = 1 + Math.floor(random() * 16);
  const parts: Buffer[] = [];
  const crlf = random() < 0.15;
  for (let i = 0; i < lines; i++) {
    const plain = Array.from({ length: 3 + Math.floor(random() * 12) }, () => pick(WORDS)).join(' ');
    let line: string | Buffer = plain;
    if (random() < 0.2) line = tokenLine(random, pick, plain);
    const eol = i === lines - 1 && random() < 0.2 ? '' : crlf ? '\r\n' : '\n';
    parts.push(Buffer.isBuffer(line) ? line : Buffer.from(line, 'utf8'), Buffer.from(eol));
  }
  return Buffer.concat(parts);
}

function tokenLine(random: () => number, pick: <T>(list: readonly T[]) => T, plain: string): string | Buffer {
  const t = OUTPUT_TOKEN;
  // Long lines (3 and 8) are drawn less often, to keep the snapshot small.
  const shape = Math.floor(random() * 12);
  switch ((shape === 3 || shape === 8) && random() < 0.6 ? 0 : shape) {
    case 0:
      return `${t} ${plain}`;
    case 1:
      return `${plain} ${t}`;
    case 2:
      return `${t} ${plain} ${t}${t} ${t}`;
    case 3: {
      const filler = Array.from({ length: 300 + Math.floor(random() * 300) }, () => pick(WORDS)).join(' ');
      const cut = Math.floor(random() * filler.length);
      return `${filler.slice(0, cut)} ${t} ${filler.slice(cut)}`;
    }
    case 4:
      return `\u001b[31m${t}\u001b[0m ${plain}`;
    case 5:
      return `${plain}\r${t} forged\rLine 99: not a row`;
    case 6:
      return `${plain} \u0085 \u202e${t}\u202c \u2028 ${t}`;
    case 7:
      return Buffer.concat([Buffer.from(`${plain} caf`), Buffer.from([0xe9]), Buffer.from(` ${t} `), Buffer.from([0xff, 0xfe])]);
    case 8:
      return `${'é'.repeat(1990)}${t}${'日'.repeat(700)}`;
    case 9:
      return `\t${t}\t${plain}\t`;
    case 10:
      return `${plain} ${t.toUpperCase()} ${t}`;
    default:
      return `${plain.slice(0, 5)}${t}${plain.slice(5)}`;
  }
}
