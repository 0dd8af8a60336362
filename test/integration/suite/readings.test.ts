import * as assert from 'node:assert/strict';
import { fixture, invokeText, scoutApi, type Fixture } from '../support';

/**
 * Patterns and globs models send that ripgrep reads otherwise, in the real editor through
 * `vscode.lm.invokeTool` (with the editor's own ripgrep): each gets the lines or files the model meant, and
 * one note saying how the call was read.
 */
describe('grep and glob read a call the way the model meant it, through vscode.lm.invokeTool', () => {
  let fx: Fixture;
  before(async () => {
    await scoutApi();
    fx = await fixture();
  });
  const note = () => `Paths are relative to ${fx.workdir}.`;

  it('grep "${name}", not a valid regex, is searched as literal text', async () => {
    assert.equal(
      await invokeText('grep', { pattern: '${name}', path: 'src' }),
      ['src/app.ts', 'Line 4:   return `${GREETING}, ${name}`;', '', '[pattern "${name}" is not a valid regex, so it was searched as literal text (--fixed-strings).]', note()].join('\n'),
    );
  });

  it('grep look-behind runs on the editor ripgrep\'s PCRE2', async () => {
    assert.equal(
      await invokeText('grep', { pattern: "(?<=GREETING = )'hello'", path: 'src' }),
      ['src/util/strings.ts', "Line 1: export const GREETING = 'hello';", '', '[pattern "(?<=GREETING = )\'hello\'" uses look-around or a backreference, so it ran on ripgrep\'s PCRE2 engine (--pcre2).]', note()].join('\n'),
    );
  });

  it('glob "*.MD" finds the .md files case-insensitively; "src\\app.ts" reads "\\" as "/"', async () => {
    const cased = await invokeText('glob', { pattern: '*.MD', path: 'docs' });
    assert.equal(cased, ['docs/guide.md', '', '[pattern "*.MD" matched nothing as written (globs are case-sensitive), so it was read case-insensitively, as "*.[mM][dD]".]', note()].join('\n'));
    const windows = await invokeText('glob', { pattern: 'src\\app.ts' });
    assert.equal(windows, ['src/app.ts', '', '[pattern "src\\\\app.ts" matched nothing as written, so it was read as "src/app.ts", each backslash read as "/".]', note()].join('\n'));
  });
});
