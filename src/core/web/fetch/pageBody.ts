// What a web_fetch result shows for a page the worker converted (or could not): the body, its format, and the
// `Note:` lines that say which part of the page it is and what was left out.
import { displayText } from '../convert/displayText';
import { MAX_NESTING_DEPTH } from '../convert/htmlScan';
import type { ContentSource } from '../convert/mainContent';
import type { Conversion } from '../convert/markdown';
import type { PdfText } from '../convert/pdfText';
import type { RenderResult } from '../convert/workerPool';

/** How the body of a web_fetch result was produced. */
export type WebFetchFormat = 'markdown' | 'text' | 'pdf' | 'raw-html' | 'unsupported' | 'redirect';

/** Extraction is mentioned in the result only when it left out at least this much text (a short paragraph). */
const MIN_LEFT_OUT_CHARS = 200;

/** A page's body as shown: its text, how it was made, and the notes that explain it. */
export interface PageBody {
  readonly body: string;
  readonly format: WebFetchFormat;
  readonly content: ContentSource | null;
  readonly notes: readonly string[];
  /** `body` is only the start of the page (its raw source, cut at `fetchMaxOutputChars`). */
  readonly sourceTruncated: boolean;
}

/** The body shown for a converted (or not converted) page, and the notes about how it was made. */
export function pageBody(kind: 'html' | 'text' | 'pdf', rendered: RenderResult, conversionTimeoutMs: number): PageBody {
  const budget = `the ${formatSeconds(conversionTimeoutMs)} conversion budget (scout.webFetch.conversionTimeoutMs)`;
  const page = rendered.page;
  if (page?.kind === 'text') return { body: page.text, format: 'text', content: null, notes: [], sourceTruncated: false };
  if (page?.kind === 'pdf') return pdfBody(page.pdf, budget);
  if (page?.kind === 'html' && page.conversion.mode === 'markdown') {
    const c = page.conversion;
    return { body: c.markdown === '' ? '(The page has no readable text.)' : c.markdown, format: 'markdown', content: c.content, notes: contentNotes(c, budget), sourceTruncated: false };
  }
  if (kind === 'pdf') {
    const why = rendered.failure === 'timeout' ? `reading the PDF took longer than ${budget}` : 'the PDF reader stopped unexpectedly';
    return { body: `(Nothing can be shown: ${why}.)`, format: 'pdf', content: null, notes: [], sourceTruncated: false };
  }
  let why: string;
  if (page?.kind === 'html' && page.conversion.mode === 'raw-too-deep') why = `the HTML nests deeper than ${MAX_NESTING_DEPTH} levels`;
  else if (page?.kind === 'html' && page.conversion.mode === 'raw-error') why = `converting the HTML failed (${page.conversion.error})`;
  else if (rendered.failure === 'timeout') why = `converting the ${kind === 'html' ? 'HTML' : 'text'} took longer than ${budget}`;
  else why = 'the converter stopped unexpectedly';
  if (rendered.text === '') return { body: displayText(`(Nothing can be shown: ${why}, before the page was decoded.)`), format: kind === 'html' ? 'raw-html' : 'text', content: null, notes: [], sourceTruncated: false };
  const shown = kind === 'html' ? 'the raw HTML is shown' : 'its start is shown unconverted';
  return { body: rendered.text, format: kind === 'html' ? 'raw-html' : 'text', content: null, notes: [`${why}, so ${shown}.`], sourceTruncated: rendered.truncated };
}

/** What the header says about which part of an HTML page was converted. */
function contentNotes(c: Extract<Conversion, { mode: 'markdown' }>, budget: string): string[] {
  const leftOut = c.pageChars - c.contentChars;
  const about = leftOut >= MIN_LEFT_OUT_CHARS ? `; about ${leftOut} characters of other text were left out` : '';
  const noTime = c.articleSearchSkipped ? `the page is too large to look for its article within ${budget}` : '';
  switch (c.content) {
    case 'readability':
      return leftOut >= MIN_LEFT_OUT_CHARS ? [`showing the page's main content; about ${leftOut} characters of navigation, sidebars, footers and similar text were left out.`] : [];
    case 'main':
    case 'article':
    case 'role-main': {
      const element = { main: 'its `main` element', article: 'its `article` element', 'role-main': 'its element marked `role="main"`' }[c.content];
      return [`${noTime || 'no article was found in the page'}, so ${element} is shown without the navigation and sidebars in it${about}.`];
    }
    case 'body-cleaned':
      return [`${noTime || 'no article or main element was found in the page'}, so the whole page is shown without its navigation, header, footer, sidebars and cookie banners${about}.`];
    case 'body':
      return [];
  }
}

/** The body shown for a PDF: its text and what was left out, or why it has none. */
function pdfBody(pdf: PdfText, budget: string): PageBody {
  const result = (body: string, notes: string[] = []): PageBody => ({ body, format: 'pdf', content: null, notes, sourceTruncated: false });
  switch (pdf.status) {
    case 'text': {
      const notes: string[] = [];
      if (pdf.stoppedBy === 'page-cap') notes.push(`the PDF has ${pdf.pageCount} pages; only the first ${pdf.pagesRead} were read.`);
      if (pdf.stoppedBy === 'deadline') notes.push(`reading the PDF's text took longer than ${budget}; only pages 1 to ${pdf.pagesRead} of ${pdf.pageCount} were read.`);
      return result(pdf.text, notes);
    }
    case 'encrypted':
      return result('The PDF is encrypted with a password, so web_fetch cannot read its text. Look for an unprotected copy or an HTML version of the document.');
    case 'no-text':
      return result(`The PDF has ${pdf.pageCount} ${pdf.pageCount === 1 ? 'page' : 'pages'} but no text in them: it is probably scanned images of pages, and web_fetch does not read text from images. Look for an HTML or text version of the document.`);
    case 'invalid':
      return result(displayText(`The response is not a PDF that can be read (${pdf.error}). Check the URL, or look for an HTML version of the document.`));
  }
}

/** `ms` as seconds for a sentence: `30 s`, `0.5 s`. */
export function formatSeconds(ms: number): string {
  return `${ms / 1000} s`;
}
