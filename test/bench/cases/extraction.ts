import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as Linkedom from 'linkedom' with { 'resolution-mode': 'import' };
import { describingAlt } from '../../../src/core/web/convert/markdownRules';
import { HEADER_END } from '../../../src/core/web/fetch/output';
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
 *   and image alt text included, link URLs and Markdown syntax not; for a page longer than `fetchMaxOutputChars`, the body of the
 *   complete result saved with it, see {@link completeMarkdown}); the reference is the text content of `expected.html`, with its
 *   images' alt text and a space at every element boundary (see {@link htmlText}).
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
  /** The complete result: the text the model got, and what was saved with it (loopback origin and source id masked). */
  readonly result: string;
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
/** Set to `defuddle` to score defuddle on the same pages too (see {@link benchDefuddle}). */
const SECOND_EXTRACTOR_ENV = 'SCOUT_BENCH_SECOND_EXTRACTOR';

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

/**
 * The text of an HTML fragment or document: its text nodes and its images' alt text, with a space at every
 * element boundary. Alt text that is only a file name does not count, as on Scout's side ({@link describingAlt}). Alt text counts because Scout's side counts it (a renderer shows it in an image's place,
 * see `markdownText`) and Readability's article keeps its images: leaving it out of the reference scored the
 * captions of every kept photo as text Scout added.
 */
export function htmlText(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const parts: string[] = [];
  const walk = (node: Node): void => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) parts.push(c.textContent ?? '');
      else if (c.nodeName === 'IMG') parts.push(` ${describingAlt(c as Element)} `);
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

/** The names of the corpus's pages (folders with a `source.html`), sorted. */
function pageNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'source.html'))).map((d) => d.name).sort();
}

/**
 * Serves `pages` (name → HTML) from loopback at `/<name>/` as `text/html; charset=utf-8` and fetches each with
 * web_fetch's defaults, in order; returns each page's web_fetch value and complete result (the text the model
 * got, and what was saved with it).
 */
async function fetchPages(pages: ReadonlyMap<string, Buffer>, each: (name: string, out: FetchedPage) => void = () => undefined): Promise<Map<string, FetchedPage>> {
  const server = await startLoopbackServer((req, res) => {
    const body = pages.get(decodeURIComponent((req.url ?? '/').split('/')[1] ?? ''));
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  const tool = createWebFetchTool(builtConvertWorker());
  const config = webFetchConfig();
  const results = new Map<string, FetchedPage>();
  try {
    for (const name of pages.keys()) {
      const spill = memorySpill();
      const out = await tool.run(tool.parse({ url: server.url(`/${encodeURIComponent(name)}/`) }, config), { ...webToolEnv(config), spill });
      // The server's port and the source id made from the URL change from one run to the next; the rest must not.
      const origin = server.url('/').replace(/\/$/, '');
      const result = [out.text, ...spill.texts].join('\n\n').replaceAll(origin, 'http://loopback').replaceAll(out.value.sourceId, 'web-…');
      const fetched = { text: out.text, value: out.value, saved: spill.texts, result };
      results.set(name, fetched);
      each(name, fetched);
    }
  } finally {
    await server.close();
  }
  return results;
}

interface FetchedPage {
  readonly text: string;
  readonly value: { readonly markdown: string; readonly truncated: boolean; readonly content: string | null; readonly sourceId: string };
  readonly saved: readonly string[];
  readonly result: string;
}

/** Fetches every page of `corpus` with web_fetch from loopback and scores it (see {@link ExtractionBench}). */
export async function benchExtraction(corpus: string, log: (line: string) => void = () => undefined): Promise<ExtractionBench> {
  const dir = path.join(corpus, 'pages');
  const names = pageNames(dir);
  const pages: PageScore[] = [];
  await fetchPages(new Map(names.map((n) => [n, readFileSync(path.join(dir, n, 'source.html'))])), (name, out) => {
    const scout = markdownText(completeMarkdown(out.value, out.saved));
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
      result: out.result,
    });
    if (pages.length % 20 === 0) log(`extraction: ${pages.length} of ${names.length} pages`);
  });
  return { corpus, pages };
}

/** CPU hogs per core while the pages are fetched again (the issue's check: two `yes > /dev/null` per core). */
const HOGS_PER_CORE = 2;
/** The size of the page made of the corpus's pages one after another, fetched quiet and under load too. */
const LARGE_PAGE_BYTES = 5 * 2 ** 20;

/**
 * A page of about {@link LARGE_PAGE_BYTES}: the bodies of the corpus's pages one after another (real markup,
 * repeated from the first page when the corpus is smaller), under one title.
 */
