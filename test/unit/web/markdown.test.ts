import * as assert from 'node:assert/strict';
import { htmlToMarkdown, type Conversion, type ConversionOptions } from '../../../src/core/web/convert/markdown';
import { render, type RenderMessage, type RenderRequest } from '../../../src/core/web/convert/render';
import { markdownTokens, renderMarkdown } from '../../helpers/markdownText';
import { articlePage } from '../../helpers/webPages';

const whole: ConversionOptions = { baseUrl: 'https://docs.example/guide/page.html', extractMainContent: false };
const converted = (html: string, options = whole): Extract<Conversion, { mode: 'markdown' }> => {
  const result = htmlToMarkdown(html, options);
  assert.equal(result.mode, 'markdown', `conversion fell back: ${JSON.stringify(result)}`);
  return result as Extract<Conversion, { mode: 'markdown' }>;
};
const md = (html: string, options = whole): string => converted(html, options).markdown;

/** The links a CommonMark renderer finds in `markdown`: their text and destination. */
function renderedLinks(markdown: string): { text: string; href: string }[] {
  const links: { text: string; href: string }[] = [];
  for (const block of markdownTokens(markdown).filter((t) => t.type === 'inline')) {
    let open: { text: string; href: string } | undefined;
    for (const t of block.children ?? []) {
      if (t.type === 'link_open') open = { text: '', href: String(t.attrGet('href') ?? '') };
      else if (t.type === 'link_close' && open) {
        links.push(open);
        open = undefined;
      } else if (open) open.text += t.type === 'softbreak' || t.type === 'hardbreak' ? '\n' : t.content;
    }
  }
  return links;
}

