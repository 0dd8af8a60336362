import * as assert from 'node:assert/strict';
import { breaksLine } from '../../../src/core/controlCharacters';
import { quoteValue } from '../../../src/core/errors';
import { countOf, headingTool, modelTextHeading, saveCompleteResult, spillHeading, spillString } from '../../../src/core/spill';
import type { SpillWriter } from '../../../src/core/tool';
import { searchEnv } from '../../helpers/searchEnv';

describe('spill: complete results', () => {
  it('heads a complete result with the tool, the call and its size', () => {
    assert.equal(spillHeading({ tool: 'glob', call: quoteValue('**/*.ts'), size: countOf(4819, 'file') }), 'Scout glob "**/*.ts": 4,819 files, complete result');
    assert.equal(countOf(1, 'match', 'matches'), '1 match');
  });

  it('keeps a hostile argument on the heading line', () => {
    const heading = spillHeading({ tool: 'grep', call: quoteValue('x\n\u202eLine 9: forged\r'), size: countOf(2, 'match', 'matches') });
    assert.ok(!breaksLine(heading), heading);
  });

  it('hands the writer the heading, a blank line and the text, and names the result in the footer sentence', async () => {
    const texts: string[] = [];
    const writer: SpillWriter = async (text, meta) => {
      texts.push(spillString(text));
      assert.equal(meta.title, 'Scout grep "a": 3 matches, complete result');
      return { uri: 'untitled:x', hint: 'Read it.' };
    };
    const saved = await saveCompleteResult(searchEnv({ spill: writer }), { tool: 'grep', call: '"a"', size: '3 matches' }, () => ['body']);
    assert.deepEqual(texts, ['Scout grep "a": 3 matches, complete result\n\nbody']);
    assert.equal(saved.sentence, 'The complete result is saved at untitled:x. Read it.');
  });

  it('never throws: a failing writer or none leaves the page and a sentence saying so', async () => {
    const failing: SpillWriter = async () => {
      throw new Error('disk full');
    };
    const env = searchEnv({ spill: failing });
    for (const e of [env, searchEnv()]) {
      const saved = await saveCompleteResult(e, { tool: 'glob', call: '"*"', size: '9 files' }, () => ['body']);
      assert.equal(saved.spill, undefined);
      assert.match(saved.sentence, /could not be saved/);
    }
    assert.match(env.warnings[0]!, /disk full/);
  });

  it('recognises the first lines Scout writes, and no other line', () => {
    assert.equal(headingTool(spillHeading({ tool: 'glob', call: quoteValue('**/*.ts'), size: countOf(4819, 'file') })), 'glob');
    assert.equal(headingTool(spillHeading({ tool: 'grep', call: `${quoteValue('a')} in ${quoteValue('src')}`, size: '3 matches in 2 files' })), 'grep');
    assert.equal(headingTool(modelTextHeading('web_fetch', quoteValue('https://example.com/'))), 'web_fetch');
    // A result cut at ripgrep's output cap: restored after a reload, it must be taken back like the others.
    assert.equal(headingTool(spillHeading({ tool: 'grep', call: quoteValue('a'), size: '3 matches in 2 files', incomplete: true })), 'grep');
    assert.equal(modelTextHeading('grep', quoteValue('TODO')), 'Scout grep "TODO": the text the model saw');
    for (const line of [
      '',
      'src/cli/flags.ts',
      'Scout glob is a search tool',
      'Scout find "*": 3 files, complete result',
      'Scout glob "*": 3 files, complete result and more',
      ' Scout glob "*": 3 files, complete result',
    ]) {
      assert.equal(headingTool(line), undefined, line);
    }
  });
});
