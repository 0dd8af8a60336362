import { Readability } from '@mozilla/readability';

/**
 * Which part of a page was converted:
 * - `readability`: the article @mozilla/readability found (Firefox Reader View's algorithm);
 * - `main`, `article`, `role-main`: no article was kept, so the page's `<main>`, its largest `<article>`, or
 *   its element with `role="main"`, without the navigation and sidebars inside it;
 * - `body-cleaned`: the whole body without its navigation, site header and footer, sidebars and cookie or
 *   consent banners;
 * - `body`: the whole body (main-content extraction is off).
 */
export type ContentSource = 'readability' | 'main' | 'article' | 'role-main' | 'body-cleaned' | 'body';

/** The part of a page chosen for conversion. */
export interface MainContent {
  readonly root: Element;
  readonly source: ContentSource;
  /** Readability's title for the article; '' for the other sources. */
  readonly title: string;
  /** Characters of text (whitespace collapsed) in `root`. */
  readonly contentChars: number;
}

/**
 * Readability's article is used only when it holds at least this many characters of text, or half of the
 * page's content text when that is shorter (Scout's choice: a 427-character news brief is an article; a
 * caption-sized fragment is not). Also Readability's own `charThreshold`, so its first pass accepts a short
 * article instead of retrying with looser rules and returning something larger, such as a comment thread.
 */
export const MIN_ARTICLE_CHARS = 200;

/**
 * ...and at least this share of the page's content text: its text outside navigation, site header and
 * footer, sidebars, banners, comment threads and "related"/share/newsletter blocks (see
 * {@link contentTextLength}). Less means Readability picked one item of a listing, and the fallback chain
 * shows the whole listing instead. Scout's choice, from the generated corpus in test/helpers/webCorpus.ts.
 */
export const MIN_ARTICLE_SHARE = 0.25;

/**
 * ...and at most this share of its own text in navigation, sidebars or the site's header and footer. More
 * means Readability found no article and fell back to the whole body, menus included; the fallback chain then
 * does better, as it leaves them out. A table of contents inside a long article stays well under it. Scout's
 * choice.
 */
export const MAX_ARTICLE_CHROME_SHARE = 0.1;

/** A fallback candidate is used when it holds at least this share of the cleaned body's text. */
const MIN_CANDIDATE_SHARE = 0.5;

/**
 * Whether Readability's article is used: it holds `articleChars` characters of text, `chromeChars` of them in
 * navigation, sidebars or the site's header and footer, on a page with `contentChars` characters of content
 * text (see {@link MIN_ARTICLE_SHARE}).
 */
export function keepsArticle(articleChars: number, chromeChars: number, contentChars: number): boolean {
  return (
    articleChars > 0 &&
    articleChars >= Math.min(MIN_ARTICLE_CHARS, contentChars / 2) &&
    articleChars >= contentChars * MIN_ARTICLE_SHARE &&
    chromeChars <= articleChars * MAX_ARTICLE_CHROME_SHARE
  );
}

/** Navigation and sidebars, by element and by ARIA role: never content, wherever they are. */
const NAVIGATION_ELEMENTS = new Set(['NAV', 'ASIDE']);
const NAVIGATION_ROLES = new Set(['navigation', 'complementary', 'search', 'menubar']);
/** The site's own header and footer: chrome outside an article or main element, content inside one (HTML §4.3.8). */
const HEADER_FOOTER_ELEMENTS = new Set(['HEADER', 'FOOTER']);
const HEADER_FOOTER_ROLES = new Set(['banner', 'contentinfo']);

/**
 * Class and id names of cookie and consent banners: the common consent platforms' own names, a name holding
 * "consent" or "gdpr", or "cookie" or "privacy" together with a banner word ("cookie-notice", "cookieBar",
 * "privacy-popup"). Matched per name (one class, or the id), so `tag-cookies` (a blog post about baking) or
 * `cookie-recipe` is not a banner.
 */
const CONSENT_NAME = /^(?:onetrust|optanon|ot-sdk|cybotcookiebot|cookiebot|didomi|qc-cmp|truste|usercentrics|cmp-|sp_message|fc-consent|cc-(?:window|banner|revoke))|consent|gdpr|(?:cookie|privacy)[-_]?(?:banner|notice|bar|popup|modal|dialog|law|message|alert|overlay|wall|prompt|warning|info|policy-banner)/i;
/** Banners hold less text than this; an element named like one but holding more is kept (a site wrapper named `cookies-accepted`). */
const MAX_BANNER_CHARS = 5000;

/**
 * Names of sign-up prompts (newsletter boxes, subscription and paywall offers) that sites put inside the
 * article itself. Removed when they hold at most {@link MAX_PROMPT_CHARS} characters of text.
 */
const PROMPT_NAME = /newsletter|sign-?up|subscribe|subscription|paywall-(?:offer|prompt)/i;
const MAX_PROMPT_CHARS = 500;

/** Class and id words of comment threads, and of the "related", share and sign-up blocks around an article. */
const AROUND_ARTICLE_NAMES = /comment|disqus|discussion|respond|replies|related|recommend|promo|newsletter|share|social|sponsor|outbrain|taboola|sidebar|breadcrumb|menu|masthead/i;

function nameOf(el: Element): string {
  return `${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`;
}

/**
 * The element's own names that can mark it as chrome: its id and its classes, without the taxonomy classes
 * blog engines put on a post (`tag-cookies`, `category-newsletter`), which describe its topic.
 */
function ownNames(el: Element): string[] {
  return nameOf(el)
    .split(/\s+/)
    .filter((name) => name !== '' && !/^(?:tag|category|categories|topic|section)[-_]/i.test(name));
}

