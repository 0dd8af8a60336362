import * as assert from 'node:assert/strict';
import { mergeRoundRobin } from '../../../src/core/web/search/merge';
import { cappedLine, CITE_LINE, formatSearchOutput, NO_RESULTS, sourceLine, UNTRUSTED_LINE, type WebSearchSource } from '../../../src/core/web/search/output';
import { resultUrl, sourceKey } from '../../../src/core/web/search/sourceUrl';
import { cleanText, decodeEntities, displayDate, plainLine } from '../../../src/core/web/search/text';
import { FOREIGN_STRUCTURE, markdownStructure } from '../../helpers/commonMark';

const item = (url: string, title = url) => ({ url, title });

describe('web_search text cleaning', () => {
  it('strips formatting tags and decodes entities exactly once', () => {
    assert.equal(cleanText('Use <strong>streams</strong> &amp; <b>pipes</b>'), 'Use streams & pipes');
    assert.equal(cleanText('Tom &amp;amp; Jerry'), 'Tom &amp; Jerry');
    assert.equal(cleanText('&lt;strong&gt; is kept as text'), '<strong> is kept as text');
    assert.equal(cleanText('It&#39;s &#x27;quoted&#x27; &quot;twice&quot; &hellip;'), 'It\'s \'quoted\' "twice" …');
    assert.equal(cleanText('Vec<T> and x<y or z>w stay'), 'Vec<T> and x<y or z>w stay');
    assert.equal(cleanText('line\n  break\u00a0and&nbsp;space'), 'line break and space');
    assert.equal(cleanText(null), '');
    assert.equal(cleanText(42), '');
  });

  it('shows control characters, also ones decoded from references, as control pictures and escapes', () => {
    // An ESC sequence from a provider erased lines on a terminal; bidi overrides reorder text.
    assert.equal(cleanText('a\x1b[4A\x1b[J b\u0007 &#27;]0;title&#7; \u009b2J \u202eevil\u202c'), 'a␛[4A␛[J b␇ ␛]0;title␇ \\u009b2J \\u202eevil\\u202c');
    assert.equal(cleanText('one\r\ntwo\u2028three\u0085four'), 'one two three\\u0085four');
    assert.equal(plainLine(' tab\there\u0000 '), 'tab here␀');
  });

  it('leaves unknown names alone and replaces invalid code points', () => {
    assert.equal(decodeEntities('&madeup; &#0; &#xD800; &#x1F600;'), '&madeup; \ufffd \ufffd 😀');
  });

  it('shows ISO dates as YYYY-MM-DD and keeps short wordings', () => {
    assert.equal(displayDate('2024-03-05T08:30:00'), '2024-03-05');
    assert.equal(displayDate('2024-03-05'), '2024-03-05');
    assert.equal(displayDate('3 days ago'), '3 days ago');
    assert.equal(displayDate('x'.repeat(41)), '');
    assert.equal(displayDate(undefined), '');
  });
});

describe('web_search source URLs', () => {
  it('keeps only absolute http(s) URLs without credentials', () => {
    assert.equal(resultUrl('https://Example.com/a b'), 'https://example.com/a%20b');
    for (const bad of ['javascript:alert(1)', '/relative', 'ftp://example.com/', 'https://user:pw@example.com/', '', 7]) assert.equal(resultUrl(bad), undefined, String(bad));
  });

  it('treats trailing slashes, www., fragments, default ports and host case as the same page', () => {
    const same = (a: string, b: string) => assert.equal(sourceKey(a), sourceKey(b), `${a} = ${b}`);
    const differ = (a: string, b: string) => assert.notEqual(sourceKey(a), sourceKey(b), `${a} ≠ ${b}`);
    same('https://example.com/docs/', 'https://example.com/docs');
    same('https://example.com/', 'https://example.com');
    same('https://www.example.com/docs', 'https://example.com/docs');
    same('https://example.com/docs#install', 'https://example.com/docs');
    same('https://example.com:443/docs', 'https://example.com/docs');
    same('http://example.com:80/docs', 'http://example.com/docs');
    same('https://EXAMPLE.com/docs', 'https://example.com/docs');
    same('https://Www.Example.COM:443/docs/#top', 'https://example.com/docs');
    differ('https://example.com/docs', 'http://example.com/docs');
    differ('https://example.com/docs', 'https://example.com:8443/docs');
    differ('https://example.com/Docs', 'https://example.com/docs');
    differ('https://example.com/docs?page=2', 'https://example.com/docs');
    differ('https://www2.example.com/docs', 'https://example.com/docs');
  });
});

