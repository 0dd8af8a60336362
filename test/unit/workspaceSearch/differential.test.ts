/**
 * Differential test of the `workspace_search` matcher and scan against a reference implementation kept
 * here: the plain way to do what seed 003 and the matcher's docs say (decode each file with a fatal UTF-8
 * decoder, split it into lines, lowercase each line, `indexOf` every form of the query, map the offset back
 * code point by code point). The tool's fast paths (bytes searched in place by the SIMD kernel, ASCII case
 * folded in the kernel, only matching lines decoded) must give exactly the same results on a generated
 * corpus that mixes ASCII, multi-byte UTF-8, NFC and NFD text, CRLF, control characters, binary and
 * non-UTF-8 files, byte-order marks, very long lines and matches at awkward places (file edges, 16-byte
 * steps, 64 KiB read chunks).
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { LiteralLineMatcher } from '../../../src/core/workspaceSearch/matcher';
import { clipPreview } from '../../../src/core/workspaceSearch/preview';
import { classifyText, type SkipReason } from '../../../src/core/workspaceSearch/reader';
import type { WorkspaceSearchMatch } from '../../../src/core/workspaceSearch/report';
import { seededRandom } from '../../helpers/seededRandom';
import { makeTree, removeTree } from '../../helpers/tree';
import { scan } from './fixtures';

// ---------------------------------------------------------------------------------------------------------
// Reference implementation
// ---------------------------------------------------------------------------------------------------------

interface ReferenceLine {
  readonly line: number;
  readonly column: number;
  readonly preview: string;
  readonly clipped: boolean;
}

/** [start, end) in `line` of the original text whose lowercase spans [lowStart, lowEnd) of `line.toLowerCase()`. */
function originalRange(line: string, lowStart: number, lowEnd: number): [number, number] {
  let original = 0;
  let lowered = 0;
  let start = -1;
  for (const char of line) {
    const loweredWidth = char.toLowerCase().length;
    if (start < 0 && lowStart < lowered + loweredWidth) start = original;
    original += char.length;
    lowered += loweredWidth;
    if (start >= 0 && lowEnd <= lowered) return [start, original];
  }
  return [start < 0 ? line.length : start, line.length];
}

/** Matching lines of decoded `text` (byte-order mark already removed), at most `limit`. */
function referenceMatch(text: string, query: string, caseSensitive: boolean, limit: number): { lines: ReferenceLine[]; more: boolean } {
  const forms = [...new Set([query.normalize('NFC'), query.normalize('NFD')].map((q) => (caseSensitive ? q : q.toLowerCase())))].filter((q) => !q.includes('\n'));
  const lines: ReferenceLine[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!.endsWith('\r') ? raw[i]!.slice(0, -1) : raw[i]!;
    const hay = caseSensitive ? line : line.toLowerCase();
    let at = -1;
    let length = 0;
    for (const form of forms) {
      const found = hay.indexOf(form);
      if (found >= 0 && (at < 0 || found < at || (found === at && form.length > length))) [at, length] = [found, form.length];
    }
    if (at < 0) continue;
    if (lines.length === limit) return { lines, more: true };
    const [from, to] = caseSensitive ? [at, at + length] : originalRange(line, at, at + length);
    const preview = clipPreview(line, from, to);
    lines.push({ line: i + 1, column: from + 1, preview: preview.text, clipped: preview.clipped });
  }
  return { lines, more: false };
}

/** A file's fate under seed 003's content rules, by the plain route (a fatal decoder, which drops a BOM). */
function referenceDecode(bytes: Buffer): string | SkipReason {
  if (bytes.length > 2 * 1024 * 1024) return 'tooLarge';
  if (bytes.includes(0)) return 'binary';
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'invalidUtf8';
  }
}

