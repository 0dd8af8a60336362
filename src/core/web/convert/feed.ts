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
    const text = normaliseSpace(c.getAttribute('type') === 'html' ? (parseSkeleton('', raw).body.textContent ?? '') : raw);
    if (text !== '') return text;
  }
  return '';
}

/** Text of a summary that may be HTML (RSS descriptions are escaped HTML; Atom's may be `type="html"` or XHTML). */
function summaryText(el: Element, ...names: string[]): string {
  const raw = childrenNamed(el, ...names).find((c) => (c.textContent ?? '').trim() !== '');
  if (!raw) return '';
  const text = raw.textContent ?? '';
  return /<[a-z!/]/i.test(text) ? normaliseSpace(parseSkeleton('', text).body.textContent ?? '') : normaliseSpace(text);
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

/** `[text](url)` with Markdown's link-text and destination characters escaped; `text` alone without a URL. */
function linked(text: string, url: string): string {
  const label = text.replace(/([\\[\]])/g, '\\$1');
  if (url === '') return label;
  let href = url;
  try {
    href = new URL(url).href;
  } catch {
    // a relative or odd link is shown as the feed wrote it
  }
  return `[${label}](${/[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, encodeURIComponent)}>` : href})`;
}

/**
 * A feed as Markdown: `# <channel title>`, the channel's description, then one list item per item or entry:
 * its linked title and date (`published`, `updated`, `pubDate` or `dc:date`, as the feed wrote it), and its
 * summary (`description`, `summary` or `content`, as text) indented under it. Undefined when `text` does not
 * parse as a feed.
 */
export function feedToMarkdown(text: string): FeedMarkdown | undefined {
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
    const head = `- ${linked(childText(item, 'title') || '(untitled)', linkOf(item))}${date ? ` (${date})` : ''}`;
    const summary = summaryText(item, 'summary', 'description', 'content', 'encoded');
    return summary ? `${head}\n  ${summary}` : head;
  });
  const markdown = [title ? `# ${title}` : '', about, lines.join('\n')].filter((part) => part !== '').join('\n\n');
  return { kind, items: items.length, markdown };
}