describe('web_search merging', () => {
  it('takes one result per query at each rank, in query order, with uneven lists', () => {
    const lists = [[item('https://a/1'), item('https://a/2'), item('https://a/3'), item('https://a/4')], [item('https://b/1')], [item('https://c/1'), item('https://c/2')]];
    const merged = mergeRoundRobin(lists, 10);
    assert.deepEqual(
      merged.items.map((i) => [i.url, i.listIndex, i.rank]),
      [
        ['https://a/1', 0, 1],
        ['https://b/1', 1, 1],
        ['https://c/1', 2, 1],
        ['https://a/2', 0, 2],
        ['https://c/2', 2, 2],
        ['https://a/3', 0, 3],
        ['https://a/4', 0, 4],
      ],
    );
    assert.deepEqual([merged.total, merged.capped], [7, false]);
  });

  it('keeps the first occurrence of a page and counts it once', () => {
    const lists = [[item('https://example.com/x/', 'first'), item('https://b/1')], [item('https://www.example.com/x#y', 'second'), item('https://c/1')]];
    const merged = mergeRoundRobin(lists, 10);
    assert.deepEqual(merged.items.map((i) => i.title), ['first', 'https://b/1', 'https://c/1']);
    assert.equal(merged.items[2]!.rank, 2);
  });

  it('caps after merging and says so', () => {
    const merged = mergeRoundRobin([[item('https://a/1'), item('https://a/2')], [item('https://b/1'), item('https://b/2')]], 3);
    assert.deepEqual(merged.items.map((i) => i.url), ['https://a/1', 'https://b/1', 'https://a/2']);
    assert.deepEqual([merged.total, merged.capped], [4, true]);
    const exact = mergeRoundRobin([[item('https://a/1')], [item('https://b/1')]], 2);
    assert.equal(exact.capped, false);
  });

  it('handles no lists and empty lists', () => {
    assert.deepEqual(mergeRoundRobin([], 8), { items: [], total: 0, capped: false });
    assert.deepEqual(mergeRoundRobin([[], []], 8), { items: [], total: 0, capped: false });
  });
});

