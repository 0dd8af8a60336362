import { documentBase, metaRefresh, parseDocument, prepareDocument, type ScriptWeight } from './htmlDocument';
import type { MetaRefresh } from './refresh';
import { scanHtml, MAX_DOM_NODES, MAX_NESTING_DEPTH } from './htmlScan';
import { commentTextLength, fallbackContent, letterCount, normaliseSpace, profilePage, readabilityArticle, textLength, type ArticleRefusal, type ContentSource, type MainContent } from './mainContent';
import { markdownLetterCount, toMarkdown } from './markdownRules';
import { segmentedMarkdown } from './segments';

export interface ConversionOptions {
  /** The page's URL: relative links and images are made absolute against it (and any `<base href>`). */
  readonly baseUrl: string;
  /** Look for the main content (setting `scout.webFetch.extractMainContent`); else the whole body is converted. */
  readonly extractMainContent: boolean;
  /**
   * When the conversion should be finished, in `now()` ms (the worker's time budget). Readability is skipped,
   * and the cheaper fallback chain used, when the time left is less than Readability and turndown are
   * predicted to take (see {@link predictedArticleSearchMs}); a page cut into parts stops converting parts
   * when the next one would not finish in time. Default: no deadline.
   */
  readonly deadline?: number;
  /** The clock `deadline` is read against; default `Date.now`. Tests pass their own. */
  readonly now?: () => number;
  /** Nodes (start tags and attributes) a page may hold to be parsed whole; default {@link MAX_DOM_NODES}. Tests pass less. */
  readonly maxDomNodes?: number;
}

/**
 * Whether Readability looked for the page's article: `ran` (it did, whatever it found), `off` (main-content
 * extraction is off), `no-time` (the time left was less than it was predicted to need), `too-large` (the page
 * was cut into parts, see {@link Segments}).
 */
export type ArticleSearch = 'ran' | 'off' | 'no-time' | 'too-large';

/**
 * A page with more than {@link MAX_DOM_NODES} nodes is converted in `count` parts, one DOM at a time, so memory
 * stays bounded whatever the page; `converted` of them were converted before the time budget ran out (the
 * Markdown then ends with the rest of the body's source, as HTML).
 */
export interface Segments {
  readonly nodes: number;
  readonly count: number;
  readonly converted: number;
}

/**
 * The result of converting an HTML source:
 * - `markdown`: converted; `content` says which part of the page, `pageChars` and `contentChars` are the
 *   characters of text (whitespace collapsed) in the whole body and in that part, `articleSearch` whether
 *   Readability ran (and `articleRefused` why its article was not used), `segments` how a page too large for
 *   one DOM was cut, and `scriptBuilt` that a browser builds the page with JavaScript (see {@link isScriptBuilt});
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
      readonly articleSearch: ArticleSearch;
      /** Readability found an article but it was not used: it left out a discussion's comments, or a table beside it. */
      readonly articleRefused?: Exclude<ArticleRefusal, 'none'>;
      /** Characters of comments left out with the rest of the page around Readability's article (0 when it was not used). */
      readonly commentChars: number;
      readonly segments?: Segments;
      readonly scriptBuilt: boolean;
      /** The page's `<meta http-equiv="refresh">` to another URL, if it has one (not looked for in a page cut into parts). */
      readonly refresh?: MetaRefresh;
      /** Readability's article holds only `shown` of the `items` teasers of the page's listing (it is shown all the same). */
      readonly listing?: { readonly shown: number; readonly items: number };
      /** Navigation and sidebars left out by their class or id names (`div.nav`), at most a few. */
      readonly namedChrome?: readonly string[];
    }
  | { readonly mode: 'raw-too-deep' }
  | { readonly mode: 'raw-error'; readonly error: string };

/**
 * Readability's cost, as a multiple of what parsing and preparing the page cost, on a page with few links:
 * 0.6–2.3× on generated article, listing and specification pages (measured with the pipeline's own stages).
 */
