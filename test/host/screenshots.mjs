// `npm run screenshots`: remakes the README's pictures from a real editor, never by hand. It installs the
// production VSIX and the scripted test model (test/agentModel/) into code-server, opens a small demo project
// in headless Chromium, then
//   media/results-panel.png: the Scout panel after a glob and a grep run from the Command Palette;
//   media/chat.png: the window after an agent-mode prompt whose (scripted) model called grep and glob, with
//     the calls in the chat transcript and as agent cards in the panel.
// The editor's process group is always killed. SCOUT_KEEP_HOST=1 keeps the temporary folder.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packAgentModel } from '../integration/build.mjs';
import { connectTestModel, TEST_MODEL } from '../integration/ui/agentModel.mjs';
import { ask, enableAgentMode, focusAgentChat, responseWith } from '../integration/ui/chat.mjs';
import { runCommand } from '../integration/ui/commandPalette.mjs';
import { runToCard } from '../integration/ui/panelPage.mjs';
import { AGENT_MODE_SETTINGS, ensureHost, freePort, installVsix, launchChromium, packScout, repoRoot, startCodeServer, USER_SETTINGS, workbenchUrl, writeUserSettings } from './editorHost.mjs';

/** The window size of the pictures, in CSS pixels (device scale 1, so PNGs stay small). */
const VIEWPORT = { width: 1280, height: 760 };
/** The demo project the pictures show: a few TypeScript files where one function is defined, used and tested. */
const DEMO = {
  'package.json': '{\n  "name": "demo-shop",\n  "private": true,\n  "scripts": { "test": "node --test" }\n}\n',
  'README.md': '# demo-shop\n\nA small shop: carts, prices and checkout.\n',
  'src/cart.ts': [
    "import { priceOf, type Item } from './prices';",
    '',
    'export interface Cart {',
    '  readonly items: Item[];',
    '}',
    '',
    '/** The cart total after a percentage discount, rounded to cents. */',
    'export function applyDiscount(cart: Cart, percent: number): number {',
    '  const total = cart.items.reduce((sum, item) => sum + priceOf(item), 0);',
    '  return Math.round(total * (100 - percent)) / 100;',
    '}',
    '',
  ].join('\n'),
  'src/prices.ts': 'export interface Item {\n  readonly sku: string;\n  readonly cents: number;\n}\n\nexport function priceOf(item: Item): number {\n  return item.cents / 100;\n}\n',
  'src/checkout.ts': [
    "import { applyDiscount, type Cart } from './cart';",
    '',
    'export function checkout(cart: Cart, coupon?: string): string {',
    "  const percent = coupon === 'WELCOME10' ? 10 : 0;",
    '  const total = applyDiscount(cart, percent);',
    '  return `Total: ${total.toFixed(2)}`;',
    '}',
    '',
  ].join('\n'),
  'test/cart.test.ts': [
    "import { applyDiscount } from '../src/cart';",
    '',
    "test('applyDiscount takes 10% off', () => {",
    "  expect(applyDiscount({ items: [{ sku: 'a', cents: 1000 }] }, 10)).toBe(9);",
    '});',
    '',
  ].join('\n'),
  'test/checkout.test.ts': "import { checkout } from '../src/checkout';\n\ntest('checkout prints the total', () => {\n  expect(checkout({ items: [] })).toBe('Total: 0.00');\n});\n",
};

const say = (line) => console.log(`screenshots: ${line}`);
const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'scout-screenshots-')));
let server;
let browser;
let page;
let failed = true;
try {
  const host = await ensureHost();
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  say('packing and installing Scout and the scripted test model…');
  await installVsix(host, extensionsDir, userDataDir, await Promise.all([packScout(), packAgentModel(path.join(tmp, 'scout-agent-model.vsix'))]));
  writeUserSettings(userDataDir, { ...USER_SETTINGS, ...AGENT_MODE_SETTINGS, 'workbench.colorTheme': 'Default Dark Modern' });
  const folder = path.join(tmp, 'demo-shop');
  for (const [rel, text] of Object.entries(DEMO)) {
    mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    writeFileSync(path.join(folder, rel), text);
  }
  // The test model starts its control server only when the extension host has SCOUT_TEST_RESULTS.
  const results = path.join(tmp, 'results');
  mkdirSync(results);
  server = await startCodeServer({ host, port: await freePort(), extensionsDir, userDataDir, folder, env: { SCOUT_TEST_RESULTS: results } });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  page.setDefaultTimeout(90_000); // a busy machine: waits only end early when something is really wrong
  await page.goto(workbenchUrl(server.url, folder), { timeout: 180_000 });
  await page.locator('.explorer-folders-view').getByText('README.md', { exact: true }).waitFor({ timeout: 120_000 });
  // The test model is active once the extension host has started its extensions: the palette lists Scout's
  // commands from then on.
  await connectTestModel(results, 120_000);

  say('the results panel…');
  await runCommand(page, 'Scout: Show Results');
  await growPanel(page);
  await runToCard(page, 'Scout: Find Files (glob)…', [['Scout: Find Files (glob)', '*.ts']]);
  await runToCard(page, 'Scout: Search Text (grep)…', [['Scout: Search Text (grep) (1/2)', 'applyDiscount'], ['Scout: Search Text (grep) (2/2)', '']]);
  await settle(page);
  await shoot(page.locator('.part.panel').filter({ visible: true }).first(), 'results-panel.png');

  say('a chat that uses the tools…');
  // Turning Copilot Chat on can restart the extension host, and the test model's control server with it (on
  // a new port, written to the same file): ask through a client that reads the file again on each try.
  await enableAgentMode(page, { untilActive: (id) => untilActive(results, id) });
  await focusAgentChat(page, TEST_MODEL.name);
  const chatModel = await connectTestModel(results);
  const tag = await chatModel.script('tour', [
    { tool: 'grep', input: { pattern: 'applyDiscount\\(' } },
    { tool: 'glob', input: { pattern: '*.test.ts' } },
  ]);
  await ask(page, `Where is applyDiscount called, and which tests cover it? ${tag}`);
  await chatModel.answered('tour');
  await responseWith(page, 'Answer to script tour:').waitFor();
  await runCommand(page, 'View: Close Primary Side Bar');
  await settle(page);
  await shoot(page, 'chat.png');
  failed = false;
} catch (e) {
  console.error(`screenshots: FAILED: ${e instanceof Error ? e.stack : String(e)}`);
  await page?.screenshot({ path: path.join(tmp, 'failure.png') }).then(() => console.error(`screenshots: the window at the failure: ${path.join(tmp, 'failure.png')}`), () => {});
  if (server) console.error(`--- code-server output (tail) ---\n${server.output().slice(-4000)}`);
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
  if (failed || process.env.SCOUT_KEEP_HOST === '1') console.error(`screenshots: kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** Maximizes the panel with its title bar's Maximize button, as a person would, so the cards have room. */
async function growPanel(page) {
  await page.locator('.part.panel a.action-label[aria-label^="Maximize"]').filter({ visible: true }).first().click();
}

/** Waits until extension `id` is active, reconnecting to the test model whenever its control server moved. */
async function untilActive(results, id) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      return await (await connectTestModel(results)).untilActive(id, 30_000);
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** Moves the mouse out of the way and lets hovers, spinners and the theme's colours settle. */
async function settle(page) {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(1000);
}

/** Writes a PNG of `target` (a Page or a Locator) to media/`name` and reports its size. */
async function shoot(target, name) {
  const file = path.join(repoRoot, 'media', name);
  await target.screenshot({ path: file });
  say(`wrote media/${name} (${Math.round(statSync(file).size / 1024)} KiB)`);
}
