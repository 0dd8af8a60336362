import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { strikethrough, taskListItems } from 'turndown-plugin-gfm';
import { scanHtml, MAX_NESTING_DEPTH, type HtmlScan } from './htmlScan';
import { gfmTables } from './tables';
import type * as Linkedom from 'linkedom' with { 'resolution-mode': 'import' };

// linkedom's type declarations are ESM-only; the package also ships CommonJS, which esbuild and tsx load.
const { DOMParser } = require('linkedom') as typeof Linkedom;

export interface ConversionOptions {
  /** The page's URL: relative links and images are made absolute against it (and any `<base href>`). */
  readonly baseUrl: string;
  /** Keep only the main content found by @mozilla/readability (setting `scout.webFetch.extractMainContent`). */
  readonly extractMainContent: boolean;
}

/**
 * How the body was produced: converted Markdown, or the source passed through raw because it nests deeper
 * than {@link MAX_NESTING_DEPTH} levels (`raw-too-deep`) or because conversion threw (`raw-error`).
 */
export type ConversionMode = 'markdown' | 'raw-too-deep' | 'raw-error';

export interface Conversion {
  readonly markdown: string;
  readonly mode: ConversionMode;
  /** True when main-content extraction was used (false when off, or when it found too little text). */
  readonly extracted: boolean;
  /** With `extracted`: characters of text (whitespace collapsed) in the whole page and in the extraction. */
  readonly extraction?: { readonly pageChars: number; readonly articleChars: number };
  /** The message of the exception behind `raw-error`. */
  readonly error?: string;
}

/**
 * Readability's result is used only when it keeps at least this many characters of text (or half of a short
 * page's text)...
 */
export const MIN_EXTRACTED_CHARS = 500;
/** ...and at least this share of the page's text; less means it picked a fragment of an index or listing page. */
export const MIN_EXTRACTED_SHARE = 0.05;

/**
 * Whether an extraction keeping `articleChars` characters of a page with `pageChars` characters of text
 * (whitespace collapsed) is used instead of the whole body.
 */
export function keepsEnoughText(articleChars: number, pageChars: number): boolean {
  return articleChars > 0 && articleChars >= Math.min(MIN_EXTRACTED_CHARS, pageChars / 2) && articleChars >= pageChars * MIN_EXTRACTED_SHARE;
}

/** Elements in the body whose content is never page text (metadata elements there come from head-less sources). */
const DROPPED = 'script, style, noscript, template, svg, canvas, iframe, object, embed, head, title, meta, link, base, [hidden], [aria-hidden="true"]';

/**
 * Converts an HTML source to Markdown: lexical nesting guard, linkedom parse, removal of non-content
 * elements, optional main-content extraction, then turndown (ATX headings, fenced code, GFM tables,
 * strikethrough and task lists). Never throws: any exception returns the source raw (`raw-error`).
 * Synchronous and CPU-bound; Scout runs it inside the conversion worker.
 */
