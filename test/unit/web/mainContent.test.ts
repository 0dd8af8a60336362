import * as assert from 'node:assert/strict';
import { keepsArticle, MAX_ARTICLE_CHROME_SHARE, MIN_ARTICLE_CHARS, MIN_ARTICLE_SHARE } from '../../../src/core/web/convert/mainContent';
import { htmlToMarkdown, type Conversion } from '../../../src/core/web/convert/markdown';
import { markdownText } from '../../helpers/markdownText';
import { corpusPage, type CorpusPage } from '../../helpers/webCorpus';

const extract = (html: string): Extract<Conversion, { mode: 'markdown' }> => {
  const result = htmlToMarkdown(html, { baseUrl: 'https://news.example/story', extractMainContent: true });
  assert.equal(result.mode, 'markdown', JSON.stringify(result));
  return result as Extract<Conversion, { mode: 'markdown' }>;
};

/** Asserts that the article of `page` arrived whole (every block's text) and no boilerplate marker did. */
function assertArticleOnly(page: CorpusPage, markdown: string): void {
  const text = markdownText(markdown).replace(/\s+/g, ' ');
  for (const block of page.articleText.split('\n\n')) {
    assert.ok(text.includes(block.replace(/\s+/g, ' ')), `${page.name}: the output lacks ${JSON.stringify(block.slice(0, 80))}`);
  }
  for (const marker of page.boilerplateMarkers) assert.ok(!markdown.includes(marker), `${page.name}: the output shows ${JSON.stringify(marker)}`);
}

/** A text of exactly `chars` characters made of sentences, for short-article cases. */
function textOf(chars: number, topic: string): string {
  let text = '';
  for (let i = 1; text.length < chars; i++) text += `${i === 1 ? '' : ' '}The ${topic} report number ${i} says that the service keeps running through the winter months.`;
  return `${text.slice(0, chars - 1).trimEnd().padEnd(chars - 1, 's')}.`;
}

