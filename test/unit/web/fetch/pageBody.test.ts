import * as assert from 'node:assert/strict';
import type { Conversion } from '../../../../src/core/web/convert/markdown';
import type { RenderResult } from '../../../../src/core/web/convert/workerPool';
import { pageBody } from '../../../../src/core/web/fetch/pageBody';

type Converted = Extract<Conversion, { mode: 'markdown' }>;

/** What the pool gives for an HTML page converted to `conversion` (UTF-8 declared by the server). */
function rendered(conversion: Partial<Converted>): RenderResult {
  const full: Converted = { mode: 'markdown', markdown: '# Page', content: 'readability', pageChars: 1000, contentChars: 1000, articleSearch: 'ran', commentChars: 0, scriptBuilt: false, ...conversion };
  return { text: '<html>…', truncated: false, charset: 'utf-8', charsetSource: 'header', charsetAssumed: false, page: { kind: 'html', conversion: full }, waitedMs: 0 };
}

describe('web_fetch page notes', () => {
  it('says how many items of a listing the article holds, why a discussion is shown without Readability, and how much comments held', () => {
    assert.deepEqual(pageBody('html', rendered({ listing: { shown: 8, items: 12 }, pageChars: 9000, contentChars: 7000 }), 10_000).notes, [
      "showing the page's main content; about 2000 characters of navigation, sidebars, footers, comments and similar text were left out.",
      'the page looks like a listing: the text below holds 8 of its 12 items. To have every item shown, the user can set scout.webFetch.extractMainContent to false.',
    ]);
    assert.deepEqual(pageBody('html', rendered({ content: 'main', namedChrome: ['div.nav'], pageChars: 3000, contentChars: 700 }), 10_000).notes, [
      'no article was found in the page, so its `main` element is shown without the navigation and sidebars in it (one named `div.nav` included); about 2300 characters of other text were left out.',
    ]);
    assert.deepEqual(pageBody('html', rendered({ content: 'main', articleRefused: 'discussion', pageChars: 30_000, contentChars: 29_500 }), 10_000).notes, [
      'the page is a discussion whose comments hold most of its text, so its `main` element is shown without the navigation and sidebars in it; about 500 characters of other text were left out.',
    ]);
    assert.deepEqual(pageBody('html', rendered({ pageChars: 40_000, contentChars: 3000, commentChars: 30_000 }), 10_000).notes, [
      "showing the page's main content; about 37000 characters of navigation, sidebars, footers, comments and similar text were left out, 30000 of them in comments.",
    ]);
  });

  it('counts the parts of a page converted in parts in words that agree (tester: "converted in 1 parts")', () => {
    const note = (count: number) => pageBody('html', rendered({ segments: { count, converted: count, nodes: 80_000 } }), 10_000).notes[0]!;
    assert.match(note(1), /, and it could not be cut into parts, so it was parsed whole[.;,]/);
    assert.match(note(3), /so it was converted in 3 parts[.;,]/);
  });

  describe('a conversion stopped for its budget', () => {
    const stopped = (kind: 'html' | 'pdf', extra: Partial<RenderResult>): RenderResult => ({ text: kind === 'html' ? '<p>source</p>' : '', truncated: false, charset: 'utf-8', charsetSource: 'header', charsetAssumed: false, page: null, waitedMs: 0, ...extra });

    it('blames the page when it used its CPU budget, and the machine when the wall-clock backstop stopped it first', () => {
      assert.deepEqual(pageBody('html', stopped('html', { failure: 'timeout', usage: { wallMs: 12_000, cpuMs: 10_000 } }), 10_000).notes, [
        'converting the HTML used up the 10 s of processor time a conversion may use (setting scout.webFetch.conversionTimeoutMs), so the raw HTML is shown.',
      ]);
      assert.deepEqual(pageBody('html', stopped('html', { failure: 'overloaded', usage: { wallMs: 40_000, cpuMs: 2140 } }), 10_000).notes, [
        'the computer was too busy to convert the page (in 40 s it got only 2.14 s of processor time, of the 10 s it may use (setting scout.webFetch.conversionTimeoutMs); fetching it again when the computer is less busy converts it), so the raw HTML is shown.',
      ]);
      assert.deepEqual(pageBody('html', stopped('html', { failure: 'timeout', usage: { wallMs: 40_000, cpuMs: undefined } }), 10_000).notes, ['converting the HTML took longer than 40 s, so the raw HTML is shown.']);
    });

    it('shows the pages of a PDF read before its budget ran out (a page that inflates to 1 GiB of text)', () => {
      const result = pageBody('pdf', stopped('pdf', { failure: 'timeout', pdfPagesRead: ['--- Page 1 of 3 ---\n\none', '--- Page 2 of 3 ---\n\ntwo'] }), 10_000);
      assert.equal(result.body, '--- Page 1 of 3 ---\n\none\n\n--- Page 2 of 3 ---\n\ntwo');
      assert.deepEqual(result.notes, ['reading the PDF used up the 10 s of processor time a conversion may use (setting scout.webFetch.conversionTimeoutMs) on page 3, so only the 2 pages read before it are shown.']);
      assert.equal(pageBody('pdf', stopped('pdf', { failure: 'timeout', pdfPagesRead: [] }), 10_000).body, '(Nothing can be shown: reading the PDF used up the 10 s of processor time a conversion may use (setting scout.webFetch.conversionTimeoutMs).)');
    });
  });
});
