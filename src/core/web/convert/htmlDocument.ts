import { removeBanners, textLength } from './mainContent';
import { parseRefresh, type MetaRefresh } from './refresh';
import { MATH_MARKER_ATTRIBUTE } from './markdownRules';
import { keepCodeLineBreaks, markTaskCheckboxes } from './markdownRules';
import type * as Linkedom from 'linkedom' with { 'resolution-mode': 'import' };

// linkedom's type declarations are ESM-only; the package also ships CommonJS, which esbuild and tsx load.
const { DOMParser } = require('linkedom') as typeof Linkedom;

/** Elements in the body whose content is never page text (metadata elements there come from head-less sources). */
const DROPPED = 'script, style, noscript, template, svg, canvas, iframe, object, embed, head, title, meta, link, base, [hidden], [aria-hidden="true"]';

/**
 * Where the head and body content of a source are (UTF-16 offsets, as `scanHtml` finds them): the start of
 * each one's content and where it ends (-1: not found).
 */
export interface DocumentRanges {
  readonly headStart: number;
  readonly headEnd: number;
  readonly bodyStart: number;
  readonly bodyEnd: number;
}

/** `[start, end)` of the body content {@link parseDocument} parses (the whole source for a fragment). */
export function bodyRange(source: string, ranges: DocumentRanges): [number, number] {
  if (ranges.bodyStart >= 0) return [ranges.bodyStart, ranges.bodyEnd >= ranges.bodyStart ? ranges.bodyEnd : source.length];
  if (ranges.headEnd >= 0) return [source.indexOf('>', ranges.headEnd) + 1 || source.length, source.length];
  if (ranges.headStart >= 0) return [source.length, source.length];
  return [0, source.length];
}

/**
 * Parses into a well-formed skeleton. linkedom builds odd trees from sources without `<html>`/`<body>`
 * (an empty string has no `documentElement`; a fragment or a `<meta>`-first document makes its first element
 * the root), so the head content and `body` are placed into `<html><head>…</head><body>…</body></html>`
 * before parsing. `body` defaults to the source's body content ({@link bodyRange}); a part of a cut source
 * passes its own.
 */
export function parseDocument(source: string, ranges: DocumentRanges, body?: string): Document {
  const head = ranges.headStart >= 0 ? source.slice(ranges.headStart, ranges.headEnd >= ranges.headStart ? ranges.headEnd : undefined) : '';
  const [start, end] = bodyRange(source, ranges);
  return parseSkeleton(head, body ?? source.slice(start, end));
}

/**
 * Parses `<html><head>{head}</head><body>{body}</body></html>`, with attribute names in lower case as an HTML
 * parser gives them (HTML §13.2.5.33): linkedom keeps their case, so `<A HREF>` of a legacy page lost its link.
 */
export function parseSkeleton(head: string, body: string): Document {
  const document = new DOMParser().parseFromString(`<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`, 'text/html') as unknown as Document;
  if (UPPER_CASE_ATTRIBUTE.test(head) || UPPER_CASE_ATTRIBUTE.test(body)) lowerCaseAttributeNames(document);
  return document;
}

/**
 * What may be an attribute name with an upper-case first letter (`HREF=`): only then are names walked. Linear:
 * each try starts after a different whitespace character and reads only the letters after it.
 */
const UPPER_CASE_ATTRIBUTE = /\s[A-Z][A-Za-z-]*\s*=/;

/**
 * Renames every attribute whose name holds an upper-case letter to its lower-case name; of two that are then
 * the same name, the first in the tag keeps its value, as in HTML (`<a HREF="/a" href="/b">` links to `/a`).
 */
function lowerCaseAttributeNames(document: Document): void {
  for (const el of Array.from(document.querySelectorAll('*'))) {
    const attributes = Array.from(el.attributes);
    if (attributes.every(({ name }) => name === name.toLowerCase())) continue;
    const first = new Map<string, string>();
    for (const { name, value } of attributes) {
      const lower = name.toLowerCase();
      if (!first.has(lower)) first.set(lower, value);
      if (lower !== name) el.removeAttribute(name);
    }
    for (const [name, value] of first) if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  }
}

/** The URL relative links of `document` resolve against: its valid `<base href>`, else `pageUrl`. */
export function documentBase(document: Document, pageUrl: string): string {
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  if (baseHref) {
    try {
      return new URL(baseHref, pageUrl).href;
    } catch {
      // an invalid <base href> is ignored, as browsers do
    }
  }
  return pageUrl;
}

