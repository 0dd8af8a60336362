import * as path from 'node:path';
import { markPageLines } from './displayText';
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs' with { 'resolution-mode': 'import' };

/** One item of a page's text content: a run of text, or a marked-content boundary. */
type TextContentItem = Awaited<ReturnType<PdfJs.PDFPageProxy['getTextContent']>>['items'][number];

/** Pages of one PDF whose text is read at most (Scout's choice: a long manual or specification). */
export const MAX_PDF_PAGES = 500;

/**
 * Bytes one stream of a PDF may decode to (a page's content, a font, an object stream). pdf.js keeps a decoded
 * stream in one buffer outside the V8 heap, so without this a small compressed stream can take gigabytes (an
 * 816 KB file inflated to 800 MB); a stream past it fails alone (its page is reported unreadable). Real
 * content streams are a few MB at most. Scout's choice; enforced inside pdf.js by the build (esbuild.mjs).
 */
export const MAX_PDF_STREAM_BYTES = 64 * 1024 * 1024;

/**
 * What a PDF gave:
 * - `text`: the text of its pages (`pagesRead` of `pageCount`), each page headed by a marker line
 *   `--- Page N of M ---`; `stoppedBy` says why reading stopped before the last page, if it did;
 *   `unreadPages` lists the pages whose text could not be read (a stream over {@link MAX_PDF_STREAM_BYTES},
 *   a broken content stream), each with why;
 * - `encrypted`: it needs a password;
 * - `no-text`: it has pages but none holds text (a scanned document without a text layer);
 * - `invalid`: pdf.js could not read it (`error` says why).
 */
export type PdfText =
  | {
      readonly status: 'text';
      readonly text: string;
      readonly pageCount: number;
      readonly pagesRead: number;
      readonly stoppedBy: 'page-cap' | 'deadline' | null;
      readonly unreadPages: readonly { readonly page: number; readonly error: string }[];
      /** Pages whose text layer is not readable text ({@link isGarbled}: fonts that map their glyphs to no Unicode). */
      readonly garbledPages: readonly number[];
    }
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
  /** Receives each page's text (as the result will hold it, marker first) once read; the next page waits for it. */
  readonly onPage?: (text: string) => Promise<void> | void;
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
    const unreadPages: { page: number; error: string }[] = [];
    const garbledPages: number[] = [];
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
      const marker = `--- Page ${n} of ${pageCount} ---`;
      let text: string;
      const overLimit = streamsOverLimit();
      try {
        const page = await document.getPage(n);
        try {
          text = markPageLines(collapseOverprinting(pageText((await page.getTextContent()).items)));
        } finally {
          page.cleanup();
        }
        // pdf.js skips a content stream it cannot decode without telling; the bundle's check counts the ones it stopped.
        if (streamsOverLimit() > overLimit) throw new Error(`a stream on this page decodes to more than ${MAX_PDF_STREAM_BYTES / 1048576} MiB, more than Scout reads from one stream`);
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        unreadPages.push({ page: n, error });
        pages.push(`${marker}\n\n(The text of this page could not be read: ${error}.)`);
        await options.onPage?.(pages[pages.length - 1]!);
        continue;
      }
      anyText ||= text !== '';
      if (isGarbled(text)) garbledPages.push(n);
      pages.push(text === '' ? marker : `${marker}\n\n${text}`);
      await options.onPage?.(pages[pages.length - 1]!);
    }
    if (!anyText && unreadPages.length === 0 && stoppedBy === null) return { status: 'no-text', pageCount };
    return { status: 'text', text: pages.join('\n\n'), pageCount, pagesRead: pages.length, stoppedBy, unreadPages, garbledPages };
  } catch (e) {
    return { status: 'invalid', error: e instanceof Error ? e.message : String(e) };
  } finally {
    await document.destroy();
  }
}

/** Streams the check the build adds to pdf.js has stopped at {@link MAX_PDF_STREAM_BYTES} in this thread so far. */
function streamsOverLimit(): number {
  return (globalThis as { scoutPdfStreamsOverLimit?: number }).scoutPdfStreamsOverLimit ?? 0;
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

/**
 * Characters a text layer holds when a font maps its glyphs to no Unicode: pdf.js then gives the glyph codes
 * themselves (C0 controls, shown as control pictures), U+FFFD, or private-use code points.
 */
const UNMAPPED_GLYPH = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFD\uE000-\uF8FF]/gu;

/**
 * Whether a page's text is mostly glyphs mapped to no character: at least 30 % of its non-space characters
 * (Scout's choice: a real page has at most a few such, a page of such glyphs came out as 38,000 control
 * pictures without a word of warning).
 */
export function isGarbled(text: string): boolean {
  const visible = text.replace(/\s+/g, '').length;
  return visible > 0 && (text.match(UNMAPPED_GLYPH)?.length ?? 0) >= visible * 0.3;
}

/**
 * A word drawn several times over itself (fake bold: each glyph painted 2–4 times at a small offset) comes out
 * with each letter repeated (`TTTTeeeesssstttt`); each such word is written once (`Test`). A word counts only
 * when every run of a letter in it is the same length, 2 to 4, and it has at least three runs (two, when the
 * length is 3 or 4: `ooooffff` is `of`), so `keep`, `llama` or `1000` are never touched.
 */
export function collapseOverprinting(text: string): string {
  return text.replace(/\S{6,}/gu, (word) => {
    const runs = Array.from(word.matchAll(/(.)\1*/gsu), (m) => m[0]);
    const length = Array.from(runs[0] ?? '').length;
    if (runs.length < (length === 2 ? 3 : 2) || length < 2 || length > 4 || runs.some((run) => Array.from(run).length !== length)) return word;
    return runs.map((run) => Array.from(run)[0]).join('');
  });
}

/** What dist/pdfjs.js exports (see pdfjsBundle.mjs). */
type PdfJsApi = Pick<typeof PdfJs, 'getDocument' | 'VerbosityLevel'>;

let loaded: PdfJsApi | undefined;

/**
 * Loads dist/pdfjs.js, the bundle beside this one, once per thread, with the stream limit
 * {@link MAX_PDF_STREAM_BYTES} set for it. pdf.js's display layer builds a
 * `DOMMatrix` when it loads (for canvas rendering, which Scout never does), so a bare stand-in is defined
 * where the runtime has none; and it reports its missing optional rendering package on the console while
 * loading, which in the CLI is the user's terminal, so the console is silent until it has loaded.
 *
 * @throws Error when the bundle is missing (this module runs only from the built conversion worker)
 */
function loadPdfJs(): PdfJsApi {
  if (loaded) return loaded;
  const scope = globalThis as { DOMMatrix?: unknown; scoutPdfMaxStreamBytes?: number };
  scope.DOMMatrix ??= class DOMMatrix {};
  scope.scoutPdfMaxStreamBytes = MAX_PDF_STREAM_BYTES; // read by the check the build adds to pdf.js (esbuild.mjs)
  const { log, warn, info } = console;
  console.log = console.warn = console.info = () => undefined;
  try {
    loaded = require(path.join(__dirname, 'pdfjs.js')) as PdfJsApi;
  } finally {
    Object.assign(console, { log, warn, info });
  }
  return loaded;
}
