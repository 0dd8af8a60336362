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
      'the page looks like a listing: the text below holds 8 of its 12 items. The user can turn the setting `scout.webFetch.extractMainContent` off to have every item shown.',
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
});
