// What a web_fetch result shows for a page the conversion process converted (or could not): the body, its
// format, and the `Note:` lines that say which part of the page it is and what was left out.
import { hostAdvice } from '../../hostAdvice';
import { countOf } from '../../spill';
import { displayText } from '../convert/displayText';
import { MAX_DOM_NODES, MAX_NESTING_DEPTH } from '../convert/htmlScan';
import type { ContentSource } from '../convert/mainContent';
import type { Conversion } from '../convert/markdown';
import type { PdfText } from '../convert/pdfText';
import type { RenderResult } from '../convert/workerPool';
import { capHeaderText } from './output';

/** How the body of a web_fetch result was produced. */
export type WebFetchFormat = 'markdown' | 'text' | 'pdf' | 'raw-html' | 'unsupported' | 'redirect';

/** Longest error message from a converter quoted in a note (UTF-16 code units). */
const MAX_ERROR_CHARS = 200;

/** Extraction is mentioned in the result only when it left out at least this much text (a short paragraph). */
const MIN_LEFT_OUT_CHARS = 200;

/** A page's body as shown: its text, how it was made, and the notes that explain it. */
export interface PageBody {
  readonly body: string;
  readonly format: WebFetchFormat;
  readonly content: ContentSource | null;
  readonly notes: readonly string[];
  /** `body` is only the start of the page (its raw source decoded by the pool, cut at `fetchMaxOutputChars`). */
  readonly sourceTruncated: boolean;
}

/** The body shown for a converted (or not converted) page, and the notes about how it was made. */
export function pageBody(kind: 'html' | 'text' | 'pdf', rendered: RenderResult, conversionTimeoutMs: number): PageBody {
  const budget = `the ${formatSeconds(conversionTimeoutMs)} of processor time a conversion may use (${hostAdvice().setting('webFetch.conversionTimeoutMs')})`;
  const page = rendered.page;
  const charset = charsetNotes(rendered);
  if (page?.kind === 'text') return { body: rendered.text, format: 'text', content: null, notes: charset, sourceTruncated: false };
  if (page?.kind === 'feed') {
    const { kind: feed, items, markdown } = page.feed;
    const note = `the response is an ${feed} feed: its ${countOf(items, 'item')} ${items === 1 ? 'is listed with its link, date and summary' : 'are listed with their links, dates and summaries'}.`;
    return { body: markdown === '' ? '(The feed has no items.)' : markdown, format: 'markdown', content: null, notes: [note, ...charset], sourceTruncated: false };
  }
  if (page?.kind === 'pdf') return pdfBody(page.pdf, budget);
  if (page?.kind === 'html' && page.conversion.mode === 'markdown') {
    const c = page.conversion;
    return { body: c.markdown === '' ? '(The page has no readable text.)' : c.markdown, format: 'markdown', content: c.content, notes: [...contentNotes(c, budget), ...charset], sourceTruncated: false };
  }
  const ranOut = (doing: string): string | undefined => {
    if (rendered.failure === 'busy') return busy(conversionTimeoutMs);
    if (rendered.failure === 'overloaded') return overloaded(rendered, conversionTimeoutMs);
    if (rendered.failure !== 'timeout') return undefined;
    // Without a reading of the process's CPU time, only the wall-clock backstop stopped it.
    return rendered.usage && rendered.usage.cpuMs === undefined ? `${doing} took longer than ${formatSeconds(rendered.usage.wallMs)}` : `${doing} used up ${budget}`;
  };
  if (kind === 'pdf') {
    const why = ranOut('reading the PDF') ?? 'the PDF reader stopped unexpectedly';
    const read = rendered.pdfPagesRead ?? [];
    if (read.length === 0) return { body: `(Nothing can be shown: ${why}.)`, format: 'pdf', content: null, notes: [], sourceTruncated: false };
    return { body: read.join('\n\n'), format: 'pdf', content: null, notes: [`${why} on page ${read.length + 1}, so only the ${read.length === 1 ? 'page' : `${read.length} pages`} read before it ${read.length === 1 ? 'is' : 'are'} shown.`], sourceTruncated: false };
  }
  let why: string;
  if (page?.kind === 'html' && page.conversion.mode === 'raw-too-deep') why = `the HTML nests deeper than ${MAX_NESTING_DEPTH} levels`;
  else if (page?.kind === 'html' && page.conversion.mode === 'raw-error') why = `converting the HTML failed (${page.conversion.error})`;
  else why = ranOut(`converting the ${kind === 'html' ? 'HTML' : 'text'}`) ?? 'the converter stopped unexpectedly';
  const format = kind === 'html' ? 'raw-html' : 'text';
  if (rendered.text === '') return { body: displayText(`(Nothing can be shown: ${why}, before the page was decoded.)`), format, content: null, notes: [], sourceTruncated: false };
  let shown = kind === 'html' ? 'the raw HTML is shown' : 'the text is shown as it is';
  if (rendered.truncated) shown = `${shown}, from its start only (fetch the page again to have it converted)`;
  return { body: rendered.text, format, content: null, notes: [`${why}, so ${shown}.`, ...charset], sourceTruncated: rendered.truncated };
}

