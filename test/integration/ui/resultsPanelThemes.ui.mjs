// The Scout Results panel in the four built-in themes (Dark Modern, Light Modern, Dark High Contrast, Light
// High Contrast): every text element of every kind of card must reach WCAG 2 AA contrast (4.5:1), computed
// from the colours Chromium renders (getComputedStyle in the webview's document, translucent backgrounds
// composited over what lies beneath them). A screenshot of the panel in each theme and the lowest ratio of
// each kind of text go to test-results/panel-themes/. axe-core checks the same panel in each theme: no serious or
// critical violation (its findings go to test-results/panel-themes/axe.json).
import axe from 'axe-core';
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { repoRoot } from '../../host/editorHost.mjs';
import { editMachineSettings, uiHost } from '../../host/uiHost.mjs';
import { runCommand } from './commandPalette.mjs';
import { panel, runToCard, setColorTheme, THEMES } from './panelPage.mjs';

const RESULTS = path.join(repoRoot, 'test-results', 'panel-themes');
/** WCAG 2.x success criterion 1.4.3 (AA) for normal-size text. */
const AA = 4.5;
/** The kinds of text the issue names; each must be on screen in every theme. */
const REQUIRED_KINDS = ['card header', 'argument value', 'counts', 'rows', 'match highlight', 'excerpt', 'buttons', 'error text'];
/**
 * axe-core's results for the panel's document. axe runs inside the panel's own frame (the iframe in the
 * webview's iframe), injected there: run from the workbench page, axe asks each nested frame by message and
 * gives up on one that is slow to answer, which on a busy machine left the panel unchecked (0 rules run).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{violations: {id: string, impact: string, help: string, nodes: {target: string[]}[]}[], passes: unknown[]}>}
 */
async function axeInPanel(page) {
  const handle = await panel(page).locator('body').elementHandle();
  const frame = handle && (await handle.ownerFrame());
  if (!frame) throw new Error("the Results panel's frame was not found");
  await frame.evaluate(axe.source);
  return frame.evaluate(() => globalThis.axe.run(document, { iframes: false }));
}

