import { parseSkeleton } from './htmlDocument';
import { normaliseSpace } from './mainContent';
import type * as Linkedom from 'linkedom' with { 'resolution-mode': 'import' };

// linkedom's type declarations are ESM-only; the package also ships CommonJS, which esbuild and tsx load.
const { DOMParser } = require('linkedom') as typeof Linkedom;

/** Which kind of feed a document is: RSS 2.0 (and 0.9x), Atom, or RSS 1.0 (RDF). */
export type FeedKind = 'RSS' | 'Atom' | 'RSS 1.0 (RDF)';

/** A feed shown as Markdown: its kind, how many items it has, and the list. */
export interface FeedMarkdown {
  readonly kind: FeedKind;
  readonly items: number;
  readonly markdown: string;
}

/** The root element of a feed, after an XML declaration, comments, processing instructions and a doctype. */
const FEED_START = /^\s*(?:(?:<\?[^]*?\?>|<!--[^]*?-->|<!DOCTYPE[^>]*>)\s*)*<(rss|feed|rdf:RDF)[\s>]/i;

/** Which feed `text` is, from its root element (in its first 4,096 characters); undefined when it is none. */
export function feedKind(text: string): FeedKind | undefined {
  const root = FEED_START.exec(text.slice(0, 4096))?.[1]?.toLowerCase();
  return root === 'rss' ? 'RSS' : root === 'feed' ? 'Atom' : root === 'rdf:rdf' ? 'RSS 1.0 (RDF)' : undefined;
}

/** Element children of `el` whose local name (prefix dropped, any case) is one of `names`. */
function childrenNamed(el: Element, ...names: string[]): Element[] {
  return Array.from(el.children).filter((c) => names.includes(c.nodeName.replace(/^.*:/, '').toLowerCase()));
}

/** Text of the first of `el`'s children named so that has any; an Atom text construct of `type="html"` is read as HTML. */
function childText(el: Element, ...names: string[]): string {
  for (const c of childrenNamed(el, ...names)) {
    const raw = c.textContent ?? '';
    const text = c.getAttribute('type') === 'html' ? htmlText(raw) : normaliseSpace(raw);
    if (text !== '') return text;
  }
  return '';
}

/** Elements whose text is no part of what a summary says. */
const UNSHOWN = 'script, style, noscript, template';
/** Elements that start a new block, so their text is not glued to the text around them. */
const BLOCKS = 'address, article, aside, blockquote, br, dd, div, dl, dt, figcaption, figure, footer, h1, h2, h3, h4, h5, h6, header, hr, li, ol, p, pre, section, table, td, th, tr, ul';

/** The text of an HTML fragment: scripts and styles left out, a space between blocks (`<p>a</p><p>b</p>` is `a b`). */
function htmlText(html: string): string {
  const body = parseSkeleton('', html).body;
  for (const el of Array.from(body.querySelectorAll(UNSHOWN))) el.remove();
  for (const el of Array.from(body.querySelectorAll(BLOCKS))) {
    el.before(' ');
    el.after(' ');
  }
  return normaliseSpace(body.textContent ?? '');
}

/** Text of a summary that may be HTML (RSS descriptions are escaped HTML; Atom's may be `type="html"` or XHTML). */
function summaryText(el: Element, ...names: string[]): string {
  const raw = childrenNamed(el, ...names).find((c) => (c.textContent ?? '').trim() !== '');
  if (!raw) return '';
  const text = raw.textContent ?? '';
  return /<[a-z!/]/i.test(text) ? htmlText(text) : normaliseSpace(text);
}

/** The link of an Atom entry (`rel="alternate"` or none) or an RSS item (`<link>` text, else a permalink `<guid>`). */
function linkOf(item: Element): string {
  for (const link of childrenNamed(item, 'link')) {
    const href = link.getAttribute('href');
    if (href !== null) {
      const rel = link.getAttribute('rel');
      if (rel === null || rel === 'alternate') return href.trim();
      continue;
    }
    const text = (link.textContent ?? '').trim();
    if (text !== '') return text;
  }
  const guid = childrenNamed(item, 'guid')[0];
  const permalink = guid && guid.getAttribute('isPermaLink') !== 'false' ? (guid.textContent ?? '').trim() : '';
  return /^https?:\/\//i.test(permalink) ? permalink : '';
}

/**
 * The base a relative link in `elements` (outermost first) resolves against: `feedUrl`, changed by each one's
 * `xml:base` in turn; an `xml:base` that does not parse is skipped.
 */
function baseOf(feedUrl: string, ...elements: Element[]): string {
  let base = feedUrl;
  for (const el of elements) {
    const xmlBase = el.getAttribute('xml:base');
    if (xmlBase === null) continue;
    try {
      base = new URL(xmlBase.trim(), base).href;
    } catch {
      // an unreadable xml:base is ignored
    }
  }
  return base;
}

/** `[text](url)` with Markdown's link-text and destination characters escaped and `url` resolved against `base`; `text` alone without a URL. */
function linked(text: string, url: string, base: string): string {
  const label = text.replace(/([\\[\]])/g, '\\$1');
  if (url === '') return label;
  let href = url;
  try {
    href = new URL(url, base).href;
  } catch {
    // a link that does not parse is shown as the feed wrote it
  }
  return `[${label}](${/[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, encodeURIComponent)}>` : href})`;
}

/**
 * A feed as Markdown: `# <channel title>`, the channel's description, then one list item per item or entry:
 * its linked title and date (`published`, `updated`, `pubDate` or `dc:date`, as the feed wrote it), and its
 * summary (`description`, `summary` or `content`, as text without scripts or styles) indented under it. A
 * relative link is resolved against `feedUrl` (the URL the feed was fetched from) and any `xml:base` on the
 * feed or the entry. Undefined when `text` does not parse as a feed.
 */
export function feedToMarkdown(text: string, feedUrl: string): FeedMarkdown | undefined {
  const kind = feedKind(text);
  if (!kind) return undefined;
  const document = new DOMParser().parseFromString(text, 'text/xml') as unknown as Document;
  const root = document.documentElement;
  if (!root) return undefined;
  const channel = kind === 'Atom' ? root : (childrenNamed(root, 'channel')[0] ?? root);
  const items = kind === 'Atom' ? childrenNamed(root, 'entry') : kind === 'RSS' ? childrenNamed(channel, 'item') : childrenNamed(root, 'item');
  const title = childText(channel, 'title');
  const about = kind === 'Atom' ? childText(channel, 'subtitle') : childText(channel, 'description');
  const lines = items.map((item) => {
    const date = childText(item, 'published', 'updated', 'pubdate', 'date');
    const head = `- ${linked(childText(item, 'title') || '(untitled)', linkOf(item), baseOf(feedUrl, root, item))}${date ? ` (${date})` : ''}`;
    const summary = summaryText(item, 'summary', 'description', 'content', 'encoded');
    return summary ? `${head}\n  ${summary}` : head;
  });
  const markdown = [title ? `# ${title}` : '', about, lines.join('\n')].filter((part) => part !== '').join('\n\n');
  return { kind, items: items.length, markdown };
}