/** The files under `root` in walk order: depth first, each directory's entries sorted by UTF-16 code units. */
function walk(root: string, rel = ''): string[] {
  const names = readdirSync(path.join(root, rel)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.flatMap((name) => {
    const child = rel ? `${rel}/${name}` : name;
    return statSync(path.join(root, child)).isDirectory() ? walk(root, child) : [child];
  });
}

/** The scan's outcome for a tree inside every traversal and read budget, the plain way. */
function referenceScan(root: string, query: string, caseSensitive: boolean, maxResults: number) {
  const files = walk(root);
  const matches: WorkspaceSearchMatch[] = [];
  const skippedFileReasons: Partial<Record<SkipReason, number>> = {};
  const reasons = new Set<string>();
  let scannedFiles = 0;
  let readBytes = 0;
  for (let i = 0; i < files.length; i++) {
    const bytes = readFileSync(path.join(root, files[i]!));
    const text = referenceDecode(bytes);
    if (text !== 'tooLarge') readBytes += bytes.length;
    if (text === 'tooLarge' || text === 'binary' || text === 'invalidUtf8' || text === 'notRegular') {
      skippedFileReasons[text] = (skippedFileReasons[text] ?? 0) + 1;
      continue;
    }
    scannedFiles++;
    const found = referenceMatch(text, query, caseSensitive, maxResults - matches.length);
    for (const hit of found.lines) {
      matches.push({ path: files[i]!, line: hit.line, column: hit.column, preview: hit.preview });
      if (hit.clipped) reasons.add('previewClipped');
    }
    if (matches.length === maxResults && (found.more || i < files.length - 1)) {
      reasons.add('maxResults');
      break;
    }
  }
  const skippedFiles = Object.values(skippedFileReasons).reduce((a, b) => a + b, 0);
  if (skippedFiles > 0) reasons.add('skippedFiles');
  return { matches, scannedFiles, skippedFiles, skippedFileReasons, readBytes, reasons: [...reasons].sort() };
}

// ---------------------------------------------------------------------------------------------------------
// Generated corpus
// ---------------------------------------------------------------------------------------------------------

const FRAGMENTS = [
  ...['const', 'value', 'return', 'needle', 'Needle', 'NEEDLE', 'needl', 'eedle', 'scout_needle', 'x', 'e', '_', '(', ')', '0x1F', '\t', ' ', '  '],
  ...['café', 'cafe\u0301', 'CAFÉ', 'CAFE\u0301', 'ß', 'STRASSE', 'ẞ', 'İstanbul', 'i\u0307', '\u212Aelvin', 'ΣΊΣΥΦΟΣ', 'σίσυφος', 'ς'],
  ...['检查输入', '😀', '🚀', 'Привет', 'ПРИВЕТ', '\u0301', '\u200b', '\u2028', '\x1b[0m', '\x7f', '\r'],
];
const LINE_ENDS = ['\n', '\n', '\n', '\r\n', '\r\n', '\r'];

const QUERIES = [
  ...['needle', 'NEEDLE', 'Needle', 'e', 'x', 'scout_needle', 'needle(', '0x1f', 'needle needle', 'value return const needle'],
  ...['x'.repeat(40), 'café', 'CAFE\u0301', 'cafe', 'ß', 'strasse', 'ẞ', 'i\u0307', 'İ', 'istanbul', 'k', 'kelvin', 'σ', 'ΣΊΣΥΦΟΣ', 'ς'],
  ...['检查', '😀', 'привет', '\u0301', 'x\ry', '\x1b[0m'],
];

/** A file of generated lines, and sometimes a twist: a BOM, a NUL, an invalid byte, a line of 70,000 characters. */
function generateFile(random: () => number): Buffer {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const parts: string[] = [];
  const lines = Math.floor(random() * (random() < 0.1 ? 400 : 25));
  const longLine = random() < 0.05 ? Math.floor(random() * lines) : -1;
  for (let l = 0; l < lines; l++) {
    const words = Math.floor(random() * 12);
    for (let w = 0; w < words; w++) parts.push(pick(FRAGMENTS));
    if (l === longLine) parts.push(pick(['x', 'needle ', 'é😀']).repeat(10_000 + Math.floor(random() * 5_000)), pick(FRAGMENTS));
    if (l < lines - 1 || random() < 0.5) parts.push(pick(LINE_ENDS));
  }
  let bytes = Buffer.from(parts.join(''));
  const twist = random();
  if (twist < 0.08) bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
  else if (twist < 0.12) bytes = Buffer.concat([bytes, Buffer.from([0])]);
  else if (twist < 0.16) {
    const at = Math.floor(random() * (bytes.length + 1));
    bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([pick([0xff, 0xc3, 0x80, 0xc0, 0xed])]), bytes.subarray(at)]);
  }
  return bytes;
}