const READABILITY_BASE_FACTOR = 2.5;
/**
 * Links make Readability costlier than parsing in proportion to links² / nodes: it measures link density on
 * every candidate, and the candidates of a link-dense page hold many links each. Measured: 4× parsing for
 * 5,700 links in 23,000 nodes, 9× for 11,400 in 46,000, 13× for 14,700 in 59,000, 11× for a Sphinx index
 * (20,000 in 60,000); each 350 of links² / nodes adds about one parse.
 */
const READABILITY_LINKS_SQUARED_PER_PARSE = 350;
/** turndown after Readability, and parsing again when its article is not kept: about one parse each. */
const AFTER_READABILITY_FACTOR = 2;

/**
 * How long Readability, and what follows it, are predicted to take on a page of `nodes` nodes and `links`
 * links whose parsing and preparation took `spentMs`: `spentMs × (2.5 + links² / (350 × nodes) + 2)`.
 * Readability runs only when the time left before the deadline is at least this.
 */
export function predictedArticleSearchMs(spentMs: number, links: number, nodes: number): number {
  return spentMs * (READABILITY_BASE_FACTOR + (links * links) / (READABILITY_LINKS_SQUARED_PER_PARSE * Math.max(1, nodes)) + AFTER_READABILITY_FACTOR);
}

/**
 * Readability's article is converted only if its Markdown keeps at least this share of the article's letters
 * and digits; less means the conversion lost it (markup turndown cannot show, such as table rows outside a
 * table), and the fallback chain is converted instead.
 */
const MIN_MARKDOWN_LETTER_SHARE = 0.5;

/** Names of navigation and sidebars a conversion reports at most (for a note, not a list). */
const MAX_NAMED_CHROME = 3;

/** A page with this many characters of body text or more is never called one a browser builds with JavaScript. */
const SCRIPT_BUILT_MAX_CHARS = 500;
/**
 * Characters of text below which an app's mount element is empty for its scripts to fill (a "Loading…"
 * placeholder at most), and a page without one holds no more than its title.
 */
const SCRIPT_BUILT_EMPTY_CHARS = 100;
/** Characters of inline script that, on a page whose text is title-sized, build the rest. */
const SCRIPT_BUILT_MIN_SCRIPT_CHARS = 5000;

/**
 * Whether a page with `pageChars` characters of body text is one a browser builds with JavaScript, from what
 * its `scripts` weighed: it holds fewer than {@link SCRIPT_BUILT_MAX_CHARS} characters of text, and either an
 * app mount element with fewer than {@link SCRIPT_BUILT_EMPTY_CHARS} of them and a script file or an app's
 * state (an app's shell, whatever its navigation holds), or fewer than {@link SCRIPT_BUILT_EMPTY_CHARS} in all
 * and an app's state or {@link SCRIPT_BUILT_MIN_SCRIPT_CHARS} characters of script. A server-rendered page
 * whose mount element or body already holds its text is not (the inputs that broke: a 427-character news
 * brief beside 20 KB of inline script, a status page of 186 characters in its `#root` beside an app's state).
 * Nor is one whose mount element holds a heading (a Next.js 404 page: `404`, "This page could not be found.").
 * Scout's choice.
 */
export function isScriptBuilt(scripts: ScriptWeight, pageChars: number): boolean {
  if (pageChars >= SCRIPT_BUILT_MAX_CHARS || scripts.mountHeading) return false;
  if (scripts.mountChars !== undefined && scripts.mountChars < SCRIPT_BUILT_EMPTY_CHARS && (scripts.scriptFile || scripts.appState)) return true;
  return pageChars < SCRIPT_BUILT_EMPTY_CHARS && (scripts.appState || scripts.chars >= SCRIPT_BUILT_MIN_SCRIPT_CHARS);
}

/**
 * Converts a whole HTML source to Markdown: lexical nesting guard and node count, linkedom parse, removal of
 * non-content elements, then (with `extractMainContent`) the main content: Readability's article when it
 * keeps enough of the page's content text (and its Markdown keeps the article's text), else the fallback
 * chain of mainContent.ts; then turndown (ATX headings, fenced code, GFM tables, strikethrough and task
 * lists). A page over `maxDomNodes` nodes is converted part by part (segments.ts) without Readability. Never
 * throws: an exception gives `raw-error`. Synchronous and CPU-bound; Scout runs it in the conversion process.
 */