export function largeCorpusPage(dir: string, names: readonly string[]): Buffer {
  const bodies = names.map((n) => {
    const html = readFileSync(path.join(dir, n, 'source.html'), 'utf8');
    const open = html.search(/<body[\s>]/i);
    const close = html.search(/<\/body>/i);
    return open < 0 ? html : html.slice(html.indexOf('>', open) + 1, close < 0 ? undefined : close);
  });
  const parts: string[] = ['<!doctype html><html><head><meta charset="utf-8"><title>The Readability test pages, one after another</title></head><body>'];
  let bytes = Buffer.byteLength(parts[0]!);
  for (let i = 0; bytes < LARGE_PAGE_BYTES - 20; i++) {
    const body = bodies[i % bodies.length]!.slice(0, LARGE_PAGE_BYTES - 20 - bytes);
    parts.push(body);
    bytes += Buffer.byteLength(body);
  }
  parts.push('</body></html>');
  return Buffer.from(parts.join(''), 'utf8');
}

/**
 * Fetches `pages` quietly when `quiet` lacks them, then all of them again with {@link HOGS_PER_CORE} `yes`
 * processes per core running (output discarded; they are always killed, whatever happens); returns the names
 * of the pages whose complete result differs, and the 1-minute load average at the end.
 */
export async function fetchUnderLoad(pages: ReadonlyMap<string, Buffer>, quiet: ReadonlyMap<string, string>, log: (line: string) => void): Promise<{ differing: string[]; hogs: number; load: string }> {
  const missing = new Map([...pages].filter(([name]) => !quiet.has(name)));
  const before = new Map(quiet);
  for (const [name, out] of await fetchPages(missing)) before.set(name, out.result);
  const hogs: ChildProcess[] = [];
  try {
    for (let i = 0; i < os.availableParallelism() * HOGS_PER_CORE; i++) hogs.push(spawn('yes', [], { stdio: 'ignore' }));
    log(`extraction: the pages again with ${hogs.length} \`yes\` processes running…`);
    const loaded = await fetchPages(pages);
    const load = os.loadavg()[0]!.toFixed(1);
    return { differing: [...pages.keys()].filter((name) => loaded.get(name)?.result !== before.get(name)), hogs: hogs.length, load };
  } finally {
    for (const hog of hogs) hog.kill('SIGKILL');
  }
}

/**
 * The Markdown of the whole page: the body the model got, or, when it was truncated to
 * `fetchMaxOutputChars`, the body of the complete result saved with it (which the footer names), so a long
 * article is scored on its extraction and not on where the output cap fell.
 */
