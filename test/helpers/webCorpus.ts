/**
 * A seeded generator of realistic web pages whose article text is known, for web_fetch tests and for the
 * extraction benchmark (`npm run bench`, case web-fetch). Real pages carry 200–900 KB of inline
 * scripts, JSON and styles before the article, consent banners, mega-menus, comment threads and "related"
 * rails; short articles sit under long comment threads; article text is split across many `<div>`s.
 *
 * Each page records the text a reader would take as the article (title, headings, paragraphs, list items,
 * table cells, code and captions, in order) and markers that appear only in the boilerplate around it, so a
 * test can check that the article arrives whole and the navigation does not, and the bench can compute a
 * word F1 against the article.
 */
import { seededRandom } from './seededRandom';

/** The page layouts the generator knows; each imitates a common kind of site. */
export type PageTemplate = 'news' | 'blog' | 'brief' | 'docs' | 'wiki' | 'spa' | 'legacy';

export const PAGE_TEMPLATES: readonly PageTemplate[] = ['news', 'blog', 'brief', 'docs', 'wiki', 'spa', 'legacy'];

export interface CorpusPage {
  /** `<template>-<seed>`, plus the sizes that matter. */
  readonly name: string;
  readonly template: PageTemplate;
  readonly html: string;
  readonly title: string;
  /** The article's text as a reader sees it, blocks separated by blank lines. */
  readonly articleText: string;
  /** The text of the article's first and last paragraph. */
  readonly firstParagraph: string;
  readonly lastParagraph: string;
  /** Phrases that occur only outside the article (navigation, banners, comments, rails, footer). */
  readonly boilerplateMarkers: readonly string[];
  /** UTF-16 index in `html` where the article's first paragraph starts. */
  readonly articleOffset: number;
}

export interface PageOptions {
  /** Characters of inline scripts, JSON-LD and styles in `<head>` (default: chosen by the template and seed). */
  readonly headChars?: number;
  /** Characters of article text to generate, roughly (default: chosen by the template and seed). */
  readonly articleChars?: number;
  /** Comments under the article (default: chosen by the template and seed). */
  readonly comments?: number;
  /** Links in the mega-menu (default: chosen by the seed). */
  readonly menuLinks?: number;
  /** The article's paragraphs, instead of generated ones. */
  readonly paragraphs?: readonly string[];
}

type Rand = () => number;

/** A vocabulary of pronounceable pseudo-words, drawn with a Zipf-like skew so text has real-looking frequencies. */
class Words {
  private readonly list: string[];
  constructor(private readonly rand: Rand) {
    const onsets = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'st', 'tr', 'pl', 'gr', 'ch', 'sh', 'br', 'cl'];
    const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
    const codas = ['', '', 'n', 'r', 's', 't', 'l', 'nd', 'rk', 'st', 'm'];
    const common = 'the of and to in is that for it as with was on be by this are from at or an have not which but were'.split(' ');
    const seen = new Set(common);
    this.list = [...common];
    const make = seededRandom(7); // the vocabulary itself is the same for every page
    while (this.list.length < 4000) {
      const syllables = 1 + Math.floor(make() * 3);
      let w = '';
      for (let s = 0; s < syllables; s++) w += onsets[Math.floor(make() * onsets.length)]! + vowels[Math.floor(make() * vowels.length)]! + codas[Math.floor(make() * codas.length)]!;
      if (!seen.has(w)) {
        seen.add(w);
        this.list.push(w);
      }
    }
  }
  word(): string {
    return this.list[Math.floor(this.list.length * this.rand() ** 2.2)]!;
  }
  words(n: number): string {
    return Array.from({ length: n }, () => this.word()).join(' ');
  }
  sentence(min = 8, spread = 16): string {
    const s = this.words(min + Math.floor(this.rand() * spread));
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  }
  title(): string {
    const s = this.words(4 + Math.floor(this.rand() * 6));
    return s.replace(/(^|\s)(\w)/g, (_m, sp: string, c: string) => sp + c.toUpperCase());
  }
}

