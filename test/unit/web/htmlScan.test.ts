import * as assert from 'node:assert/strict';
import { MAX_NESTING_DEPTH, scanHtml } from '../../../src/core/web/convert/htmlScan';

const nested = (depth: number, tag = 'div'): string => `<${tag}>`.repeat(depth) + 'x' + `</${tag}>`.repeat(depth);

describe('web/convert scanHtml (lexical nesting guard)', () => {
  it('counts element nesting and stops past the limit', () => {
    assert.equal(scanHtml(nested(3)).depth, 3);
    assert.equal(scanHtml(nested(MAX_NESTING_DEPTH)).tooDeep, false);
    const deep = scanHtml(nested(MAX_NESTING_DEPTH + 1));
    assert.equal(deep.tooDeep, true);
    assert.equal(deep.depth, MAX_NESTING_DEPTH + 1);
  });

  it('counts siblings, void elements and closed elements as flat', () => {
    assert.equal(scanHtml('<p>a</p>'.repeat(5000)).depth, 1);
    assert.equal(scanHtml('<img src="1"/>\n'.repeat(10_000)).depth, 1);
    assert.equal(scanHtml('<br><hr><input><meta charset=utf-8>'.repeat(1000)).depth, 1);
  });

  it('applies implied end tags like the parser does, so unclosed <p>, <li> and <td> do not pile up', () => {
    assert.equal(scanHtml('<p>one'.repeat(2000)).depth, 1);
    assert.equal(scanHtml(`<ul>${'<li>item'.repeat(2000)}</ul>`).depth, 2);
    assert.equal(scanHtml(`<table>${'<tr><td>a<td>b'.repeat(2000)}</table>`).depth, 3);
    assert.equal(scanHtml(`${'<p>text<div>block</div>'.repeat(2000)}`).depth, 1);
  });

  it('does not let comments hide depth', () => {
    const hidden = '<div><!-- </div> -->'.repeat(600);
    assert.equal(scanHtml(hidden).tooDeep, true);
    const shortComments = '<div><!--></div>'.repeat(10); // `<!-->` is a complete comment, the </div> is real
    assert.equal(scanHtml(shortComments).depth, 1);
    const unterminated = `${'<div>'.repeat(600)}<!-- ${'</div>'.repeat(600)}`;
    assert.equal(scanHtml(unterminated).tooDeep, true);
  });

  it('does not let attribute values, raw text, CDATA or declarations hide depth', () => {
    assert.equal(scanHtml('<div title="</div>">'.repeat(600)).tooDeep, true);
    assert.equal(scanHtml("<div data-x='a></div>'>".repeat(600)).tooDeep, true);
    assert.equal(scanHtml('<div><script>"</div>"</script>'.repeat(600)).tooDeep, true);
    assert.equal(scanHtml('<div><style>/* </div> */</style>'.repeat(600)).tooDeep, true);
    assert.equal(scanHtml('<div><![CDATA[ </div> ]]>'.repeat(600)).tooDeep, true);
    assert.equal(scanHtml('<div><!DOCTYPE html>'.repeat(600)).tooDeep, true);
  });

  it('does not let fake opening tags in comments or scripts add depth', () => {
    assert.equal(scanHtml(`<!--${'<div>'.repeat(1000)}-->`).depth, 0);
    assert.equal(scanHtml(`<script>${'<div>'.repeat(1000)}</script>`).depth, 1);
    assert.equal(scanHtml(`<textarea>${'<div>'.repeat(1000)}</TEXTAREA >`).depth, 1);
  });

  it('treats "/>" as self-closing only inside SVG and MathML, as the HTML parser does', () => {
    assert.equal(scanHtml('<div/>'.repeat(600)).tooDeep, true);
    assert.equal(scanHtml(`<svg>${'<path d="M0 0"/>'.repeat(5000)}</svg>`).depth, 2);
    assert.equal(scanHtml(`<svg><foreignObject>${'<div/>'.repeat(600)}</foreignObject></svg>`).tooDeep, true);
  });

  it('finds the head and body of a document', () => {
    const source = '<!doctype html><html><head><title>T</title></head><body class="x"><p>hi</p></body></html>';
    const scan = scanHtml(source);
    assert.equal(source.slice(scan.headStart, scan.headEnd), '<title>T</title>');
    assert.equal(source.slice(scan.bodyStart, scan.bodyEnd), '<p>hi</p>');
    const fragment = scanHtml('<p>only</p>');
    assert.deepEqual([fragment.headStart, fragment.bodyStart], [-1, -1]);
  });

  it('stops scanning a 20,000-deep document at the limit', () => {
    const scan = scanHtml(nested(20_000));
    assert.deepEqual([scan.tooDeep, scan.depth], [true, MAX_NESTING_DEPTH + 1]);
  });
});