export function completeMarkdown(value: { readonly markdown: string; readonly truncated: boolean }, saved: readonly string[]): string {
  if (!value.truncated || saved.length === 0) return value.markdown;
  const text = saved[0]!;
  const end = text.indexOf(HEADER_END);
  return end < 0 ? value.markdown : text.slice(end + HEADER_END.length).trim();
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

/** One page's score with defuddle, the second extractor the case compares (a development dependency only). */
export interface SecondExtractorScore {
  readonly name: string;
  readonly f1: number;
  readonly ms: number;
}

/**
 * Scores defuddle (npm `defuddle`, its Node entry, on a linkedom document of the same source) on every page as
 * Scout is scored: the text of its Markdown (`contentMarkdown`) under its title as a `#` heading, as a fetch tool
 * would show it. Undefined when defuddle (a development dependency) is not installed.
 */
export async function benchDefuddle(corpus: string): Promise<SecondExtractorScore[] | undefined> {
  let defuddle: (doc: Document, url: string, options: { markdown: boolean }) => Promise<{ title?: string; content?: string; contentMarkdown?: string }>;
  try {
    defuddle = ((await import('defuddle/node')) as unknown as { Defuddle: typeof defuddle }).Defuddle;
  } catch {
    return undefined;
  }
  const dir = path.join(corpus, 'pages');
  const scores: SecondExtractorScore[] = [];
  for (const name of pageNames(dir)) {
    const { document } = parseHTML(readFileSync(path.join(dir, name, 'source.html'), 'utf8'));
    const reference = htmlText(readFileSync(path.join(dir, name, 'expected.html'), 'utf8'));
    const start = performance.now();
    let text = '';
    try {
      const out = await defuddle(document as unknown as Document, `http://127.0.0.1/${name}/`, { markdown: true });
      text = markdownText(`${out.title ? `# ${out.title}\n\n` : ''}${out.contentMarkdown ?? out.content ?? ''}`);
    } catch {
      // a page defuddle throws on scores 0
    }
    scores.push({ name, f1: wordF1(text, reference).f1, ms: performance.now() - start });
  }
  return scores;
}

/**
 * The `extraction` case: mean word F1 on Mozilla Readability's test pages (target ≥ 0.975), pages under 0.5
 * (target: none but the tiny rule tests, see {@link TINY_REFERENCE_WORDS}), and the 10 worst with a reason;
 * defuddle's score on the same pages and the best an ensemble of the two could do (each page's better F1);
 * and whether each page, and a page of about 5 MiB made of them all, gives the same complete result with
 * {@link HOGS_PER_CORE} `yes` per core running as on a quiet machine (target: no page differs).
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
  const second = process.env[SECOND_EXTRACTOR_ENV] === 'defuddle' ? (ctx.log('extraction: defuddle on the same pages…'), await benchDefuddle(corpus)) : undefined;
  const dir = path.join(corpus, 'pages');
  const names = pageNames(dir);
  const large = 'all-pages-5MiB';
  const loadPages = new Map([...names.map((n): [string, Buffer] => [n, readFileSync(path.join(dir, n, 'source.html'))]), [large, largeCorpusPage(dir, names)]]);
  const underLoad = await fetchUnderLoad(loadPages, new Map(pages.map((p) => [p.name, p.result])), ctx.log);
  const checks: Check[] = [
    { what: `Readability test pages (${pages.length}): 1 − mean word F1`, measured: Math.round((1 - meanF1) * 1e4) / 1e4, limit: Math.round((1 - MIN_MEAN_F1) * 1e4) / 1e4, unit: '', met: meanF1 >= MIN_MEAN_F1 },
    { what: `Readability test pages with F1 < ${LOW_F1} (reference of ${TINY_REFERENCE_WORDS} words or more)`, measured: lowReal.length, limit: 0, unit: 'pages', met: lowReal.length === 0 },
    { what: `pages (${loadPages.size}, one of ${(loadPages.get(large)!.length / 2 ** 20).toFixed(1)} MiB) whose complete result differs with ${HOGS_PER_CORE} \`yes\` per core running`, measured: underLoad.differing.length, limit: 0, unit: 'pages', met: underLoad.differing.length === 0 },
  ];
  const table = [
    '| page | F1 | precision | recall | words (Scout / reference) | reason |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...worst.map((p) => `| ${p.name} | ${p.f1.toFixed(3)} | ${p.precision.toFixed(3)} | ${p.recall.toFixed(3)} | ${p.scoutWords} / ${p.referenceWords} | ${reason(p)} |`),
  ].join('\n');
  const facts = [
    `${pages.length} pages of ${corpus}, each served from loopback and fetched with web_fetch's defaults`,
    `mean word F1 ${meanF1} (precision ${mean(pages.map((p) => p.precision))}, recall ${mean(pages.map((p) => p.recall))})`,
    `pages under ${LOW_F1}: ${low.length ? low.map((p) => `${p.name} (${p.f1.toFixed(2)}, ${p.referenceWords} reference words)`).join(', ') : 'none'}`,
    `under load (${underLoad.hogs} \`yes\` processes, 1-minute load average ${underLoad.load} at the end): ${underLoad.differing.length ? `differing: ${underLoad.differing.join(', ')}` : `all ${loadPages.size} results identical to the quiet run`}`,
  ];
  if (second) {
    const byName = new Map(second.map((s) => [s.name, s]));
    const best = pages.map((p) => Math.max(p.f1, byName.get(p.name)?.f1 ?? 0));
    const wins = pages.filter((p) => (byName.get(p.name)?.f1 ?? 0) > p.f1 + 0.01).length;
    facts.push(`defuddle: mean word F1 ${mean(second.map((s) => s.f1))}, pages under ${LOW_F1}: ${second.filter((s) => s.f1 < LOW_F1).length}, median ${Math.round(median(second.map((s) => s.ms)))} ms a page; better than Scout by more than 0.01 on ${wins} pages; an ensemble that always picked the better of the two: ${mean(best)}`);
  } else facts.push(`defuddle: not compared (set ${SECOND_EXTRACTOR_ENV}=defuddle; it takes about 2 s a page)`);
  return {
    id: 'extraction',
    title,
    facts,
    sides: [],
    checks,
    tables: [{ title: 'The 10 worst pages', markdown: table }],
    notes: ['Words are runs of Unicode letters and digits, lower-cased, repeats counted; the reference is the text of expected.html (what Readability extracts) with its images\' alt text, so a page where Scout keeps more than Readability, such as its title, loses precision.'],
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
}