/** One block of article text: its markup and the text a reader sees in it. */
interface Block {
  readonly html: string;
  readonly text: string;
  readonly paragraph: boolean;
}

/** Builds a page: collects markup in order, and the article's blocks. */
class PageWriter {
  private readonly parts: string[] = [];
  private length = 0;
  readonly blocks: Block[] = [];
  articleOffset = -1;
  add(html: string): void {
    this.parts.push(html);
    this.length += html.length;
  }
  addBlock(block: Block, wrap: (html: string) => string = (h) => h): void {
    if (block.paragraph && this.articleOffset < 0) {
      const inner = wrap(block.html);
      this.articleOffset = this.length + inner.indexOf(block.html);
    }
    this.add(wrap(block.html));
    this.blocks.push(block);
  }
  html(): string {
    return this.parts.join('');
  }
}

/** Marker phrases: each boilerplate region carries one, so a test can see whether it leaked. */
const MARKERS = {
  consent: 'We and our 842 partners store and access information on your device',
  menu: 'Explore all sections of the Daily Ledger',
  related: 'More stories you might like',
  comments: 'Join the discussion below',
  footer: 'Copyright Ledger Media Holdings, all rights reserved',
  newsletter: 'Get the morning briefing in your inbox',
  share: 'Share this story on',
  sidebarDocs: 'Browse the documentation tree',
  wikiNav: 'Navigation menu for contributors',
};

/** Inline JavaScript that looks minified: long lines of identifiers, strings (some holding markup) and numbers. */
function minifiedScript(rand: Rand, chars: number): string {
  const out: string[] = [];
  let n = 0;
  const id = (): string => String.fromCharCode(97 + Math.floor(rand() * 26)) + Math.floor(rand() * 99).toString(36);
  while (n < chars) {
    const r = rand();
    let piece: string;
    if (r < 0.3) piece = `function ${id()}(${id()},${id()}){return ${id()}.${id()}(${Math.floor(rand() * 1e6)})&&${id()}[${Math.floor(rand() * 64)}]||void 0}`;
    else if (r < 0.5) piece = `var ${id()}="${Array.from({ length: 6 }, id).join('-')}",${id()}='<div class="${id()}">'+${id()}+"<\\/div>";`;
    else if (r < 0.7) piece = `${id()}.push({id:${Math.floor(rand() * 1e9)},t:"${id()}${id()}",w:[${Array.from({ length: 8 }, () => Math.floor(rand() * 999)).join(',')}]});`;
    else if (r < 0.85) piece = `if(${id()}<${Math.floor(rand() * 100)}){${id()}=${id()}?${id()}:${rand().toFixed(6)};}else{${id()}("</p>")}`;
    else piece = `/* ${id()} */try{${id()}()}catch(${id()}){}`;
    out.push(piece);
    n += piece.length;
  }
  return out.join('');
}

/** A large JSON blob such as `__NEXT_DATA__` or an Apollo cache. */
function jsonBlob(rand: Rand, words: Words, chars: number): string {
  const items: string[] = [];
  let n = 0;
  while (n < chars) {
    const item = JSON.stringify({ id: Math.floor(rand() * 1e9), slug: words.words(3).replace(/ /g, '-'), teaser: words.sentence(), tags: [words.word(), words.word()], score: rand() });
    items.push(item);
    n += item.length + 1;
  }
  return `{"props":{"pageProps":{"items":[${items.join(',')}]}},"page":"/[section]/[slug]","buildId":"a1b2c3"}`;
}

function stylesheet(rand: Rand, chars: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const cls = `.c-${Math.floor(rand() * 1e6).toString(36)}`;
    const rule = `${cls}{display:flex;margin:${Math.floor(rand() * 40)}px ${Math.floor(rand() * 40)}px;color:#${Math.floor(rand() * 0xffffff).toString(16).padStart(6, '0')}}${cls}:hover>a{text-decoration:underline}`;
    out.push(rule);
    n += rule.length;
  }
  return out.join('');
}

