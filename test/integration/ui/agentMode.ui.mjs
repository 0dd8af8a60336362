// Scout in agent mode, end to end: a scripted chat model (test/agentModel/) answers prompts typed into the
// real Chat view of VS Code, in agent mode with the built-in Copilot Chat, by calling Scout's tools. The model
// records what it was offered and what came back (test/integration/ui/agentModel.mjs reads it); each test
// compares that with the tool's own output for the same input (vscode.lm.invokeTool in the same extension
// host), and checks the transcript. Web calls go to loopback servers on 127.0.0.1 only. Screenshots of the
// transcript go to test-results/screenshots/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { repoRoot } from '../../host/editorHost.mjs';
import { uiHost } from '../../host/uiHost.mjs';
import { connectTestModel, RESULT_FILE, SPILL_URI, TEST_MODEL } from './agentModel.mjs';
import { answerToolQuestion, ask, enableAgentMode, focusAgentChat, latestResponse, pickScoutTools, pressStop, responseWith, toolQuestion, toolRowTitles } from './chat.mjs';
import { runCommand, takeNotification } from './commandPalette.mjs';

const SCREENSHOTS = path.join(repoRoot, 'test-results', 'screenshots');
/** The tools' names as the model sees them. */
const SCOUT_TOOLS = ['glob', 'grep', 'web_fetch', 'web_search', 'workspace_search'];
/** Where this suite writes its files in the workspace. */
const DIR = 'agent-mode';
/** Log files × matching lines in each: 300 matches of `needle`, more than scout.search.grepMaxMatches (250). */
const LOGS = 30;
const LOG_LINES = 10;
/** Log files × matching lines of the long result: 6,000 matches of `needle`, a complete result of over 6,000 lines. */
const BIG_LOGS = 30;
const BIG_LOG_LINES = 200;
/** What Copilot Chat gives a model instead of a tool result over its threshold (8 KiB by default). */
const LARGE_RESULT = /^Large tool result \(\d+KB\) written to file\. Use the read_file tool to access the content at: (\S+)$/;
/** A regex without a literal rg could prefilter on, which never matches prose: rg reads every byte. */
const SLOW_PATTERN = '(\\w{1,50}\\s){20}\\d';
/** Bytes of the file the long grep reads: rg takes about a second on them, time for the test to see it. */
const SLOW_BYTES = 200_000_000;

