// The Scout Results panel by keyboard and for a screen reader, in the real editor: Focus on Results View
// focuses the newest card, PageDown/PageUp and Ctrl+↓/↑ move card to card past a long card, Tab from outside
// lands on a card and never inside a web_fetch excerpt, and the cards, rows, lists and toolbars carry the
// ARIA roles and labels a screen reader announces.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { uiHost } from '../../host/uiHost.mjs';
import { runCommand } from './commandPalette.mjs';
import { cardCount, cardIds, panel, panelFocus, runToCard, waitUntil } from './panelPage.mjs';

/** Matching lines in the long file: more than a card lists (60 rows), so the card is as long as cards get. */
const LONG_LINES = 80;

describe('Scout Results panel by keyboard and screen reader', function () {
  this.timeout(120_000);
  /** @type {import('playwright-core').Page} */
  let page;
  let workspace;
  /** A loopback page server (127.0.0.1 only) with a page whose Markdown excerpt is taller than its box. */
  let server;
  /** Run ids of the three cards this suite makes, newest first: web_fetch, the long grep, the short grep. */
  let ids;

  before(async () => {
    ({ page, folder: workspace } = uiHost());
    write('ui-keys/long.txt', Array.from({ length: LONG_LINES }, (_, i) => `keyline ${i}`).join('\n'));
    write('ui-keys/short.ts', 'const keyshort = 1;\n// keyshort again\n');
    server = http.createServer((_req, res) => {
      const paragraphs = Array.from({ length: 12 }, (_, i) => `<p>Paragraph ${i}: ${'words that wrap across the excerpt box '.repeat(12)}</p>`).join('');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html><head><title>Long</title></head><body><main><h1>Long page</h1>${paragraphs}</main></body></html>`);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

    await grep('keyshort');
    await grep('keyline');
    await runToCard(page, 'Scout: Fetch URL…', [['Scout: Fetch URL', `http://127.0.0.1:${server.address().port}/long`]]);
    ids = (await cardIds(page)).slice(0, 3);
  });

  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(path.join(workspace, 'ui-keys'), { recursive: true, force: true });
  });

  it('focuses the newest card on Focus on Results View, so ↓ moves at once', async () => {
    await page.keyboard.press('Control+Shift+E'); // the keyboard goes to the Explorer first
    await runCommand(page, 'Scout: Focus on Results View');
    await waitUntil(async () => (await panelFocus(page))?.cardId === ids[0], 10_000, 'the newest card to take the focus');
    assert.equal((await panelFocus(page)).tag, 'article');
    await page.keyboard.press('ArrowDown');
    assert.deepEqual((await panelFocus(page)).classes, ['row', 'url-row']);
    assert.equal((await panelFocus(page)).cardId, ids[0]);
  });

  it('moves card to card with PageDown/PageUp and Ctrl+↓/↑, past a card of 60 rows', async () => {
    await focusCard(0);
    const at = async () => {
      const f = await panelFocus(page);
      return `${ids.indexOf(f.cardId)}:${f.tag === 'article' ? 'card' : 'row'}`;
    };
    const steps = [
      ['PageDown', '1:card'],
      ['ArrowDown', '1:row'],
      ['ArrowDown', '1:row'],
      ['PageDown', '2:card'], // past the rest of the long card's 60 rows
      ['PageUp', '1:card'],
      ['ArrowDown', '1:row'],
      ['PageUp', '1:card'], // from a row, back to its own card first
      ['PageUp', '0:card'],
      ['Control+ArrowDown', '1:card'],
      ['Control+ArrowDown', '2:card'],
      ['Control+ArrowUp', '1:card'],
    ];
    for (const [key, expected] of steps) {
      await page.keyboard.press(key);
      assert.equal(await at(), expected, `after ${key}`);
      // A focused card is shown from its header, also the long one reached upwards (it showed its bottom).
      if (expected.endsWith(':card')) assert.ok(await headerInView(), `the focused card's header is in view after ${key}`);
    }
    assert.equal(await panel(page).locator(`article[data-id="${ids[1]}"] .line-row`).count(), 59);
    assert.ok(await panel(page).locator(`article[data-id="${ids[1]}"]`).evaluate((card) => card.getBoundingClientRect().height > window.innerHeight), 'the long card is taller than the panel');
  });

  it('rings the focused card in the theme’s focus colour, 2 pixels wide', async () => {
    await focusCard(1);
    const ring = await panel(page)
      .locator(`article[data-id="${ids[1]}"]`)
      .evaluate((card) => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--vscode-focusBorder)';
        document.body.append(probe);
        const focusBorder = getComputedStyle(probe).color;
        probe.remove();
        const style = getComputedStyle(card);
        return { style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor, focusBorder };
      });
    assert.deepEqual(ring, { style: 'solid', width: '2px', color: ring.focusBorder, focusBorder: ring.focusBorder });
    assert.notEqual(ring.focusBorder, 'rgba(0, 0, 0, 0)');
  });

  it('lands on a card when Tab comes from outside, and never inside a web_fetch excerpt', async () => {
    const excerpt = panel(page).locator(`article[data-id="${ids[0]}"] pre.excerpt`);
    // Shown whole: a box that scrolled would need a tab stop of its own to be read by keyboard.
    assert.deepEqual(await excerpt.evaluate((pre) => ({ overflow: getComputedStyle(pre).overflowY, cut: pre.scrollHeight > pre.clientHeight })), { overflow: 'visible', cut: false });
    await focusCard(0);
    // Out of the panel backwards (the workbench puts webviews after the status bar), then in again: the card.
    await page.keyboard.press('Shift+Tab');
    assert.equal(await panelFocus(page), undefined);
    await page.keyboard.press('Tab');
    let f = await panelFocus(page);
    assert.equal(f?.tag, 'article');
    assert.equal(f.cardId, ids[0]);
    // Forward from the card: its buttons, then out of the panel; never the excerpt.
    const visited = [];
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      f = await panelFocus(page);
      if (!f) break;
      visited.push(f);
    }
    assert.deepEqual(
      visited.map((v) => `${v.tag} ${v.label}`),
      ['button Copy (web_fetch)', 'button Rerun (web_fetch)'],
    );
    // In again from after the panel: the card, not its last button.
    for (let i = 0; i < 5 && (await page.evaluate(() => document.activeElement === document.body)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    f = await panelFocus(page);
    assert.equal(f?.tag, 'article');
    assert.equal(f.cardId, ids[0]);
    // ↓ on the card moves to its row rather than scrolling anything.
    await page.keyboard.press('ArrowDown');
    assert.deepEqual((await panelFocus(page)).classes, ['row', 'url-row']);
  });

  it('names the feed, each card, row, list and toolbar for a screen reader', async () => {
    const feed = panel(page).getByRole('feed', { name: 'Scout tool calls, newest first' });
    const articles = feed.getByRole('article');
    assert.equal(await articles.count(), await cardCount(page));
    const short = feed.getByRole('article', { name: 'grep pattern keyshort, include ui-keys/**. Done. 2 matches, 1 file with matches' });
    assert.equal(await short.count(), 1);
    assert.equal(await short.getAttribute('aria-posinset'), '3');
    assert.equal(await short.getAttribute('aria-setsize'), String(await cardCount(page)));
    assert.match(await articles.first().getAttribute('aria-label'), /^web_fetch url http:\/\/127\.0\.0\.1:\d+\/long\. Done$/);
    const files = short.getByRole('list', { name: 'Files and matching lines' });
    await files.getByRole('link', { name: 'Open ui-keys/short.ts, 2 matching lines listed' }).waitFor();
    await short.getByRole('list', { name: 'Matching lines in ui-keys/short.ts' }).getByRole('link', { name: 'Open ui-keys/short.ts at line 2: // keyshort again' }).waitFor();
    const toolbar = short.getByRole('toolbar', { name: 'Actions for grep' });
    // No "Open full result": the call was under its cap, so the model's text is the whole result.
    assert.deepEqual(await toolbar.getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label'))), ['Copy (grep)', 'Rerun (grep)']);
    // A finished call is announced through the live region.
    const announcer = panel(page).getByRole('status');
    assert.equal(await announcer.getAttribute('aria-live'), 'polite');
    await grep('keyshort again');
    await waitUntil(async () => (await announcer.textContent()) === 'grep pattern keyshort again, include ui-keys/**. Done. 1 match, 1 file with matches', 10_000, 'the finished call to be announced');
  });

  /** True when the focused card's header is inside the panel's viewport. */
  function headerInView() {
    return panel(page)
      .locator('body')
      .evaluate(() => {
        const head = document.activeElement?.closest('.card')?.querySelector('.card-head');
        if (!head) return false;
        const box = head.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
  }

  /** Runs Search Text (grep) for `pattern` in ui-keys/ and waits for its card to finish. */
  function grep(pattern) {
    return runToCard(page, 'Scout: Search Text (grep)…', [['Scout: Search Text (grep) (1/2)', pattern], ['Scout: Search Text (grep) (2/2)', 'ui-keys/**']]);
  }

  /** Puts the keyboard on the card of `ids[i]` the way a person does: Focus on Results View, then PageDown. */
  async function focusCard(i) {
    await runCommand(page, 'Scout: Focus on Results View');
    await waitUntil(async () => (await panelFocus(page))?.cardId === ids[0], 10_000, 'the newest card to take the focus');
    for (let k = 0; k < i; k++) await page.keyboard.press('PageDown');
    assert.equal((await panelFocus(page)).cardId, ids[i]);
  }

  function write(rel, content) {
    const file = path.join(workspace, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
});