describe('web/convert htmlToMarkdown', () => {
  describe('GFM tables (linkedom has no rows/cells)', () => {
    it('converts a table with <thead>, keeping alignment and escaping pipes', () => {
      const html = '<table><thead><tr><th>Name</th><th align="right">Qty</th></tr></thead><tbody><tr><td>Apple | red</td><td>3</td></tr><tr><td>Pear</td><td>10</td></tr></tbody></table>';
      assert.equal(md(html), '| Name | Qty |\n| --- | --: |\n| Apple \\| red | 3 |\n| Pear | 10 |');
    });

    it('converts a table without <thead>, promoting its first row to the header', () => {
      const html = '<table>\n  <tr>\n    <td>a</td>\n    <td>b</td>\n  </tr>\n  <tr><td>c</td><td>d</td></tr>\n</table>';
      assert.equal(md(html), '| a | b |\n| --- | --- |\n| c | d |');
      const thInBody = '<table><tbody><tr><th>k</th><th>v</th></tr><tr><td>x</td><td>1</td></tr></tbody></table>';
      assert.equal(md(thInBody), '| k | v |\n| --- | --- |\n| x | 1 |');
    });

    it('ignores colspan and pads short rows to the widest row', () => {
      const html = '<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td colspan="3">wide</td></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>';
      assert.equal(md(html), '| a | b | c |\n| --- | --- | --- |\n| wide |  |  |\n| 1 | 2 | 3 |');
    });

    it('keeps cell text on one line, puts a caption above, and drops empty tables', () => {
      const html = '<table><caption>Prices</caption><tr><th>item</th></tr><tr><td><p>two</p><p>lines</p></td></tr></table><table></table><p>after</p>';
      assert.equal(md(html), 'Prices\n\n| item |\n| --- |\n| two lines |\n\nafter');
    });
  });

  describe('code', () => {
    it('keeps every <br> inside highlighted <pre><code> as a line break, with the article search on and off', () => {
      // The shape of a v8.dev code block: one highlighting span per line, lines separated by <br>, a blank line by two.
      const code = '<pre><code><span class="token">#include</span> <span>&lt;stdio.h&gt;</span><br><br><span>int main() {</span><br><span>  printf("hi");</span><br><br><br><span>}</span></code></pre>';
      const prose = (text: string): string => `<p>${`${text} `.repeat(12)}</p>`;
      const html = `<html><head><title>Faster C</title></head><body><nav><a href="/">Home</a></nav><article><h1>Faster C</h1>${prose('The compiler reads each file once and keeps what it learnt.')}${code}${prose('That is all the program needs to print a greeting.')}</article></body></html>`;
      const block = '```\n#include <stdio.h>\n\nint main() {\n  printf("hi");\n\n\n}\n```';
      const article = converted(html, { ...whole, extractMainContent: true });
      assert.equal(article.content, 'readability');
      assert.ok(article.markdown.includes(block), article.markdown);
      assert.ok(md(html).includes(block), md(html));
    });

    it('makes a <code> of lines separated by <br> (outside <pre>) a fenced block, its other whitespace collapsed', () => {
      const html = '<p>Run:</p><div><code>ls   -l<br>cd /tmp<br/><br/>echo hi</code></div><p>Then <code>exit</code>.</p>';
      for (const extractMainContent of [false, true]) assert.equal(md(html, { ...whole, extractMainContent }), 'Run:\n\n```\nls -l\ncd /tmp\n\necho hi\n```\n\nThen `exit`.');
    });

    it('fences code that contains three backticks with a longer fence', () => {
      const html = '<pre><code class="language-md">Use ```js fences.\n````\nand four too</code></pre>';
      assert.equal(md(html), '`````md\nUse ```js fences.\n````\nand four too\n`````');
    });

    it('recognises <pre> and <code> separated by whitespace as one block', () => {
      const html = '<pre>\n  <code class="language-py">print(1)\nprint(2)\n</code>\n</pre>';
      assert.equal(md(html), '```py\nprint(1)\nprint(2)\n```');
    });

    it('keeps <br> line breaks in highlighted code and escapes nothing inside', () => {
      const html = '<pre><span class="k">let</span> a_b = *p;<br><span>done</span></pre>';
      assert.equal(md(html), '```\nlet a_b = *p;\ndone\n```');
    });

    it('keeps blank lines and trailing spaces inside code exactly', () => {
      assert.equal(md('<p>one<br>two</p><pre><code>a\n\n\n\nb  </code></pre>'), 'one\ntwo\n\n```\na\n\n\n\nb  \n```');
    });

    it('uses a longer inline delimiter for inline code with backticks', () => {
      assert.equal(md('<p>Run <code>a`b</code> now</p>'), 'Run ``a`b`` now');
    });
  });

  it('writes ATX headings, strikethrough, compact lists and absolute links', () => {
    const html = '<h1>Title</h1><h3>Sub</h3><p><del>old</del> <s>gone</s> <a href="../api/x.html#y">API</a> <a href="javascript:void(0)">js</a></p><ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol>';
    assert.equal(md(html), '# Title\n\n### Sub\n\n~old~ ~gone~ [API](https://docs.example/api/x.html#y) js\n\n- one\n- two\n\n3. three');
  });

  it('resolves links against <base href>, keeps alt-text images and drops images and links without text', () => {
    const html = '<html><head><base href="https://cdn.example/assets/"></head><body><p><img src="a.png" alt="Diagram"><img src="b.png"><a href="/x"></a><a href="y.html">Y</a></p></body></html>';
    assert.equal(md(html), '![Diagram](https://cdn.example/assets/a.png)[Y](https://cdn.example/assets/y.html)');
  });

  it('writes GFM task list items with their ticks (a GitHub issue body), and leaves other checkboxes out', () => {
    // The input that broke it: GitHub's task list markup; every box came out unticked ("- [ ]").
    const html =
      '<ul class="contains-task-list"><li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" checked="" disabled=""> Ship the parser</li>' +
      '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled=""> Write the docs</li></ul>' +
      '<ul><li><p><input type="checkbox" checked> Loose item</p></li><li><label><input type="checkbox"> Labelled item</label></li><li>Accept <input type="checkbox" checked> the terms</li></ul>';
    const items = markdownTokens(md(html)).filter((t) => t.type === 'inline').map((t) => t.content.replace(/ +/g, ' '));
    assert.deepEqual(items, ['[x] Ship the parser', '[ ] Write the docs', '[x] Loose item', '[ ] Labelled item', 'Accept the terms']);
    assert.ok(md(html).startsWith('- [x] Ship the parser\n- [ ] Write the docs\n'));
  });

  it('keeps the ticks of a GitHub issue\'s task list through main-content extraction (Readability drops every <input>)', () => {
    // The input that broke it: with the default settings `- [x] Write the parser` came out as `- Write the parser`.
    const paragraph = (topic: string): string => `<p>The ${topic} work is tracked here; each step below links the pull request that carries it, and the checklist is kept current as the steps land.</p>`;
    const task = (done: boolean, text: string): string =>
      `<li class="task-list-item enabled"><input type="checkbox" id="" disabled="" class="task-list-item-checkbox"${done ? ' checked=""' : ''}> ${text}</li>`;
    const nav = `<header class="AppHeader"><nav aria-label="Global">${Array.from({ length: 24 }, (_, i) => `<a href="/menu/${i}">Menu entry ${i}</a>`).join(' ')}</nav></header>`;
    const html =
      `<html><head><title>Parser rewrite · Issue #12 · acme/widgets</title></head><body>${nav}<main><div id="repo-content"><div class="js-discussion">` +
      '<div class="TimelineItem js-comment-container"><div class="timeline-comment"><div class="timeline-comment-header"><a class="author" href="/octo">octo</a> opened this issue on Nov 3</div>' +
      `<table class="d-block"><tbody class="d-block"><tr class="d-block"><td class="d-block comment-body markdown-body js-comment-body">${paragraph('parser')}${paragraph('tokenizer')}` +
      `<ul class="contains-task-list">${task(true, 'Write the parser')}${task(false, 'Add the tests')}<li class="task-list-item enabled"><input type="checkbox" class="task-list-item-checkbox" disabled=""> Publish<ul class="contains-task-list">${task(true, 'Tag the release')}</ul></li></ul>` +
      `${paragraph('release')}${paragraph('documentation')}</td></tr></tbody></table></div></div></div></div></main><footer><a href="/terms">Terms</a> <a href="/privacy">Privacy</a></footer></body></html>`;
    for (const extractMainContent of [true, false]) {
      const markdown = md(html, { ...whole, extractMainContent });
      assert.ok(markdown.includes('- [x] Write the parser\n- [ ] Add the tests\n- [ ] Publish\n  - [x] Tag the release'), markdown);
    }
    assert.equal(converted(html, { ...whole, extractMainContent: true }).content, 'readability');
  });

  it('heads the page with its title once: not again above a heading that already says it (escapes, case, site name)', () => {
    // The inputs that broke it: `# snake_case releases` above `## snake\_case releases`, and
    // `# Release notes | Acme Docs` above `## Release notes`.
    const items = `<ul>${Array.from({ length: 5 }, (_, i) => `<li><a href="/r/${i}">release ${i}</a> fixes the parser</li>`).join('')}</ul>`;
    const page = (title: string, heading: string): string => `<html><head><title>${title}</title></head><body><main><h2>${heading}</h2>${items}</main></body></html>`;
    assert.match(md(page('snake_case releases', 'snake_case releases')), /^## snake\\_case releases\n\n- \[release 0\]/);
    assert.match(md(page('Release notes | Acme Docs', 'Release Notes')), /^## Release Notes\n\n- \[release 0\]/);
    assert.match(md(page('Acme Docs', 'Release notes')), /^# Acme Docs\n\n## Release notes\n\n/);
  });

  it('reads the upper-case attribute names of a legacy page (<A HREF>, <IMG SRC ALT>, <INPUT CHECKED>), as an HTML parser does', () => {
    // The input that broke it: every link and image of a page written in upper case came out as bare text.
    const html = '<HTML><BODY><H1>Old page</H1><P><A HREF="/x">Link</A> <A Href="/y" href="/z">First wins</A> <IMG SRC="a.gif" ALT="Pic"></P><UL><LI><INPUT TYPE="checkbox" CHECKED> Done</LI></UL></BODY></HTML>';
    assert.equal(md(html), '# Old page\n\n[Link](https://docs.example/x) [First wins](https://docs.example/y) ![Pic](https://docs.example/guide/a.gif)\n\n- [x] Done');
  });

  it('drops script, style, noscript, template and hidden elements', () => {
    const html = '<body><script>alert("x")</script><style>p{}</style><noscript>Enable JS</noscript><template><p>tpl</p></template><p hidden>h</p><div aria-hidden="true">icon</div><p>kept</p></body>';
    assert.equal(md(html), 'kept');
  });

  describe('text a browser shows but a reader does not read (soft hyphens, ruby, permalinks), formulas and icons', () => {
    const prose = (text: string): string => `<p>${`${text} `.repeat(10)}</p>`;
    // The shapes that broke: a German article with soft hyphens, a Japanese page with ruby readings, a Sphinx
    // heading with its ¶ permalink, Wikipedia's MathML, a caniuse-style table of icons.
    const body =
      `<h1>Ver\u00ADsion notes<a class="headerlink" href="#v" title="Link to this heading">¶</a></h1>${prose('The kan\u00ADji reading is shown.')}` +
      '<p><ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字<rt>じ</rt></ruby> means Chinese characters.<a href="#p2">§</a></p>' +
      '<p>Energy is <math alttext="E=mc^2"><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">E = mc^2</annotation></semantics></math> and <math><mi>x</mi><mo>+</mo><mn>1</mn></math>.</p>' +
      '<math display="block" alttext="\\sum_{i=1}^n i"><mrow><mo>∑</mo></mrow></math>' +
      '<table><tr><th>Browser</th><th>Status</th></tr><tr><td>Chrome</td><td><img src="/icons/check.svg"></td></tr><tr><td>Safari</td><td><img src="/icons/cross.svg" title="Not supported"></td></tr></table>' +
      prose('More prose follows the table here.');
    const html = `<html><head><title>Version notes</title></head><body><article>${body}</article></body></html>`;
    const expected = [
      '# Version notes',
      '漢字 means Chinese characters.',
      'Energy is $E = mc^2$ and $x + 1$.',
      '$$\\sum_{i=1}^n i$$',
      '| Browser | Status |\n| --- | --- |\n| Chrome | check |\n| Safari | Not supported |',
    ];

    for (const extractMainContent of [false, true]) {
      it(`drops soft hyphens, ruby readings and permalinks, writes MathML as TeX and names icons in tables (extraction ${extractMainContent ? 'on' : 'off'})`, () => {
        const result = converted(html, { ...whole, extractMainContent });
        const blocks = result.markdown.split('\n\n');
        for (const block of expected) assert.ok(blocks.includes(block), `${block}\n---\n${result.markdown}`);
        assert.ok(blocks.includes('The kanji reading is shown. '.repeat(10).trim()), result.markdown);
        assert.doesNotMatch(result.markdown, /\u00AD|¶|§|かん/);
      });
    }

    // MathJax 3's CommonHTML output, trimmed from its own demo page: each formula is an <mjx-container> whose
    // class names (`CtxtMenu_Attached_0`) read as a menu's to Readability, with a drawn copy (aria-hidden) and
    // the MathML beside it, written with whitespace between tokens or none.
    const mjx = (mathml: string, display = false): string =>
      `<mjx-container class="MathJax CtxtMenu_Attached_0" jax="CHTML" tabindex="0" ctxtmenu_counter="0"${display ? ' display="true"' : ''} style="font-size: 101.6%; position: relative;">` +
      '<mjx-math class="MJX-TEX" aria-hidden="true"><mjx-mi class="mjx-i"><mjx-c class="mjx-c1D44E TEX-I"></mjx-c></mjx-mi></mjx-math>' +
      `<mjx-assistive-mml unselectable="on" display="${display ? 'block' : 'inline'}"><math xmlns="http://www.w3.org/1998/Math/MathML"${display ? ' display="block"' : ''}>${mathml}</math></mjx-assistive-mml></mjx-container>`;
    const mathJaxPage =
      '<html><head><title>MathJax v3 with MathML input and HTML output</title></head><body><div class="content"><h1>MathJax v3 beta: MathML input, HTML output test</h1>' +
      `<p>When</p>${mjx('<mi>\n a\n </mi><mo>\n ≠\n </mo><mn>\n 0\n </mn>')}, there are two solutions to ${mjx('<mi>a</mi><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mi>b</mi><mi>x</mi><mo>+</mo><mi>c</mi><mo>=</mo><mn>0</mn>')} and they are ` +
      mjx('<mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac><mo>.</mo>', true) +
      '<h2>In-line Mathematics</h2><p>Finally, while display equations look good for a page of samples, the ability to mix math and text in a paragraph is also important. This expression ' +
      `${mjx('<msqrt><mn>3</mn><mi>x</mi><mo>−</mo><mn>1</mn></msqrt><mo>+</mo><mo stretchy="false">(</mo><mn>1</mn><mo>+</mo><mi>x</mi><msup><mo stretchy="false">)</mo><mn>2</mn></msup>')} is an example of an inline equation. As you see, MathJax equations can be used this way as well, without unduly disturbing the spacing between lines.</p></div></body></html>`;
    for (const extractMainContent of [false, true]) {
      it(`writes MathJax's rendered formulas as TeX once, in their place (extraction ${extractMainContent ? 'on' : 'off'})`, () => {
        const result = converted(mathJaxPage, { ...whole, extractMainContent });
        if (extractMainContent) assert.equal(result.content, 'readability');
        const blocks = result.markdown.split('\n\n').map((b) => b.trim());
        assert.ok(blocks.includes('When'), result.markdown);
        assert.ok(blocks.includes('$a ≠ 0$, there are two solutions to $a x^{2} + b x + c = 0$ and they are'), result.markdown);
        assert.ok(blocks.includes('$$x = \\frac{− b ± \\sqrt{b^{2} − 4 a c}}{2 a} .$$'), result.markdown);
        assert.match(result.markdown, /This expression \$\\sqrt\{3 x − 1\} \+ \( 1 \+ x \)\^\{2\}\$ is an example/);
        assert.doesNotMatch(result.markdown, /mjx|CtxtMenu/);
      });
    }

    // An old Japanese portal page's layout table: a bold label, two <br>, then a link whose text is in <font>.
    it('keeps a line break between a label and the <font> link after a run of <br> (extraction on)', () => {
      const row = (label: string, href: string, value: string): string =>
        `<tr><td height="50" bgcolor="#ECFFEC"><b><font size="-1">${label}</font></b><br />\n  <br />\n  <a href="${href}"><font size="-1">${value}</font></a></td></tr>`;
      const prose = '<p>' + 'むかしむかし、ある村に、とても働き者のおじいさんとおばあさんが住んでいました。'.repeat(12) + '</p>';
      const html =
        `<html><head><title>福娘童話集</title></head><body><table width="760"><tr><td>${prose}</td></tr>` +
        row('あこがれの職業紹介', '/work/041.html', '歌手') + row('恋の誕生日占い', '/birthday/01.html', '自分の考えをしっかりと持った女の子。') +
        `<tr><td>${prose}</td></tr></table></body></html>`;
      const markdown = md(html, { ...whole, extractMainContent: true });
      assert.doesNotMatch(markdown, /あこがれの職業紹介\*\*\[歌手|恋の誕生日占い\*\*\[/, markdown);
      assert.match(markdown, /あこがれの職業紹介\*\*\s+\[歌手\]\(https:\/\/docs\.example\/work\/041\.html\)/, markdown);
    });

    it('keeps two adjacent links around blocks (cards) on lines of their own, and inline links on one line', () => {
      assert.equal(md('<div class="cards"><a href="/a"><div><h3>First card</h3></div></a><a href="/b"><div><h3>Second card</h3></div></a></div>'), '[First card](https://docs.example/a)\n\n[Second card](https://docs.example/b)');
      assert.equal(md('<p><a href="/a">one</a><a href="/b">two</a></p>'), '[one](https://docs.example/a)[two](https://docs.example/b)');
    });
  });

  describe('images and the whitespace around them, in the shapes of real pages', () => {
    // A Guardian photo essay: a <figure> whose <meta> and <picture><source> void elements each leave a space.
    const figure = `<figure class="element element-image">
        <meta itemprop="url" content="https://i.example/a.jpg" />
        <meta itemprop="width" content="4800" />
        <meta itemprop="height" content="3200" /><a href="#img-2" class="article__img-container">
        <div class="u-responsive-ratio">
            <picture><!--[if IE 9]><video style="display: none;"><![endif]-->
            <source media="(min-width: 1300px)" sizes="880px" srcset="https://i.example/a.jpg?width=880 1760w" />
            <source media="(min-width: 660px)" sizes="620px" srcset="https://i.example/a.jpg?width=620 1240w" />
            <img class="gu-image" alt="Hori Parata at his farm." src="https://i.example/a.jpg?width=300" /></picture>
        </div><span class="inline-expand-image"><svg width="22" height="22"><path d="M3.4 20.2"></path></svg></span></a>
    </figure>`;

    for (const [where, html] of [
      ['after a paragraph', `<p>Seven decades later, Parata has overseen more than 500 strandings.</p>${figure}<p>After.</p>`],
      ['after a list', `<ul><li><p>Hori Parata at his farm</p></li></ul>${figure}<p>After.</p>`],
    ]) {
      it(`never indents a figure's image link into an indented code block (${where})`, () => {
        const markdown = md(html!);
        const tokens = markdownTokens(markdown);
        assert.ok(!tokens.some((t) => t.type === 'code_block'), markdown);
        assert.ok(renderedLinks(markdown).some((l) => l.href === '#img-2'), markdown);
        assert.doesNotMatch(markdown, /^ {4,}\[/m);
      });
    }

    it('keeps the indent of a list item\'s own blocks and of fenced code', () => {
      const html = '<ul><li><p>First paragraph.</p><p>Second paragraph.</p></li></ul><pre><code>    indented code line\n</code></pre>';
      const markdown = md(html);
      assert.match(markdown, /^- First paragraph\.\n {2}\n {2}Second paragraph\.$/m, markdown);
      assert.match(markdown, /^```\n {4}indented code line\n```$/m, markdown);
    });

    it('drops an alt text that is only a file name (a camera\'s photo names), and keeps a describing one', () => {
      const html = '<p>Lunch was good.</p><p><a href="/full/P1610279.jpg"><img alt="P1610279.jpg" src="/s/P1610279.jpg"></a> <img alt="performance.jpg" src="/p.png"></p><p><img alt="The harbour at dawn" src="/h.jpg"></p>';
      const markdown = md(html);
      assert.doesNotMatch(markdown, /P1610279|performance/, markdown);
      assert.match(markdown, /!\[The harbour at dawn\]\(https:\/\/docs\.example\/h\.jpg\)/);
    });

    it('names a table\'s icon by its file name without the extension, but not a layout table\'s spacer and corner images', () => {
      const html = '<table><tr><th>Task</th><th>State</th></tr><tr><td>Load map</td><td><img src="/img/fff-277-finished-2.png" width="20px"></td></tr></table>' +
        '<table><tr><td><img src="/gazou/corner_1.gif"></td><td><img src="/gazou/spacer.gif"><b>Today</b></td><td><img src="/gazou/corner_2.gif"></td></tr></table>';
      const markdown = md(html);
      assert.match(markdown, /\| Load map \| fff-277-finished-2 \|/, markdown);
      assert.doesNotMatch(markdown, /corner|spacer|\.png/, markdown);
    });
  });

  describe('pages a browser builds with JavaScript', () => {
    /** `bytes` of minified-looking inline script: a tag manager's queue and a bundle's module table. */
    const inlineScript = (bytes: number): string => {
      let code = 'window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date);';
      for (let i = 0; code.length < bytes; i++) code += `__modules[${i}]=function(e,t,n){"use strict";n.d(t,{a:function(){return r${i}}});var r${i}=function(o){return o&&o.v${i % 9}!==void 0?o:{}}};`;
      return `<script>${code}</script>`;
    };
    /** An app's server-rendered state of about `bytes` characters. */
    const stateScript = (name: string, bytes: number): string =>
      `<script>window.${name}=${JSON.stringify({ route: '/status', items: Array.from({ length: Math.ceil(bytes / 90) }, (_, i) => ({ id: i, label: `component ${i}`, updated: '2026-12-01T10:00:00Z' })) })}</script>`;
    const scriptBuilt = (html: string): boolean => converted(html, { ...whole, extractMainContent: true }).scriptBuilt;

    it('says so for app shells: an empty mount element and a script file, or title-sized text and much script', () => {
      const shell = '<html><head><title>Dashboard</title><link rel="stylesheet" href="/assets/index-81bd.css"><script type="module" crossorigin src="/assets/index-4f2a9c.js"></script></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>';
      const menu = `<header class="site-header"><a href="/">Acme Cloud</a><nav>${['Products', 'Pricing', 'Docs', 'Blog', 'Careers', 'Support', 'Sign in', 'Start free'].map((l) => `<a href="/${l.toLowerCase()}">${l}</a>`).join(' ')}</nav></header>`;
      const shellWithMenu = `<html><head><title>Console</title></head><body>${menu}<div id="__next"><div class="spinner" role="status">Loading…</div></div><footer>© 2026 Acme Cloud, Inc. All rights reserved. <a href="/terms">Terms of service</a> <a href="/privacy">Privacy</a></footer><script src="/_next/static/chunks/main-7c1e.js" defer></script></body></html>`;
      const nuxt = `<html><head><title>Shop</title></head><body><div id="__nuxt"></div>${stateScript('__NUXT__', 8000)}</body></html>`;
      const bundleOnly = `<html><head><title>Map viewer</title></head><body><div class="viewer"><h1>Map viewer</h1></div>${inlineScript(60_000)}</body></html>`;
      for (const html of [shell, shellWithMenu, nuxt, bundleOnly]) assert.equal(scriptBuilt(html), true, html.slice(0, 200));
    });

    it('does not for complete server-rendered pages with little text and much script (issue: false "needs JavaScript" notes)', () => {
      // The inputs that broke it: a 427-character news brief beside 20 KB of inline script; a status page whose
      // `#root` holds its 186 characters, beside an app's state and a script file; a docs page whose `#app`
      // holds its sidebar and a short install step, beside a module script.
      const brief = `<p>${'The council approved the city budget for next year on Tuesday, after a debate that ran for three hours. '.repeat(4).slice(0, 420)}</p>`;
      const news = `<html><head><title>Council approves budget</title>${inlineScript(20_000)}<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Council approves budget"}</script></head><body><article><h1>Council approves budget</h1>${brief}</article></body></html>`;
      const status =
        '<!DOCTYPE html><html><head><title>Status</title><script src="/static/app.js"></script></head><body><div id="root"><h1>Service status</h1><p>All systems operational. The last incident was resolved on Monday at 14:00 UTC after a database failover that lasted four minutes. No action is needed.</p></div>' +
        `${stateScript('__INITIAL_STATE__', 50_000)}</body></html>`;
      const docs = `<!DOCTYPE html><html><head><title>Docs</title><script type="module" src="/assets/index-abc.js"></script></head><body><div id="app"><aside class="sidebar">${Array.from({ length: 50 }, (_, i) => `<a href="/docs/${i}">Guide ${i}</a>`).join('')}</aside><div class="content"><h1>Install</h1><p>Run the installer.</p><pre><code>npm install widget-kit</code></pre></div></div></body></html>`;
      // A Next.js 404 page: `404` and its message in the mount element, beside the app's state and script files.
      const next404 =
        '<!DOCTYPE html><html><head><title>404: This page could not be found</title><script src="/_next/static/chunks/main.js" defer></script></head><body><div id="__next"><div style="font-family:system-ui"><div><h1 class="next-error-h1">404</h1><div><h2>This page could not be found.</h2></div></div></div></div>' +
        '<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"statusCode":404}},"page":"/_error","query":{},"buildId":"x"}</script></body></html>';
      for (const html of [news, status, docs, next404]) {
        const result = converted(html, { ...whole, extractMainContent: true });
        assert.ok(result.pageChars < 500, `${result.pageChars} characters: a page the old rule judged`);
        assert.equal(result.scriptBuilt, false, html.slice(0, 200));
      }
    });
  });

  describe('documents linkedom parses oddly', () => {
    it('converts empty HTML to empty Markdown', () => {
      assert.equal(md(''), '');
      assert.equal(md('   \n'), '');
      assert.equal(md('<!DOCTYPE html><html><head></head><body></body></html>'), '');
    });

    it('converts a fragment without <html> or <body>', () => {
      assert.equal(md('<p>Hello <b>world</b></p><ul><li>a<li>b</ul>'), 'Hello **world**\n\n- a\n- b');
      assert.equal(md('just text'), 'just text');
    });

    it('converts a <meta>-first document, taking its title', () => {
      assert.equal(md('<meta charset="utf-8"><title>My Page</title><p>Hi there</p>'), '# My Page\n\nHi there');
    });

    it('converts a document whose <head> is never closed', () => {
      assert.equal(md('<html><head><title>T</title><body><p>body text</p></body></html>'), '# T\n\nbody text');
    });
  });

  describe('nesting guard', () => {
    it('does not convert a 20,000-deep body', () => {
      const html = `<html><body>${'<div>'.repeat(20_000)}deep${'</div>'.repeat(20_000)}</body></html>`;
      assert.deepEqual(htmlToMarkdown(html, whole), { mode: 'raw-too-deep' });
    });

    it('is not fooled by comments that try to hide depth', () => {
      const html = '<div><!-- </div> -->'.repeat(600) + 'x';
      assert.equal(htmlToMarkdown(html, whole).mode, 'raw-too-deep');
    });

    it('converts 512 levels', () => {
      assert.equal(md(`${'<div>'.repeat(510)}<p>ok</p>${'</div>'.repeat(510)}`), 'ok');
    });
  });

  describe('Markdown fidelity on inputs that broke, read back with a CommonMark renderer', () => {
    it('turns a link wrapping a paragraph into one link on one line', () => {
      const markdown = md('<a href=/u><p>Title</p></a>');
      assert.deepEqual(renderedLinks(markdown), [{ text: 'Title', href: 'https://docs.example/u' }]);
      assert.equal(renderMarkdown(markdown), '<p><a href="https://docs.example/u">Title</a></p>\n');
    });

    it('turns a card link around a heading and a teaser into one link, without heading markers', () => {
      const markdown = md('<a href="/story"><h2>Headline</h2><p>Teaser text.</p></a><p>After.</p>');
      assert.deepEqual(renderedLinks(markdown), [{ text: 'Headline Teaser text.', href: 'https://docs.example/story' }]);
      assert.ok(!renderMarkdown(markdown).includes('<h2>'));
    });

    it('gives the code text for a link inside <code>, not a link inside backticks', () => {
      const markdown = md('<p>Call <code><a href="/api/x">fetch()</a></code> first, or <code>a`b</code>.</p>');
      assert.equal(renderMarkdown(markdown), '<p>Call <code>fetch()</code> first, or <code>a`b</code>.</p>\n');
      assert.deepEqual(renderedLinks(markdown), []);
    });

    it('keeps the nesting of a list directly inside a list', () => {
      assert.equal(renderMarkdown(md('<ul><ul><li>x</li></ul></ul>')), '<ul>\n<li>\n<ul>\n<li>x</li>\n</ul>\n</li>\n</ul>\n');
      assert.equal(renderMarkdown(md('<ol><li>one</li><ol><li>nested</li></ol><li>two</li></ol>')), '<ol>\n<li>one\n<ol>\n<li>nested</li>\n</ol>\n</li>\n<li>two</li>\n</ol>\n');
      assert.equal(renderMarkdown(md('<ul><li>a<ul><li>b</li></ul></li></ul>')), '<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>\n');
    });

    it('keeps link titles and destinations with spaces and parentheses intact', () => {
      const markdown = md('<p><a href="/a b/(x)" title="The\n  &quot;title&quot;">text</a></p>');
      assert.equal(renderMarkdown(markdown), '<p><a href="https://docs.example/a%20b/(x)" title="The &quot;title&quot;">text</a></p>\n');
    });
  });

  describe('main-content extraction', () => {
    it('keeps the article and leaves out navigation, cookie banner, sidebar and footer', () => {
      const { html } = articlePage(20_000, 7);
      const extracted = converted(html, { ...whole, extractMainContent: true });
      const full = converted(html, whole);
      assert.equal(extracted.content, 'readability');
      assert.equal(full.content, 'body');
      for (const boilerplate of ['Accept all cookies', 'Related stories', 'All rights reserved', '/section/3']) {
        assert.ok(full.markdown.includes(boilerplate), `whole page lacks ${boilerplate}`);
        assert.ok(!extracted.markdown.includes(boilerplate), `extraction kept ${boilerplate}`);
      }
      assert.match(extracted.markdown, /^# Measuring latency in distributed systems\n/);
      assert.ok(extracted.markdown.includes('| Name | Count | Share |'));
      assert.ok(extracted.markdown.length < full.markdown.length);
    });

    it('shows a page without an article whole', () => {
      const html = '<html><body><p><img src="chart.png" alt="Latency chart"></p></body></html>';
      const result = converted(html, { ...whole, extractMainContent: true });
      assert.equal(result.content, 'body-cleaned');
      assert.equal(result.markdown, '![Latency chart](https://docs.example/guide/chart.png)');
    });

    it('skips the article search when parsing used up the time to the deadline (controlled clock)', () => {
      const { html } = articlePage(20_000, 7);
      let clock = 0;
      // Each reading of the clock moves it 10 ms: parsing "takes" 10 ms, and the deadline is 25 ms away.
      const now = (): number => (clock += 10);
      const result = converted(html, { ...whole, extractMainContent: true, deadline: 25, now });
      assert.equal(result.articleSearch, 'no-time');
      assert.equal(result.content, 'main');
      assert.ok(!result.markdown.includes('/section/3'), 'the navigation is still left out');
      const roomy = converted(html, { ...whole, extractMainContent: true, deadline: 1e9, now: () => (clock += 10) });
      assert.deepEqual([roomy.articleSearch, roomy.content], ['ran', 'readability']);
    });

    it('plans by the conversion process\'s CPU time, so a machine too busy to run it changes nothing (controlled clocks)', async () => {
      // The input that broke: with a wall-clock budget, pages from 66 KB skipped their article search on a machine
      // 5–6 times oversubscribed. Here the wall clock runs far past the budget while the process gets no CPU time.
      const { html } = articlePage(20_000, 7);
      const convert = async (cpuNow: () => number): Promise<Extract<Conversion, { mode: 'markdown' }>> => {
        const messages: RenderMessage[] = [];
        const request: RenderRequest = { bytes: Buffer.from(html), contentType: 'text/html; charset=utf-8', kind: 'html', sniffMarkup: true, url: whole.baseUrl, rawChars: 1000, extractMainContent: true, cpuBudgetMs: 25 };
        await render(request, (m) => void messages.push(m), cpuNow);
        const page = messages.find((m) => m.type === 'converted')?.page;
        assert.ok(page?.kind === 'html' && page.conversion.mode === 'markdown');
        return page.conversion;
      };
      const idle = await convert(() => 0);
      assert.deepEqual([idle.articleSearch, idle.content], ['ran', 'readability']);
      let cpu = 0;
      const costly = await convert(() => (cpu += 10));
      assert.equal(costly.articleSearch, 'no-time');
    });
  });
});