export function htmlToMarkdown(source: string, options: ConversionOptions): Conversion {
  const scan = scanHtml(source, MAX_NESTING_DEPTH);
  if (scan.tooDeep) return { mode: 'raw-too-deep' };
  try {
    const now = options.now ?? Date.now;
    if (scan.nodes > (options.maxDomNodes ?? MAX_DOM_NODES)) {
      const { markdown, title, ...parts } = segmentedMarkdown(source, scan, { ...options, now });
      return { mode: 'markdown', markdown: withTitle(markdown, title), ...parts, articleSearch: options.extractMainContent ? 'too-large' : 'off', commentChars: 0, scriptBuilt: false };
    }
    const start = now();
    let document = parseDocument(source, scan);
    const base = documentBase(document, options.baseUrl);
    const refresh = metaRefresh(document, base);
    const scripts = prepareDocument(document, base, options.extractMainContent);
    const reload = (): Document => {
      const fresh = parseDocument(source, scan);
      prepareDocument(fresh, base, options.extractMainContent);
      return fresh;
    };
    const pageChars = textLength(document.body);
    let content: MainContent | undefined;
    let markdown: string | undefined;
    let articleSearch: ArticleSearch = 'off';
    let refusal: ArticleRefusal | undefined;
    let commentChars = 0;
    if (!options.extractMainContent) {
      content = { root: document.body, source: 'body', title: '', contentChars: pageChars };
    } else {
      const spent = now() - start;
      articleSearch = options.deadline !== undefined && options.deadline - now() < predictedArticleSearchMs(spent, scan.links, scan.nodes) ? 'no-time' : 'ran';
      if (articleSearch === 'ran') {
        const profile = profilePage(document);
        const article = readabilityArticle(document, profile, reload);
        if (typeof article === 'string') {
          refusal = article;
        } else {
          const letters = letterCount(article.root);
          markdown = toMarkdown(article.root);
          if (markdownLetterCount(markdown) < letters * MIN_MARKDOWN_LETTER_SHARE) [refusal, markdown] = ['none', undefined];
          else [content, commentChars] = [article, Math.max(0, profile.commentChars - commentTextLength(article.root))];
        }
        if (refusal !== undefined) document = reload(); // Readability rearranged the document it read
      }
      content ??= fallbackContent(document);
    }
    markdown ??= toMarkdown(content.root);
    const scriptBuilt = isScriptBuilt(scripts, pageChars);
    return {
      mode: 'markdown',
      markdown: withTitle(markdown, content.title || normaliseSpace(document.title)),
      content: content.source,
      pageChars,
      contentChars: content.contentChars,
      articleSearch,
      ...(refusal !== undefined && refusal !== 'none' ? { articleRefused: refusal } : {}),
      commentChars,
      scriptBuilt,
      ...(refresh ? { refresh } : {}),
      ...(content.listing ? { listing: content.listing } : {}),
      ...(content.namedChrome ? { namedChrome: content.namedChrome.slice(0, MAX_NAMED_CHROME) } : {}),
    };
  } catch (e) {
    return { mode: 'raw-error', error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * `markdown` headed by `# title`, unless the title is empty, its text already opens the Markdown, the
 * Markdown has a level-1 heading of its own near its start (one page, one title: no second `#` heading), or
 * its first heading is most of the title, without the site's name (`## Cutting latency` under the title
 * `Cutting latency | Acme`). Text is compared as whole words, without Markdown's backslash escapes and case.
 */
function withTitle(markdown: string, title: string): string {
  const opening = markdown.slice(0, 2000);
  if (title === '' || /^# /m.test(opening)) return markdown;
  const plain = (text: string): string => normaliseSpace(text.replace(/\\([!-/:-@[-`{-~])/g, '$1')).toLowerCase();
  const wanted = plain(title);
  const heading = /^#{2,6} (.+)$/m.exec(opening)?.[1];
  const inOpening = new RegExp(`(?<![\\p{L}\\p{N}])${wanted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u').test(plain(opening));
  if (inOpening || (heading !== undefined && plain(heading).length * 2 >= wanted.length && wanted.includes(plain(heading)))) return markdown;
  return `# ${title}\n\n${markdown}`.trim();
}