describe('Scout Results panel in every built-in theme: contrast and axe', function () {
  // Four themes, each measured and checked by axe: about 2 minutes on a quiet machine, several times that on
  // a busy one. A test that times out keeps running in the background and would switch themes under the next.
  this.timeout(900_000);
  /** @type {import('playwright-core').Page} */
  let page;
  let workspace;
  let pages;
  let searxng;
  let restoreSettings;
  let maximized = false;

  before(async () => {
    ({ page, folder: workspace } = uiHost());
    const file = path.join(workspace, 'ui-themes', 'long.ts');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `export const shade = 1;\n${'const filler = [1, 2, 3]; '.repeat(8)}// shade here and shade there${' // tail'.repeat(40)}\n`);
    pages = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><html><head><title>Shades</title></head><body><main><h1>Shades</h1><p>A page about contrast.</p><pre><code>const ratio = 4.5;</code></pre></main></body></html>');
    });
    await new Promise((resolve) => pages.listen(0, '127.0.0.1', resolve));
    // SearXNG's JSON search API on loopback: a result with a title, URL, snippet and date, and an answer.
    searxng = http.createServer((req, res) => {
      const q = new URL(req.url, 'http://127.0.0.1').searchParams.get('q');
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ query: q, answers: ['Contrast is the ratio of relative luminances.'], results: [{ url: 'https://example.com/contrast', title: 'Contrast', content: 'About contrast ratios.', publishedDate: '2026-01-02T00:00:00', engine: 'test' }] }),
      );
    });
    await new Promise((resolve) => searxng.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    if (maximized) await runCommand(page, 'View: Toggle Maximized Panel').catch(() => {});
    await setColorTheme(page, 'Dark Modern').catch(() => {});
    await restoreSettings?.();
    await new Promise((resolve) => pages?.close(resolve));
    await new Promise((resolve) => searxng?.close(resolve));
    rmSync(path.join(workspace, 'ui-themes'), { recursive: true, force: true });
  });

  it('keeps every kind of text at 4.5:1 or more, with no serious or critical axe violation, in Dark Modern, Light Modern, Dark High Contrast and Light High Contrast', async () => {
    await runToCard(page, 'Scout: Find Files (glob)…', [['Scout: Find Files (glob)', 'ui-themes/*']]);
    await runToCard(page, 'Scout: Search Workspace (literal)…', [['Scout: Search Workspace (literal) (1/2)', 'shade'], ['Scout: Search Workspace (literal) (2/2)', 'ui-themes']]);
    await runToCard(page, 'Scout: Fetch URL…', [['Scout: Fetch URL', `http://127.0.0.1:${pages.address().port}/shades`]]);
    restoreSettings = await editMachineSettings({ 'scout.webSearch.provider': 'searxng', 'scout.webSearch.baseUrls': { searxng: `http://127.0.0.1:${searxng.address().port}` } });
    await runToCard(page, 'Scout: Web Search…', [['Scout: Web Search', 'contrast']]);
    await restoreSettings();
    // Exa needs a key and none is stored: an error card with its Set API key button.
    restoreSettings = await editMachineSettings({ 'scout.webSearch.provider': 'exa' });
    await runToCard(page, 'Scout: Web Search…', [['Scout: Web Search', 'contrast without a key']], 'Error');
    await restoreSettings();
    restoreSettings = undefined;
    await runToCard(page, 'Scout: Search Text (grep)…', [['Scout: Search Text (grep) (1/2)', 'shade'], ['Scout: Search Text (grep) (2/2)', 'ui-themes/**']]);

    rmSync(RESULTS, { recursive: true, force: true });
    mkdirSync(RESULTS, { recursive: true });
    await runCommand(page, 'View: Toggle Maximized Panel');
    maximized = true;
    const report = {};
    const axeReport = {};
    const failures = [];
    for (const theme of Object.keys(THEMES)) {
      await setColorTheme(page, theme);
      // A focused row has its own colours: the newest (grep) card's long line, which holds two highlighted
      // matches, reached by keyboard (card, file, line 1, line 2).
      await runCommand(page, 'Scout: Focus on Results View');
      await panel(page).locator('article.card:focus').first().waitFor();
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
      await panel(page).locator('.line-row:focus mark').first().waitFor();
      await page.mouse.move(0, 0);
      await page.waitForTimeout(300);
      const base = await page.locator('.part.panel').evaluate((el) => getComputedStyle(el).backgroundColor);
      const measured = await panel(page).locator('body').evaluate(measureContrast, base);
      await page.locator('.part.panel').screenshot({ path: path.join(RESULTS, `${theme.toLowerCase().replace(/ /g, '-')}.png`) });
      report[theme] = measured;
      for (const kind of REQUIRED_KINDS) if (!measured[kind]) failures.push(`${theme}: no "${kind}" text was on screen`);
      for (const [kind, m] of Object.entries(measured)) {
        if (m.ratio < AA) failures.push(`${theme}: ${kind} ${m.ratio.toFixed(2)}:1 ("${m.text}", ${m.foreground} on ${m.background}, <${m.element}>)`);
      }
      const checked = await axeInPanel(page);
      axeReport[theme] = checked.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
      assert.ok(checked.passes.length > 10, `axe checked almost nothing in the panel (${checked.passes.length} rules passed): did it run in the panel's frame?`);
      for (const v of checked.violations) if (v.impact === 'serious' || v.impact === 'critical') failures.push(`${theme}: axe ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
    }
    writeFileSync(path.join(RESULTS, 'axe.json'), `${JSON.stringify(axeReport, null, 2)}\n`);
    console.log(`      axe findings per theme: ${Object.entries(axeReport).map(([theme, found]) => `${theme}: ${found.map((v) => `${v.id} (${v.impact})`).join(', ') || 'none'}`).join('; ')}`);
    writeFileSync(path.join(RESULTS, 'contrast.json'), `${JSON.stringify(report, null, 2)}\n`);
    const lowest = Object.entries(report).map(([theme, kinds]) => `${theme}: ${Object.entries(kinds).map(([k, m]) => `${k} ${m.ratio.toFixed(2)}`).join(', ')}`);
    console.log(`      lowest contrast per kind of text:\n${lowest.map((l) => `        ${l}`).join('\n')}`);
    assert.deepEqual(failures, []);
  });
});

/**
 * Runs in the panel's document: the WCAG 2 contrast ratio of every piece of text on screen, grouped by kind,
 * keeping the lowest of each kind. A text's colour and each translucent background behind it (up to the first
 * opaque one, else `base`, the workbench panel's background) are composited as the browser paints them;
 * opacity on an ancestor fades the text towards its background.
 * @param {HTMLElement} body
 * @param {string} base a CSS colour
 * @returns {Record<string, {ratio: number, text: string, foreground: string, background: string, element: string}>}
 */
function measureContrast(body, base) {
  /** @returns {{r: number, g: number, b: number, a: number} | undefined} */
  const parse = (css) => {
    let m = /^rgba?\(([^)]*)\)$/.exec(css);
    if (m) {
      const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    }
    m = /^color\(srgb ([^)]*)\)$/.exec(css);
    if (m) {
      const [r, g, b, a = 1] = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
      return { r: r * 255, g: g * 255, b: b * 255, a };
    }
    return undefined;
  };
  const over = (top, bottom) => ({ r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a), b: top.b * top.a + bottom.b * (1 - top.a), a: 1 });
  const channel = (v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const css = (c) => `rgb(${Math.round(c.r)}, ${Math.round(c.g)}, ${Math.round(c.b)})`;
  const baseColor = parse(base) ?? { r: 0, g: 0, b: 0, a: 1 };

  const backgroundBehind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg && bg.a > 0) layers.push(bg);
      if (bg && bg.a >= 1) break;
    }
    let color = { ...baseColor, a: 1 };
    for (const layer of layers.reverse()) color = over(layer, color);
    return color;
  };
  const opacityOf = (el) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  /** Kinds by the nearest ancestor that decides them; the first rule that matches wins. */
  const KINDS = [
    ['mark', 'match highlight'],
    ['button', 'buttons'],
    ['.error', 'error text'],
    ['.excerpt', 'excerpt'],
    ['.arg-value', 'argument value'],
    ['.count', 'counts'],
    ['.card-head', 'card header'],
    ['.card-meta', 'status line'],
    ['.row', 'rows'],
    ['.sources, .answer', 'sources'],
    ['.facts', 'page facts'],
    ['.more, .muted, .empty, .card-note', 'notes'],
  ];
  const kindOf = (el) => {
    const kind = KINDS.find(([selector]) => el.closest(selector))?.[1] ?? 'other text';
    return el.closest('.row:focus') ? `${kind} (focused row)` : kind;
  };

  const lowest = {};
  for (const el of body.querySelectorAll('*')) {
    const ownText = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim();
    if (!ownText || el.closest('.codicon, .visually-hidden, [hidden], script, style') || el.getClientRects().length === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible' || style.display === 'none') continue;
    const background = backgroundBehind(el);
    const color = parse(style.color);
    if (!color) continue;
    const foreground = over({ ...color, a: color.a * opacityOf(el) }, background);
    const [light, dark] = [luminance(foreground), luminance(background)].sort((x, y) => y - x);
    const ratio = (light + 0.05) / (dark + 0.05);
    const kind = kindOf(el);
    if (!lowest[kind] || ratio < lowest[kind].ratio) {
      // Rounded down, so a ratio just under 4.5 never reads as 4.5.
      lowest[kind] = { ratio: Math.floor(ratio * 100) / 100, text: ownText.slice(0, 40), foreground: css(foreground), background: css(background), element: `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` };
    }
  }
  return lowest;
}
