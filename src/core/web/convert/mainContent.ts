import { Readability } from '@mozilla/readability';
import { isLayoutTable } from './tables';

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

/** What a page holds before Readability rearranges it: the measures its article is judged against. */
export interface PageProfile {
  /** Characters of content text (see {@link contentTextLength}). */
  readonly contentChars: number;
  /** Characters of text in comment threads (elements named like {@link COMMENT_NAMES}, outside navigation). */
  readonly commentChars: number;
  /** The page marks its post as one: an `<article>`, or an element named like a post or an entry ({@link POST_NAMES}). */
  readonly markedPost: boolean;
  /** Class values on at least {@link MIN_LISTING_ITEMS} elements outside navigation, and those elements. */
  readonly repeated: ReadonlyMap<string, readonly Element[]>;
  /** The data tables outside navigation (see `isLayoutTable`), each with the start of its text and of the text around it. */
  readonly tables: readonly PageTable[];
}

/** A data table of the page: the start of its text, and of the text of the elements beside it (see {@link tableBeside}). */
export interface PageTable {
  readonly start: string;
  readonly beside: readonly string[];
}

/** Class and id words of comment threads. */
const COMMENT_NAMES = /comment|disqus|discussion|replies/i;
/** Class and id names that mark an element as the post a comment thread is about. */
const POST_NAMES = /^(?:(?:type|single|hentry)[-_])?(?:post|entry|article|story)(?:$|[-_](?:body|content|text|main))/i;

/**
 * Items of one class needed to call them a listing's items (teasers of a blog's front page, results,
 * products), which Readability must keep all of or none.
 */
const MIN_LISTING_ITEMS = 3;

/**
 * A page is a discussion (a thread of comments about a short post, such as a link aggregator's item page)
 * whose comments Readability dropped when they hold at least this many times the text of its article, and
 * nothing marks the article as a post of its own. Then the comments are the page's content: Readability,
 * which drops most elements named like a comment, is not used. Scout's choice.
 */
export const DISCUSSION_COMMENT_RATIO = 3;

/**
 * ...and a discussion whose post Readability dropped when at least this share of its article's text is in
 * comment threads, and the article holds less than this share of the page's content text (its text outside
 * comment threads and chrome, see {@link contentTextLength}): Readability took the thread for the article
 * and left out the post above it. The input that broke: a Hacker News item page, all tables, whose comment
 * tree (which Readability keeps whole, as it never drops what is inside a table as unlikely) outscored the
 * story's link, score, author and text. Scout's choice.
 */
export const DISCUSSION_THREAD_SHARE = 0.5;

/** Measures a prepared document before Readability runs (see {@link PageProfile}). */
export function profilePage(document: Document): PageProfile {
  const body = document.body;
  let commentChars = 0;
  let markedPost = body.querySelector('article') !== null;
  const classes = new Map<string, Element[]>();
  const tables: PageTable[] = [];
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el !== body && isChrome(el)) continue;
    if (el !== body && COMMENT_NAMES.test(nameOf(el))) {
      commentChars += textLength(el, isNavigation);
      continue;
    }
    markedPost ||= ownNames(el).some((n) => POST_NAMES.test(n));
    if (el.nodeName === 'TABLE' && tables.length < MAX_PROFILED_TABLES && !isLayoutTable(el)) {
      const table = tableBeside(el);
      if (table) tables.push(table);
    }
    const key = classKey(el);
    if (key !== '') {
      const list = classes.get(key);
      if (list) list.push(el);
      else classes.set(key, [el]);
    }
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  const repeated = new Map<string, Element[]>();
  for (const [key, elements] of classes) if (elements.length >= MIN_LISTING_ITEMS) repeated.set(key, elements);
  return { contentChars: contentTextLength(body), commentChars, markedPost, repeated, tables };
}

/** Data tables a page profile records at most (a page of thousands of small tables needs no more to be judged). */
const MAX_PROFILED_TABLES = 200;

/** Characters from the start of a text that are compared (a listing item's, a table's, a paragraph's). */
const PROBE_CHARS = 80;

/**
 * A data table and the text beside it: the start of the text of its previous and next element siblings, or,
 * when those hold little text (a table alone in its wrapper), of its wrapper's, up to three levels up.
 * Undefined for a table with less than {@link MIN_PROBE_CHARS} characters of text.
 */
