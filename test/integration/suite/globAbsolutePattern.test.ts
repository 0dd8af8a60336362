import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { fixture, invokeText, scoutApi, type Fixture } from '../support';

/**
 * In the real editor: a model sends the absolute path of the workspace folder as a glob pattern, as
 * models do, and gets the files through `vscode.lm.invokeTool` instead of "No files found".
 */
describe('glob with an absolute pattern, through vscode.lm.invokeTool', () => {
  let fx: Fixture;
  before(async () => {
    await scoutApi();
    fx = await fixture();
  });

  it('reads an absolute pattern inside the workspace folder relative to it, and says so', async () => {
    const pattern = `${fx.root}/src/**/*.ts`;
    assert.equal(
      await invokeText('glob', { pattern }),
      [
        'src/app.ts',
        'src/util/strings.ts',
        '',
        `[pattern ${JSON.stringify(pattern)} is an absolute path in the workspace folder, so it was read relative to that folder as "src/**/*.ts".]`,
        `Paths are relative to ${fx.workdir}.`,
      ].join('\n'),
    );
  });

  it('refuses an absolute pattern outside the workspace folder, naming the folder', async () => {
    const text = await invokeText('glob', { pattern: `${path.dirname(fx.workdir)}/**/*.ts` });
    assert.ok(text.startsWith(`Error: pattern ${JSON.stringify(`${path.dirname(fx.workdir)}/**/*.ts`)} is an absolute path outside the workspace folder ${fx.workdir}`), text);
    assert.match(text, /\n\(code: PATH_OUTSIDE_WORKSPACE\)$/);
  });
});
