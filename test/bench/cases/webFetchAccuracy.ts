import { htmlToMarkdown } from '../../../src/core/web/convert/markdown';
import { createWebFetchTool } from '../../../src/core/web/fetch/tool';
import { startLoopbackServer } from '../../helpers/loopbackServer';
import { markdownText, wordF1 } from '../../helpers/markdownText';
import { memorySpill } from '../../helpers/searchEnv';
import { corpus, corpusPage, type CorpusPage } from '../../helpers/webCorpus';
import { builtConvertWorker, webFetchConfig, webToolEnv } from '../../helpers/webFetchEnv';

/**
 * How well web_fetch returns the article of a page, on generated pages whose article text is known
 * (test/helpers/webCorpus.ts: news, blog, brief, docs, wiki and single-page-app templates, heads of 10–900 KB,
 * consent banners, mega-menus, comment threads, "related" rails; plus the hard cases). Each page is
 * served from loopback and fetched with the web_fetch tool, worker included. The score is the word F1 of the
 * text a CommonMark renderer shows for the body the model gets, against the article's text (words lower-cased,
 * repeats counted). A page "loses its article" when that recall is under 0.9.
 *
 * `sourceCutF1` is the same score for the seed's approach, for comparison: the HTML source cut at
 * `fetchMaxOutputChars` (200,000) characters before conversion (computed in this process with today's converter).
 */
export interface AccuracyBench {
  readonly pages: number;
  readonly meanF1: number;
  readonly meanPrecision: number;
  readonly meanRecall: number;
  readonly worst: { readonly name: string; readonly f1: number; readonly precision: number; readonly recall: number; readonly content: string | null };
  /** Pages whose recall is under 0.9. */
  readonly lostArticles: readonly string[];
  /** Pages over 200,000 characters of HTML, and their mean F1. */
  readonly largePages: number;
  readonly largeMeanF1: number;
  /** Mean F1 with the source cut at 200,000 characters before conversion (the seed's approach). */
  readonly sourceCutF1: number;
  readonly largeSourceCutF1: number;
}

const LOST_RECALL = 0.9;

/** The generated corpus of the accuracy case: `count` pages of every template, plus the hard cases. */
export function accuracyCorpus(count: number): CorpusPage[] {
  const brief = 'The council approved the night bus trial for three more routes on Tuesday. Riders between midnight and four in the morning doubled since spring, the transit office said, and the extension is paid from the reserve. A public consultation on a permanent service opens next month and runs for six weeks, after which the council will vote again on the budget for the coming year and beyond.';
  return [
    ...corpus(count, 1001),
    corpusPage('news', 2001, { headChars: 600_000, articleChars: 6000, comments: 30 }),
    corpusPage('spa', 2002, { headChars: 900_000, articleChars: 9000, comments: 10 }),
    corpusPage('brief', 2003, { paragraphs: [brief.slice(0, 427)], comments: 15 }),
    corpusPage('blog', 2004, { paragraphs: [brief.padEnd(512, ' More.').slice(0, 512)], comments: 120 }),
    corpusPage('news', 2005, { headChars: 300_000, articleChars: 40_000, comments: 60 }),
  ];
}

export async function benchAccuracy(count = 60): Promise<AccuracyBench> {
  const pages = accuracyCorpus(count);
  const server = await startLoopbackServer((req, res) => {
    const page = pages[Number((req.url ?? '/').slice(1))];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page?.html ?? '');
  });
  const tool = createWebFetchTool(builtConvertWorker());
  const config = webFetchConfig({ conversionTimeoutMs: 120_000 });
  const scores: { name: string; html: number; f1: number; precision: number; recall: number; cutF1: number; content: string | null }[] = [];
  try {
    for (const [i, page] of pages.entries()) {
      const out = await tool.run(tool.parse({ url: server.url(`/${i}`) }, config), { ...webToolEnv(config), spill: memorySpill() });
      const score = wordF1(markdownText(out.value.markdown), page.articleText);
      const cut = htmlToMarkdown(page.html.slice(0, config.webFetch.fetchMaxOutputChars), { baseUrl: server.url(`/${i}`), extractMainContent: true });
      const cutF1 = wordF1(cut.mode === 'markdown' ? markdownText(cut.markdown) : '', page.articleText).f1;
      scores.push({ name: page.name, html: page.html.length, ...score, cutF1, content: out.value.content });
    }
  } finally {
    await server.close();
  }
  const mean = (values: number[]): number => round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length), 4);
  const worst = scores.reduce((a, b) => (b.f1 < a.f1 ? b : a));
  const large = scores.filter((s) => s.html > 200_000);
  return {
    pages: scores.length,
    meanF1: mean(scores.map((s) => s.f1)),
    meanPrecision: mean(scores.map((s) => s.precision)),
    meanRecall: mean(scores.map((s) => s.recall)),
    worst: { name: worst.name, f1: round(worst.f1, 3), precision: round(worst.precision, 3), recall: round(worst.recall, 3), content: worst.content },
    lostArticles: scores.filter((s) => s.recall < LOST_RECALL).map((s) => s.name),
    largePages: large.length,
    largeMeanF1: mean(large.map((s) => s.f1)),
    sourceCutF1: mean(scores.map((s) => s.cutF1)),
    largeSourceCutF1: mean(large.map((s) => s.cutF1)),
  };
}

function round(n: number, digits: number): number {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}