describe('web_search output', () => {
  const source = (over: Partial<WebSearchSource>): WebSearchSource => ({ title: 'Title', url: 'https://example.com/', snippet: '', date: '', provider: 'brave', query: 'q', rank: 1, ...over });

  it('shapes each source line as a Markdown link with an optional snippet and date', () => {
    assert.equal(sourceLine(source({})), '- [Title](https://example.com/)');
    assert.equal(sourceLine(source({ snippet: 'About it.' })), '- [Title](https://example.com/) — About it.');
    assert.equal(sourceLine(source({ snippet: 'About it.', date: '2024-03-05' })), '- [Title](https://example.com/) — About it. (2024-03-05)');
    assert.equal(sourceLine(source({ date: '2024-03-05' })), '- [Title](https://example.com/) — (2024-03-05)');
    assert.equal(sourceLine(source({ title: '' })), '- [https://example.com/](https://example.com/)');
    assert.equal(sourceLine(source({ title: 'a [b] \\ c', url: 'https://en.wikipedia.org/wiki/Node_(software)' })), '- [a \\[b\\] \\\\ c](https://en.wikipedia.org/wiki/Node_%28software%29)');
  });

  it('makes Markdown in titles, snippets and dates inert with CommonMark backslash escapes', () => {
    assert.equal(
      sourceLine(source({ title: 'x](http://evil) [y', snippet: '[ref]: http://evil', date: '[3 days ago]' })),
      '- [x\\](http://evil) \\[y](https://example.com/) — \\[ref\\]: http://evil (\\[3 days ago\\])',
    );
    assert.equal(sourceLine(source({ title: '<https://evil.example/x>', snippet: 'a `b` *c* &amp; ~~d~~' })), '- [\\<https://evil.example/x>](https://example.com/) — a \\`b\\` \\*c\\* \\&amp; \\~\\~d\\~\\~');
  });

  it('percent-encodes a backslash in a source URL, so it cannot escape the link\'s closing parenthesis', () => {
    const line = sourceLine(source({ title: 'T', url: 'https://example.com/?q=a\\', snippet: 'after' }));
    assert.equal(line, '- [T](https://example.com/?q=a%5C) — after');
    assert.deepEqual(markdownStructure(line).links, [{ href: 'https://example.com/?q=a%5C', text: 'T' }]);
  });

  it('renders hostile titles, snippets, dates and answers as exactly their text, with Scout\'s links only', () => {
    // Each of these formed a link, image, autolink, raw HTML or other structure before.
    const hostile = [
      '<https://evil.example/x>',
      '<a href="https://evil.example">click</a> <img src=x onerror=alert(1)>',
      '[click](https://evil.example) ![i](https://evil.example/p.png) [ref]: https://evil.example',
      '`code` *em* **strong** _u_ ~~strike~~ &copy; &#x41; \\[escaped\\]',
      'x](https://evil.example) [y',
      'a`b',
    ];
    const sources = hostile.map((text, i) => source({ title: text, url: `https://example.com/${i}`, snippet: hostile[(i + 1) % hostile.length]!, date: hostile[(i + 2) % hostile.length]! }));
    const answers = ['# Heading', '> quote', '- item', '+ item', '1. first', '2) second', '=== underline', '---', '| a | b |', '    indented', ...hostile].map((text) => ({ query: `q ${text}`, text }));
    const text = formatSearchOutput({ queries: answers.map((a) => a.query), answers, sources, capped: false, provider: 'tavily' });
    for (const flavour of ['commonmark', 'gfm'] as const) {
      const rendered = markdownStructure(text, flavour);
      for (const type of FOREIGN_STRUCTURE) assert.ok(!rendered.types.has(type), `${flavour}: provider text formed ${type}`);
      assert.deepEqual(rendered.links, sources.map((s) => ({ href: s.url, text: s.title })), flavour);
      assert.deepEqual(rendered.headings, answers.map((a) => ({ tag: 'h2', text: `Answer to "${a.query.replace(/\s+/g, ' ')}"` })), flavour);
      const items = rendered.paragraphs.filter((p) => sources.some((s) => p.startsWith(`${s.title} — `)));
      assert.deepEqual(items, sources.map((s) => `${s.title} — ${s.snippet} (${s.date})`), flavour);
      for (const answer of answers) assert.ok(rendered.paragraphs.includes(answer.text.trim()), `${flavour}: answer ${JSON.stringify(answer.text)} not shown as written`);
    }
  });

  it('puts answers first under headings naming their query, then the sources, the capped line and the closing lines', () => {
    const text = formatSearchOutput({
      queries: ['node streams', 'deno streams'],
      answers: [{ query: 'node  streams\n', text: 'Streams move data in chunks.' }],
      sources: [source({ title: 'Node', url: 'https://nodejs.org/api/stream.html' }), source({ title: 'Deno', url: 'https://deno.com/' })],
      capped: true,
      provider: 'tavily',
    });
    assert.equal(
      text,
      [
        '## Answer to "node streams"',
        '',
        'Streams move data in chunks.',
        '',
        'Sources:',
        '- [Node](https://nodejs.org/api/stream.html)',
        '- [Deno](https://deno.com/)',
        cappedLine(2),
        '',
        CITE_LINE,
        UNTRUSTED_LINE,
      ].join('\n'),
    );
  });

  it('says No results found. when there is neither answer nor source', () => {
    const text = formatSearchOutput({ queries: ['q'], answers: [], sources: [], capped: false, provider: 'duckduckgo' });
    assert.equal(text, [NO_RESULTS, '', CITE_LINE, UNTRUSTED_LINE].join('\n'));
    assert.equal(NO_RESULTS, 'No results found.');
  });

  it('leaves the Sources block out when only an answer came back', () => {
    const text = formatSearchOutput({ queries: ['q'], answers: [{ query: 'q', text: 'An answer.' }], sources: [], capped: false, provider: 'searxng' });
    assert.equal(text, ['## Answer to "q"', '', 'An answer.', '', CITE_LINE, UNTRUSTED_LINE].join('\n'));
  });
});