/** A `<head>` of about `chars` characters: metadata, JSON-LD, inline styles, analytics and framework scripts. */
function heavyHead(rand: Rand, words: Words, title: string, chars: number, articleText: string): string {
  const meta = `<meta charset="utf-8"><title>${title} | The Daily Ledger</title><meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="og:title" content="${title}"><meta property="og:type" content="article"><meta name="description" content="${words.sentence()}">
<link rel="preload" href="/fonts/serif.woff2" as="font" crossorigin><link rel="stylesheet" href="/assets/app.css">`;
  const jsonLd = `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: title, articleBody: articleText.slice(0, 2000), author: { '@type': 'Person', name: 'Rowan Example' } })}</script>`;
  const budget = Math.max(0, chars - meta.length - jsonLd.length);
  const style = `<style>${stylesheet(rand, budget * 0.2)}</style>`;
  const tag = `<script>window.__CONFIG__=${jsonBlob(rand, words, budget * 0.3)};</script>`;
  const scripts = `<script>${minifiedScript(rand, budget * 0.5)}</script>`;
  return `<head>${meta}${jsonLd}${style}${tag}${scripts}</head>`;
}

function consentBanner(rand: Rand): string {
  const variants = [
    (inner: string) => `<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" class="otFlat" role="dialog" aria-label="Privacy">${inner}</div></div>`,
    (inner: string) => `<div class="cc-window cookie-consent cc-banner" role="dialog">${inner}</div>`,
    (inner: string) => `<div id="CybotCookiebotDialog" class="CybotCookiebotDialogActive">${inner}</div>`,
    (inner: string) => `<section class="gdpr-notice privacy-prompt">${inner}</section>`,
  ];
  const inner = `<h2>We value your privacy</h2><p>${MARKERS.consent}, such as cookies and unique identifiers, and process personal data for
personalised advertising and content, advertising and content measurement, audience research and services development. With your
permission we and our partners may use precise geolocation data and identification through device scanning.</p>
<p>You can choose how your data is used, and change your mind at any time in the privacy centre linked at the bottom of every page.</p>
<button class="accept">Accept all</button> <button class="reject">Reject all</button> <button>Show purposes</button>`;
  return variants[Math.floor(rand() * variants.length)]!(inner);
}

function megaMenu(words: Words, links: number): string {
  const sections = Math.max(4, Math.round(links / 25));
  const panels: string[] = [];
  for (let s = 0; s < sections; s++) {
    const items = Array.from({ length: Math.round(links / sections) }, (_, i) => `<li><a href="/${s}/${i}">${words.words(2)}</a></li>`).join('');
    panels.push(`<li class="menu-item has-panel"><a href="/${s}">${words.title()}</a><div class="mega-panel"><p class="panel-blurb">${words.sentence()}</p><ul>${items}</ul></div></li>`);
  }
  return `<header class="site-header"><div class="masthead"><a class="logo" href="/">The Daily Ledger</a><a href="/subscribe">Subscribe</a> <a href="/login">Sign in</a></div>
<nav class="mega-menu" aria-label="Main"><p class="menu-intro">${MARKERS.menu}</p><ul class="menu">${panels.join('')}</ul></nav>
<form class="search" action="/search"><input name="q" placeholder="Search the Ledger"><button>Search</button></form></header>
<nav class="breadcrumbs"><a href="/">Home</a> › <a href="/world">World</a> › <a href="/world/europe">Europe</a></nav>`;
}

function relatedRail(rand: Rand, words: Words, count: number): string {
  const items = Array.from({ length: count }, (_, i) => `<li class="rail-item"><a href="/story/${Math.floor(rand() * 1e6)}-${i}"><h3>${words.title()}</h3></a><p>${words.sentence()}</p></li>`).join('');
  return `<aside class="related-rail"><h2>${MARKERS.related}</h2><ul>${items}</ul></aside>`;
}

