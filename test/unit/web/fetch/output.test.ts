import * as assert from 'node:assert/strict';
import { formatFetchOutput, sourceIdOf, UNTRUSTED_NOTE } from '../../../../src/core/web/fetch/output';

describe('web_fetch output format', () => {
  const parts = { finalUrl: 'https://example.com/a', status: 200, notes: ['redirected from http://example.com/a.'], sourceTruncated: false };

  it('puts the seed line, the source id and the notes before a blank line and the body', () => {
    const out = formatFetchOutput({ ...parts, body: 'Body.' }, 10_000);
    assert.equal(out.text, `Fetched https://example.com/a (HTTP 200)\nSource: ${out.sourceId}\nNote: ${UNTRUSTED_NOTE}\nNote: redirected from http://example.com/a.\n\nBody.`);
    assert.equal(out.sourceId, sourceIdOf('https://example.com/a', 'Body.'));
    assert.equal(out.truncated, false);
  });

  it('keeps the whole output within maxChars, cutting the body and ending with the notice', () => {
    for (const max of [1000, 1001, 1002, 2000]) {
      const out = formatFetchOutput({ ...parts, body: '😀'.repeat(2000) }, max);
      assert.ok(out.text.length <= max, `${out.text.length} > ${max}`);
      assert.ok(out.text.endsWith('to read the rest.)'));
      assert.ok(!/[\ud800-\udbff]$/.test(out.body), 'split surrogate pair');
      assert.equal(out.sourceId, sourceIdOf(parts.finalUrl, out.body));
      assert.ok(out.text.includes(`\n\n${out.body}\n\n(Content truncated`));
    }
  });

  it('adds the notice when the source was already cut, even if the body fits', () => {
    const out = formatFetchOutput({ ...parts, body: 'short', sourceTruncated: true }, 10_000);
    assert.equal(out.truncated, true);
    assert.ok(out.text.endsWith('\n\nshort\n\n(Content truncated: the page is longer than Scout shows in one result. Fetch a more specific URL, such as a sub-page, one page of a listing or a raw file, to read the rest.)'));
  });

  it('gives the same id for the same URL and text only', () => {
    assert.match(sourceIdOf('u', 't'), /^web-[0-9a-f]{12}$/);
    assert.equal(sourceIdOf('u', 't'), sourceIdOf('u', 't'));
    assert.notEqual(sourceIdOf('u', 't'), sourceIdOf('u', 't2'));
    assert.notEqual(sourceIdOf('u', 't'), sourceIdOf('u2', 't'));
  });
});