function busy(conversionTimeoutMs: number): string {
  return `every conversion process stayed busy with other pages for ${formatSeconds(conversionTimeoutMs)} (${hostAdvice().setting('webFetch.conversionTimeoutMs')})`;
}

/** Why a conversion stopped by the wall-clock backstop is not the page's fault: the machine gave it too little processor time. */
function overloaded(rendered: RenderResult, conversionTimeoutMs: number): string {
  const usage = rendered.usage;
  const got = usage?.cpuMs !== undefined ? `in ${formatSeconds(usage.wallMs)} it got only ${formatSeconds(Math.round(usage.cpuMs))} of processor time, of the ${formatSeconds(conversionTimeoutMs)} it may use (${hostAdvice().setting('webFetch.conversionTimeoutMs')})` : '';
  return `the computer was too busy to convert the page (${got}; fetching it again when the computer is less busy converts it)`;
}

/** What the header says about a charset nothing declared, when the choice mattered (the body is not plain ASCII). */
function charsetNotes(rendered: RenderResult): string[] {
  if (!rendered.charsetAssumed) return [];
  const why =
    rendered.charsetSource === 'detected'
      ? 'its bytes are not valid UTF-8, and an encoding detector (chardet) found them to be that encoding'
      : rendered.charset === 'utf-8'
        ? 'its bytes are valid UTF-8'
        : 'its bytes are not valid UTF-8, and windows-1252 is the web’s default for such pages';
  return [`the server declared no character encoding (no Content-Type charset, byte order mark or <meta charset>), so Scout read the page as ${rendered.charset}: ${why}. If the text looks garbled, the page uses another encoding.`];
}