function newsletter(): string {
  return `<div class="newsletter-signup promo"><h3>${MARKERS.newsletter}</h3><form><input type="email" placeholder="Email address"><button>Sign up</button></form></div>`;
}

function shareBar(): string {
  return `<div class="share-tools social"><span>${MARKERS.share}</span><a href="https://social.example/share">Post</a><a href="mailto:?subject=story">Email</a><a href="#">Copy link</a></div>`;
}

/** A comment thread of `count` comments, some with replies, as blogs and news sites show under a story. */
function commentThread(rand: Rand, words: Words, count: number): string {
  if (count === 0) return '';
  const one = (i: number, depth: number): string => {
    const body = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => `<p>${words.sentence(10, 30)} ${words.sentence()}</p>`).join('');
    const replies = depth < 2 && rand() < 0.25 ? `<ol class="children">${one(i * 10 + 1, depth + 1)}</ol>` : '';
    return `<li class="comment depth-${depth + 1}" id="comment-${i}"><article class="comment-body"><footer class="comment-meta"><b class="fn">${words.title().split(' ')[0]}</b> <time>2 hours ago</time></footer><div class="comment-content">${body}</div><a class="comment-reply-link" href="#reply-${i}">Reply</a></article>${replies}</li>`;
  };
  const items = Array.from({ length: count }, (_, i) => one(i, 0)).join('');
  return `<section id="comments" class="comments-area"><h2 class="comments-title">${count} comments</h2><p>${MARKERS.comments}</p><ol class="comment-list">${items}</ol>
<div id="respond" class="comment-respond"><h3>Leave a reply</h3><form><textarea name="comment"></textarea><button>Post comment</button></form></div></section>`;
}

function siteFooter(words: Words): string {
  const cols = Array.from({ length: 5 }, (_, c) => `<div class="footer-col"><h4>${words.title()}</h4><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/f/${c}/${i}">${words.words(2)}</a></li>`).join('')}</ul></div>`).join('');
  return `<footer class="site-footer">${cols}<p class="legal">${MARKERS.footer}. ${words.sentence()}</p></footer>`;
}

/** Article blocks of about `chars` characters of text: paragraphs with inline markup, and (with `extras`) headings, lists, tables, code. */
function articleBlocks(rand: Rand, words: Words, chars: number, extras: boolean): Block[] {
  const blocks: Block[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    let block: Block;
    if (extras && i % 9 === 5) {
      const t = words.title();
      block = { html: `<h2 id="s${i}">${t}</h2>`, text: t, paragraph: false };
    } else if (extras && i % 23 === 12) {
      const rows = Array.from({ length: 5 }, () => [words.word(), String(Math.floor(rand() * 1000)), `${(rand() * 100).toFixed(1)}%`]);
      const head = ['Region', 'Count', 'Share'];
      block = {
        html: `<table class="data"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
        text: [head, ...rows].map((r) => r.join(' ')).join('\n'),
        paragraph: false,
      };
    } else if (extras && i % 17 === 9) {
      const code = `const ${words.word()} = await load(${words.word()}, { retries: 3 });\nif (!${words.word()}.ok) throw new Error("${words.words(3)}");`;
      block = { html: `<pre><code class="language-js">${code.replace(/</g, '&lt;')}</code></pre>`, text: code, paragraph: false };
    } else if (extras && i % 13 === 7) {
      const items = Array.from({ length: 4 }, () => words.sentence(5, 8));
      block = { html: `<ul>${items.map((t) => `<li>${t}</li>`).join('')}</ul>`, text: items.join('\n'), paragraph: false };
    } else {
      const sentences = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => words.sentence());
      const text = sentences.join(' ');
      const html = sentences
        .map((s) => {
          const r = rand();
          if (r < 0.15) return s.replace(/^(\S+ \S+)/, `<a href="/topic/${Math.floor(rand() * 1e4)}">$1</a>`);
          if (r < 0.25) return s.replace(/(\S+)\.$/, '<em>$1</em>.');
          if (r < 0.3) return s.replace(/^(\S+)/, '<strong>$1</strong>');
          return s;
        })
        .join(' ');
      block = { html: `<p>${html}</p>`, text, paragraph: true };
    }
    blocks.push(block);
    n += block.text.length;
  }
  // Every article ends with a paragraph, so "the last paragraph" is well defined.
  if (!blocks.at(-1)!.paragraph) {
    const text = words.sentence();
    blocks.push({ html: `<p>${text}</p>`, text, paragraph: true });
  }
  return blocks;
}