export function htmlToMarkdown(source: string, options: ConversionOptions): Conversion {
  const scan = scanHtml(source, MAX_NESTING_DEPTH);
  if (scan.tooDeep) return { markdown: source, mode: 'raw-too-deep', extracted: false };
  try {
    const load = (): Document => prepareDocument(parseDocument(source, scan), options.baseUrl);
    let document = load();
    let title = normaliseSpace(document.title);
    const article = options.extractMainContent ? extractArticle(document) : undefined;
    if (article) title = article.title || title;
    else if (options.extractMainContent) document = load(); // Readability rearranged the document it read
    let markdown = converter().turndown((article?.content ?? document.body) as unknown as HTMLElement).trim();
    if (title !== '' && !markdown.slice(0, 1000).includes(title)) markdown = `# ${title}\n\n${markdown}`.trim();
    return article ? { markdown, mode: 'markdown', extracted: true, extraction: article.extraction } : { markdown, mode: 'markdown', extracted: false };
  } catch (e) {
    return { markdown: source, mode: 'raw-error', extracted: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Parses into a well-formed skeleton. linkedom builds odd trees from sources without `<html>`/`<body>`
 * (an empty string has no `documentElement`; a fragment or a `<meta>`-first document makes its first element
 * the root), so the head and body content found by the lexical scan are placed into
 * `<html><head>…</head><body>…</body></html>` before parsing.
 */
function parseDocument(source: string, scan: HtmlScan): Document {
  const head = scan.headStart >= 0 ? source.slice(scan.headStart, scan.headEnd >= scan.headStart ? scan.headEnd : undefined) : '';
  let body: string;
  if (scan.bodyStart >= 0) body = source.slice(scan.bodyStart, scan.bodyEnd >= scan.bodyStart ? scan.bodyEnd : undefined);
  else if (scan.headEnd >= 0) body = source.slice(source.indexOf('>', scan.headEnd) + 1);
  else if (scan.headStart >= 0) body = '';
  else body = source;
  const html = `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;
  return new DOMParser().parseFromString(html, 'text/html') as unknown as Document;
}

/**
 * Drops non-content elements and makes URLs absolute against the page (or its `<base href>`). A `<title>`
 * found outside the head (head-less sources) becomes `document.title`.
 */
function prepareDocument(document: Document, pageUrl: string): Document {
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  let base = pageUrl;
  if (baseHref) {
    try {
      base = new URL(baseHref, pageUrl).href;
    } catch {
      // an invalid <base href> is ignored, as browsers do
    }
  }
  const strayTitle = document.head.querySelector('title') ? undefined : document.body.querySelector('title')?.textContent;
  for (const el of Array.from(document.body.querySelectorAll(DROPPED))) el.remove();
  if (strayTitle) document.title = strayTitle;
  absolutiseUrls(document, base);
  return document;
}

/** Makes link and image URLs absolute; unwraps `javascript:` links; drops inline `data:` images' payloads. */
function absolutiseUrls(document: Document, base: string): void {
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    const href = a.getAttribute('href')!.trim();
    if (/^javascript:/i.test(href)) a.removeAttribute('href');
    else a.setAttribute('href', absolute(href, base));
  }
  for (const img of Array.from(document.querySelectorAll('img'))) {
    const src = img.getAttribute('src')?.trim() ?? '';
    if (src === '' || /^data:/i.test(src)) img.removeAttribute('src');
    else img.setAttribute('src', absolute(src, base));
    img.removeAttribute('srcset');
  }
}

function absolute(url: string, base: string): string {
  if (url.startsWith('#')) return url;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/**
 * Runs @mozilla/readability (which rearranges `document`); returns the article element and its title when
 * it kept enough text (see {@link keepsEnoughText}).
 */
function extractArticle(document: Document): { content: Element; title: string; extraction: Conversion['extraction'] } | undefined {
  const pageChars = normaliseSpace(document.body?.textContent ?? '').length;
  const article = new Readability<Element>(document, { keepClasses: true, serializer: (node) => node as Element }).parse();
  const content = article?.content;
  if (!content) return undefined;
  const articleChars = normaliseSpace(content.textContent ?? '').length;
  if (!keepsEnoughText(articleChars, pageChars)) return undefined;
  return { content, title: normaliseSpace(article.title ?? ''), extraction: { pageChars, articleChars } };
}

let service: TurndownService | undefined;

/** The shared turndown instance with Scout's rules (built once per worker). */
function converter(): TurndownService {
  if (service) return service;
  // `br: ''`: a <br> becomes a plain newline, not Markdown's two-space hard break (invisible, and tokens).
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_', strongDelimiter: '**', hr: '---', br: '' });
  service.use([strikethrough, taskListItems, gfmTables]);
  service.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node) => {
      const code = soleCodeChild(node);
      const text = preformattedText(code ?? node).replace(/\n$/, '');
      const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
      return `\n\n${fence}${languageOf(code) ?? languageOf(node) ?? ''}\n${text}\n${fence}\n\n`;
    },
  });
  // turndown pads list markers to four columns ("-   item"); one space reads the same and costs fewer tokens.
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const parent = node.parentNode as Element | null;
      let prefix = `${options.bulletListMarker} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1');
        prefix = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const paragraph = /\n$/.test(content);
      const body = content.replace(/^\n+|\n+$/g, '') + (paragraph ? '\n' : '');
      return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (node.nextSibling ? '\n' : '');
    },
  });
  service.addRule('textlessLink', {
    filter: (node) => node.nodeName === 'A' && normaliseSpace(node.textContent ?? '') === '' && !node.querySelector('img[alt]:not([alt=""])'),
    replacement: () => '',
  });
  service.addRule('altlessImage', {
    filter: (node) => node.nodeName === 'IMG' && ((node.getAttribute('alt') ?? '').trim() === '' || !node.getAttribute('src')),
    replacement: (_content, node) => (node.getAttribute('alt') ?? '').trim(),
  });
  return service;
}

/** The one `<code>` child of a `<pre>`, ignoring whitespace-only text around it (`<pre>\n  <code>…</code>\n</pre>`). */
function soleCodeChild(pre: Element): Element | undefined {
  let code: Element | undefined;
  for (let c = pre.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3 && (c.textContent ?? '').trim() === '') continue;
    if (c.nodeType === 1 && c.nodeName === 'CODE' && !code) code = c as Element;
    else return undefined;
  }
  return code;
}

const BREAKS_LINE = new Set(['DIV', 'P', 'LI', 'TR']);

/** Text of a preformatted element with `<br>` and line-per-element highlighters turned into newlines. */
function preformattedText(root: Element): string {
  let out = '';
  const walk = (node: Node): void => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out += c.textContent ?? '';
      else if (c.nodeName === 'BR') out += '\n';
      else if (c.nodeType === 1) {
        walk(c);
        if (BREAKS_LINE.has(c.nodeName) && !out.endsWith('\n')) out += '\n';
      }
    }
  };
  walk(root);
  return out;
}

function languageOf(el: Element | undefined): string | undefined {
  if (!el) return undefined;
  const classes = `${el.getAttribute('class') ?? ''} ${(el.parentNode as Element | null)?.getAttribute?.('class') ?? ''}`;
  const match = /(?:^|\s)(?:language|lang)-([\w+#.-]{1,30})/.exec(classes) ?? /highlight-(?:text|source)-([a-z0-9]{1,30})/.exec(classes);
  return match?.[1] ?? el.getAttribute('data-lang')?.match(/^[\w+#.-]{1,30}$/)?.[0];
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return longest;
}

function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}


