// The Scout Results panel and the Scout commands, driven through the real workbench the way a person does:
// the Command Palette (F1), the input boxes, clicks and keys in the panel's webview. Editor state is read
// from the UI (the active tab and the status bar's selection item). The themes, the keyboard and the error
// cards have their own files (resultsPanelThemes, resultsPanelKeyboard, resultsPanelActions).
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { editMachineSettings, uiHost } from '../../host/uiHost.mjs';
import { answerInputBox, pickRow, runCommand, takeNotification } from './commandPalette.mjs';
import {
  activeTab as tabActive,
  cardIds,
  cardNumber as cardAt,
  newCard as newestAfter,
  panel as panelOf,
  panelFocus,
  selectionStatus as selectionIs,
  waitUntil,
} from './panelPage.mjs';

/** Files this suite writes into the workspace (under ui-panel/), and what the tests expect of them. */
const FILES = {
  'ui-panel/alpha.ts': 'export const first = 1;\n// marker one\nfunction go() {\n  return "marker two";\n}\n',
  'ui-panel/beta.md': '# Beta\n\nno match here\n  indented marker three\n',
};
/** A regex without a literal rg could prefilter on; rg's lazy DFA gives up on it, so the big file takes seconds. */
const SLOW_PATTERN = '(\\w{1,50}\\s){20}\\d';
const SLOW_FILE = 'ui-panel-slow/words.txt';
/** Bytes of the slow file: ~0.7 s per 40 MB on this machine for SLOW_PATTERN, single-threaded on one file. */
const SLOW_BYTES = 400_000_000;
/** Files a glob lists in the over-cap test: more than scout.search.globMaxResults (100). */
const MANY = 150;