/** A `<div>`-only paragraph, as single-page-app renderers emit: no `<p>`, hashed class names. */
function asDivParagraph(block: Block, rand: Rand): Block {
  if (!block.paragraph) return block;
  const cls = `css-${Math.floor(rand() * 36 ** 6).toString(36)}`;
  return { ...block, html: `<div class="${cls}" data-component="text-block">${block.html.slice(3, -4)}</div>` };
}

/** A paragraph as old pages write it: text and inline markup ended by `<br><br>`, with no element of its own. */
function asBreakParagraph(block: Block): Block {
  return { ...block, html: `${block.html.slice(3, -4)}<br><br>\n` };
}

const pick = <T>(rand: Rand, values: readonly T[]): T => values[Math.floor(rand() * values.length)]!;
const between = (rand: Rand, min: number, max: number): number => Math.round(min + rand() * (max - min));

/**
 * One generated page of `template`. Sizes vary with `seed` unless `options` fix them. Deterministic: the same
 * template, seed and options give the same page on every machine.
 */
export function corpusPage(template: PageTemplate, seed: number, options: PageOptions = {}): CorpusPage {
  const rand = seededRandom(seed * 7919 + PAGE_TEMPLATES.indexOf(template));
  const words = new Words(rand);
  const title = words.title();
  const w = new PageWriter();
  const markers: string[] = [];
  const extras = template === 'docs' || template === 'wiki' || rand() < 0.5;
  const defaults: Record<PageTemplate, { article: [number, number]; head: [number, number]; comments: [number, number] }> = {
    news: { article: [3000, 15000], head: [150_000, 600_000], comments: [0, 40] },
    blog: { article: [500, 9000], head: [20_000, 250_000], comments: [5, 120] },
    brief: { article: [300, 700], head: [100_000, 450_000], comments: [0, 10] },
    docs: { article: [2000, 20000], head: [10_000, 120_000], comments: [0, 0] },
    wiki: { article: [5000, 40000], head: [20_000, 90_000], comments: [0, 0] },
    spa: { article: [2000, 12000], head: [200_000, 900_000], comments: [0, 20] },
    legacy: { article: [1500, 9000], head: [2000, 30_000], comments: [0, 0] },
  };
  const d = defaults[template];
  const articleChars = options.articleChars ?? between(rand, ...d.article);
  const headChars = options.headChars ?? between(rand, ...d.head);
  const comments = options.comments ?? between(rand, ...d.comments);
  const menuLinks = options.menuLinks ?? between(rand, 80, 400);
  let blocks = options.paragraphs
    ? options.paragraphs.map((text): Block => ({ html: `<p>${text}</p>`, text, paragraph: true }))
    : articleBlocks(rand, words, articleChars, extras && template !== 'brief');
  if (template === 'spa') blocks = blocks.map((b) => asDivParagraph(b, rand));
  if (template === 'legacy') blocks = blocks.filter((b) => b.paragraph).map(asBreakParagraph);

  w.add(`<!DOCTYPE html><html lang="en">${heavyHead(rand, words, title, headChars, blocks.map((b) => b.text).join(' '))}<body class="${template}-page">`);
  const consent = template !== 'docs' && template !== 'wiki' && template !== 'legacy' ? consentBanner(rand) : '';
  if (consent) markers.push(MARKERS.consent);
  const consentFirst = rand() < 0.5;
  if (consent && consentFirst) w.add(consent);

  const split = template === 'news' || template === 'spa';
  const adSlot = (): string => `<div class="ad-container ad-slot" data-slot="${Math.floor(rand() * 1e4)}"><span class="ad-label">Advertisement</span></div>`;
  const writeBlocks = (wrap?: (html: string) => string): void => {
    blocks.forEach((b, i) => {
      if (split && i > 0 && i % 4 === 0) w.add(`</div>${adSlot()}<div class="article-body__content paywall">`);
      w.addBlock(b, wrap);
    });
  };

  switch (template) {
    case 'news':
    case 'brief':
    case 'spa': {
      w.add(megaMenu(words, menuLinks));
      markers.push(MARKERS.menu);
      if (template === 'spa') w.add(`<script id="__NEXT_DATA__" type="application/json">${jsonBlob(rand, words, 20_000)}</script>`);
      const wrapper = pick(rand, ['article', 'div']);
      const bodyClass = pick(rand, ['article-body', 'story-body', 'entry-content', 'StoryBodyCompanionColumn']);
      w.add(`<div id="root"><div class="layout"><main id="main-content">${wrapper === 'article' ? '<article class="story">' : `<div class="${bodyClass}-wrapper">`}<h1 class="headline">${title}</h1>`);
      w.add(`<p class="byline">By <a href="/authors/rowan">Rowan Example</a> · <time datetime="2025-03-12">12 March 2025</time></p>`);
      w.add(shareBar());
      markers.push(MARKERS.share);
      if (template === 'news') {
        const caption = words.sentence(6, 6);
        w.add(`<figure class="lead-image"><img src="/img/lead.jpg" alt=""><figcaption>${caption}</figcaption></figure>`);
      }
      w.add(`<div class="${bodyClass} article-body__content">`);
      writeBlocks();
      w.add(`</div>`);
      w.add(newsletter());
      markers.push(MARKERS.newsletter);
      w.add(wrapper === 'article' ? '</article>' : '</div>');
      w.add(commentThread(rand, words, comments));
      if (comments > 0) markers.push(MARKERS.comments);
      w.add(`</main>${relatedRail(rand, words, template === 'brief' ? 24 : 12)}</div></div>`);
      markers.push(MARKERS.related);
      break;
    }
    case 'blog': {
      w.add(`<div id="page" class="site"><header id="masthead" class="site-header"><p class="site-title"><a href="/">Notes from the Workshop</a></p>
<nav id="site-navigation" class="main-navigation"><p>${MARKERS.menu}</p><ul id="primary-menu">${Array.from({ length: 12 }, (_, i) => `<li><a href="/c/${i}">${words.words(2)}</a></li>`).join('')}</ul></nav></header>`);
      markers.push(MARKERS.menu);
      w.add(`<div id="content" class="site-content"><div id="primary" class="content-area"><main id="main" class="site-main"><article id="post-4711" class="post type-post hentry">
<header class="entry-header"><h1 class="entry-title">${title}</h1><div class="entry-meta"><span class="posted-on">Posted on <time>March 12, 2025</time></span></div></header><div class="entry-content">`);
      writeBlocks();
      w.add(`</div><footer class="entry-footer"><span class="cat-links">Posted in <a href="/c/notes">Notes</a></span></footer></article>`);
      w.add(commentThread(rand, words, comments));
      if (comments > 0) markers.push(MARKERS.comments);
      w.add(`</main></div><aside id="secondary" class="widget-area">${relatedRail(rand, words, 8)}${newsletter()}</aside></div>`);
      markers.push(MARKERS.related, MARKERS.newsletter);
      break;
    }
    case 'docs': {
      const tree = Array.from({ length: Math.round(menuLinks / 10) }, (_, s) => `<li><span>${words.title()}</span><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/docs/${s}/${i}">${words.words(2)}</a></li>`).join('')}</ul></li>`).join('');
      w.add(`<header class="navbar"><a href="/">DevKit</a><nav><a href="/docs">Docs</a> <a href="/api">API</a> <a href="/blog">Blog</a></nav></header>
<div class="docs-layout"><nav class="docs-sidebar" aria-label="Docs"><p>${MARKERS.sidebarDocs}</p><ul>${tree}</ul></nav><main class="docs-content"><div class="markdown-body"><h1>${title}</h1>`);
      markers.push(MARKERS.sidebarDocs);
      writeBlocks();
      w.add(`</div><nav class="pagination-nav"><a href="/docs/prev">Previous</a> <a href="/docs/next">Next</a></nav></main>
<aside class="toc-right"><p>On this page</p><ul>${blocks.filter((b) => b.html.startsWith('<h2')).map((b) => `<li><a href="#">${b.text}</a></li>`).join('')}</ul></aside></div>`);
      break;
    }
    case 'legacy': {
      // A table layout from before CSS: a link column, <font> tags, paragraphs separated only by <br><br>.
      const column = Array.from({ length: 30 }, (_, i) => `<a href="/p${i}.html">${words.title()}</a><br>`).join('\n');
      w.add(`<table width="100%" cellpadding="4"><tr><td colspan="2" bgcolor="#003366"><font color="white" size="5">The Ledger Gazette</font><br>
<p class="toplinks">${MARKERS.menu}</p></td></tr><tr><td width="160" valign="top" bgcolor="#eeeeee"><font size="1">${column}</font></td>
<td valign="top"><font face="Arial" size="4"><b>${title}</b></font><br><br><font face="Arial" size="2">`);
      writeBlocks();
      w.add(`</font></td></tr></table>`);
      markers.push(MARKERS.menu);
      break;
    }
    case 'wiki': {
      // The infobox and the references are part of the article; the navboxes and the site menus are not.
      const facts = Array.from({ length: 8 }, () => [words.word(), words.words(3)]);
      const infobox: Block = {
        html: `<table class="infobox vcard"><tbody>${facts.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`).join('')}</tbody></table>`,
        text: facts.map((f) => f.join(' ')).join('\n'),
        paragraph: false,
      };
      const citations = Array.from({ length: 15 }, () => words.title());
      const references: Block[] = [
        { html: '<h2>References</h2>', text: 'References', paragraph: false },
        { html: `<ol class="references">${citations.map((c, i) => `<li id="cite_note-${i}"><a href="#cite_ref-${i}">^</a> <cite>${c}</cite>. Retrieved 2024.</li>`).join('')}</ol>`, text: citations.map((c) => `^ ${c}. Retrieved 2024.`).join('\n'), paragraph: false },
      ];
      blocks = [infobox, ...blocks, ...references];
      const navbox = `<div role="navigation" class="navbox"><table class="nowraplinks">${Array.from({ length: 6 }, () => `<tr><th>${words.title()}</th><td>${Array.from({ length: 25 }, (_, i) => `<a href="/wiki/${i}">${words.words(2)}</a>`).join(' · ')}</td></tr>`).join('')}</table></div>`;
      w.add(`<div id="mw-page-base"></div><div id="content" class="mw-body" role="main"><h1 id="firstHeading" class="firstHeading">${title}</h1><div id="bodyContent"><div id="siteSub">From the Free Ledger Encyclopedia</div>
<div id="mw-content-text"><div class="mw-parser-output">`);
      writeBlocks();
      w.add(`${navbox}</div></div></div></div>
<div id="mw-navigation"><h2>${MARKERS.wikiNav}</h2><div id="mw-panel">${Array.from({ length: 40 }, (_, i) => `<a href="/wiki/Special:${i}">${words.words(2)}</a>`).join(' ')}</div></div>`);
      markers.push(MARKERS.wikiNav);
      break;
    }
  }
  if (consent && !consentFirst) w.add(consent);
  w.add(siteFooter(words));
  markers.push(MARKERS.footer);
  w.add(`<script>${minifiedScript(rand, 3000)}</script></body></html>`);

  const paragraphs = w.blocks.filter((b) => b.paragraph);
  const html = w.html();
  const articleText = [title, ...w.blocks.map((b) => b.text)].join('\n\n');
  return {
    name: `${template}-${seed} (${(html.length / 1000).toFixed(0)} KB, article ${(articleText.length / 1000).toFixed(1)} KB, ${comments} comments)`,
    template,
    html,
    title,
    articleText,
    firstParagraph: paragraphs[0]!.text,
    lastParagraph: paragraphs.at(-1)!.text,
    boilerplateMarkers: markers,
    articleOffset: w.articleOffset,
  };
}

