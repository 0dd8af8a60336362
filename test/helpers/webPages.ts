/**
 * Generated, deterministic web pages for web_fetch tests and benchmarks: an article wrapped in the
 * boilerplate real sites carry (header navigation, cookie banner, sidebar, related links, footer).
 */
import { seededRandom } from './seededRandom';

const WORDS = (
  'the of and to in is that for it as with was on be by this are from at or an have not which but were ' +
  'system data network protocol server client request response latency cache memory thread process kernel ' +
  'compiler runtime module package version release editor extension language model token context window ' +
  'search index query result ranking document page section paragraph browser render layout style script ' +
  'performance measure benchmark throughput error failure retry timeout budget limit policy security guard'
).split(' ');

function words(rand: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  return out.join(' ');
}

function sentence(rand: () => number): string {
  const s = words(rand, 8 + Math.floor(rand() * 14));
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
}

/** A paragraph of 3–6 sentences with inline links, emphasis and code, as article bodies have. */
function paragraph(rand: () => number, index: number): string {
  const parts: string[] = [];
  const n = 3 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i++) {
    let s = sentence(rand);
    const r = rand();
    if (r < 0.25) s = s.replace(/^(\S+ \S+)/, `<a href="/wiki/topic-${index}-${i}">$1</a>`);
    else if (r < 0.4) s = s.replace(/(\S+)\.$/, '<em>$1</em>.');
    else if (r < 0.5) s = s.replace(/(\S+)\.$/, '<code>$1()</code>.');
    parts.push(s);
  }
  return `<p>${parts.join(' ')}</p>`;
}

function navigation(rand: () => number): string {
  const items = Array.from({ length: 24 }, (_, i) => `<li><a href="/section/${i}">${words(rand, 2)}</a></li>`).join('');
  return `<header class="site-header"><a class="logo" href="/">Example News</a><nav class="main-nav"><ul>${items}</ul></nav>
<form class="search" action="/search"><input name="q" placeholder="Search"><button>Search</button></form></header>`;
}

function cookieBanner(): string {
  return `<div class="cookie-banner" id="cookie-consent"><p>We use cookies and similar technologies to personalise content and
ads, to provide social media features and to analyse our traffic. We also share information about your use of our site with
our social media, advertising and analytics partners who may combine it with other information.</p>
<button>Accept all cookies</button> <button>Manage preferences</button> <a href="/privacy">Privacy policy</a></div>`;
}

function sidebar(rand: () => number): string {
  const related = Array.from({ length: 12 }, (_, i) => `<li><a href="/story/${i}">${sentence(rand)}</a></li>`).join('');
  const trending = Array.from({ length: 10 }, (_, i) => `<li><a href="/trending/${i}">${words(rand, 5)}</a></li>`).join('');
  return `<aside class="sidebar"><section class="related"><h3>Related stories</h3><ul>${related}</ul></section>
<section class="trending"><h3>Trending</h3><ol>${trending}</ol></section>
<div class="ad-slot advertisement">Advertisement</div></aside>`;
}

function footer(rand: () => number): string {
  const columns = Array.from(
    { length: 5 },
    (_, c) => `<div class="footer-col"><h4>${words(rand, 1)}</h4><ul>${Array.from({ length: 8 }, (_, i) => `<li><a href="/f/${c}/${i}">${words(rand, 2)}</a></li>`).join('')}</ul></div>`,
  ).join('');
  return `<footer class="site-footer">${columns}<p class="legal">© 2025 Example Media Group. All rights reserved. ${sentence(rand)}</p>
<ul class="social"><li><a href="https://social.example/a">Follow us</a></li><li><a href="https://video.example/b">Watch</a></li></ul></footer>`;
}

function articleBody(rand: () => number, targetChars: number, withExtras: boolean): string {
  const out: string[] = [];
  let length = 0;
  for (let i = 0; length < targetChars; i++) {
    let block: string;
    if (withExtras && i % 9 === 4) block = `<h2 id="s${i}">${words(rand, 4)}</h2>`;
    else if (withExtras && i % 23 === 11) {
      const rows = Array.from({ length: 6 }, () => `<tr><td>${words(rand, 2)}</td><td>${Math.floor(rand() * 1000)}</td><td>${(rand() * 100).toFixed(1)}%</td></tr>`).join('');
      block = `<table><thead><tr><th>Name</th><th>Count</th><th>Share</th></tr></thead><tbody>${rows}</tbody></table>`;
    } else if (withExtras && i % 17 === 8) {
      block = `<pre><code class="language-ts">const ${words(rand, 1)} = await fetch(url, { signal });\nif (!res.ok) throw new Error(\`${words(rand, 3)}\`);\n</code></pre>`;
    } else if (withExtras && i % 13 === 6) {
      block = `<ul>${Array.from({ length: 4 }, () => `<li>${sentence(rand)}</li>`).join('')}</ul>`;
    } else block = paragraph(rand, i);
    out.push(block);
    length += block.length;
  }
  return out.join('\n');
}

export interface GeneratedPage {
  readonly html: string;
  /** The article's own text was generated from this many characters of markup. */
  readonly articleChars: number;
}

/**
 * An article-like page of about `totalChars` characters of HTML: head with metadata and inline scripts,
 * header navigation, cookie banner, sidebar, the article (headings, paragraphs with links, tables, code,
 * lists) and a footer. `seed` varies the text.
 */
export function articlePage(totalChars: number, seed = 1, title = 'Measuring latency in distributed systems'): GeneratedPage {
  const rand = seededRandom(seed);
  const head = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title} | Example News</title>
<meta name="viewport" content="width=device-width"><meta property="og:title" content="${title}">
<link rel="stylesheet" href="/main.css"><style>body{font-family:sans-serif}.cookie-banner{position:fixed}</style>
<script>window.dataLayer=[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());</script></head>`;
  const [nav, banner, aside, foot] = [navigation(rand), cookieBanner(), sidebar(rand), footer(rand)];
  const articleChars = Math.max(2000, totalChars - head.length - nav.length - banner.length - aside.length - foot.length - 200);
  const article = `<main><article><h1>${title}</h1><p class="byline">By Ada Example · 12 March 2025</p>
${articleBody(rand, articleChars, true)}</article></main>`;
  const html = `${head}<body>${nav}${banner}<div class="layout">${article}${aside}</div>${foot}
<script src="/analytics.js"></script></body></html>`;
  return { html, articleChars };
}

/**
 * Dense pages like those that once ran a converter out of memory, each about `bytes` long (5 MiB there): `<p><a>…</a> and <b>…</b></p>`
 * repeated inside `<main>` (a node and a link every few bytes), and one table of three-cell rows.
 */
export function densePages(bytes = 5 * 1024 * 1024): { name: string; html: string }[] {
  const fill = (open: string, unit: string, close: string): string => open + unit.repeat(Math.floor((bytes - open.length - close.length) / unit.length)) + close;
  const size = `${bytes / (1024 * 1024)} MiB`;
  return [
    { name: `${size} of dense links`, html: fill('<html><body><main>', '<p><a href="/x/1">word</a> and <b>bold</b></p>', '</main></body></html>') },
    { name: `${size} single table`, html: fill('<html><body><h1>T</h1><table><tr><th>a</th><th>b</th><th>c</th></tr>', '<tr><td>cell</td><td>1234</td><td>x y z</td></tr>', '</table></body></html>') },
  ];
}