/** What a document's scripts weighed before {@link prepareDocument} dropped them, and where an app would render. */
export interface ScriptWeight {
  /** Characters of inline script. */
  readonly chars: number;
  /** A script holds a single-page app's server-rendered state (`__NEXT_DATA__`, `__NUXT__`, `__INITIAL_STATE__`, …). */
  readonly appState: boolean;
  /** The page loads a script file (`<script src>`). */
  readonly scriptFile: boolean;
  /**
   * Characters of text (whitespace collapsed) in the element apps mount into ({@link APP_MOUNT}) that holds
   * the most, once non-content elements are dropped; undefined when the page has none. An app's shell leaves it
   * empty for its scripts to fill; a server-rendered app has its text there already.
   */
  readonly mountChars?: number;
  /** An app mount element holds a heading with text: the server rendered it (a Next.js 404 page's `404` and its message). */
  readonly mountHeading: boolean;
}

/** Elements single-page apps render into: React's and Vue's `#root`/`#app`, Next.js, Gatsby, Nuxt, Angular. */
const APP_MOUNT = '#root, #app, #__next, #___gatsby, #__nuxt, app-root, [ng-app], [data-reactroot]';

const APP_STATE = /__NEXT_DATA__|__NUXT__|__NUXT_DATA__|__INITIAL_STATE__|__APOLLO_STATE__|__PRELOADED_STATE__|__remixContext|__sveltekit|ng-state|__GATSBY|self\.__next_f/;

/**
 * Drops non-content elements (and, when looking for the main content, cookie and consent banners and sign-up
 * prompts, so neither Readability nor the fallback chain can take them for page text), puts markers in place
 * of task list checkboxes (see `markTaskCheckboxes`), turns `<br>` in code into newlines (`keepCodeLineBreaks`) and makes URLs absolute against `base`. A `<title>` found outside the head (head-less sources) becomes `document.title`. Returns
 * what the scripts it dropped weighed, for telling a page that a browser builds with JavaScript.
 */
export function prepareDocument(document: Document, base: string, extractMainContent: boolean): ScriptWeight {
  let chars = 0;
  let appState = false;
  for (const script of Array.from(document.querySelectorAll('script'))) {
    const text = script.textContent ?? '';
    chars += text.length;
    appState ||= APP_STATE.test(script.getAttribute('id') ?? '') || APP_STATE.test(text.slice(0, 200));
  }
  const scriptFile = document.querySelector('script[src]') !== null;
  const strayTitle = document.head.querySelector('title') ? undefined : document.body.querySelector('title')?.textContent;
  for (const el of Array.from(document.body.querySelectorAll(DROPPED))) el.remove();
  let mountChars: number | undefined;
  let mountHeading = false;
  for (const mount of Array.from(document.body.querySelectorAll(APP_MOUNT))) {
    if (!mount.parentElement?.closest(APP_MOUNT)) mountChars = Math.max(mountChars ?? 0, textLength(mount)); // an outer one holds the inner ones' text
    mountHeading ||= Array.from(mount.querySelectorAll('h1, h2, h3')).some((h) => textLength(h) > 0);
  }
  cleanPageText(document);
  if (extractMainContent) removeBanners(document);
  markTaskCheckboxes(document);
  keepCodeLineBreaks(document);
  if (strayTitle) document.title = strayTitle;
  absolutiseUrls(document, base);
  return { chars, appState, scriptFile, mountHeading, ...(mountChars !== undefined ? { mountChars } : {}) };
}

/** Permalink anchors beside headings and paragraphs: Sphinx's `headerlink`, and `#` links whose text is only a mark. */
const PERMALINK_TEXT = /^[\s¶§#🔗]*$/u;

/**
 * Removes what a browser shows but a reader does not read as the text: ruby annotations (`<rt>`, `<rp>`: the
 * base text stays, `漢字` rather than `漢(かん)字(じ)`), permalink anchors (Sphinx's `¶` after every heading),
 * and soft hyphens (U+00AD, which split words for a search: `Ver\u00ADsion`); puts each MathML formula's
 * TeX in its place (see {@link markMath}) and renames `<font>` to `<span>` (see {@link renameFonts}).
 */
function cleanPageText(document: Document): void {
  for (const el of Array.from(document.body.querySelectorAll('rt, rp, a.headerlink'))) el.remove();
  for (const a of Array.from(document.body.querySelectorAll('a[href^="#"]'))) {
    const text = a.textContent ?? '';
    if (text !== '' && PERMALINK_TEXT.test(text) && a.children.length === 0) a.remove();
  }
  markMath(document);
  renameFonts(document);
  const walker = document.createTreeWalker(document.body, 4 /* NodeFilter.SHOW_TEXT */);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (text.textContent?.includes('\u00AD')) text.textContent = text.textContent.replace(/\u00AD/g, '');
  }
}

/**
 * Renames each `<font>` to `<span>` (its attributes dropped: they only style it). Readability turns a run of
 * `<br>` into a `<p>` that takes the inline content after it, and it counts `<font>` as a block there: on an
 * old page's `<td><b>Label</b><br><br><a><font>Value</font></a></td>` the `<p>` stayed empty, the line break
 * was lost with it, and the cell read `LabelValue`. Readability renames `<font>` to `<span>` itself, later.
 */
