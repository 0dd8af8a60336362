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
  /**
   * Readability's article holds `shown` of the `items` teasers of a listing on the page (a blog's front page,
   * see {@link listingShown}); absent when it holds all of them or the page is no listing.
   */
  readonly listing?: { readonly shown: number; readonly items: number };
  /** What was left out under names rather than elements (see {@link namedChrome}), for the note: `div.nav`, `#sidebar`. */
  readonly namedChrome?: readonly string[];
}

/**
 * Readability's article is used only when it holds at least this many characters of text, or half of the
 * page's content text when that is shorter (Scout's choice: a 427-character news brief is an article; a
 * caption-sized fragment is not). Also Readability's own `charThreshold`, so its first pass accepts a short
 * article instead of retrying with looser rules and returning something larger, such as a comment thread.
 */
export const MIN_ARTICLE_CHARS = 200;

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
 * text (see {@link contentTextLength}). How small a share of the page the article is does not count: a news
 * story under a front page's worth of teasers and menus is still the page's article (on real pages the share
 * rule Scout had refused more articles than it caught listings).
 */
export function keepsArticle(articleChars: number, chromeChars: number, contentChars: number): boolean {
  return (
    articleChars > 0 &&
    articleChars >= Math.min(MIN_ARTICLE_CHARS, contentChars / 2) &&
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
 * Removes cookie and consent banners ({@link CONSENT_NAME}), sign-up prompts ({@link PROMPT_NAME}) and named
 * boilerplate ({@link removeBoilerplate}) from `document`'s body: text that is never the page's content,
 * wherever it sits. An article or main element, or
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
  removeBoilerplate(document.body);
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
 * Why Readability's article was not used: `none` (it found none, or {@link keepsArticle} refused it), `discussion` (the
 * page is a discussion and the article is its post without the comments, or its comments without the post,
 * see {@link splitsDiscussion}), `table` (it left out a data table that stood between or beside parts of it,
 * see {@link dropsTableBeside}).
 */
export type ArticleRefusal = 'none' | 'discussion' | 'table';

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
 * `page` (the document before Readability ran), unless it dropped a table among its text or the comments of a
 * discussion; else why not. When it holds only some teasers of a listing, it is used and says so (`listing`). When the article is shorter than
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
  if (dropsTableBeside(root, page)) return 'table';
  if (splitsDiscussion(root, articleChars, page)) return 'discussion';
  const listing = listingShown(root, articleChars, page);
  removeWhere(root, isNavigation);
  return { root, source: 'readability', title, contentChars: textLength(root), ...(listing ? { listing } : {}) };
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
 * How many teasers of the page's listing Readability's article `root` holds, when it is mostly the items of a
 * listing (elements sharing a class, at least {@link MIN_LISTING_ITEMS} of them on the page, most of them
 * teasers, see {@link isTeaser}) but left some of them out: a blog's front page came back with 6, 9, 10 or 11
 * of its 12 teasers, depending on their markup. The article is still shown (the page's own menus and rails
 * are worse), and the note says how many items it holds. Paragraphs or sections that share a class are no
 * listing: on real articles (a browser's feature page, a news story, a manual) Readability rightly drops one
 * of them. An item counts as left out when the start of its text is nowhere in the article (Readability moves
 * the nodes it keeps, and renames some, so the text is what can be compared).
 */
function listingShown(root: Element, articleChars: number, page: PageProfile): { shown: number; items: number } | undefined {
  const kept = new Map<string, number>();
  for (const el of Array.from(root.querySelectorAll('[class]'))) {
    const key = classKey(el);
    if (page.repeated.has(key)) kept.set(key, (kept.get(key) ?? 0) + textLength(el));
  }
  let articleText: string | undefined;
  for (const [key, keptChars] of kept) {
    if (keptChars < articleChars / 2) continue;
    const items = page.repeated.get(key)!;
    if (items.filter(isTeaser).length < items.length * MIN_TEASER_SHARE) continue;
    articleText ??= normaliseSpace(root.textContent ?? '');
    const missing = items.filter((el) => {
      const start = textStart(el);
      return start.length >= MIN_PROBE_CHARS && !articleText!.includes(start);
    });
    if (missing.length > 0) return { shown: items.length - missing.length, items: items.length };
  }
  return undefined;
}

/** Share of a listing's items that must be teasers ({@link isTeaser}): a listing's items are alike. */
const MIN_TEASER_SHARE = 0.75;

/**
 * Whether a listing's item is a teaser of another page: it holds a heading whose link leads off the page (a
 * post's or a product's title). Repeated paragraphs, sections of a document (whose headings link to
 * themselves, `¶`) and a site's feature boxes are not, and Readability may leave some of them out.
 */
function isTeaser(item: Element): boolean {
  for (const link of Array.from(item.querySelectorAll('h1 a[href], h2 a[href], h3 a[href], h4 a[href], h5 a[href], h6 a[href], a[href] h1, a[href] h2, a[href] h3, a[href] h4, a[href] h5, a[href] h6'))) {
    const anchor = link.nodeName === 'A' ? link : link.closest('a')!;
    if (!anchor.getAttribute('href')!.startsWith('#')) return true;
  }
  return false;
}

/**
 * True when Readability's article `root` left out a data table of the page that stood beside text it kept (a
 * pricing table between two parts of a post: Readability scores paragraphs, so a table among them that holds
 * none is dropped as if it were a sidebar). Compared by text, as {@link listingShown} does.
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
 * The fallback chain when Readability's article is not used: the page's `<main>`, else its
 * `<article>` holding the most text, else its `role="main"` element, each used when it holds at least half of
 * the cleaned body's text and with the navigation, sidebars and boilerplate inside it removed; else the body
 * without navigation, site header and footer, sidebars and boilerplate. Navigation and sidebars count by
 * element and role, and outside an article or main element also by name ({@link isNamedChrome}: a
 * `<div class="nav">` menu before a short `<main>`). Cookie and consent banners must already be gone
 * ({@link removeBanners}). Rearranges `document`.
 */
export function fallbackContent(document: Document): MainContent {
  const body = document.body;
  const named = findWhere(body, isPageChrome).filter((el) => !isChrome(el));
  const bodyChars = textLength(body, isPageChrome);
  const candidates: [ContentSource, string][] = [
    ['main', 'main'],
    ['article', 'article'],
    ['role-main', '[role="main"]'],
  ];
  let content: MainContent | undefined;
  for (const [source, selector] of candidates) {
    let best: { el: Element; chars: number } | undefined;
    for (const el of Array.from(body.querySelectorAll(selector))) {
      const chars = textLength(el, isNavigation);
      if (!best || chars > best.chars) best = { el, chars };
    }
    if (best && best.chars > 0 && best.chars >= bodyChars * MIN_CANDIDATE_SHARE) {
      removeWhere(best.el, isNavigation);
      content = { root: best.el, source, title: '', contentChars: best.chars };
      break;
    }
  }
  if (!content) {
    removeChrome(body);
    content = { root: body, source: 'body-cleaned', title: '', contentChars: bodyChars };
  }
  const found = named.filter((el) => !content.root.contains(el) || !el.isConnected).map(describe);
  return found.length > 0 ? { ...content, contentChars: textLength(content.root), namedChrome: [...new Set(found)] } : { ...content, contentChars: textLength(content.root) };
}

/** `div.nav`, `div#sidebar`: an element by its tag and its first name, for a note. */
function describe(el: Element): string {
  const id = el.getAttribute('id');
  const name = id ? `#${id}` : `.${(el.getAttribute('class') ?? '').trim().split(/\s+/)[0]}`;
  return `${el.nodeName.toLowerCase()}${name}`.slice(0, 60);
}

/**
 * Words that name navigation, sidebars and the site's header and footer in class and id names, matched as whole
 * parts of a name (`nav`, `main-nav`, `navbar`, `site_menu`, `leftSidebar`, `breadcrumbs`), never inside a word
 * (`canvas`, `unavailable`). A `menu-card` of dishes has the part `menu`: {@link isNamedChrome}'s link rule
 * keeps it.
 */
const CHROME_NAME_PARTS = new Set(['nav', 'navbar', 'navigation', 'navlinks', 'menu', 'menubar', 'mainmenu', 'topnav', 'sidenav', 'breadcrumb', 'breadcrumbs', 'sidebar', 'masthead', 'header', 'footer', 'topbar']);
/** Of those, the words of menus: such an element is chrome only when most of its text is link text. */
const MENU_NAME_PARTS = new Set(['nav', 'navbar', 'navigation', 'navlinks', 'menu', 'menubar', 'mainmenu', 'topnav', 'sidenav', 'breadcrumb', 'breadcrumbs', 'header', 'footer', 'topbar']);
/** Share of a menu's text that is link text. */
const MIN_MENU_LINK_SHARE = 0.5;

/** The parts of a class or id name: split at `-`, `_` and a lower-to-upper case change, lower-cased. */
function nameParts(name: string): string[] {
  return name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase().split(/[-_]+/).filter(Boolean);
}

/**
 * Navigation, sidebars and the site's header and footer named by class or id ({@link CHROME_NAME_PARTS}) rather
 * than marked by element or role: outside an article or main element, not holding one (nor the page's `h1`),
 * and for menu names, mostly links. Scout's choice; the input that broke: a `<div class="nav">` of 40 links
 * before a `<main>` of two paragraphs, shown whole as "no article or main element was found".
 */
function isNamedChrome(el: Element): boolean {
  const parts = ownNames(el).flatMap(nameParts);
  if (!parts.some((p) => CHROME_NAME_PARTS.has(p)) || isContentElement(el)) return false;
  if (insideContent(el)) return false;
  if (!parts.some((p) => CHROME_NAME_PARTS.has(p) && !MENU_NAME_PARTS.has(p))) {
    const chars = textLength(el);
    return chars === 0 || linkTextLength(el) >= chars * MIN_MENU_LINK_SHARE;
  }
  return true;
}

/** Chrome by element, role or name: what the fallback chain and a page cut into parts leave out. */
function isPageChrome(el: Element): boolean {
  return isChrome(el) || isNamedChrome(el);
}

/** Characters of text inside links under `root`. */
function linkTextLength(root: Element): number {
  return Array.from(root.querySelectorAll('a')).reduce((n, a) => n + (a.parentElement?.closest('a') ? 0 : textLength(a)), 0);
}

/**
 * Words that name boilerplate, wherever it sits: breadcrumbs, share and "related" blocks, sign-up and paywall
 * boxes, consent notes, trust badges and disclaimers. Matched as whole parts of a class or id name, as
 * {@link CHROME_NAME_PARTS} are. Menus by name are left to {@link isNamedChrome} outside the article, and to
 * Readability inside it.
 */
const BOILERPLATE_NAME_PARTS = new Set([
  'breadcrumb', 'breadcrumbs', 'share', 'sharing', 'sharebar', 'sharetools', 'social', 'related', 'newsletter',
  'consent', 'badge', 'badges', 'disclaimer', 'subscribe', 'signup', 'promo',
]);
/**
 * `paywall` names the box only with one of these words (`paywall-offer`, `paywallPrompt`): alone it often names
 * the article's own text behind the wall (`article-body paywall`). "cookie" alone is left to
 * {@link CONSENT_NAME}, as a `cookie-recipe` is content.
 */
const PAYWALL_BOX_PARTS = new Set(['offer', 'prompt', 'box', 'banner', 'message', 'modal', 'overlay', 'cta', 'notice', 'upsell', 'inline']);
/** Boilerplate holds at most this share of the text it sits in; a block named so that holds more is the content. */
const MAX_BOILERPLATE_SHARE = 0.25;
/** Inline elements, never removed as boilerplate: a `<span class="badge">` inside a sentence is part of it. */
const INLINE_ELEMENTS = new Set(['A', 'ABBR', 'B', 'BDI', 'BDO', 'CITE', 'CODE', 'DATA', 'DFN', 'EM', 'I', 'KBD', 'MARK', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TIME', 'U', 'VAR']);

/**
 * Removes the boilerplate under `root` (a page's body, before Readability runs: it turns a `<div>` of phrasing
 * content into a `<p>` without its class, so a trust badge inside the article could not be told afterwards):
 * elements named like {@link BOILERPLATE_NAME_PARTS}, block elements only, each holding at most
 * {@link MAX_BOILERPLATE_SHARE} of `root`'s text and not a heading, an article or main element, or the page's
 * `h1`. Cleanup inside the page, instead of showing another part of it.
 */
export function removeBoilerplate(root: Element): void {
  const limit = textLength(root) * MAX_BOILERPLATE_SHARE;
  removeWhere(root, (el) => {
    if (INLINE_ELEMENTS.has(el.nodeName) || /^H[1-6]$/.test(el.nodeName) || isContentElement(el)) return false;
    const parts = ownNames(el).flatMap(nameParts);
    const words = parts.filter((p) => BOILERPLATE_NAME_PARTS.has(p) || (p === 'paywall' && parts.some((q) => PAYWALL_BOX_PARTS.has(q))));
    if (words.length === 0) return false;
    return textLength(el) <= limit;
  });
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
  return !insideContent(el);
}

/** Whether `el` sits inside an article or main element (or one with `role="main"`). */
function insideContent(el: Element): boolean {
  for (let p = el.parentElement; p; p = p.parentElement) if (p.nodeName === 'ARTICLE' || p.nodeName === 'MAIN' || roleOf(p) === 'main') return true;
  return false;
}

/**
 * Removes the navigation, sidebars, and the site's header and footer (those outside an article or main
 * element) under `root`, as the fallback chain's last step does with the whole body.
 */
export function removeChrome(root: Element): void {
  removeWhere(root, isPageChrome);
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
  for (const el of findWhere(root, test)) el.remove();
}

/** The elements under `root` that `test` accepts, the outermost of nested ones, in document order. */
function findWhere(root: Element, test: (el: Element) => boolean): Element[] {
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
  return found;
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
