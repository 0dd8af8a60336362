import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../../..');

describe('the panel codicon stylesheet (media/codicons/codicon.css, made by the build)', () => {
  const css = readFileSync(path.join(REPO, 'media/codicons/codicon.css'), 'utf8');
  const panel = readFileSync(path.join(REPO, 'media/panel.js'), 'utf8');

  it('has a rule for every icon the panel shows', () => {
    const shown = new Set<string>();
    // icon('file'), the icon fields of its tables ({ icon: 'pass' }), the tool icons, and classes set directly.
    for (const m of panel.matchAll(/\bicon\(\s*'([a-z0-9-]+)'|\bicon: '([a-z0-9-]+)'|codicon-([a-z0-9-]+)/g)) shown.add((m[1] ?? m[2] ?? m[3])!);
    const tools = /const TOOL_ICONS = \{([^}]*)\}/.exec(panel)?.[1] ?? '';
    for (const m of tools.matchAll(/'([a-z0-9-]+)'/g)) shown.add(m[1]!);
    shown.delete('modifier-spin');
    assert.ok(shown.size >= 15, `${shown.size} icons found in panel.js`);
    for (const name of shown) assert.match(css, new RegExp(`^\\.codicon-${name}:before \\{ content: "\\\\[0-9a-f]+" \\}$`, 'm'), name);
  });

  it('keeps the font and the shared rules, and leaves out the icons the panel never shows', () => {
    assert.match(css, /@font-face \{[^}]*codicon\.ttf/);
    assert.match(css, /\.codicon\[class\*='codicon-'\] \{/);
    assert.match(css, /\.codicon-loading\.codicon-modifier-spin/);
    assert.doesNotMatch(css, /^\.codicon-(add|github|debug-alt):before/m);
  });
});