describe('Scout in agent mode: a scripted model in the Chat view', function () {
  this.timeout(180_000);
  /** @type {import('playwright-core').Page} */
  let page;
  let workspace;
  /** @type {Awaited<ReturnType<typeof connectTestModel>>} */
  let model;
  /** Loopback servers: a web page for web_fetch, and SearXNG's JSON search API for web_search. */
  let site;
  let searxng;
  /** Paths the page server was asked for, in order. */
  const fetched = [];
  /** Functions that put back what the suite changed, run last first. */
  const undo = [];
  /** rg processes the Stop test paused (killed in `after` if a failure left them). */
  const paused = [];
  let viewport;

  before(async () => {
    let resultsDir;
    ({ page, folder: workspace, resultsDir } = uiHost());
    viewport = page.viewportSize();
    await page.setViewportSize({ width: 1400, height: 1000 });
    writeFixture();
    site = await listen((req, res) => {
      fetched.push(req.url);
      if (req.url !== '/release-notes') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(RELEASE_NOTES);
    });
    searxng = await listen((req, res) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(searxngAnswer(url.searchParams.get('q'))));
    });
    model = await connectTestModel(resultsDir);
    // baseUrls is machine-scoped: the extension host writes it to the server's Machine/settings.json.
    undo.push(await model.setSettings({ 'scout.webSearch.provider': 'searxng', 'scout.webSearch.baseUrls': { searxng: origin(searxng) } }));
    await enableAgentMode(page, model);
    await focusAgentChat(page, TEST_MODEL.name);
  });

  after(async () => {
    for (const pid of paused) signal(pid, 'SIGKILL');
    for (const restore of undo.reverse()) await restore();
    await model?.releaseSpills();
    for (const server of [site, searxng]) await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    rmSync(path.join(workspace, DIR), { recursive: true, force: true });
    if (viewport) await page.setViewportSize(viewport);
  });

  /**
   * Plays one turn: gives the model script `id` (`calls` one after another), sends `prompt` from the chat
   * input, and waits for the model's answer, in its record and on screen.
   * @returns the model's record of the turn and the response element
   */
  async function turn(id, calls, prompt) {
    const tag = await model.script(id, calls);
    await ask(page, `${prompt} ${tag}`);
    const record = await model.answered(id);
    const response = responseWith(page, `Answer to script ${id}:`);
    await response.waitFor();
    return { record, response };
  }

  /** The one call of a turn's record, and the text the model received for it. */
  function onlyCall(record, tool) {
    assert.deepEqual(
      record.calls.map((c) => c.tool),
      [tool],
      `the model's calls: ${JSON.stringify(record.calls)}`,
    );
    const [call] = record.calls;
    assert.doesNotMatch(call.result ?? '', LARGE_RESULT, 'Copilot Chat wrote the result to a file instead: keep this input’s output under 8 KiB');
    return call;
  }

  describe('calls each Scout tool from a prompt; the model receives exactly the tool’s output and the person sees the call and the answer', () => {
    const cases = [
      ['glob', () => ({ pattern: '*.ts', path: DIR }), 'Which TypeScript files are there?'],
      ['grep', () => ({ pattern: 'GREETING', path: DIR }), 'Where is GREETING used?'],
      ['workspace_search', () => ({ query: 'hello from', path: DIR }), 'Find the text “hello from”.'],
      ['web_search', () => ({ queries: ['scout agent mode'] }), 'Search the web for Scout’s agent mode.'],
      ['web_fetch', () => ({ url: `${origin(site)}/release-notes` }), 'Read the release notes.'],
    ];
    for (const [tool, inputOf, prompt] of cases) {
      it(tool, async () => {
        const input = inputOf();
        const { record, response } = await turn(`call-${tool}`, [{ tool, input }], prompt);
        const call = onlyCall(record, tool);
        assert.deepEqual(call.input, input);
        assert.ok(record.requests[0].offered.includes(tool));
        assert.equal(call.result, await model.invoke(tool, input));
        const { invocationMessage } = await model.prepare(tool, input);
        assert.deepEqual(await toolRowTitles(response), [invocationMessage]);
        assert.match(await response.locator('.chat-markdown-part').last().innerText(), new RegExp(`^Answer to script call-${tool}: ${tool} returned \\d+ lines?`));
      });
    }

    it('leaves screenshots of the transcript in a dark and a light theme', async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const chat = page.locator('.part.auxiliarybar');
      await runCommand(page, 'View: Toggle Maximized Secondary Side Bar');
      const themes = [];
      try {
        await page.waitForFunction(() => document.querySelector('.part.auxiliarybar')?.getBoundingClientRect().width > 1000);
        for (const [kind, theme, css] of [['dark', 'Default Dark Modern', 'vs-dark'], ['light', 'Default Light Modern', 'vs']]) {
          themes.push(await model.setSettings({ 'workbench.colorTheme': theme }));
          await page.locator(`.monaco-workbench.${css}`).waitFor();
          await page.mouse.move(0, 0);
          await page.waitForTimeout(500); // let the theme's colours settle before the picture
          const file = path.join(SCREENSHOTS, `agent-mode-${kind}.png`);
          rmSync(file, { force: true });
          await chat.screenshot({ path: file });
          assert.ok(statSync(file).size > 10_000, `${file} is nearly empty`);
        }
      } finally {
        await themes[0]?.();
        await runCommand(page, 'View: Toggle Maximized Secondary Side Bar');
      }
    });
  });

  describe('web_fetch asks first for a host that is not auto-approved', () => {
    let input;
    /** Puts back the run's approval of 127.0.0.1 (test/host/runIntegration.mjs). */
    let approveAgain;
    before(async () => {
      approveAgain = await model.setSettings({ 'scout.webFetch.autoApprovedDomains': [] });
      input = { url: `${origin(site)}/release-notes` };
    });
    after(async () => {
      await approveAgain?.();
      // VS Code keeps "Allow in this Session" per tool, not per host, and applies it to calls made outside
      // chat too: forget it, so that web_fetch asks again in the tests after this one.
      await runCommand(page, 'Chat: Reset Tool Confirmations');
      await takeNotification(page, 'Tool confirmation preferences have been reset');
    });

    /** Sends the prompt of turn `id`, checks Scout's question is shown, and answers it with `label`. */
    async function askAndAnswer(id, label) {
      const { confirmation } = await model.prepare('web_fetch', input);
      assert.ok(confirmation, 'Scout asks no question for this URL');
      const tag = await model.script(id, [{ tool: 'web_fetch', input }]);
      await ask(page, `Read ${input.url} ${tag}`);
      const question = toolQuestion(page);
      await question.waitFor();
      const shown = (await question.innerText()).replace(/\u00a0/g, ' ');
      assert.ok(shown.includes(confirmation.title), `the question does not show Scout's title:\n${shown}`);
      assert.ok(shown.includes(input.url), `the question does not name the URL:\n${shown}`);
      await answerToolQuestion(page, label);
      const record = await model.answered(id);
      await responseWith(page, `Answer to script ${id}:`).waitFor();
      return onlyCall(record, 'web_fetch');
    }

    it('Skip: nothing is fetched and the model is told the call did not run', async () => {
      const requests = fetched.length;
      const call = await askAndAnswer('fetch-skip', 'Skip');
      assert.match(call.result, /skip/i);
      assert.ok(!call.result.includes('RELEASE_NOTES_MARKER'), `the model got the page:\n${call.result}`);
      assert.equal(fetched.length, requests, 'the page was fetched although the call was skipped');
    });

    it('Allow in this Session: the page arrives', async () => {
      const requests = fetched.length;
      const call = await askAndAnswer('fetch-allow', 'Allow in this Session');
      assert.deepEqual(fetched.slice(requests), ['/release-notes']);
      await approveAgain(); // so that the reference call below asks nothing
      approveAgain = undefined;
      assert.equal(call.result, await model.invoke('web_fetch', input));
      assert.ok(call.result.includes('RELEASE\\_NOTES\\_MARKER'), `the page text is missing:\n${call.result}`);
    });
  });

  describe('an over-cap grep result', () => {
    /** The result's URI and text, for the test that reads it again with its tab closed. */
    let closedTabUri;
    let savedText;
    it('is read with the editor’s own read tool: the page from Copilot Chat’s file, then the complete result at the footer’s scout-result: URI', async () => {
      // The model knows copilot_readFile (vscode.lm.tools) as read_file: the offered tool has its schema.
      const tools = await model.tools();
      const registered = tools.registered.find((t) => t.name === 'copilot_readFile');
      assert.ok(registered, `vscode.lm.tools has no copilot_readFile: ${tools.registered.map((t) => t.name).join(', ')}`);
      const offered = tools.offered.find((t) => t.name === 'read_file');
      assert.ok(offered, `the chat offers no read_file: ${tools.offered.map((t) => t.name).join(', ')}`);
      assert.deepEqual(offered.inputSchema, registered.inputSchema);

      const input = { pattern: 'needle', path: `${DIR}/logs` };
      const readAll = (filePath) => ({ tool: 'read_file', input: { filePath, startLine: 1, endLine: LOGS * LOG_LINES * 10 } });
      const { record } = await turn('spill', [{ tool: 'grep', input }, readAll(RESULT_FILE), readAll(SPILL_URI)], 'Find every needle in the logs.');
      assert.deepEqual(
        record.calls.map((c) => c.tool),
        ['grep', 'read_file', 'read_file'],
      );
      const [grep, readPage, readComplete] = record.calls;

      // The page is over Copilot Chat's threshold: the model gets a pointer to the file holding it, and reads it.
      const resultFile = LARGE_RESULT.exec(grep.result)?.[1];
      assert.ok(resultFile, `the grep result is not Copilot Chat's pointer to a file:\n${grep.result.slice(0, 500)}`);
      assert.equal(readPage.input.filePath, resultFile);
      const reference = await model.invoke('grep', input);
      const spillUri = (text) => /\bscout-result:\S*[^\s.]/.exec(text)?.[0];
      const [chatUri, referenceUri] = [spillUri(readPage.result), spillUri(reference)];
      assert.ok(chatUri && referenceUri, `no scout-result: URI in the footer:\n${readPage.result.slice(-600)}`);
      assert.equal(readPage.result.replace(chatUri, '<uri>'), reference.replace(referenceUri, '<uri>'));

      // The footer's URI leads to the complete result: every match, which the page leaves out 50 of.
      assert.equal(readComplete.input.filePath, chatUri);
      const complete = await model.documentText(referenceUri);
      assert.equal(readComplete.result, complete);
      assert.equal(await model.documentText(chatUri), complete);
      assert.equal((complete.match(/^Line \d+: /gm) ?? []).length, LOGS * LOG_LINES);
      assert.ok((readPage.result.match(/^Line \d+: /gm) ?? []).length < LOGS * LOG_LINES);
      closedTabUri = chatUri;
      savedText = complete;
    });

    // Copilot's read_file reads a document outside the workspace without asking only while a tab shows it
    // (or it is untitled): the person who closed the result's tab is asked once, and the text is the same.
    it('once the person has closed the result’s tab, read_file asks “Allow reading external files?”, and allowing it gives the same text', async () => {
      assert.ok(closedTabUri, 'the test before made no result');
      await runCommand(page, 'View: Close All Editors');
      await page.locator('.monaco-dialog-box').waitFor({ state: 'detached', timeout: 5_000 });
      const tag = await model.script('read-closed', [{ tool: 'read_file', input: { filePath: closedTabUri, startLine: 1, endLine: LOGS * LOG_LINES * 10 } }]);
      await ask(page, `Read the saved result again. ${tag}`);
      const question = toolQuestion(page);
      await question.waitFor();
      const shown = (await question.innerText()).replace(/\u00a0/g, ' ');
      assert.match(shown, /Allow reading external files\?/);
      // Its buttons are Allow in this Session (with Allow once in its menu) and Skip.
      await answerToolQuestion(page, 'Allow in this Session');
      const record = await model.answered('read-closed');
      await responseWith(page, 'Answer to script read-closed:').waitFor();
      assert.equal(record.calls[0]?.result, savedText);
      // The approval would outlive this test: later reads must be asked about again.
      await runCommand(page, 'Chat: Reset Tool Confirmations');
      await takeNotification(page, 'Tool confirmation preferences have been reset');
    });
  });

  describe('a 6,000-match grep result', () => {
    it('is read back through copilot_readFile in the line ranges its footer gives, and is line for line the CLI’s complete file', async () => {
      writeBigLogs();
      const input = { pattern: 'needle', path: `${DIR}/big` };
      // The ranges the footer gives: the reference call outside chat makes a result of the same length.
      const reference = await model.invoke('grep', input);
      const advice = /It has ([\d,]+) lines: read lines 1–([\d,]+), then/.exec(reference);
      assert.ok(advice, `the footer gives no ranges to read:\n${reference.slice(-800)}`);
      const [lines, partLines] = [advice[1], advice[2]].map((n) => Number(n.replace(/,/g, '')));
      const ranges = [];
      for (let start = 1; start <= lines; start += partLines) ranges.push([start, Math.min(lines, start + partLines - 1)]);
      assert.ok(ranges.length >= 2 && lines > BIG_LOGS * BIG_LOG_LINES, `${lines} lines in ${ranges.length} parts`);
      const reads = ranges.map(([startLine, endLine]) => ({ tool: 'read_file', input: { filePath: SPILL_URI, startLine, endLine } }));
      const page = { tool: 'read_file', input: { filePath: RESULT_FILE, startLine: 1, endLine: 2_000 } };
      const started = Date.now();
      const { record } = await turn('spill-6000', [{ tool: 'grep', input }, page, ...reads], 'Find every needle in the big logs and read them all.');
      console.log(`    a 6,000-match grep read in ${ranges.length} parts of ${partLines} lines (${lines} lines) in the chat: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      assert.deepEqual(
        record.calls.map((c) => c.tool),
        ['grep', 'read_file', ...reads.map(() => 'read_file')],
      );
      const [, readPage, ...readParts] = record.calls;
      const chatUri = /\bscout-result:\S*[^\s.]/.exec(readPage.result)?.[0];
      assert.ok(chatUri, `no scout-result: URI in the footer:\n${readPage.result.slice(-800)}`);
      assert.ok(readPage.result.includes(advice[0]), 'the chat’s footer gives other ranges than the reference call');

      // Each part is exactly its lines of the document: nothing left out, nothing added.
      const documentLines = (await model.documentText(chatUri)).split('\n');
      assert.equal(documentLines.length, lines);
      assert.match(documentLines[0], new RegExp(`^Scout grep "needle" in "${DIR}/big": 6,000 matches in ${BIG_LOGS} files, complete result, ${advice[1]} lines$`));
      readParts.forEach((call, i) => {
        const [startLine, endLine] = ranges[i];
        assert.deepEqual(call.input, { filePath: chatUri, startLine, endLine });
        const got = partText(call.result).split('\n');
        assert.equal(got.length, endLine - startLine + 1, `lines ${startLine}–${endLine} came back as ${got.length} lines`);
        got.forEach((line, j) => assert.equal(line, documentLines[startLine - 1 + j], `line ${startLine + j} as read`));
      });
      const read = readParts.flatMap((call) => partText(call.result).split('\n'));
      assert.equal((read.join('\n').match(/^Line \d+: /gm) ?? []).length, BIG_LOGS * BIG_LOG_LINES);

      // The CLI's complete file for the same call: the same lines, the workdir note aside (it names the folder).
      const cli = execFileSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'grep', JSON.stringify(input), '--cwd', workspace], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const cliFile = /It is a plain text file at (\S+);/.exec(cli)?.[1];
      assert.ok(cliFile, `the CLI saved no complete file:\n${cli.slice(-800)}`);
      const cliLines = readFileSync(cliFile, 'utf8').split('\n');
      rmSync(cliFile, { force: true });
      assert.equal(read.length, cliLines.length);
      const note = /^Paths are relative to /;
      read.forEach((line, i) => (note.test(line) && note.test(cliLines[i]) ? undefined : assert.equal(line, cliLines[i], `line ${i + 1} against the CLI's file`)));
    });
  });

  describe('the chat’s Stop button', () => {
    it('ends a long grep: its rg is gone and the call shows as cancelled', async () => {
      writeSlowFile();
      const nonce = `agentstop${Date.now().toString(36)}`;
      const input = { pattern: `${SLOW_PATTERN}|${nonce}`, path: `${DIR}/slow` };
      const tag = await model.script('stop', [{ tool: 'grep', input }]);
      await ask(page, `Search the slow folder. ${tag}`);
      const pids = await waitUntil(() => rgProcessesWith(nonce), 60_000, 'the rg of the chat’s grep to start');
      // Paused, rg cannot finish on its own: from here only a kill takes it out of /proc.
      for (const pid of pids) {
        paused.push(pid);
        signal(pid, 'SIGSTOP');
      }
      await pressStop(page);
      await waitUntil(() => rgProcessesWith(nonce).length === 0, 60_000, 'rg to be killed after Stop');

      const { invocationMessage } = await model.prepare('grep', input);
      // The pattern as the model typed it: `\w`, not JSON's doubled `\\w`.
      assert.equal(invocationMessage, `Searching for "${input.pattern}" in "${input.path}"`);
      const response = latestResponse(page);
      assert.deepEqual(await toolRowTitles(response), [invocationMessage]);
      const row = response.locator('.chat-tool-invocation-part').first();
      await row.locator('.codicon-error-compact').waitFor({ state: 'attached' });
      await row.locator('.chat-confirmation-widget-title').click(); // expands the row: input and output
      await row.getByText(/Cancel+ed/).first().waitFor();
      const record = await model.turn('stop');
      assert.equal(record.calls.length, 1);
      assert.equal(record.calls[0].result, undefined, 'the model got a result although the call was stopped');
      assert.equal(record.answer, undefined);
    });
  });

  describe('the tool picker', () => {
    it('offers the model only the Scout tools left on, and #grep hands it grep', async () => {
      await pickScoutTools(page, { glob: true, grep: true, workspaceSearch: false, webSearch: false, webFetch: false });
      try {
        // #webFetch names a tool that is off: VS Code leaves it as plain text and attaches nothing.
        const picked = await turn('picked', [], 'Which tools can you use? Can you read pages with #webFetch?');
        for (const request of picked.record.requests) {
          assert.deepEqual(
            request.offered.filter((t) => SCOUT_TOOLS.includes(t)),
            ['glob', 'grep'],
          );
        }
        assert.ok(picked.record.requests[0].offered.includes('read_file'), 'the tool picker turned the built-in tools off too');
        assert.doesNotMatch(picked.record.prompt, /<toolReferences>/);

        const input = { pattern: 'GREETING', path: DIR };
        const { record } = await turn('hash-grep', [{ tool: 'grep', input }], 'Use #grep to find GREETING.');
        assert.match(record.prompt, /<toolReferences>[^]*^- grep$[^]*<\/toolReferences>/m);
        assert.equal(onlyCall(record, 'grep').result, await model.invoke('grep', input));
      } finally {
        await pickScoutTools(page, { glob: true, grep: true, workspaceSearch: true, webSearch: true, webFetch: true });
      }
    });
  });

  // ---- fixture ------------------------------------------------------------------------------------

  function write(rel, content) {
    const file = path.join(workspace, DIR, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }

  /** A small TypeScript project, and logs with 300 `needle` lines of about 90 characters each. */
  function writeFixture() {
    write('src/greeting.ts', "export const GREETING = 'hello from the agent-mode test';\n");
    write('src/app.ts', "import { GREETING } from './greeting';\n\nexport function greet(name: string): string {\n  return `${GREETING}, ${name}`;\n}\n");
    write('README.md', '# Agent mode\n\nThe app says hello from the agent-mode test.\n');
    for (let f = 0; f < LOGS; f++) {
      const lines = Array.from({ length: LOG_LINES }, (_, i) => {
        const n = f * LOG_LINES + i;
        return `2026-11-30T12:${String(n % 60).padStart(2, '0')}:07Z WARN orders needle: request ${n} to /api/orders/${1000 + n} took ${1200 + n} ms`;
      });
      write(`logs/server-${String(f).padStart(2, '0')}.log`, `${lines.join('\n')}\n`);
    }
  }

  /** {@link BIG_LOGS} logs of {@link BIG_LOG_LINES} `needle` lines of about 90 characters each. */
  function writeBigLogs() {
    for (let f = 0; f < BIG_LOGS; f++) {
      const lines = Array.from({ length: BIG_LOG_LINES }, (_, i) => {
        const n = f * BIG_LOG_LINES + i;
        return `2026-11-30T12:${String(n % 60).padStart(2, '0')}:07Z WARN orders needle: request ${n} to /api/orders/${1000 + n} took ${1200 + n} ms`;
      });
      write(`big/server-${String(f).padStart(2, '0')}.log`, `${lines.join('\n')}\n`);
    }
  }

  /** {@link SLOW_BYTES} of plain prose in lines of about 2,000 characters. */
  function writeSlowFile() {
    const line = `${'the quick brown fox jumps over the lazy dog and runs far away again '.repeat(30).trimEnd()}\n`;
    const chunk = Buffer.from(line.repeat(Math.ceil(4_000_000 / line.length)));
    write('slow/prose.txt', '');
    for (let written = 0; written < SLOW_BYTES; written += chunk.length) writeFileSync(path.join(workspace, DIR, 'slow/prose.txt'), chunk, { flag: 'a' });
  }
});