function renameFonts(document: Document): void {
  for (const font of Array.from(document.body.querySelectorAll('font'))) {
    const span = document.createElement('span');
    while (font.firstChild) span.appendChild(font.firstChild);
    font.replaceWith(span);
  }
}

/**
 * Replaces each `<math>` by a marker the Markdown rules write as `$TeX$` (`$$TeX$$` on its own line for
 * `display="block"`): its TeX annotation (`<annotation encoding="application/x-tex">`), else its `alttext`,
 * else its MathML written out (see {@link mathMLText}). Without this a formula came out as its scattered
 * MathML tokens, or not at all.
 *
 * A formula a renderer wrapped ({@link MATH_RENDERER}: MathJax's `<mjx-container class="MathJax …">`, KaTeX's
 * `<span class="katex">`) is replaced with its wrapper: the wrapper's class names (MathJax's
 * `CtxtMenu_Attached_0`) look like a menu's to Readability, which dropped every formula of a MathJax page
 * with them, and its drawn copy of the formula is not text.
 */
function markMath(document: Document): void {
  for (const math of Array.from(document.body.querySelectorAll('math'))) {
    if (!math.isConnected) continue; // inside a wrapper replaced already
    const annotation = Array.from(math.querySelectorAll('annotation')).find((a) => /^(application\/x-tex|tex|latex)$/i.test((a.getAttribute('encoding') ?? '').trim()));
    const tex = normaliseTex(annotation?.textContent ?? '') || normaliseTex(math.getAttribute('alttext') ?? '') || normaliseTex(mathMLText(math));
    const wrapper = math.parentElement?.closest(MATH_RENDERER);
    const replaced = wrapper && wrapper.querySelectorAll('math').length === 1 ? wrapper : math;
    if (tex === '') {
      replaced.remove();
      continue;
    }
    const marker = document.createElement('span');
    const block = math.getAttribute('display') === 'block' || wrapper?.getAttribute('display') === 'true' || wrapper?.classList.contains('katex-display');
    marker.setAttribute(MATH_MARKER_ATTRIBUTE, block ? 'block' : 'inline');
    marker.textContent = tex;
    replaced.replaceWith(marker);
  }
}

/** Elements math renderers wrap a formula in, with their drawn copy of it beside the MathML. */
const MATH_RENDERER = 'mjx-container, .MathJax, .MathJax_Display, .katex-display, .katex';

/**
 * A MathML element written out as TeX-like text: token elements (`<mi>`, `<mn>`, `<mo>`, `<mtext>`) as their
 * text, `<msup>` as `base^{exponent}`, `<msub>` as `base_{index}`, `<msubsup>`, `<mfrac>` as
 * `\frac{a}{b}`, `<msqrt>` and `<mroot>` as `\sqrt`, and anything else as its children separated by
 * spaces, so `<mi>a</mi><msup><mi>x</mi><mn>2</mn></msup>` reads `a x^{2}`, not `ax2`. Annotations are left out.
 */
function mathMLText(node: Element): string {
  const name = node.nodeName.toLowerCase();
  if (name === 'annotation' || name === 'annotation-xml') return '';
  const kids = Array.from(node.children);
  if (kids.length === 0) return (node.textContent ?? '').trim();
  const [a, b, c] = kids.map(mathMLText);
  if (name === 'msup' && kids.length === 2) return `${a}^{${b}}`;
  if (name === 'msub' && kids.length === 2) return `${a}_{${b}}`;
  if (name === 'msubsup' && kids.length === 3) return `${a}_{${b}}^{${c}}`;
  if (name === 'mfrac' && kids.length === 2) return `\\frac{${a}}{${b}}`;
  if (name === 'mroot' && kids.length === 2) return `\\sqrt[${b}]{${a}}`;
  if (name === 'msqrt') return `\\sqrt{${kids.map(mathMLText).join(' ')}}`;
  return kids.map(mathMLText).filter((t) => t !== '').join(' ');
}

function normaliseTex(tex: string): string {
  return tex.replace(/\s+/g, ' ').trim();
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
 * The first `<meta http-equiv="refresh">` of `document` that names a URL, resolved against `base`; undefined
 * when there is none or its URL is not http(s). One inside `<noscript>` is left out: a browser that runs scripts
 * ignores it, and such a page's scripts usually show the page itself.
 */
export function metaRefresh(document: Document, base: string): MetaRefresh | undefined {
  for (const meta of Array.from(document.querySelectorAll('meta[http-equiv]'))) {
    if ((meta.getAttribute('http-equiv') ?? '').trim().toLowerCase() !== 'refresh' || meta.closest('noscript')) continue;
    const refresh = parseRefresh(meta.getAttribute('content') ?? '');
    if (!refresh) continue;
    try {
      const url = new URL(refresh.url, base);
      if (url.protocol === 'http:' || url.protocol === 'https:') return { url: url.href, delaySeconds: refresh.delaySeconds };
    } catch {
      // an invalid URL is ignored, as browsers do
    }
  }
  return undefined;
}
