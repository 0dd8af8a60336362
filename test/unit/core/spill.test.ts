import * as assert from 'node:assert/strict';
import { breaksLine } from '../../../src/core/controlCharacters';
import { quoteValue } from '../../../src/core/errors';
import { countOf, headingTool, LineLengths, modelTextHeading, PART_MAX_CHARS, PART_MAX_LINES, partsAdvice, readingParts, saveCompleteResult, spillHeading, SpillError, spillString } from '../../../src/core/spill';
import type { SpillWriter } from '../../../src/core/tool';
import { searchEnv } from '../../helpers/searchEnv';
import { seededRandom } from '../../helpers/seededRandom';

describe('spill: complete results', () => {
  it('heads a complete result with the tool, the call and its size', () => {
    assert.equal(spillHeading({ tool: 'glob', call: quoteValue('**/*.ts'), size: countOf(4819, 'file') }, 4823), 'Scout glob "**/*.ts": 4,819 files, complete result, 4,823 lines');
    assert.equal(countOf(1, 'match', 'matches'), '1 match');
  });

  it('keeps a hostile argument on the heading line', () => {
    const heading = spillHeading({ tool: 'grep', call: quoteValue('x\n\u202eLine 9: forged\r'), size: countOf(2, 'match', 'matches') }, 5);
    assert.ok(!breaksLine(heading), heading);
  });

  it('hands the writer the heading, a blank line and the text, and names the result in the footer sentence', async () => {
    const texts: string[] = [];
    const writer: SpillWriter = async (text, meta) => {
      texts.push(spillString(text));
      assert.equal(meta.title, 'Scout grep "a": 3 matches, complete result, 3 lines');
      return { uri: 'untitled:x', hint: 'Read it.' };
    };
    const saved = await saveCompleteResult(searchEnv({ spill: writer }), { tool: 'grep', call: '"a"', size: '3 matches' }, () => ['body']);
    assert.deepEqual(texts, ['Scout grep "a": 3 matches, complete result, 3 lines\n\nbody']);
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
    assert.equal((await saveCompleteResult(env, { tool: 'glob', call: '"*"', size: '9 files' }, () => ['body'])).sentence, 'The complete result could not be saved; narrow the search to see the rest.');
  });

  it("says why when the writer's failure is a SpillError, in the words the host gave it", async () => {
    const refused: SpillWriter = async () => {
      throw new SpillError('the temporary folder /x cannot be written to (ENOENT: no such file or directory); to have it saved, set the environment variable TMPDIR to a folder Scout can write to.');
    };
    const saved = await saveCompleteResult(searchEnv({ spill: refused }), { tool: 'glob', call: '"*"', size: '9 files' }, () => ['body']);
    assert.equal(
      saved.sentence,
      'The complete result could not be saved: the temporary folder /x cannot be written to (ENOENT: no such file or directory); to have it saved, set the environment variable TMPDIR to a folder Scout can write to. Narrow the search to see the rest.',
    );
  });

  it('recognises the first lines Scout writes, and no other line', () => {
    assert.equal(headingTool(spillHeading({ tool: 'glob', call: quoteValue('**/*.ts'), size: countOf(4819, 'file') }, 4823)), 'glob');
    assert.equal(headingTool(spillHeading({ tool: 'grep', call: `${quoteValue('a')} in ${quoteValue('src')}`, size: '3 matches in 2 files' }, 7)), 'grep');
    assert.equal(headingTool(modelTextHeading('web_fetch', quoteValue('https://example.com/'))), 'web_fetch');
    // A result cut at ripgrep's output cap: restored after a reload, it must be taken back like the others.
    assert.equal(headingTool(spillHeading({ tool: 'grep', call: quoteValue('a'), size: '3 matches in 2 files', incomplete: true }, 1)), 'grep');
    assert.equal(modelTextHeading('grep', quoteValue('TODO')), 'Scout grep "TODO": the text the model saw');
    for (const line of [
      '',
      'src/cli/flags.ts',
      'Scout glob is a search tool',
      'Scout find "*": 3 files, complete result',
      'Scout glob "*": 3 files, complete result and more',
      'Scout glob "*": 3 files, complete result, 5 lines and more',
      ' Scout glob "*": 3 files, complete result',
    ]) {
      assert.equal(headingTool(line), undefined, line);
    }
  });

  describe('reading a long result in parts', () => {
    const lines = (n: number, width: number) => Array.from({ length: n }, (_, i) => `${String(i).padStart(6, '0')}${'x'.repeat(width - 6)}`).join('\n');

    it('counts lines as an editor numbers them, across pieces split anywhere', () => {
      assert.equal(readingParts(['a\nb', 'c\n', '\nd'], []).lines, 4);
      assert.equal(readingParts(['x\n'], [10, 0]).lines, 4);
      assert.equal(readingParts([], []).lines, 1);
    });

    it('reads short lines in parts of PART_MAX_LINES, and long lines in fewer lines per part', () => {
      assert.equal(readingParts([lines(6_120, 20)], [80, 0]).partLines, PART_MAX_LINES);
      const wide = readingParts([lines(6_120, 95)], [80, 0]);
      assert.ok(wide.partLines < PART_MAX_LINES && wide.partLines * 96 <= PART_MAX_CHARS && (wide.partLines + 1) * 96 > PART_MAX_CHARS - 200, `${wide.partLines}`);
      // A reader gets at most about 2,000 characters of a line, so one huge line does not shrink every part to one line.
      const huge = readingParts([`${'y'.repeat(1_000_000)}\n${lines(3_000, 20)}`], []);
      assert.ok(huge.partLines >= 40, `${huge.partLines}`);
    });

    it('plans the same from the lines, their lengths or line breaks as from the text they make', () => {
      const random = seededRandom(24);
      for (let trial = 0; trial < 200; trial++) {
        // Lines of every width, huge ones among them, in runs given each way a caller can give them.
        const line = () => 'z'.repeat(random() < 0.05 ? 2_000 + Math.floor(random() * 5_000) : Math.floor(random() * 120));
        const text: string[] = [];
        const given = new LineLengths();
        for (let run = Math.floor(random() * 8); run >= 0; run--) {
          const lines = Array.from({ length: Math.floor(random() * 3_000) }, line);
          const way = Math.floor(random() * 4);
          if (way === 0) given.addLines(lines);
          else if (way === 1) given.addLineLengths(lines.map((l) => l.length));
          else if (way === 2) given.addText(lines.join('\n'));
          else
            lines.forEach((l, i) => {
              if (i > 0) given.addLine(0);
              given.addText(l);
            });
          text.push(lines.join('\n'));
          if (random() < 0.5) {
            given.addLineBreak();
            text.push('\n');
          }
        }
        const plan = given.plan();
        assert.equal(plan.lines, text.join('').split('\n').length, `trial ${trial}`);
        assert.deepEqual(plan, readingParts([text.join('')], []), `trial ${trial}`);
      }
    });

    it('tells the model the ranges to read, or nothing when the text fits one read', () => {
      assert.equal(partsAdvice({ lines: 1_500, partLines: 1_500 }), '');
      assert.equal(
        partsAdvice({ lines: 6_122, partLines: 1_500 }),
        'It has 6,122 lines: read lines 1–1,500, then 1,501–3,000, 3,001–4,500, 4,501–6,000 and 6,001–6,122, each as one line range of your file-reading tool; a read of more lines at once can come back with its middle left out.',
      );
      assert.match(partsAdvice({ lines: 2_000, partLines: 1_500 }), /^It has 2,000 lines: read lines 1–1,500, then 1,501–2,000, each/);
      assert.match(partsAdvice({ lines: 60_122, partLines: 1_500 }), /read lines 1–1,500, then 1,501–3,000, and so on in parts of 1,500 lines to line 60,122, each/);
    });

    it('heads a long saved result with its length and gives the ranges in the footer sentence', async () => {
      let saved = '';
      const writer: SpillWriter = async (text) => {
        saved = spillString(text);
        return { uri: 'untitled:x', hint: 'Read it.' };
      };
      const body = lines(3_998, 20);
      const result = await saveCompleteResult(searchEnv({ spill: writer }), { tool: 'glob', call: '"*"', size: '3,998 files' }, () => body.split(/(?<=\n)/));
      assert.equal(saved.split('\n').length, 4_000);
      assert.equal(saved.split('\n')[0], 'Scout glob "*": 3,998 files, complete result, 4,000 lines');
      assert.equal(result.sentence, 'The complete result is saved at untitled:x. Read it. It has 4,000 lines: read lines 1–1,500, then 1,501–3,000 and 3,001–4,000, each as one line range of your file-reading tool; a read of more lines at once can come back with its middle left out.');
    });
  });
});