describe('workspace_search matches like the reference implementation (differential)', () => {
  const random = seededRandom(0x15);
  const files = Array.from({ length: 260 }, () => generateFile(random));
  // Edge placements: the query alone, at each end, and across every 16-byte step of a short file.
  for (const query of ['needle', 'NEEDLE', 'café']) {
    files.push(Buffer.from(query), Buffer.from(`${query}\n`), Buffer.from(`\r\n${query}`), Buffer.from(`${query.slice(0, -1)}\n${query.slice(-1)}`));
    for (let at = 0; at < 40; at++) files.push(Buffer.from(`${'.'.repeat(at)}${query}${'.'.repeat(40 - at)}`));
  }
  // A match across the reader's 64 KiB chunk boundary, in a file that is otherwise one line.
  files.push(Buffer.from(`${'y'.repeat(65_533)}needle${'y'.repeat(10)}\nlast needle`));

  it('the matcher, file by file', () => {
    let compared = 0;
    for (const query of QUERIES) {
      for (const caseSensitive of [false, true]) {
        const matcher = new LiteralLineMatcher(query.trim(), caseSensitive);
        files.forEach((bytes, f) => {
          const text = referenceDecode(bytes);
          const kind = classifyText(bytes);
          if (typeof kind !== 'string') {
            assert.equal(text, kind.skipped, `file ${f}: content rule`);
            return;
          }
          assert.equal(typeof text, 'string', `file ${f}: content rule`);
          for (const limit of [100, 2]) {
            const expected = referenceMatch(text, query.trim(), caseSensitive, limit);
            const got = matcher.match(bytes, kind, limit);
            assert.deepEqual(got, expected, `file ${f}, query ${JSON.stringify(query)}, caseSensitive ${caseSensitive}, limit ${limit}`);
            compared += got.lines.length;
          }
        });
      }
    }
    assert.ok(compared > 10_000, `the corpus must produce plenty of matches to compare (got ${compared})`);
  });

  describe('the whole scan, on the corpus written to disk', () => {
    let root: string;
    before(() => {
      const entries: Record<string, Buffer> = {};
      files.forEach((bytes, f) => {
        entries[`${['a', 'b/c', 'b/d', 'É'][f % 4]}/file-${String(f).padStart(3, '0')}.txt`] = bytes;
      });
      root = makeTree(entries);
    });
    after(() => removeTree(root));

    for (const [query, caseSensitive] of [
      ['needle', false],
      ['Needle', true],
      ['café', false],
      ['ς', false],
      ['x'.repeat(40), false],
      ['scout_needle', true],
    ] as const) {
      for (const maxResults of [100, 7]) {
        it(`${JSON.stringify(query)}${caseSensitive ? ', caseSensitive' : ''}, maxResults ${maxResults}`, () => {
          const expected = referenceScan(root, query, caseSensitive, maxResults);
          const out = scan(root, query, { caseSensitive, maxResults });
          const { matches, scannedFiles, skippedFiles, skippedFileReasons, readBytes } = out;
          assert.deepEqual({ matches, scannedFiles, skippedFiles, skippedFileReasons, readBytes, reasons: [...out.reasons].sort() }, expected);
        });
      }
    }
  });
});
