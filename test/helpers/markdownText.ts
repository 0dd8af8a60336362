/**
 * Reading Scout's Markdown the way a CommonMark renderer does (markdown-it, which follows the CommonMark
 * spec), for tests and the extraction benchmark: the rendered HTML, the text a reader sees, and word F1.
 */
import MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;

/** CommonMark plus GFM tables and strikethrough (what Scout's converter writes); raw HTML is kept as HTML. */
const renderer = new MarkdownIt('commonmark', { html: true }).enable(['table', 'strikethrough']);

/** `markdown` rendered to HTML by a CommonMark renderer. */
export function renderMarkdown(markdown: string): string {
  return renderer.render(markdown);
}

/** markdown-it's block tokens for `markdown` (inline tokens sit in each `inline` token's `children`). */
export function markdownTokens(markdown: string): Token[] {
  return renderer.parse(markdown, {});
}

/**
 * The text a reader of the rendered `markdown` sees: text, inline code, code blocks and image alt text, one
 * block per line; link URLs and Markdown syntax are not text.
 */
export function markdownText(markdown: string): string {
  const out: string[] = [];
  for (const token of markdownTokens(markdown)) {
    if (token.type === 'inline') {
      out.push((token.children ?? []).map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type === 'softbreak' || c.type === 'hardbreak' ? ' ' : c.type === 'image' ? c.content : '')).join(''));
    } else if (token.type === 'fence' || token.type === 'code_block' || token.type === 'html_block') {
      out.push(token.content);
    }
  }
  return out.join('\n');
}

/** Lower-cased words (runs of letters and digits) of `text`. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Word F1 of `candidate` against `reference`, counting repeated words (a bag of words): precision is the
 * share of the candidate's words found in the reference, recall the share of the reference's words found in
 * the candidate. The measure article-extraction benchmarks use. 1 for two empty texts.
 */
export function wordF1(candidate: string, reference: string): { precision: number; recall: number; f1: number } {
  const want = new Map<string, number>();
  const ref = wordsOf(reference);
  for (const w of ref) want.set(w, (want.get(w) ?? 0) + 1);
  const got = wordsOf(candidate);
  let overlap = 0;
  for (const w of got) {
    const left = want.get(w) ?? 0;
    if (left > 0) {
      overlap++;
      want.set(w, left - 1);
    }
  }
  if (got.length === 0 && ref.length === 0) return { precision: 1, recall: 1, f1: 1 };
  const precision = got.length ? overlap / got.length : 0;
  const recall = ref.length ? overlap / ref.length : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}
