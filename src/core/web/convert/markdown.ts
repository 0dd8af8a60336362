import TurndownService from 'turndown';
import { strikethrough, taskListItems } from 'turndown-plugin-gfm';
import { scanHtml, MAX_NESTING_DEPTH, type HtmlScan } from './htmlScan';
import { contentTextLength, fallbackContent, normaliseSpace, readabilityArticle, removeBanners, textLength, type ContentSource, type MainContent } from './mainContent';
import { gfmTables } from './tables';
import type * as Linkedom from 'linkedom' with { 'resolution-mode': 'import' };

// linkedom's type declarations are ESM-only; the package also ships CommonJS, which esbuild and tsx load.
const { DOMParser } = require('linkedom') as typeof Linkedom;

export interface ConversionOptions {
  /** The page's URL: relative links and images are made absolute against it (and any `<base href>`). */
  readonly baseUrl: string;
  /** Look for the main content (setting `scout.webFetch.extractMainContent`); else the whole body is converted. */
  readonly extractMainContent: boolean;
  /**
   * When the conversion should be finished, in `now()` ms (the worker's time budget). Readability is skipped,
   * and the cheaper fallback chain used, when parsing alone took more than a third of the time left: the
   * article search and turndown each cost about as much again. Default: no deadline.
   */
  readonly deadline?: number;
  /** The clock `deadline` is read against; default `Date.now`. Tests pass their own. */
  readonly now?: () => number;
}

/**
 * The result of converting an HTML source:
 * - `markdown`: converted; `content` says which part of the page, `pageChars` and `contentChars` are the
 *   characters of text (whitespace collapsed) in the whole body and in that part, and `articleSearchSkipped`
 *   is true when the deadline left no time for Readability;
 * - `raw-too-deep`: not converted, because it nests deeper than {@link MAX_NESTING_DEPTH} levels;
 * - `raw-error`: not converted, because conversion threw `error`.
 * A source that is not converted is shown raw by the caller.
 */
export type Conversion =
  | {
      readonly mode: 'markdown';
      readonly markdown: string;
      readonly content: ContentSource;
      readonly pageChars: number;
      readonly contentChars: number;
      readonly articleSearchSkipped: boolean;
    }
  | { readonly mode: 'raw-too-deep' }
  | { readonly mode: 'raw-error'; readonly error: string };

/** Elements in the body whose content is never page text (metadata elements there come from head-less sources). */
const DROPPED = 'script, style, noscript, template, svg, canvas, iframe, object, embed, head, title, meta, link, base, [hidden], [aria-hidden="true"]';

/**
 * Converts a whole HTML source to Markdown: lexical nesting guard, linkedom parse, removal of non-content
 * elements, then (with `extractMainContent`) the main content: Readability's article when it keeps enough of
 * the page's content text, else the fallback chain of mainContent.ts; then turndown (ATX headings, fenced
 * code, GFM tables, strikethrough and task lists). Never throws: an exception gives `raw-error`.
 * Synchronous and CPU-bound; Scout runs it inside the conversion worker.
 */
export function htmlToMarkdown(source: string, options: ConversionOptions): Conversion {
  const scan = scanHtml(source, MAX_NESTING_DEPTH);
  if (scan.tooDeep) return { mode: 'raw-too-deep' };
  try {
    const now = options.now ?? Date.now;
    const start = now();
    const load = (): Document => prepareDocument(parseDocument(source, scan), options.baseUrl, options.extractMainContent);
    let document = load();
    const pageChars = textLength(document.body);
    let content: MainContent;
    let articleSearchSkipped = false;
    if (!options.extractMainContent) {
      content = { root: document.body, source: 'body', title: '', contentChars: pageChars };
    } else {
      const spent = now() - start;
      articleSearchSkipped = options.deadline !== undefined && options.deadline - now() < 3 * spent;
      const article = articleSearchSkipped ? undefined : readabilityArticle(document, contentTextLength(document.body));
      if (!article && !articleSearchSkipped) document = load(); // Readability rearranged the document it read
      content = article ?? fallbackContent(document);
    }
    const title = content.title || normaliseSpace(document.title);
    nestStrayLists(content.root);
    let markdown = converter().turndown(content.root as unknown as HTMLElement).trim();
    if (title !== '' && !markdown.slice(0, 1000).includes(title)) markdown = `# ${title}\n\n${markdown}`.trim();
    return { mode: 'markdown', markdown, content: content.source, pageChars, contentChars: content.contentChars, articleSearchSkipped };
  } catch (e) {
    return { mode: 'raw-error', error: e instanceof Error ? e.message : String(e) };
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
 * Drops non-content elements (and, when looking for the main content, cookie and consent banners and sign-up
 * prompts, so neither Readability nor the fallback chain can take them for page text) and makes URLs absolute against the page
 * (or its `<base href>`). A `<title>` found outside the head (head-less sources) becomes `document.title`.
 */
function prepareDocument(document: Document, pageUrl: string, extractMainContent: boolean): Document {
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
  if (extractMainContent) removeBanners(document);
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
 * Moves each list that sits directly in another list (`<ul><ul><li>x</li></ul></ul>`, invalid HTML that
 * browsers show as an indented list) into a list item: the item before it, or a new one. turndown would
 * otherwise write it at the outer list's level and the nesting would be lost.
 */
function nestStrayLists(root: Element): void {
  for (const list of Array.from(root.querySelectorAll('ul > ul, ul > ol, ol > ul, ol > ol'))) {
    const before = list.previousElementSibling;
    if (before?.nodeName === 'LI') {
      before.appendChild(list);
    } else {
      const item = list.ownerDocument.createElement('li');
      list.replaceWith(item);
      item.appendChild(list);
    }
  }
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
  // A link is always one line of text, whatever blocks it wraps (`<a href><p>Title</p></a>`, card links around a
  // heading and a teaser): a line break inside `[…]` would end the link.
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A' && Boolean(node.getAttribute('href')),
    replacement: (content, node) => {
      const text = oneLineLinkText(content);
      const href = node.getAttribute('href')!.replace(/([<>()])/g, '\\$1');
      const title = normaliseSpace(node.getAttribute('title') ?? '').replace(/"/g, '\\"');
      return text === '' ? '' : `[${text}](${/\s/.test(href) ? `<${href}>` : href}${title ? ` "${title}"` : ''})`;
    },
  });
  // Inline code is its text: a link or emphasis inside <code> is not Markdown inside a code span.
  service.addRule('inlineCode', {
    filter: 'code',
    replacement: (_content, node) => {
      const text = (node.textContent ?? '').replace(/\r?\n|\r/g, ' ');
      if (text === '') return '';
      const space = /^`|^ .*?[^ ].* $|`$/.test(text) ? ' ' : '';
      const fence = '`'.repeat(codeSpanFenceLength(text));
      return `${fence}${space}${text}${space}${fence}`;
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

/** Converted link content as one line: block breaks become spaces, and heading, quote and list markers go. */
function oneLineLinkText(content: string): string {
  return content
    .split('\n')
    .map((line) => line.replace(/^\s*(?:#{1,6}\s+|>\s?|[-*+]\s+|\d{1,9}[.)]\s+)/, '').trim())
    .filter((line) => line !== '')
    .join(' ');
}

/** Length of the shortest backtick string that can delimit `text` as a code span: one whose length no backtick run in `text` has (CommonMark §6.1). */
function codeSpanFenceLength(text: string): number {
  const runs = new Set(Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  let n = 1;
  while (runs.has(n)) n++;
  return n;
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return longest;
}