/** `` (menus named `div.nav`, `div#sidebar` included)``: the navigation left out by name, for a note; '' when none. */
function named(c: Extract<Conversion, { mode: 'markdown' }>): string {
  return c.namedChrome?.length ? ` (${c.namedChrome.length === 1 ? 'one' : 'those'} named ${c.namedChrome.map((n) => `\`${n}\``).join(', ')} included)` : '';
}

/** What the header says about which part of an HTML page was converted. */
function contentNotes(c: Extract<Conversion, { mode: 'markdown' }>, budget: string): string[] {
  const leftOut = c.pageChars - c.contentChars;
  const about = leftOut >= MIN_LEFT_OUT_CHARS ? `; about ${leftOut} characters of other text were left out` : '';
  const notes: string[] = [];
  if (c.segments) {
    const many = `the page has ${c.segments.nodes} elements and attributes, more than Scout parses at once (${MAX_DOM_NODES})`;
    const parts = c.segments.count > 1 ? `${many}, so it was converted in ${countOf(c.segments.count, 'part')}` : `${many}, and it could not be cut into parts, so it was parsed whole`;
    const cleaned = c.content === 'body-cleaned' ? ', without looking for its article: its navigation, header, footer, sidebars and cookie banners were left out' : '';
    notes.push(`${parts}${cleaned}${about}.`);
    if (c.segments.converted < c.segments.count) {
      notes.push(`only the first ${c.segments.converted} of the ${c.segments.count} parts were converted within ${budget}; the rest of the page follows as its HTML source.`);
    }
  } else {
    let why = '';
    if (c.articleSearch === 'no-time') why = `the page is too large to look for its article within ${budget}`;
    else if (c.articleRefused === 'discussion') why = 'the page is a discussion whose comments hold most of its text';
    else if (c.articleRefused === 'table') why = 'the article found in the page left out a table that stands within it';
    switch (c.content) {
      case 'readability': {
        const comments = c.commentChars >= MIN_LEFT_OUT_CHARS ? `, ${c.commentChars} of them in comments` : '';
        if (leftOut >= MIN_LEFT_OUT_CHARS) notes.push(`showing the page's main content; about ${leftOut} characters of navigation, sidebars, footers, comments and similar text were left out${comments}.`);
        break;
      }
      case 'main':
      case 'article':
      case 'role-main': {
        const element = { main: 'its `main` element', article: 'its `article` element', 'role-main': 'its element marked `role="main"`' }[c.content];
        notes.push(`${why || 'no article was found in the page'}, so ${element} is shown without the navigation and sidebars in it${named(c)}${about}.`);
        break;
      }
      case 'body-cleaned':
        notes.push(`${why || 'no article or main element was found in the page'}, so the whole page is shown without its navigation, header, footer, sidebars and cookie banners${named(c)}${about}.`);
        break;
      case 'body':
        break;
    }
  }
  if (c.listing) {
    notes.push(`the page looks like a listing: the text below holds ${c.listing.shown} of its ${c.listing.items} items. To have every item shown, the user can ${hostAdvice().set('webFetch.extractMainContent', false)}.`);
  }
  if (c.scriptBuilt) {
    notes.push(`the page needs JavaScript: its HTML holds only ${c.pageChars} characters of text, and its scripts, which Scout does not run, build the rest, so its content is not in this text. Look for an API, a feed, or a version of the page that does not need JavaScript.`);
  }
  return notes;
}

/** The body shown for a PDF: its text and what was left out, or why it has none. */
function pdfBody(pdf: PdfText, budget: string): PageBody {
  const result = (body: string, notes: string[] = []): PageBody => ({ body, format: 'pdf', content: null, notes, sourceTruncated: false });
  switch (pdf.status) {
    case 'text': {
      const notes: string[] = [];
      if (pdf.stoppedBy === 'page-cap') notes.push(`the PDF has ${pdf.pageCount} pages; only the first ${pdf.pagesRead} were read.`);
      if (pdf.stoppedBy === 'deadline') notes.push(`reading the PDF's text took longer than ${budget}; only pages 1 to ${pdf.pagesRead} of ${pdf.pageCount} were read.`);
      if (pdf.unreadPages.length > 0) {
        const pages = pdf.unreadPages.slice(0, 10).map((p) => p.page).join(', ') + (pdf.unreadPages.length > 10 ? ', …' : '');
        notes.push(`the text of ${pdf.unreadPages.length === 1 ? 'page' : 'pages'} ${pages} could not be read (${capHeaderText(pdf.unreadPages[0]!.error, MAX_ERROR_CHARS)}).`);
      }
      if (pdf.garbledPages.length > 0) {
        const pages = pdf.garbledPages.slice(0, 10).join(', ') + (pdf.garbledPages.length > 10 ? ', …' : '');
        const which = pdf.garbledPages.length === pdf.pagesRead ? 'the text of every page read' : `the text of ${pdf.garbledPages.length === 1 ? 'page' : 'pages'} ${pages}`;
        notes.push(`${which} is not readable: the PDF's fonts map their glyphs to no characters, so it comes out as control pictures and stray symbols. Look for an HTML or text version of the document.`);
      }
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