function tableBeside(table: Element): PageTable | undefined {
  const start = textStart(table);
  if (start.length < MIN_PROBE_CHARS) return undefined;
  const beside: string[] = [];
  for (let el: Element | null = table, level = 0; el && el.nodeName !== 'BODY' && beside.length === 0 && level < 3; el = el.parentElement, level++) {
    for (const sibling of [el.previousElementSibling, el.nextElementSibling]) {
      const text = sibling ? textStart(sibling) : '';
      if (text.length >= MIN_PROBE_CHARS) beside.push(text);
    }
  }
  return { start, beside };
}

/** The first {@link PROBE_CHARS} characters of the text under `root`, whitespace collapsed, read no further than needed. */
function textStart(root: Element): string {
  let text = '';
  const stack: Node[] = [root];
  let chars = 0;
  while (stack.length > 0 && chars < PROBE_CHARS) {
    const node = stack.pop()!;
    if (node.nodeType === 3) {
      const part = node.textContent ?? '';
      text += part;
      chars += collapsedLength(part) + 1;
    } else if (node.nodeType === 1) for (let c = node.lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return normaliseSpace(text).slice(0, PROBE_CHARS);
}

/** An element's class list, sorted, as one key ('' without classes). */
function classKey(el: Element): string {
  const value = el.getAttribute('class');
  return value ? value.split(/\s+/).filter(Boolean).sort().join(' ') : '';
}

/**
 * Why Readability's article was not used: `none` (it found none, or {@link keepsArticle} refused it),
 * `listing` (it kept only some items of the page's listing, see {@link dropsListingItems}), `discussion` (the
 * page is a discussion and the article is its post without the comments, or its comments without the post,
 * see {@link splitsDiscussion}), `table` (it left out a data table that stood between or beside parts of it,
 * see {@link dropsTableBeside}).
 */
export type ArticleRefusal = 'none' | 'listing' | 'discussion' | 'table';

/**
 * Readability's own threshold (`charThreshold`'s default, which Firefox Reader View uses): an article shorter
 * than this from Scout's first pass (run with {@link MIN_ARTICLE_CHARS}) is looked for again with it, as
 * Readability's retries with looser rules can find the rest of an article whose first pass kept only its
 * opening (a science news page came back with its first 493 characters).
 */
const READABILITY_CHAR_THRESHOLD = 500;

/** Readability's article of `document` (which it rearranges) with `charThreshold`, and its title. */
function runReadability(document: Document, charThreshold: number): { root: Element; title: string } | undefined {
  const article = new Readability<Element>(document, { keepClasses: true, charThreshold, serializer: (node) => node as Element }).parse();
  return article?.content ? { root: article.content, title: normaliseSpace(article.title ?? '') } : undefined;
}

/**
 * Runs Readability on `document` (which it rearranges) and returns its article, without the navigation and
 * the boilerplate in it (see {@link removeBoilerplate}), when {@link keepsArticle} accepts it, measured against
 * `page` (the document before Readability ran), unless it dropped part of a listing, a table among its text, or
 * the comments of a discussion; else why not. When the article is shorter than
 * {@link READABILITY_CHAR_THRESHOLD}, Readability runs again with that threshold on `reparse()` (a fresh copy of
 * the page), and its article is used instead when it is longer and neither mostly a comment thread (the
 * thread under a news brief) nor full of navigation.
 */
export function readabilityArticle(document: Document, page: PageProfile, reparse: () => Document): MainContent | ArticleRefusal {
  let article = runReadability(document, MIN_ARTICLE_CHARS);
  if (!article) return 'none';
  let articleChars = textLength(article.root);
  if (articleChars < READABILITY_CHAR_THRESHOLD) {
    const longer = runReadability(reparse(), READABILITY_CHAR_THRESHOLD);
    const chars = longer ? textLength(longer.root) : 0;
    const chrome = longer ? chars - textLength(longer.root, isChrome) : 0;
    if (longer && chars > articleChars && chrome <= chars * MAX_ARTICLE_CHROME_SHARE && commentTextLength(longer.root) < chars * DISCUSSION_THREAD_SHARE) [article, articleChars] = [longer, chars];
  }
  const { root, title } = article;
  if (!keepsArticle(articleChars, articleChars - textLength(root, isChrome), page.contentChars)) return 'none';
  if (dropsListingItems(root, articleChars, page)) return 'listing';
  if (dropsTableBeside(root, page)) return 'table';
  if (splitsDiscussion(root, articleChars, page)) return 'discussion';
  removeWhere(root, isNavigation);
  return { root, source: 'readability', title, contentChars: textLength(root) };
}

/**
 * True when Readability's article `root` (`articleChars` characters of text) is one half of a discussion: the
 * post without its comments (see {@link DISCUSSION_COMMENT_RATIO}), or the comments without the post (see
 * {@link DISCUSSION_THREAD_SHARE}). The fallback chain then shows both.
 */
function splitsDiscussion(root: Element, articleChars: number, page: PageProfile): boolean {
  if (!page.markedPost && page.commentChars >= DISCUSSION_COMMENT_RATIO * articleChars) return true;
  return commentTextLength(root) >= articleChars * DISCUSSION_THREAD_SHARE && contentTextLength(root) < page.contentChars * DISCUSSION_THREAD_SHARE;
}

/** Characters of text in the comment threads under `root` (the outermost elements named like {@link COMMENT_NAMES}). */
export function commentTextLength(root: Element): number {
  let chars = 0;
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el !== root && COMMENT_NAMES.test(nameOf(el))) chars += textLength(el, isNavigation);
    else for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  return chars;
}

/**
 * True when Readability's article `root` is mostly the items of a listing (elements sharing a class, at least
 * {@link MIN_LISTING_ITEMS} of them on the page, each holding text) but left some of them out: a blog's front
 * page came back with 6, 9, 10 or 11 of its 12 teasers, depending on their markup. An item counts as left out
 * when the start of its text is nowhere in the article (Readability moves the nodes it keeps, and renames
 * some, so the text is what can be compared).
 */
function dropsListingItems(root: Element, articleChars: number, page: PageProfile): boolean {
  const kept = new Map<string, number>();
  for (const el of Array.from(root.querySelectorAll('[class]'))) {
    const key = classKey(el);
    if (page.repeated.has(key)) kept.set(key, (kept.get(key) ?? 0) + textLength(el));
  }
  let articleText: string | undefined;
  for (const [key, keptChars] of kept) {
    if (keptChars < articleChars / 2) continue;
    const items = page.repeated.get(key)!;
    articleText ??= normaliseSpace(root.textContent ?? '');
    const missing = items.filter((el) => {
      const start = textStart(el);
      return start.length >= MIN_PROBE_CHARS && !articleText!.includes(start);
    });
    if (missing.length > 0) return true;
  }
  return false;
}

/**
 * True when Readability's article `root` left out a data table of the page that stood beside text it kept (a
 * pricing table between two parts of a post: Readability scores paragraphs, so a table among them that holds
 * none is dropped as if it were a sidebar). Compared by text, as {@link dropsListingItems} does.
 */
function dropsTableBeside(root: Element, page: PageProfile): boolean {
  if (page.tables.length === 0) return false;
  const articleText = normaliseSpace(root.textContent ?? '');
  return page.tables.some((t) => !articleText.includes(t.start) && t.beside.some((text) => articleText.includes(text)));
}

/**
 * Characters the start of a text must hold to be looked for in Readability's article: a listing item's (a
 * teaser's title and a sentence), a table's, and the text beside a table. Shorter ones prove nothing.
 */
const MIN_PROBE_CHARS = 50;

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
  removeChrome(body);
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

/**
 * Removes the navigation, sidebars, and the site's header and footer (those outside an article or main
 * element) under `root`, as the fallback chain's last step does with the whole body.
 */
export function removeChrome(root: Element): void {
  removeWhere(root, isChrome);
}

/** Letters and digits (Unicode `L` and `N`) in the text under `root`: the measure of how much text a conversion kept. */
export function letterCount(root: Element): number {
  return lettersIn(root.textContent ?? '');
}

/** Letters and digits (Unicode `L` and `N`) in `text`. */
export function lettersIn(text: string): number {
  return text.replace(/[^\p{L}\p{N}]+/gu, '').length;
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
