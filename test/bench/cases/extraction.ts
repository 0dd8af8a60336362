import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as Linkedom from 'linkedom' with { 'resolution-mode': 'import' };
import { createWebFetchTool } from '../../../src/core/web/fetch/tool';
import { startLoopbackServer } from '../../helpers/loopbackServer';
import { markdownText, wordF1, wordsOf } from '../../helpers/markdownText';
import { memorySpill } from '../../helpers/searchEnv';
import { builtConvertWorker, webFetchConfig, webToolEnv } from '../../helpers/webFetchEnv';
import type { CaseContext } from '../measure';
import type { CaseResult, Check } from '../report';

/**
 * How well web_fetch finds the article of real pages: Mozilla Readability's own test pages (130 real and
 * synthetic pages, each with the article Readability extracts from it, `expected.html`).
 *
 * - **Corpus**: `$SCOUT_READABILITY_CORPUS`, else `shared/corpora/readability` in the repository's parent
 *   folder or the nearest ancestor that has one (CI puts a copy of `shared/` beside its clone; a git worktree
 *   sits one level deeper). It is never copied into the repository. Without it the case is skipped, saying so.
 * - **Call**: each `source.html` is served from a loopback server as `text/html; charset=utf-8` at
 *   `/<page>/` and fetched with web_fetch and Scout's defaults (conversion worker included).
 * - **Texts**: Scout's text is what a CommonMark renderer shows for the body the model gets (title heading
 *   included, link URLs and Markdown syntax not); the reference is the text content of `expected.html`, with a
 *   space at every element boundary.
 * - **Score**: words are runs of Unicode letters and digits (`\p{L}`, `\p{N}`), lower-cased, repeats counted
 *   (a bag of words). Per page, precision = shared words / Scout's words, recall = shared words / reference
 *   words, F1 their harmonic mean; the case reports the mean over pages.
 */
export interface ExtractionBench {
  readonly corpus: string;
  readonly pages: readonly PageScore[];
}

/** One page's score, and what Scout showed. */
export interface PageScore {
  readonly name: string;
  readonly f1: number;
  readonly precision: number;
  readonly recall: number;
  readonly referenceWords: number;
  readonly scoutWords: number;
  /** Which part of the page Scout converted (`content` of web_fetch's value). */
  readonly content: string | null;
  /** The header notes web_fetch wrote (one line each). */
  readonly notes: readonly string[];
  /** The most frequent words Scout showed that the reference lacks, or the reference holds that Scout lacks. */
  readonly extra: readonly string[];
  readonly missing: readonly string[];
}

/** The extraction targets on this corpus. */
const MIN_MEAN_F1 = 0.975;
const LOW_F1 = 0.5;
/**
 * Pages whose reference holds fewer words than this are Readability's unit tests of one markup rule (a
 * one-sentence `<p>`), not pages: a title heading alone halves their score. They are reported, not targeted.
 */
const TINY_REFERENCE_WORDS = 30;

// linkedom is an ES module; Node 20 loads it with require, as the converter does.
const { parseHTML } = require('linkedom') as typeof Linkedom;

const REPO = path.resolve(__dirname, '..', '..', '..');
const CORPUS_ENV = 'SCOUT_READABILITY_CORPUS';

/** The corpus folder (holding `pages/`), or undefined when it is absent (see {@link ExtractionBench}). */
export function readabilityCorpus(): string | undefined {
  const named = process.env[CORPUS_ENV];
  if (named) return existsSync(path.join(named, 'pages')) ? path.resolve(named) : undefined;
  for (let dir = path.dirname(REPO); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'corpora', 'readability');
    if (existsSync(path.join(candidate, 'pages'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The text of an HTML fragment or document: its text nodes, with a space at every element boundary. */
export function htmlText(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const parts: string[] = [];
  const walk = (node: Node): void => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) parts.push(c.textContent ?? '');
      else if (c.nodeType === 1 && !['SCRIPT', 'STYLE', 'TEMPLATE'].includes(c.nodeName)) {
        parts.push(' ');
        walk(c);
        parts.push(' ');
      }
    }
  };
  walk(document.body);
  return parts.join('');
}

/** The `count` words of `a` most often not matched in `b` (as bags of words). */
function unmatched(a: readonly string[], b: readonly string[], count: number): string[] {
  const left = new Map<string, number>();
  for (const w of b) left.set(w, (left.get(w) ?? 0) + 1);
  const over = new Map<string, number>();
  for (const w of a) {
    const n = left.get(w) ?? 0;
    if (n > 0) left.set(w, n - 1);
    else over.set(w, (over.get(w) ?? 0) + 1);
  }
  return [...over].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).slice(0, count).map(([w, n]) => (n > 1 ? `${w}×${n}` : w));
}

