import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../../..');

/** The code point of `.codicon-NAME:before` in a codicon stylesheet, or undefined when it has no such rule. */
function codePointOf(css: string, name: string): number | undefined {
  const hex = new RegExp(`^\\.codicon-${name}:before \\{ content: "\\\\([0-9a-f]+)" \\}$`, 'm').exec(css)?.[1];
  return hex === undefined ? undefined : Number.parseInt(hex, 16);
}

/**
 * The outline a TrueType font draws for each code point (an SVG path, '' for a glyph with no contour), or
 * undefined where its cmap maps the code point to no glyph.
 */
async function outlinesOf(file: string): Promise<(codePoint: number) => string | undefined> {
  const hb = await import('harfbuzzjs');
  const font = new hb.Font(new hb.Face(new hb.Blob(readFileSync(file))));
  return (codePoint) => {
    const glyph = font.nominalGlyph(codePoint);
    return glyph === undefined ? undefined : font.glyphToPath(glyph);
  };
}

describe('the panel codicons (media/codicons/, made by the build)', () => {
  const css = readFileSync(path.join(REPO, 'media/codicons/codicon.css'), 'utf8');
  const fullCss = readFileSync(path.join(REPO, 'node_modules/@vscode/codicons/dist/codicon.css'), 'utf8');
  const panel = readFileSync(path.join(REPO, 'media/panel.js'), 'utf8');

  const shown = new Set<string>();
  // icon('file'), the icon fields of its tables ({ icon: 'pass' }), the tool icons, and classes set directly.
  for (const m of panel.matchAll(/\bicon\(\s*'([a-z0-9-]+)'|\bicon: '([a-z0-9-]+)'|codicon-([a-z0-9-]+)/g)) shown.add((m[1] ?? m[2] ?? m[3])!);
  const tools = /const TOOL_ICONS = \{([^}]*)\}/.exec(panel)?.[1] ?? '';
  for (const m of tools.matchAll(/'([a-z0-9-]+)'/g)) shown.add(m[1]!);
  shown.delete('modifier-spin');

  it('has a rule for every icon the panel shows', () => {
    assert.ok(shown.size >= 15, `${shown.size} icons found in panel.js`);
    for (const name of shown) assert.notEqual(codePointOf(css, name), undefined, name);
  });

  it('has a glyph in its font for every icon the panel shows, the one @vscode/codicons draws', async () => {
    const built = await outlinesOf(path.join(REPO, 'media/codicons/codicon.ttf'));
    const full = await outlinesOf(path.join(REPO, 'node_modules/@vscode/codicons/dist/codicon.ttf'));
    for (const name of shown) {
      const codePoint = codePointOf(css, name)!;
      const outline = built(codePoint);
      assert.ok(outline, `${name} (U+${codePoint.toString(16)}): no glyph, or an empty one, in media/codicons/codicon.ttf`);
      assert.equal(outline, full(codePoint), `${name} (U+${codePoint.toString(16)})`);
    }
  });

  it('keeps the font and the shared rules, and leaves out the icons the panel never shows', async () => {
    assert.match(css, /@font-face \{[^}]*src: url\("\.\/codicon\.ttf\?[0-9a-f]+"\) format\("truetype"\)/);
    assert.match(css, /\.codicon\[class\*='codicon-'\] \{/);
    assert.match(css, /\.codicon-loading\.codicon-modifier-spin/);
    const built = await outlinesOf(path.join(REPO, 'media/codicons/codicon.ttf'));
    for (const name of ['add', 'github', 'debug-alt']) {
      assert.equal(codePointOf(css, name), undefined, name);
      const codePoint = codePointOf(fullCss, name);
      assert.notEqual(codePoint, undefined, `${name} is no longer a codicon; pick another icon the panel never shows`);
      assert.equal(built(codePoint!), undefined, `${name} (U+${codePoint!.toString(16)}) is in media/codicons/codicon.ttf`);
    }
  });
});
