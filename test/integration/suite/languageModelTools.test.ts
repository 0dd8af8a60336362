import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { fixture, invokeText, scoutApi, type Fixture } from '../support';

interface DeclaredTool {
  name: string;
  modelDescription: string;
  inputSchema: object;
  tags: string[];
}
const manifest = vscode.extensions.getExtension('scout-dev.scout')?.packageJSON as { contributes: { languageModelTools: DeclaredTool[] } } | undefined;

describe('glob and grep as language-model tools', () => {
  let fx: Fixture;
  before(async () => {
    await scoutApi();
    fx = await fixture();
  });
  const note = () => `Paths are relative to ${fx.workdir}.`;

  it('are both listed in vscode.lm.tools with the declared description and input schema', () => {
    assert.ok(manifest, 'Scout is not installed');
    for (const name of ['glob', 'grep']) {
      const tool = vscode.lm.tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is missing from vscode.lm.tools (${vscode.lm.tools.map((t) => t.name).join(', ')})`);
      const declared: DeclaredTool | undefined = manifest.contributes.languageModelTools.find((t) => t.name === name);
      assert.ok(declared, `${name} is not declared in package.json`);
      assert.equal(tool.description, declared.modelDescription);
      assert.deepEqual(tool.inputSchema, declared.inputSchema);
      assert.deepEqual([...tool.tags], declared.tags);
    }
  });

  it('glob lists the matching files oldest-modified first, relative to the workspace folder', async () => {
    assert.equal(await invokeText('glob', { pattern: '*.ts' }), `src/app.ts\nsrc/util/strings.ts\n\n${note()}`);
  });

  it('glob with a path lists only files under that directory', async () => {
    assert.equal(await invokeText('glob', { pattern: '*.md', path: 'docs' }), `docs/guide.md\n\n${note()}`);
  });

  it('grep groups "Line N: text" rows under each file, files in path order', async () => {
    const text = await invokeText('grep', { pattern: 'GREETING', include: '*.ts' });
    assert.equal(
      text,
      [
        'src/app.ts',
        "Line 1: import { GREETING } from './util/strings';",
        'Line 4:   return `${GREETING}, ${name}`;',
        '',
        'src/util/strings.ts',
        "Line 1: export const GREETING = 'hello';",
        '',
        note(),
      ].join('\n'),
    );
  });

  it('an empty search is a successful result, not an error', async () => {
    assert.equal(await invokeText('grep', { pattern: 'no_line_has_this_7f3a', path: 'src' }), 'No matches found');
    assert.equal(await invokeText('glob', { pattern: '*.nothing-has-this-extension' }), 'No files found');
  });

  it('an invalid regex is SEARCH_INVALID_PATTERN, not zero matches', async () => {
    const text = await invokeText('grep', { pattern: '[', path: 'src' });
    assert.match(text, /^Error: ripgrep rejected pattern "\[" as a regular expression/);
    assert.match(text, /\(code: SEARCH_INVALID_PATTERN\)$/);
  });

  it('a bad argument is a structured INVALID_ARGUMENT error', async () => {
    const text = await invokeText('grep', { pattern: 'x', include: '*.ts,*.js' });
    assert.match(text, /^Error: include must be ONE glob/);
    assert.match(text, /\(code: INVALID_ARGUMENT\)$/);
  });

  it('a path outside the workspace folder is refused', async () => {
    const text = await invokeText('glob', { pattern: '*', path: '..' });
    assert.match(text, /\(code: PATH_OUTSIDE_WORKSPACE\)$/);
  });
});
