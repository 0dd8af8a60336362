/**
 * glob and grep print exactly what they printed before their output path was rewritten for speed (a
 * streaming spill, block decoding, per-file formatting). The snapshot beside this file holds the model text,
 * every saved complete result, a hash of the canonical value and the summary of each call below over the seeded tree
 * of `outputCorpus.ts`, as produced by the straightforward formatter of main f8d4726 (one string per result,
 * per-path decoding and checks), with one deliberate change: files whose names are not UTF-8 and decode to the
 * same text (`weird/same\xff.txt`, `weird/same\xfe.txt`) came in the order rg happened to finish them, and now
 * come in the order of their bytes (so the saved results and the value list those two in a fixed order; the
 * lines are the same). Any other difference is a regression, unless an issue asks for a new output: then
 * regenerate the snapshot on purpose with `SCOUT_UPDATE_OUTPUT_SNAPSHOT=1 npx mocha --no-config --import=tsx
 * test/unit/search/outputIdentity.test.ts` and review its diff.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { SearchConfig } from '../../../src/core/config';
import { createGlobTool } from '../../../src/core/search/glob';
import { createGrepTool } from '../../../src/core/search/grep';
import type { ScoutTool } from '../../../src/core/tool';
import { makeOutputCorpus } from '../../helpers/outputCorpus';
import { folder, memorySpill, runTool } from '../../helpers/searchEnv';
import { removeTree } from '../../helpers/tree';

const SNAPSHOT = path.join(__dirname, 'outputIdentity.snapshot.json');
const UPDATE = process.env.SCOUT_UPDATE_OUTPUT_SNAPSHOT === '1';
const WORKDIR = '<WORKDIR>';

const budget = { maxFiles: 100_000, timeMs: 600_000, maxRetryChecks: 16, maxListings: 4 };
const tools: Record<'glob' | 'grep', ScoutTool<any, any>> = { glob: createGlobTool(budget), grep: createGrepTool(budget) };

/** The calls compared: every layout (inline, head page, sampled page, cut previews) and several roots. */
const CALLS: { name: string; tool: 'glob' | 'grep'; input: Record<string, string>; search?: Partial<SearchConfig> }[] = [
  { name: 'glob * sampled page', tool: 'glob', input: { pattern: '*' } },
  { name: 'glob * head page', tool: 'glob', input: { pattern: '*' }, search: { globMaxResults: 30, sampleOverCapGlobResults: false } },
  { name: 'glob * inline', tool: 'glob', input: { pattern: '*' }, search: { globMaxResults: 100_000 } },
  { name: 'glob *.txt in weird', tool: 'glob', input: { pattern: '*.txt', path: 'weird' }, search: { globMaxResults: 5 } },
  { name: 'glob directory pattern', tool: 'glob', input: { pattern: 'src' }, search: { globMaxResults: 20 } },
  { name: 'glob under a path', tool: 'glob', input: { pattern: '**/*.ts', path: 'packages' }, search: { globMaxResults: 7 } },
  { name: 'grep default cap', tool: 'grep', input: { pattern: 'needle' } },
  { name: 'grep inline', tool: 'grep', input: { pattern: 'needle', path: 'src' }, search: { grepMaxMatches: 100_000 } },
  { name: 'grep cut previews', tool: 'grep', input: { pattern: 'needle' }, search: { grepMaxMatches: 60, grepMaxLineBytes: 40 } },
  { name: 'grep include', tool: 'grep', input: { pattern: '(?i)NEEDLE', include: '*.txt' }, search: { grepMaxMatches: 25 } },
  { name: 'grep under a path', tool: 'grep', input: { pattern: 'needle|gamma', path: 'weird' }, search: { grepMaxMatches: 9 } },
  { name: 'grep one file', tool: 'grep', input: { pattern: 'e', path: 'Line 3: top.txt' }, search: { grepMaxMatches: 3 } },
];

interface Recorded {
  text: string;
  spills: string[];
  /** SHA-256 of the value's JSON (the value repeats every whole line, which would make the snapshot large). */
  value: string;
  /** The optional value fields it holds (nonUtf8Paths, pathBase64, lineBase64, readAs). */
  fields: string[];
  summary: unknown;
}

const OPTIONAL_FIELDS = ['nonUtf8Paths', 'pathBase64', 'lineBase64', 'readAs'];

describe('glob and grep output is byte-identical to the reference', function () {
  this.timeout(120_000);
  let root: string;
  const actual: Record<string, Recorded> = {};
  before(() => (root = makeOutputCorpus().root));
  after(() => {
    removeTree(root);
    if (UPDATE) writeFileSync(SNAPSHOT, `${JSON.stringify(actual, null, 1)}\n`);
  });

  const expected: Record<string, Recorded> = existsSync(SNAPSHOT) ? JSON.parse(readFileSync(SNAPSHOT, 'utf8')) : {};

  for (const call of CALLS) {
    it(call.name, async () => {
      const spill = memorySpill();
      const out = await runTool(tools[call.tool], call.input, { folders: [folder(root)], spill, ...(call.search ? { search: call.search } : {}) });
      const plain = (s: string): string => s.split(root).join(WORKDIR);
      const json = plain(JSON.stringify(out.value));
      const fields = OPTIONAL_FIELDS.filter((f) => json.includes(`"${f}":`));
      const recorded: Recorded = { text: plain(out.text), spills: spill.texts.map(plain), value: sha256(json), fields, summary: out.summary };
      actual[call.name] = recorded;
      if (UPDATE) return;
      const want = expected[call.name];
      assert.ok(want, `no snapshot for "${call.name}": generate it (see the module comment)`);
      assert.equal(recorded.text, want.text, 'model text');
      assert.deepEqual(recorded.spills, want.spills, 'saved complete results');
      assert.equal(recorded.value, want.value, 'canonical value');
      assert.deepEqual(recorded.fields, want.fields, 'optional value fields');
      assert.deepEqual(recorded.summary, want.summary, 'summary');
    });
  }

  it('covers spilled, sampled, quoted and non-UTF-8 output (the snapshot is not trivial)', () => {
    const all = Object.values(UPDATE ? actual : expected);
    assert.ok(all.filter((r) => r.spills.length === 1).length >= 8, 'spills');
    const texts = all.map((r) => [r.text, ...r.spills].join('\n')).join('\n');
    for (const shape of ['round-robin', 'least recently modified', '(line truncated)', '"weird/nl\\nname.txt"', '\uFFFD', '\\u202e', '\u240D', '"Line 3: top.txt"']) {
      assert.ok(texts.includes(shape), `no output shows ${JSON.stringify(shape)}`);
    }
    const fields = new Set(all.flatMap((r) => r.fields));
    for (const field of OPTIONAL_FIELDS) assert.ok(fields.has(field), `no value holds ${field}`);
  });
});

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