/** Fetches every page of `corpus` with web_fetch from loopback and scores it (see {@link ExtractionBench}). */
export async function benchExtraction(corpus: string, log: (line: string) => void = () => undefined): Promise<ExtractionBench> {
  const dir = path.join(corpus, 'pages');
  const names = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'source.html'))).map((d) => d.name).sort();
  const server = await startLoopbackServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').split('/')[1] ?? '');
    const file = path.join(dir, name, 'source.html');
    if (!names.includes(name)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(file));
  });
  const tool = createWebFetchTool(builtConvertWorker());
  const config = webFetchConfig();
  const pages: PageScore[] = [];
  try {
    for (const name of names) {
      const out = await tool.run(tool.parse({ url: server.url(`/${encodeURIComponent(name)}/`) }, config), { ...webToolEnv(config), spill: memorySpill() });
      const scout = markdownText(out.value.markdown);
      const reference = htmlText(readFileSync(path.join(dir, name, 'expected.html'), 'utf8'));
      const score = wordF1(scout, reference);
      const [scoutWords, referenceWords] = [wordsOf(scout), wordsOf(reference)];
      const header = out.text.slice(0, Math.max(0, out.text.indexOf(out.value.markdown)));
      pages.push({
        name,
        ...score,
        referenceWords: referenceWords.length,
        scoutWords: scoutWords.length,
        content: out.value.content,
        notes: header.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('Fetched ')),
        extra: unmatched(scoutWords, referenceWords, 6),
        missing: unmatched(referenceWords, scoutWords, 6),
      });
      if (pages.length % 20 === 0) log(`extraction: ${pages.length} of ${names.length} pages`);
    }
  } finally {
    await server.close();
  }
  return { corpus, pages };
}

/** Why a page scored low, in a few words: what Scout added or lost, and which part of the page it showed. */
export function reason(p: PageScore): string {
  const what = p.precision < p.recall ? `extra text (precision ${p.precision.toFixed(2)}): ${p.extra.join(', ')}` : `text lost (recall ${p.recall.toFixed(2)}): ${p.missing.join(', ')}`;
  const note = p.notes.find((n) => /article|main|listing|discussion|whole page/i.test(n));
  return `${what}; ${p.content ?? 'not converted'}${note ? ` (${note.replace(/\|/g, '/').slice(0, 160)})` : ''}`;
}

/** Mean of `values`, rounded to 4 digits. */
function mean(values: readonly number[]): number {
  return Math.round((values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)) * 1e4) / 1e4;
}

/**
 * The `extraction` case: mean word F1 on Mozilla Readability's test pages (target ≥ 0.975), pages under 0.5
 * (target: none but the tiny rule tests, see {@link TINY_REFERENCE_WORDS}), and the 10 worst with a reason.
 */
export async function extractionCase(ctx: CaseContext): Promise<CaseResult> {
  const corpus = readabilityCorpus();
  const title = "web_fetch's article extraction on Mozilla Readability's test pages";
  if (!corpus) {
    const where = process.env[CORPUS_ENV] ? `$${CORPUS_ENV} (${process.env[CORPUS_ENV]}) has no pages/ folder` : `no shared/corpora/readability/pages beside the repository (${path.dirname(REPO)}) or above it`;
    ctx.log(`extraction: skipped: ${where}`);
    return { id: 'extraction', title, facts: [`Skipped: ${where}. Set ${CORPUS_ENV} to the corpus folder to run it.`], sides: [], checks: [], notes: [] };
  }
  ctx.log(`extraction: fetching the pages of ${corpus}…`);
  const { pages } = await benchExtraction(corpus, ctx.log);
  const low = pages.filter((p) => p.f1 < LOW_F1);
  const lowReal = low.filter((p) => p.referenceWords >= TINY_REFERENCE_WORDS);
  const meanF1 = mean(pages.map((p) => p.f1));
  const worst = [...pages].sort((a, b) => a.f1 - b.f1).slice(0, 10);
  const checks: Check[] = [
    { what: `Readability test pages (${pages.length}): 1 − mean word F1`, measured: Math.round((1 - meanF1) * 1e4) / 1e4, limit: Math.round((1 - MIN_MEAN_F1) * 1e4) / 1e4, unit: '', met: meanF1 >= MIN_MEAN_F1 },
    { what: `Readability test pages with F1 < ${LOW_F1} (reference of ${TINY_REFERENCE_WORDS} words or more)`, measured: lowReal.length, limit: 0, unit: 'pages', met: lowReal.length === 0 },
  ];
  const table = [
    '| page | F1 | precision | recall | words (Scout / reference) | reason |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...worst.map((p) => `| ${p.name} | ${p.f1.toFixed(3)} | ${p.precision.toFixed(3)} | ${p.recall.toFixed(3)} | ${p.scoutWords} / ${p.referenceWords} | ${reason(p)} |`),
  ].join('\n');
  return {
    id: 'extraction',
    title,
    facts: [
      `${pages.length} pages of ${corpus}, each served from loopback and fetched with web_fetch's defaults`,
      `mean word F1 ${meanF1} (precision ${mean(pages.map((p) => p.precision))}, recall ${mean(pages.map((p) => p.recall))})`,
      `pages under ${LOW_F1}: ${low.length ? low.map((p) => `${p.name} (${p.f1.toFixed(2)}, ${p.referenceWords} reference words)`).join(', ') : 'none'}`,
    ],
    sides: [],
    checks,
    tables: [{ title: 'The 10 worst pages', markdown: table }],
    notes: ['Words are runs of Unicode letters and digits, lower-cased, repeats counted; the reference is the text of expected.html (what Readability extracts), so a page where Scout keeps more than Readability, such as its title, loses precision.'],
  };
}
