import * as assert from 'node:assert/strict';
import { parseRefresh } from '../../../src/core/web/convert/refresh';

describe('web/convert parseRefresh (HTML shared declarative refresh steps)', () => {
  it('reads the delay and the URL in the forms pages write', () => {
    const cases: [string, ReturnType<typeof parseRefresh>][] = [
      ['0; url=latest/', { delaySeconds: 0, url: 'latest/' }],
      ['0;URL=\'latest/index.html\'', { delaySeconds: 0, url: 'latest/index.html' }],
      ['5 ; Url = "https://example.org/a b" trailing', { delaySeconds: 5, url: 'https://example.org/a b' }],
      ['3,/moved', { delaySeconds: 3, url: '/moved' }],
      ['1.5; url=/x', { delaySeconds: 1, url: '/x' }],
      ['  0  https://example.org/', { delaySeconds: 0, url: 'https://example.org/' }],
      ['0; url="unclosed', { delaySeconds: 0, url: 'unclosed' }],
    ];
    for (const [content, expected] of cases) assert.deepEqual(parseRefresh(content), expected, content);
  });

  it('gives nothing for a plain reload or an invalid declaration', () => {
    for (const content of ['300', '0;', '', 'url=/x', 'soon; url=/x', '5x; url=/x']) assert.equal(parseRefresh(content), undefined, content);
  });
});
