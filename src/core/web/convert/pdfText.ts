import * as path from 'node:path';
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs' with { 'resolution-mode': 'import' };

/** One item of a page's text content: a run of text, or a marked-content boundary. */
type TextContentItem = Awaited<ReturnType<PdfJs.PDFPageProxy['getTextContent']>>['items'][number];

/** Pages of one PDF whose text is read at most (issue 11; Scout's choice: a long manual or specification). */
export const MAX_PDF_PAGES = 500;

/**
 * What a PDF gave:
 * - `text`: the text of its pages (`pagesRead` of `pageCount`), each page headed by a marker line
 *   `--- Page N of M ---`; `stoppedBy` says why reading stopped before the last page, if it did;
 * - `encrypted`: it needs a password;
 * - `no-text`: it has pages but none holds text (a scanned document without a text layer);
 * - `invalid`: pdf.js could not read it (`error` says why).
 */
export type PdfText =
  | { readonly status: 'text'; readonly text: string; readonly pageCount: number; readonly pagesRead: number; readonly stoppedBy: 'page-cap' | 'deadline' | null }
  | { readonly status: 'encrypted' }
  | { readonly status: 'no-text'; readonly pageCount: number }
  | { readonly status: 'invalid'; readonly error: string };

export interface PdfOptions {
  /** `now()` ms by which to stop reading further pages; the page being read is finished. Default: none. */
  readonly deadline?: number;
  /** The clock `deadline` is read against; default `Date.now`. */
  readonly now?: () => number;
  /** Default {@link MAX_PDF_PAGES}. */
  readonly maxPages?: number;
}

/**
 * Reads the text of a PDF with Mozilla's pdf.js (pdfjs-dist, its Node-compatible legacy build, bundled as
 * dist/pdfjs.js), page by page, in the calling thread (Scout calls it inside the conversion worker). Nothing is rendered and no font program
 * or script in the file is evaluated. Lines follow pdf.js's own end-of-line marks; a vertical gap of more than
 * one and a half lines starts a new paragraph. Never throws for a bad file: see {@link PdfText}.
 *
 * @param bytes the whole file; pdf.js takes ownership of its buffer
 */
export async function pdfToText(bytes: Uint8Array, options: PdfOptions = {}): Promise<PdfText> {
  const now = options.now ?? Date.now;
  const maxPages = options.maxPages ?? MAX_PDF_PAGES;
  const pdfjs = loadPdfJs();
  const task = pdfjs.getDocument({
    data: bytes,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWasm: false,
    enableXfa: false,
    stopAtErrors: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
  });
  let document: PdfJs.PDFDocumentProxy;
  try {
    document = await task.promise;
  } catch (e) {
    await task.destroy();
    if (e instanceof Error && e.name === 'PasswordException') return { status: 'encrypted' };
    return { status: 'invalid', error: e instanceof Error ? e.message : String(e) };
  }
  try {
    const pageCount = document.numPages;
    const pages: string[] = [];
    let stoppedBy: 'page-cap' | 'deadline' | null = null;
    let anyText = false;
    for (let n = 1; n <= pageCount; n++) {
      if (n > maxPages) {
        stoppedBy = 'page-cap';
        break;
      }
      if (n > 1 && options.deadline !== undefined && now() >= options.deadline) {
        stoppedBy = 'deadline';
        break;
      }
      const page = await document.getPage(n);
      const text = pageText((await page.getTextContent()).items);
      page.cleanup();
      anyText ||= text !== '';
      const marker = `--- Page ${n} of ${pageCount} ---`;
      pages.push(text === '' ? marker : `${marker}\n\n${text}`);
    }
    if (!anyText && stoppedBy === null) return { status: 'no-text', pageCount };
    return { status: 'text', text: pages.join('\n\n'), pageCount, pagesRead: pages.length, stoppedBy };
  } catch (e) {
    return { status: 'invalid', error: e instanceof Error ? e.message : String(e) };
  } finally {
    await document.destroy();
  }
}

/** One page's text: runs joined, a newline at each end-of-line mark or line change, a blank line at a gap. */
function pageText(items: readonly TextContentItem[]): string {
  let out = '';
  let lastY: number | undefined;
  for (const item of items) {
    if (!('str' in item)) continue;
    const y = item.transform[5] ?? 0;
    const lineHeight = item.height || Math.abs(item.transform[3] ?? 0) || 10;
    if (lastY !== undefined && item.str !== '') {
      const drop = lastY - y;
      if (drop > lineHeight * 1.5) out = `${out.replace(/[ \t]*\n?$/, '')}\n\n`;
      else if (Math.abs(drop) > lineHeight * 0.5 && !out.endsWith('\n')) out += '\n';
    }
    out += item.str;
    if (item.hasEOL) out += '\n';
    if (item.str !== '') lastY = y;
  }
  return out
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** What dist/pdfjs.js exports (see pdfjsBundle.mjs). */
type PdfJsApi = Pick<typeof PdfJs, 'getDocument' | 'VerbosityLevel'>;

let loaded: PdfJsApi | undefined;

/**
 * Loads dist/pdfjs.js, the bundle beside this one, once per thread. pdf.js's display layer builds a
 * `DOMMatrix` when it loads (for canvas rendering, which Scout never does), so a bare stand-in is defined
 * where the runtime has none; and it reports its missing optional rendering package on the console while
 * loading, which in the CLI is the user's terminal, so the console is silent until it has loaded.
 *
 * @throws Error when the bundle is missing (this module runs only from the built conversion worker)
 */
function loadPdfJs(): PdfJsApi {
  if (loaded) return loaded;
  const scope = globalThis as { DOMMatrix?: unknown };
  scope.DOMMatrix ??= class DOMMatrix {};
  const { log, warn, info } = console;
  console.log = console.warn = console.info = () => undefined;
  try {
    loaded = require(path.join(__dirname, 'pdfjs.js')) as PdfJsApi;
  } finally {
    Object.assign(console, { log, warn, info });
  }
  return loaded;
}