describe('web/convert main content (issue 11)', () => {
  describe('keep-or-drop rule for Readability\'s article', () => {
    it('keeps a short article when it is most of the content text', () => {
      assert.equal(keepsArticle(427, 0, 600), true); // the 427-character brief under a mega-menu
      assert.equal(keepsArticle(512, 0, 700), true); // the 512-character post under a long comment thread
      assert.equal(keepsArticle(MIN_ARTICLE_CHARS, 0, MIN_ARTICLE_CHARS), true);
      assert.equal(keepsArticle(120, 0, 200), true); // a tiny page: half of its content is enough
    });

    it('drops an empty article, a caption-sized fragment and one item of a listing', () => {
      assert.equal(keepsArticle(0, 0, 0), false);
      assert.equal(keepsArticle(150, 0, 5000), false);
      assert.equal(keepsArticle(600, 0, 600 / MIN_ARTICLE_SHARE + 100), false);
    });

    it('drops an "article" holding the page\'s menus (Readability\'s whole-body fallback), but not one with a small table of contents', () => {
      assert.equal(keepsArticle(1600, 330, 1300), false);
      assert.equal(keepsArticle(300_000, MAX_ARTICLE_CHROME_SHARE * 300_000, 310_000), true);
    });

    it('keeps a 300,000-character article whose page has proportionally little around it', () => {
      const page = corpusPage('news', 5, { articleChars: 300_000, headChars: 400_000 });
      const result = extract(page.html);
      assert.equal(result.content, 'readability');
      assertArticleOnly(page, result.markdown);
    });
  });

  describe('generated real-world pages', () => {
    it('keeps a 427-character news brief under a mega-menu, related rails and comments', () => {
      const brief = textOf(427, 'transit');
      assert.equal(brief.length, 427);
      for (const seed of [1, 2, 3]) {
        const page = corpusPage('brief', seed, { paragraphs: [brief], comments: 12 });
        const result = extract(page.html);
        assert.equal(result.content, 'readability', page.name);
        assertArticleOnly(page, result.markdown);
      }
    });

    it('keeps a 512-character post under a thread of 120 comments', () => {
      const post = textOf(512, 'workshop');
      for (const seed of [1, 2]) {
        const page = corpusPage('blog', seed, { paragraphs: [post], comments: 120 });
        const result = extract(page.html);
        assert.equal(result.content, 'readability', page.name);
        assertArticleOnly(page, result.markdown);
      }
    });

    it('finds an article that starts after 300 KB of head scripts, JSON and styles', () => {
      const page = corpusPage('news', 4, { headChars: 400_000, articleChars: 6000, comments: 20 });
      assert.ok(page.articleOffset > 300_000, `the article starts at ${page.articleOffset}`);
      const result = extract(page.html);
      assertArticleOnly(page, result.markdown);
    });

    it('finds an article that starts after character 250,000 of a single-page app, split across many divs', () => {
      const page = corpusPage('spa', 5, { headChars: 500_000, articleChars: 8000 });
      assert.ok(page.articleOffset > 250_000);
      assertArticleOnly(page, extract(page.html).markdown);
    });

    it('keeps every part of an article split across divs with ad slots between them', () => {
      for (const seed of [6, 7, 8]) {
        const page = corpusPage('news', seed, { articleChars: 12_000 });
        assert.ok((page.html.match(/ad-container/g) ?? []).length >= 3, 'the article is split');
        assertArticleOnly(page, extract(page.html).markdown);
      }
    });

    it('reads documentation and wiki pages without their sidebars and navboxes', () => {
      for (const page of [corpusPage('docs', 9), corpusPage('wiki', 10)]) assertArticleOnly(page, extract(page.html).markdown);
    });
  });

  describe('fallback chain when no article is kept', () => {
    const nav = `<nav><ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/n/${i}">Section ${i}</a></li>`).join('')}</ul></nav>`;
    const consent = '<div id="cookie-notice"><p>We use cookies to improve your experience.</p><button>OK</button></div>';
    const items = (n: number, what: string): string => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/api/${i}">${what}${i}()</a> returns value ${i}</li>`).join('')}</ul>`;
    const cases: { name: string; html: string; content: string; kept: string[] }[] = [
      {
        name: 'an index page: its <main>',
        html: `<body><header><p>Site name</p>${nav}</header>${consent}<main><h1>API index</h1><nav>In this section: <a href="/x">x</a></nav>${items(40, 'function')}</main><footer>Legal footer</footer></body>`,
        content: 'main',
        kept: ['# API index', 'function39()'],
      },
      {
        name: 'a listing in several <article>s: the one with most text',
        html: `<body>${nav}${consent}<article><h1>Changelog</h1>${items(40, 'change')}</article><article><p>Tiny.</p></article><footer>Legal footer</footer></body>`,
        content: 'article',
        kept: ['# Changelog', 'change39()'],
      },
      {
        name: 'an element with role="main"',
        html: `<body>${nav}<div role="main"><h1>Tags</h1>${items(40, 'tag')}</div><aside>Sidebar words</aside><footer>Legal footer</footer></body>`,
        content: 'role-main',
        kept: ['# Tags', 'tag39()'],
      },
      {
        name: 'none of those: the body without its chrome',
        html: `<body><header><h1>Site</h1>${nav}</header>${consent}<div>${items(25, 'item')}</div><aside>Sidebar words</aside><footer>Legal footer</footer></body>`,
        content: 'body-cleaned',
        kept: ['item24()'],
      },
    ];
    for (const c of cases) {
      it(`shows ${c.name}, without navigation, footer, sidebar or cookie banner`, () => {
        const result = extract(c.html);
        assert.equal(result.content, c.content);
        for (const part of c.kept) assert.ok(result.markdown.includes(part), `lacks ${part}:\n${result.markdown}`);
        for (const gone of ['Section 3', 'Legal footer', 'Sidebar words', 'cookies', 'In this section']) assert.ok(!result.markdown.includes(gone), `shows ${gone}`);
      });
    }

    it('keeps the header of an article or main element (its title) while dropping the site header', () => {
      const html = `<body><header><p>Site banner text</p>${nav}</header><main><header><h1>Release notes</h1><p>Published today</p></header>${items(30, 'fix')}</main></body>`;
      const result = extract(html);
      assert.equal(result.content, 'main');
      assert.ok(result.markdown.startsWith('# Release notes\n\nPublished today'), result.markdown);
      assert.ok(!result.markdown.includes('Site banner text'));
    });

    it('removes consent banners by their names, but never a wrapper that holds the page', () => {
      for (const banner of [
        '<div id="onetrust-consent-sdk"><p>Privacy choices text.</p></div>',
        '<div id="CybotCookiebotDialog"><p>Privacy choices text.</p></div>',
        '<section class="gdpr-notice"><p>Privacy choices text.</p></section>',
        '<div class="site-cookie-banner js-dismissable"><p>Privacy choices text.</p></div>',
        '<div class="cc-window cc-floating"><p>Privacy choices text.</p></div>',
      ]) {
        const result = extract(`<body>${banner}<main><h1>Page</h1>${items(20, 'entry')}</main></body>`);
        assert.ok(!result.markdown.includes('Privacy choices'), banner);
      }
      const wrapped = extract(`<body><div class="cookies-accepted"><main><h1>Page</h1>${items(20, 'entry')}</main></div></body>`);
      assert.ok(wrapped.markdown.includes('entry19()'));
    });

    it('keeps a post about cookies or newsletters: topic classes and content elements are not banners', () => {
      const recipe = 'Cream the butter and sugar, fold in the flour and the chocolate, and bake the cookies for twelve minutes.';
      for (const html of [
        `<body>${nav}<article class="post tag-cookies category-newsletter"><h1>Chewy cookies</h1><p>${recipe}</p></article></body>`,
        `<body>${nav}<div class="cookie-recipe"><h1>Chewy cookies</h1><p>${recipe}</p></div></body>`,
        `<body>${nav}<main class="newsletter-archive"><h2>Issue 12</h2><p>${recipe}</p></main></body>`,
      ]) {
        assert.ok(extract(html).markdown.includes(recipe), html);
      }
    });
  });
});