/**
 * The lines copilot_readFile returned for a range, without the heading it puts before a range that ends
 * before the document does (`File: \`…\`. Lines 1 to 836 (6,063 lines total): `) and any code fence.
 */
function partText(result) {
  const text = result.replace(/^File: `[^`\n]*`\. Lines \d+ to \d+ \(\d+ lines total\): ?\n/, '');
  const fenced = /^(`{3,})[^\n]*\n([^]*)\n\1\s*$/.exec(text);
  return fenced ? fenced[2] : text;
}

/** Live (not zombie) rg processes whose argv mentions `text`, from /proc. */
function rgProcessesWith(text) {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z') && path.basename(argv[0]) === 'rg' && argv.some((a) => a.includes(text));
      } catch {
        return false; // it exited while being read
      }
    })
    .map(Number);
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

/** Polls `probe` every 10 ms until it returns a truthy value (a non-empty array counts); fails after `timeoutMs`. */
async function waitUntil(probe, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (Array.isArray(value) ? value.length : value) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts `handler` on 127.0.0.1 at a free port. */
async function listen(handler) {
  const server = http.createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function origin(server) {
  return `http://127.0.0.1:${server.address().port}`;
}

/** A release-notes article, as a small real page looks: navigation, the article, a footer. */
const RELEASE_NOTES = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Scout 0.1 release notes</title></head>
<body><nav><a href="/">Home</a> · <a href="/docs">Docs</a></nav>
<main><article><h1>Scout 0.1 release notes</h1>
<p>RELEASE_NOTES_MARKER: Scout gives agents five tools: glob, grep, workspace_search, web_search and web_fetch.</p>
<h2>Agent mode</h2><ul><li>Results over the cap are saved in an untitled document.</li><li>Every call gets a card in the results panel.</li></ul>
</article></main><footer>© Scout authors</footer></body></html>`;

/** SearXNG's JSON answer (`GET /search?q=…&format=json`): two results for any query. */
function searxngAnswer(q) {
  return {
    query: q,
    number_of_results: 2,
    results: [
      { url: 'https://example.com/scout/agent-mode', title: 'Scout in agent mode', content: `Notes on “${q}”: the model calls glob, grep and web_fetch.`, engine: 'test', publishedDate: '2026-11-20T09:00:00' },
      { url: 'https://example.org/chat-tools', title: 'Tools in VS Code chat', content: 'How agents pick tools.', engine: 'test' },
    ],
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
}