describe('Scout Results panel and commands', function () {
  this.timeout(120_000);
  /** @type {import('playwright-core').Page} */
  let page;
  let workspace;
  /** A loopback page server (127.0.0.1 only) whose page carries script that must never run. */
  let server;
  const requests = [];
  /** A loopback server speaking SearXNG's JSON search API (GET /search?q=…&format=json): web_search's provider here. */
  let searxng;
  const searches = [];
  let restoreSettings;

  before(async () => {
    ({ page, folder: workspace } = uiHost());
    await page.setViewportSize({ width: 1400, height: 1000 });
    for (const [rel, content] of Object.entries(FILES)) write(rel, content);
    server = http.createServer((req, res) => {
      requests.push(req.url);
      if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(hostilePage(`http://127.0.0.1:${server.address().port}`));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    searxng = http.createServer((req, res) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      searches.push(url.searchParams.get('q'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(searxngAnswer(url.searchParams.get('q'))));
    });
    await new Promise((resolve) => searxng.listen(0, '127.0.0.1', resolve));
    await closeEditors();
    await runCommand(page, 'Scout: Show Results');
  });

  after(async () => {
    await restoreSettings?.();
    await new Promise((resolve) => searxng?.close(resolve));
    await new Promise((resolve) => server?.close(resolve));
    rmSync(path.join(workspace, 'ui-panel'), { recursive: true, force: true });
    rmSync(path.join(workspace, 'ui-panel-slow'), { recursive: true, force: true });
  });

  it('has a card for each call the in-host suites made as an agent, and Clear Results empties the panel', async () => {
    // test/integration/suite/*.test.ts ran before this file and called the tools through vscode.lm.invokeTool.
    const agentCards = panel().locator('article.card', { has: page.locator('.origin-agent') });
    await agentCards.first().waitFor();
    assert.ok((await agentCards.count()) > 0);
    assert.match(await agentCards.first().locator('.tool').innerText(), /^(glob|grep|workspace_search|web_search|web_fetch)$/);
    await runCommand(page, 'Scout: Clear Results');
    await panel().locator('#empty').waitFor({ state: 'visible' });
    assert.equal(await panel().locator('article.card').count(), 0);
  });

  it('runs Search Text (grep) from the Command Palette and shows a card with the right counts', async () => {
    const cards = await cardIds(page);
    await runCommand(page, 'Scout: Search Text (grep)…');
    await answerInputBox(page, 'Scout: Search Text (grep) (1/2)', 'marker');
    await answerInputBox(page, 'Scout: Search Text (grep) (2/2)', 'ui-panel/**');
    const card = await newCard(cards);
    await card.locator('.card-meta', { hasText: 'Done' }).waitFor();
    assert.equal(await card.locator('.tool').innerText(), 'grep');
    assert.deepEqual(await card.locator('.count').allInnerTexts(), ['3 matches', '2 files with matches']);
    assert.deepEqual(await card.locator('.file-row .path').allInnerTexts(), ['ui-panel/alpha.ts', 'ui-panel/beta.md']);
    assert.deepEqual(await card.locator('.line-row .line-no').allInnerTexts(), ['2', '4', '4']);
    assert.deepEqual(await card.locator('.line-row mark').allInnerTexts(), ['marker', 'marker', 'marker']);
    assert.match(await card.getAttribute('aria-label'), /^grep pattern marker, include ui-panel\/\*\*\. Done\. 3 matches, 2 files with matches$/);
  });

  it('validates the input as you type with the tool’s own rules', async () => {
    await runCommand(page, 'Scout: Search Text (grep)…');
    await answerInputBox(page, 'Scout: Search Text (grep) (1/2)', 'x');
    await quickInputTitle('Search Text (grep) (2/2)').waitFor();
    await page.keyboard.type('a,b');
    const message = page.locator('.quick-input-widget .quick-input-message');
    await message.filter({ hasText: /comma/i }).waitFor();
    await page.keyboard.press('Enter');
    // Still open: an invalid value cannot be accepted.
    await quickInputTitle('Search Text (grep) (2/2)').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    // A glob rg would reject is flagged while typing, by the parser the tool runs (a warning: a file may be named so).
    await runCommand(page, 'Scout: Find Files (glob)…');
    await quickInputTitle('Scout: Find Files (glob)').waitFor();
    await page.keyboard.type('src/*.{ts');
    await message.filter({ hasText: /is not a valid glob/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  });

  it('opens a clicked result line in an editor with the match selected', async () => {
    const card = cardNumber(0);
    await card.locator('.line-row', { hasText: 'return' }).click();
    await activeTab('alpha.ts');
    // Line 4 is `  return "marker two";`: "marker" starts at column 11 and the cursor ends after it.
    await selectionStatus('Ln 4, Col 17 (6 selected)');

    await card.locator('.line-row', { hasText: 'indented' }).click();
    await activeTab('beta.md');
    await selectionStatus('Ln 4, Col 18 (6 selected)');
  });

  it('moves between cards and rows with the arrow keys and opens a row with Enter', async () => {
    const card = cardNumber(0);
    await card.focus();
    await page.waitForTimeout(300);
    await page.keyboard.press('ArrowDown'); // ui-panel/alpha.ts
    await page.keyboard.press('ArrowDown'); // line 2
    const focused = panel().locator(':focus');
    assert.equal(await focused.getAttribute('aria-label'), 'Open ui-panel/alpha.ts at line 2: // marker one');
    await page.waitForTimeout(300);
    await page.keyboard.press('Enter');
    await activeTab('alpha.ts');
    await selectionStatus('Ln 2, Col 10 (6 selected)');
  });

  it('fetches a loopback page that carries script, and no script of it runs anywhere', async () => {
    const cards = await cardIds(page);
    await runCommand(page, 'Scout: Fetch URL…');
    await answerInputBox(page, 'Scout: Fetch URL', `http://127.0.0.1:${server.address().port}/page`);
    const card = await newCard(cards);
    await card.locator('.card-meta', { hasText: 'Done' }).waitFor();
    assert.equal(await card.locator('.tool').innerText(), 'web_fetch');
    const facts = await card.locator('.facts').innerText();
    assert.match(facts, /HTTP 200/);
    assert.match(facts, /text\/html/);
    const excerpt = card.locator('pre.excerpt');
    // The Markdown's code block holds the page's script text, shown as text.
    assert.match(await excerpt.innerText(), /<script>document\.title = "pwned"; fetch\('http:\/\/127\.0\.0\.1:\d+\/marker-script'\)<\/script>/);
    assert.match(await excerpt.innerText(), /<img src="http:\/\/127\.0\.0\.1:\d+\/marker-img"/);
    assert.equal(await card.locator('script, img, iframe, object, embed').count(), 0);
    // Only the panel's own script and the one VS Code injects exist in the webview; no image was created.
    assert.equal(await panel().locator('script[src$="/media/panel.js"]').count(), 1);
    assert.equal(await panel().locator('script', { hasText: /pwned|marker/ }).count(), 0);
    assert.equal(await panel().locator('img').count(), 0);
    assert.notEqual(await panel().locator('html').evaluate(() => document.title), 'pwned');
    assert.notEqual(await page.title(), 'pwned');
    await page.waitForTimeout(500);
    // The extension fetched the page once; nothing ever asked for the markers.
    assert.deepEqual(requests, ['/page']);
  });

  it('cancels a slow search from its card', async () => {
    writeSlowFile();
    const cards = await cardIds(page);
    await runCommand(page, 'Scout: Search Text (grep)…');
    await answerInputBox(page, 'Scout: Search Text (grep) (1/2)', SLOW_PATTERN);
    await answerInputBox(page, 'Scout: Search Text (grep) (2/2)', `${path.dirname(SLOW_FILE)}/**`);
    const card = await newCard(cards);
    await card.locator('.card-meta', { hasText: 'Running' }).waitFor();
    // The progress notification shows the pattern as typed (it showed "(\\w{1,50}\\s){20}\\d", JSON-escaped).
    await page.locator('.notification-toast', { hasText: `Scout: searching for "${SLOW_PATTERN}"` }).waitFor();
    // Generous waits for what must happen; cancel latency is measured by `npm run bench -- --only cancel`.
    await waitUntil(() => rgProcesses().length > 0, 30_000, 'rg to start the slow search');
    await card.getByRole('button', { name: /^Cancel/ }).click();
    await card.locator('.card-meta', { hasText: 'Cancelled' }).waitFor({ timeout: 30_000 });
    assert.match(await card.locator('.error-code').innerText(), /ABORTED/);
    await waitUntil(() => rgProcesses().length === 0, 30_000, 'the slow rg to exit');
    rmSync(path.join(workspace, path.dirname(SLOW_FILE)), { recursive: true, force: true });
  });

  it('runs Find Files (glob), Search Workspace (literal) and Web Search, and shows their cards', async () => {
    let cards = await cardIds(page);
    await runCommand(page, 'Scout: Find Files (glob)…');
    await answerInputBox(page, 'Scout: Find Files (glob)', 'ui-panel/*');
    const glob = await newCard(cards);
    await glob.locator('.card-meta', { hasText: '2 files found' }).waitFor();
    assert.deepEqual((await glob.locator('.file-row .path').allInnerTexts()).sort(), ['ui-panel/alpha.ts', 'ui-panel/beta.md']);
    cards = await cardIds(page);
    await runCommand(page, 'Scout: Search Workspace (literal)…');
    await answerInputBox(page, 'Scout: Search Workspace (literal) (1/2)', 'Marker');
    await answerInputBox(page, 'Scout: Search Workspace (literal) (2/2)', 'ui-panel');
    const literal = await newCard(cards);
    await literal.locator('.card-meta', { hasText: 'Done' }).waitFor();
    assert.equal(await literal.locator('.tool').innerText(), 'workspace_search');
    assert.deepEqual(await literal.locator('.line-row mark').allInnerTexts(), ['marker', 'marker', 'marker']);
    // Files with matches and files scanned are told apart (ui-panel holds two files, both matching).
    assert.deepEqual(await literal.locator('.count').allInnerTexts(), ['3 matches', '2 files with matches', '2 files scanned', '0 skipped']);

    // web_search through SearXNG on loopback, chosen in the remote machine settings (the base URL is machine-scoped).
    restoreSettings = await editMachineSettings({ 'scout.webSearch.provider': 'searxng', 'scout.webSearch.baseUrls': { searxng: `http://127.0.0.1:${searxng.address().port}` } });
    cards = await cardIds(page);
    await runCommand(page, 'Scout: Web Search…');
    await answerInputBox(page, 'Scout: Web Search', 'scout panel');
    const web = await newCard(cards);
    await web.locator('.card-meta', { hasText: 'Done' }).waitFor();
    assert.deepEqual(searches, ['scout panel']);
    assert.deepEqual(await web.locator('.source-row .title').allInnerTexts(), ['Scout Results panel — <b>docs</b>', 'https://example.org/second']);
    // A source without a title is titled by its URL, which is then not repeated below it.
    assert.deepEqual(await web.locator('.sources .url').allInnerTexts(), ['https://example.com/scout/panel']);
    assert.match(await web.locator('.snippet').first().innerText(), /Cards for every call/);
    assert.match(await web.locator('.provider').first().innerText(), /^searxng · 2026-11-01$/);
    assert.match(await web.locator('.answer-text').innerText(), /A panel of cards/);
    assert.equal(await web.locator('b, img, script').count(), 0);
  });

  it('opens the complete result of an over-cap call from its card', async () => {
    for (let i = 0; i < MANY; i++) write(`ui-panel/many/f${String(i).padStart(3, '0')}.txt`, 'x\n');
    const cards = await cardIds(page);
    // Scrolled down to older cards: the new card (100 rows, taller than the panel) is above the view, and
    // revealing it showed its bottom rows.
    await panel().locator('body').evaluate(() => window.scrollTo(0, document.scrollingElement.scrollHeight));
    await runCommand(page, 'Scout: Find Files (glob)…');
    await answerInputBox(page, 'Scout: Find Files (glob)', 'ui-panel/many/*');
    const card = await newCard(cards);
    await card.locator('.card-meta', { hasText: `${MANY} files found` }).waitFor();
    await card.locator('.flag', { hasText: 'truncated' }).waitFor();
    await waitUntil(() => card.evaluate((el) => el.classList.contains('revealed')), 30_000, 'the new card to be revealed');
    const shown = await card.evaluate((el) => ({ top: el.querySelector('.card-head').getBoundingClientRect().top, tall: el.getBoundingClientRect().height > window.innerHeight }));
    assert.ok(shown.tall, 'the card is taller than the panel');
    assert.ok(shown.top >= 0 && shown.top < 40, `the new card is shown from its header: ${JSON.stringify(shown)}`);
    // The card lists the model's page (scout.search.globMaxResults, 100) and counts the rest.
    assert.equal(await card.locator('.file-row').count(), 100);
    await card.locator('.more', { hasText: `${MANY - 100} more files in the full result` }).waitFor();
    await card.locator('.card-actions').getByRole('button', { name: /^Open full result/ }).click();
    // Its tab is named after the call: tool, pattern, count and call number.
    await activeTab('glob-ui-panel-many-150-files-');
    // The result document holds the heading, a blank line, every path, a blank line and the workdir note.
    await page.keyboard.press('Control+End');
    await selectionStatus(`Ln ${MANY + 4},`);
  });

  it('reruns a call from its card as the user’s own call', async () => {
    const before = await cardIds(page);
    const grepId = await panel().locator('article.card', { has: page.locator('.arg-value', { hasText: /^marker$/ }) }).first().getAttribute('data-id');
    const grep = panel().locator(`article.card[data-id="${grepId}"]`);
    // Everything the live region says, in order (the finished call is announced right after the rerun).
    await panel()
      .locator('#announcer')
      .evaluate((el) => {
        window.announced = [];
        new MutationObserver(() => el.textContent && window.announced.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
      });
    await grep.getByRole('button', { name: /^Rerun/ }).click();
    const rerun = await newCard(before);
    const rerunId = await rerun.getAttribute('data-id');
    assert.notEqual(rerunId, grepId);
    await rerun.locator('.card-meta', { hasText: '3 matches' }).waitFor();
    assert.deepEqual(await rerun.locator('.arg').allInnerTexts(), await grep.locator('.arg').allInnerTexts());
    assert.equal(await rerun.locator('.origin').innerText(), 'you');
    // A visible sign that it ran: the new card is shown from its header and a screen reader hears it start
    // and finish; the keyboard stays on the Rerun button, so Enter pressed again reruns again (tester: on the
    // new card it opened that card's result and typed into it).
    await waitUntil(async () => (await panel().locator('body').evaluate(() => window.announced)).some((t) => t.startsWith('Rerun started: grep pattern marker')), 10_000, 'the rerun to be announced');
    assert.ok((await rerun.evaluate((el) => el.getBoundingClientRect().top)) >= 0, 'the new card is shown from its header');
    const focus = await panelFocus(page);
    assert.deepEqual([focus?.cardId, focus?.label], [grepId, 'Rerun (grep)']);
    const afterFirst = await cardIds(page);
    await page.keyboard.press('Enter');
    const again = await newCard(afterFirst);
    await again.locator('.card-meta', { hasText: '3 matches' }).waitFor();
    assert.deepEqual(await again.locator('.arg').allInnerTexts(), await grep.locator('.arg').allInnerTexts());
    // Under its cap, so nothing more to open than the text on the card and Copy.
    assert.equal(await rerun.getByRole('button', { name: /^Open full result/ }).count(), 0);
    assert.equal(await rerun.getByRole('button', { name: /^Copy/ }).count(), 1);
  });

  it('stores a web search API key from a password box, and removes it with an empty one', async () => {
    await runCommand(page, 'Scout: Set Web Search API Key');
    await page.locator('.quick-input-widget input[placeholder^="Which web search provider"]').waitFor();
    await pickRow(page, 'Brave Search');
    await quickInputTitle('Scout: Brave Search API key').waitFor();
    assert.equal(await page.locator('.quick-input-widget input').getAttribute('type'), 'password');
    await page.keyboard.type('test-key-123');
    await page.keyboard.press('Enter');
    await takeNotification(page, 'the Brave Search API key was saved');
    await runCommand(page, 'Scout: Set Web Search API Key');
    await page.locator('.quick-input-widget input[placeholder^="Which web search provider"]').waitFor();
    await pickRow(page, 'Brave Search');
    await quickInputTitle('Scout: Brave Search API key').waitFor();
    await page.keyboard.press('Enter');
    await takeNotification(page, 'the Brave Search API key was removed');
  });

  // ---- helpers ------------------------------------------------------------------------------------

  function write(rel, content) {
    const file = path.join(workspace, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }

  function writeSlowFile() {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'lambda', 'sigma'];
    const line = Array.from({ length: 2000 }, (_, i) => words[(i * 7) % 10] + (i % 13 === 0 ? '\n' : ' ')).join('');
    const chunk = Buffer.from(line.repeat(Math.ceil(4_000_000 / line.length)));
    const file = path.join(workspace, SLOW_FILE);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, Buffer.alloc(0));
    for (let written = 0; written < SLOW_BYTES; written += chunk.length) writeFileSync(file, chunk, { flag: 'a' });
  }

  /** rg processes searching this suite's slow folder (from /proc). */
  function rgProcesses() {
    const found = [];
    for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        if (path.basename(argv[0]) === 'rg' && argv.includes(`--regexp=${SLOW_PATTERN}`)) found.push(Number(pid));
      } catch {
        // exited while being read
      }
    }
    return found;
  }

  const panel = () => panelOf(page);
  const cardNumber = (i) => cardAt(page, i);
  const newCard = (before) => newestAfter(page, before);
  const activeTab = (name) => tabActive(page, name);
  const selectionStatus = (text) => selectionIs(page, text);

  function quickInputTitle(text) {
    return page.locator('.quick-input-widget .quick-input-title', { hasText: text });
  }

  async function closeEditors() {
    await runCommand(page, 'View: Close All Editors');
  }

});

/** SearXNG's JSON answer for `q`: two results (one with markup in its title, which must stay text) and an answer. */
function searxngAnswer(q) {
  return {
    query: q,
    answers: ['A panel of cards, one per tool call.'],
    results: [
      // Entities decode to markup-like text, which the card must show as text.
      { url: 'https://example.com/scout/panel', title: 'Scout Results panel — &lt;b&gt;docs&lt;/b&gt;', content: 'Cards for every call, &lt;img src=x onerror=alert(1)&gt; newest first.', publishedDate: '2026-11-01T10:00:00', engine: 'test' },
      { url: 'https://example.org/second', title: '', content: '', engine: 'test' },
    ],
  };
}

/**
 * A page whose own script would change the title and call back to the server if it ever ran, and whose
 * visible text (a code block) shows script and an image tag that would do the same if the panel ever
 * treated result text as HTML.
 */
function hostilePage(origin) {
  const shown = `<script>document.title = "pwned"; fetch('${origin}/marker-script')</script>\n<img src="${origin}/marker-img" onerror="document.title='pwned'">`;
  const escaped = shown.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!DOCTYPE html><html><head><title>Hostile</title><script>document.title = "pwned"; fetch('${origin}/marker-head')</script></head>
<body><main><h1>A page with script</h1><p>The code below must stay text in the Scout panel.</p><pre><code>${escaped}</code></pre>
<script>fetch('${origin}/marker-body')</script></main></body></html>`;
}