/** `count` pages cycling through every template, seeds from `firstSeed` on. */
export function corpus(count: number, firstSeed = 1): CorpusPage[] {
  return Array.from({ length: count }, (_, i) => corpusPage(PAGE_TEMPLATES[i % PAGE_TEMPLATES.length]!, firstSeed + i));
}

/**
 * A specification-like page of about `chars` characters of HTML: a `<main>` of numbered sections with long
 * definition tables and code examples, a table of contents, and site navigation around it (a
 * 2 MB spec page).
 */
export function specPage(chars: number, seed = 1): CorpusPage {
  const rand = seededRandom(seed);
  const words = new Words(rand);
  const title = `Ledger Protocol Specification, Version ${seed}.0`;
  const w = new PageWriter();
  w.add(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title><style>${stylesheet(rand, 20_000)}</style></head><body>`);
  w.add(`<nav class="site-nav"><p>${MARKERS.menu}</p>${Array.from({ length: 60 }, (_, i) => `<a href="/spec/${i}">${words.words(2)}</a>`).join(' ')}</nav><main><h1>${title}</h1>`);
  const blocks: Block[] = [];
  let section = 0;
  while (w.html().length < chars - 2000) {
    section++;
    const heading = `${section}. ${words.title()}`;
    const parts: Block[] = [{ html: `<h2 id="sec-${section}">${heading}</h2>`, text: heading, paragraph: false }];
    for (let p = 0; p < 3; p++) {
      const text = Array.from({ length: 4 }, () => words.sentence()).join(' ');
      parts.push({ html: `<p>${text}</p>`, text, paragraph: true });
    }
    const rows = Array.from({ length: 40 }, (_, i) => [`field_${section}_${i}`, pick(rand, ['uint32', 'string', 'bytes', 'bool', 'enum']), words.sentence(6, 6)]);
    parts.push({
      html: `<table><thead><tr><th>Field</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
      text: [['Field', 'Type', 'Meaning'], ...rows].map((r) => r.join(' ')).join('\n'),
      paragraph: false,
    });
    const code = Array.from({ length: 12 }, (_, i) => `  field_${section}_${i}: ${words.word()}(${Math.floor(rand() * 100)}),`).join('\n');
    parts.push({ html: `<pre><code>message Section${section} {\n${code}\n}</code></pre>`, text: `message Section${section} {\n${code}\n}`, paragraph: false });
    for (const b of parts) w.addBlock(b);
    blocks.push(...parts);
  }
  const closing = `This is the closing paragraph of the specification, section ${section}, and it must arrive in the spill.`;
  w.addBlock({ html: `<p>${closing}</p>`, text: closing, paragraph: true });
  blocks.push({ html: '', text: closing, paragraph: true });
  w.add(`</main>${siteFooter(words)}</body></html>`);
  const html = w.html();
  const paragraphs = blocks.filter((b) => b.paragraph);
  return {
    name: `spec-${seed} (${(html.length / 1e6).toFixed(1)} MB)`,
    template: 'docs',
    html,
    title,
    articleText: [title, ...blocks.map((b) => b.text)].join('\n\n'),
    firstParagraph: paragraphs[0]!.text,
    lastParagraph: closing,
    boilerplateMarkers: [MARKERS.menu, MARKERS.footer],
    articleOffset: w.articleOffset,
  };
}
