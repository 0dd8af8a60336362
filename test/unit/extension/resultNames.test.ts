import * as assert from 'node:assert/strict';
import { modelTextHeading, spillHeading } from '../../../src/core/spill';
import { resultName, resultNumber } from '../../../src/vscode/resultNames';

describe('result document names (VS Code)', () => {
  it('names a result by tool, first argument, count and call number, in characters a URI keeps as they are', () => {
    const grep = spillHeading({ tool: 'grep', call: '"needle" in "agent-mode/logs"', size: '6,000 matches in 30 files' }, 6_063);
    assert.equal(resultName(grep, 'grep', 3, 'txt'), 'grep-needle-6000-matches-3.txt');
    const glob = spillHeading({ tool: 'glob', call: '"ui-reload/many/*"', size: '150 files' }, 154);
    assert.equal(resultName(glob, 'glob', 12, 'txt'), 'glob-ui-reload-many-150-files-12.txt');
    const regex = spillHeading({ tool: 'grep', call: '"(\\\\w{1,50}\\\\s){20}\\\\d"', size: '1 match in 1 file', incomplete: true }, 3);
    assert.equal(resultName(regex, 'grep', 4, 'txt'), 'grep-w-1-50-s-20-d-1-match-4.txt');
    const page = spillHeading({ tool: 'web_fetch', call: '"http://127.0.0.1:8080/long"', size: '250,123 characters', language: 'markdown' }, 900);
    assert.equal(resultName(page, 'web_fetch', 7, 'md'), 'web_fetch-http-127.0.0.1-8080-long-250123-characters-7.md');
    assert.equal(resultName(modelTextHeading('grep', '"TODO"'), 'grep', 9, 'txt'), 'grep-TODO-the-text-the-model-saw-9.txt');
    for (const name of ['grep-needle-6000-matches-3.txt', 'web_fetch-http-127.0.0.1-8080-long-250123-characters-7.md']) {
      assert.equal(encodeURIComponent(name), name);
    }
  });

  it('tells two calls of one pattern apart, and cuts a long argument', () => {
    const heading = spillHeading({ tool: 'glob', call: '"*"', size: '19,933 files' }, 19_937);
    assert.notEqual(resultName(heading, 'glob', 1, 'txt'), resultName(heading, 'glob', 2, 'txt'));
    assert.equal(resultName(heading, 'glob', 1, 'txt'), 'glob-19933-files-1.txt');
    const long = spillHeading({ tool: 'grep', call: `"${'a'.repeat(200)}"`, size: '300 matches in 30 files' }, 340);
    assert.equal(resultName(long, 'grep', 5, 'txt'), `grep-${'a'.repeat(32)}-300-matches-5.txt`);
  });

  it('reads the call number back from a name, and nothing from another file', () => {
    assert.equal(resultNumber('grep-needle-6000-matches-3.txt'), 3);
    assert.equal(resultNumber('web_fetch-http-127.0.0.1-8080-long-250123-characters-17.md'), 17);
    assert.equal(resultNumber('notes.txt'), undefined);
    assert.equal(resultNumber('grep-needle-3.json'), undefined);
  });
});