/** Elements that are the page's content by their own kind, whatever they are named. */
function isContentElement(el: Element): boolean {
  return el.nodeName === 'ARTICLE' || el.nodeName === 'MAIN' || roleOf(el) === 'main' || el.querySelector('main, article, [role="main"], h1') !== null;
}

/**
 * Removes cookie and consent banners ({@link CONSENT_NAME}) and sign-up prompts ({@link PROMPT_NAME}) from
 * `document`'s body: text that is never the page's content, wherever it sits. An article or main element, or
 * one holding the page's `h1`, is never removed, whatever its name.
 */
export function removeBanners(document: Document): void {
  for (const el of Array.from(document.body.querySelectorAll('[id], [class]'))) {
    if (!el.isConnected) continue;
    const names = ownNames(el);
    const limit = names.some((n) => CONSENT_NAME.test(n)) ? MAX_BANNER_CHARS : names.some((n) => PROMPT_NAME.test(n)) ? MAX_PROMPT_CHARS : -1;
    if (limit < 0 || isContentElement(el) || textLength(el) > limit) continue;
    el.remove();
  }
}

/**
 * Runs Readability on `document` (which it rearranges) and returns its article when {@link keepsArticle}
 * accepts it, measured against `contentChars`, the content text of the document before Readability ran.
 */
export function readabilityArticle(document: Document, contentChars: number): MainContent | undefined {
  const article = new Readability<Element>(document, { keepClasses: true, charThreshold: MIN_ARTICLE_CHARS, serializer: (node) => node as Element }).parse();
  const root = article?.content;
  if (!root) return undefined;
  const articleChars = textLength(root);
  if (!keepsArticle(articleChars, articleChars - textLength(root, isChrome), contentChars)) return undefined;
  return { root, source: 'readability', title: normaliseSpace(article.title ?? ''), contentChars: articleChars };
}

/**
 * The fallback chain when Readability's article is not used (issue 11): the page's `<main>`, else its
 * `<article>` holding the most text, else its `role="main"` element, each used when it holds at least half of
 * the cleaned body's text and with the navigation and sidebars inside it removed; else the body without
 * navigation, site header and footer, and sidebars. Cookie and consent banners must already be gone
 * ({@link removeBanners}). Rearranges `document`.
 */
export function fallbackContent(document: Document): MainContent {
  const body = document.body;
  const bodyChars = textLength(body, isChrome);
  const candidates: [ContentSource, string][] = [
    ['main', 'main'],
    ['article', 'article'],
    ['role-main', '[role="main"]'],
  ];
  for (const [source, selector] of candidates) {
    let best: { el: Element; chars: number } | undefined;
    for (const el of Array.from(body.querySelectorAll(selector))) {
      const chars = textLength(el, isNavigation);
      if (!best || chars > best.chars) best = { el, chars };
    }
    if (best && best.chars > 0 && best.chars >= bodyChars * MIN_CANDIDATE_SHARE) {
      removeWhere(best.el, isNavigation);
      return { root: best.el, source, title: '', contentChars: best.chars };
    }
  }
  removeWhere(body, isChrome);
  return { root: body, source: 'body-cleaned', title: '', contentChars: bodyChars };
}

/**
 * Characters of the page's content text: the body's text without navigation, site header and footer,
 * sidebars, comment threads and the blocks named like "related", share or newsletter blocks. The measure
 * {@link keepsArticle} compares Readability's article with.
 */
export function contentTextLength(body: Element): number {
  return textLength(body, (el) => isChrome(el) || AROUND_ARTICLE_NAMES.test(nameOf(el)));
}

/** The element's ARIA role: the first token of its `role` attribute, lower-cased. */
function roleOf(el: Element): string {
  return (el.getAttribute('role') ?? '').trim().split(/\s+/)[0]!.toLowerCase();
}

function isNavigation(el: Element): boolean {
  return NAVIGATION_ELEMENTS.has(el.nodeName) || (el.hasAttribute('role') && NAVIGATION_ROLES.has(roleOf(el)));
}

/** Navigation, sidebars, and a header or footer that is not inside an article or main element. */
function isChrome(el: Element): boolean {
  if (isNavigation(el)) return true;
  if (!HEADER_FOOTER_ELEMENTS.has(el.nodeName) && !(el.hasAttribute('role') && HEADER_FOOTER_ROLES.has(roleOf(el)))) return false;
  for (let p = el.parentElement; p; p = p.parentElement) if (p.nodeName === 'ARTICLE' || p.nodeName === 'MAIN' || roleOf(p) === 'main') return false;
  return true;
}

/** Removes the elements under `root` that `test` accepts (the outermost of nested ones). */
function removeWhere(root: Element, test: (el: Element) => boolean): void {
  const found: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el !== root && test(el)) {
      found.push(el);
      continue;
    }
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  for (const el of found) el.remove();
}

/**
 * Characters of text under `root` with whitespace runs counted as one space, leaving out subtrees whose root
 * element `skip` accepts. Iterative, so deep pages cannot overflow the stack.
 */
export function textLength(root: Element, skip?: (el: Element) => boolean): number {
  let chars = 0;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === 3) {
      const length = collapsedLength(node.textContent ?? '');
      if (length > 0) chars += length + 1;
      continue;
    }
    if (node.nodeType !== 1 || (node !== root && skip?.(node as Element))) continue;
    for (let c = node.lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return chars;
}

/** `normaliseSpace(text).length`, without making the string. */
function collapsedLength(text: string): number {
  let length = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) {
      space = length > 0;
    } else {
      length += space ? 2 : 1;
      space = false;
    }
  }
  return length;
}

/** What `\s` matches in a regular expression (ECMAScript WhiteSpace and LineTerminator). */
function isSpace(c: number): boolean {
  return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** `text` with runs of whitespace made one space, and trimmed. */
export function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
