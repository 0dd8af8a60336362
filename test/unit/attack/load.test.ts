/**
 * Load and faults: 32 concurrent mixed calls give the same answers as one at a time;
 * 200 greps cancelled at random moments leave no rg process and no unhandled rejection; an rg that crashes,
 * hangs or prints garbage ends in SEARCH_FAILED/SEARCH_ABORTED within timeoutMs + graceMs; a web server that
 * stalls after its headers runs into the web timeout and keeps no socket open.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { webSearchSecretName } from '../../../src/core/config';
import { globTool } from '../../../src/core/search/glob';
import { grepTool } from '../../../src/core/search/grep';
import type { ScoutTool, ToolEnv } from '../../../src/core/tool';
import { createWebFetchTool, type WebFetchValue } from '../../../src/core/web/fetch/tool';
import { createWebSearchTool } from '../../../src/core/web/search/tool';
import { workspaceSearchTool } from '../../../src/core/workspaceSearch/tool';
import { scriptRipgrep, shellQuote } from '../../helpers/hostileWorkspace';
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopbackServer';
import { processesUnder } from '../../helpers/processes';
import { folder, searchEnv } from '../../helpers/searchEnv';
import { seededRandom } from '../../helpers/seededRandom';
import { assertWellFormed, callTool, type Outcome } from '../../helpers/toolOutcome';
import { makeTree, removeTree, setMtime, SLOW_PATTERN, writeSlowCorpus } from '../../helpers/tree';
import { builtConvertWorker, webFetchConfig, webToolEnv } from '../../helpers/webFetchEnv';
import { articlePage } from '../../helpers/webPages';
import { json, queryOf, searchConfig as webSearchConfig, startScriptedServer, tavilyBody, type ScriptedServer } from '../webSearch/fixtures';

const webFetch = createWebFetchTool(builtConvertWorker());
const webSearch = createWebSearchTool(builtConvertWorker());
const TAVILY_KEY = 'tvly-load-0123456789abcdef';

/** The text of a call's outcome, as the model would see it. */
const shown = (outcome: Outcome) => ('output' in outcome ? outcome.output.text : `${outcome.error.code}: ${outcome.error.message}`);

/** rg processes that are children of this process, zombies included (a zombie is an rg nobody waited for). */
function rgChildren(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (name === 'rg' && ppid === process.pid) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

/** Processes in process group `pgid` (a fake rg and everything it started). */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * Polls `probe` every 10 ms until it holds, for at most `ms`. Only for something that must happen soon: the
 * limit is generous (10 s), so a busy machine only makes the wait longer, and a failure costs the full wait.
 */
async function waitUntil(probe: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('attack: load and faults', function () {
  this.timeout(120_000);

  describe('32 concurrent mixed tool calls', () => {
    let root: string;
    let pages: LoopbackServer;
    let provider: ScriptedServer;
    before(async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 60; i++) files[`pkg${i % 6}/src/file${i}.ts`] = `export const value${i} = ${i};\n// needle ${i}\n`.repeat(1 + (i % 4));
      root = makeTree(files);
      Object.keys(files).forEach((rel, i) => setMtime(root, rel, 1_700_000_000 + i * 10));
      pages = await startLoopbackServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(20_000, Number(/\d+/.exec(req.url ?? '')?.[0] ?? 1)).html);
      });
      provider = await startScriptedServer();
      provider.handle = (_req, res, recorded) => {
        const q = queryOf(recorded);
        json(res, tavilyBody(q, [1, 2, 3].map((n) => ({ title: `${q} ${n}`, url: `https://example.com/${encodeURIComponent(q)}/${n}`, snippet: `About ${q}.` }))));
      };
    });
    after(async () => {
      removeTree(root);
      await pages.close();
      await provider.close();
    });

    it('gives every call the answer it gets alone, and reports the longest event-loop stall', async () => {
      // Each call gets its own env (and abort signal), as every call through the VS Code layer does.
      const search = () => searchEnv({ folders: [folder(root)] });
      // The largest conversion budget: the answers must match, however slowly a busy machine converts.
      const web = () => webToolEnv(webFetchConfig({ conversionTimeoutMs: 120_000 }));
      const searchConfig = webSearchConfig({ provider: 'tavily', baseUrls: { tavily: provider.url('/') } });
      const searching = (): ToolEnv => ({ ...webToolEnv(searchConfig), getSecret: async (name) => (name === webSearchSecretName('tavily') ? TAVILY_KEY : undefined) });
      const calls: { tool: ScoutTool<any, any>; input: unknown; env: () => ToolEnv }[] = [];
      for (let i = 0; i < 7; i++) calls.push({ tool: globTool, input: { pattern: i % 2 ? '*.ts' : `file${i}*.ts`, ...(i > 3 ? { path: `pkg${i % 6}` } : {}) }, env: search });
      for (let i = 0; i < 7; i++) calls.push({ tool: grepTool, input: { pattern: `needle ${i}\\b|value${i + 10}`, ...(i > 3 ? { path: `pkg${i % 6}/src` } : {}) }, env: search });
      for (let i = 0; i < 6; i++) calls.push({ tool: workspaceSearchTool, input: { query: `needle ${i}`, ...(i > 2 ? { path: `pkg${i}` } : {}) }, env: search });
      for (let i = 0; i < 6; i++) calls.push({ tool: webFetch, input: { url: pages.url(`/page/${i}`) }, env: web });
      for (let i = 0; i < 6; i++) calls.push({ tool: webSearch, input: { queries: [`topic ${i}`, `other ${i}`] }, env: searching });
      assert.equal(calls.length, 32);

      const alone: string[] = [];
      for (const c of calls) alone.push(shown(await callTool(c.tool, c.input, c.env())));
      assert.ok(alone.every((t) => !/^[A-Z_]+: /.test(t)), `a call failed alone:\n${alone.find((t) => /^[A-Z_]+: /.test(t))}`);

      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      const together = await Promise.all(calls.map(async (c) => shown(await callTool(c.tool, c.input, c.env()))));
      delay.disable();
      together.forEach((text, i) => assert.equal(text, alone[i], `call ${i} (${calls[i]!.tool.name}) answered differently under load`));
      console.log(`      load: 32 concurrent mixed calls all correct; longest event-loop stall ${(delay.max / 1e6).toFixed(1)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms)`);
    });
  });

  describe('200 grep calls cancelled at random moments', () => {
    let root: string;
    before(() => {
      root = makeTree({});
      writeSlowCorpus(root, 'big', 20, 400_000);
    });
    after(() => removeTree(root));

    it('all end SEARCH_ABORTED, with no rg process left and no unhandled rejection', async () => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => void rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      const random = seededRandom(8);
      const codes: Record<string, number> = {};
      try {
        for (let batch = 0; batch < 20; batch++) {
          await Promise.all(
            Array.from({ length: 10 }, async () => {
              const controller = new AbortController();
              const delay = Math.floor(random() * 60);
              if (delay < 3) controller.abort();
              else setTimeout(() => controller.abort(), delay);
              const outcome = await callTool(grepTool, { pattern: SLOW_PATTERN }, searchEnv({ folders: [folder(root)], signal: controller.signal }));
              assertWellFormed(outcome);
              const code = 'error' in outcome ? outcome.error.code : 'result';
              codes[code] = (codes[code] ?? 0) + 1;
            }),
          );
        }
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        process.off('unhandledRejection', onRejection);
      }
      assert.deepEqual(codes, { SEARCH_ABORTED: 200 });
      assert.deepEqual(processesUnder(root), [], 'rg processes were left running');
      assert.deepEqual(rgChildren(), [], 'rg children (running or zombie) were left');
      assert.deepEqual(rejections, []);
      console.log('      load: 200 cancelled greps: 200 SEARCH_ABORTED, 0 rg processes left, 0 unhandled rejections');
    });
  });

  describe('an rg that crashes, hangs or prints garbage', () => {
    /**
     * timeoutMs for a stand-in that never ends by itself (any value ends it the same way); one that ends by
     * itself gets the default (30 s), so a busy machine cannot turn its failure into a timeout.
     */
    const HANG_TIMEOUT_MS = 400;
    const GRACE_MS = 300;
    let root: string;
    let bin: string;
    before(() => {
      root = makeTree({ 'src/a.ts': 'needle\n' });
      bin = makeTree({});
    });
    after(() => {
      removeTree(root);
      removeTree(bin);
    });

    /** Each stand-in first writes its pid (its process group) next to itself. */
    const fakes: Record<string, { body: string; codes: string[] }> = {
      'crashes (SIGSEGV)': { body: 'kill -SEGV $$', codes: ['SEARCH_FAILED'] },
      'exits 2 with binary garbage on stderr': { body: 'head -c 200000 /dev/urandom >&2; exit 2', codes: ['SEARCH_FAILED'] },
      'prints garbage and exits 0': { body: "head -c 5000 /dev/urandom | tr '\\0' x; exit 0", codes: ['SEARCH_FAILED'] },
      'prints garbage and exits 1': { body: "printf 'not json at all\\n'; exit 1", codes: ['SEARCH_FAILED'] },
      'prints endlessly': { body: "while :; do printf '{\"type\":\"summary\",\"data\":{}}\\n'; done", codes: ['SEARCH_RAW_OUTPUT_OVERFLOW', 'SEARCH_FAILED'] },
      hangs: { body: 'exec sleep 30', codes: ['SEARCH_ABORTED'] },
      'hangs and ignores SIGTERM': { body: "trap '' TERM; while :; do sleep 0.05; done", codes: ['SEARCH_ABORTED'] },
      'exits but leaves a child holding its output open': { body: 'sleep 30 & exit 0', codes: ['SEARCH_ABORTED'] },
    };

    for (const [what, fake] of Object.entries(fakes)) {
      // A stand-in that ignored SIGKILL too would never let the call settle: the test's timeout is the hang guard.
      it(`${what}: ${fake.codes.join(' or ')}, nothing left running`, async () => {
        const name = what.replace(/\W+/g, '-');
        const pidFile = path.join(bin, `${name}.pid`);
        const rg = scriptRipgrep(bin, name, `echo $$ > ${shellQuote(pidFile)}\n${fake.body}`);
        for (const tool of [globTool, grepTool]) {
          rmSync(pidFile, { force: true });
          const timeoutMs = fake.codes.includes('SEARCH_ABORTED') ? HANG_TIMEOUT_MS : undefined;
          const env = searchEnv({ folders: [folder(root)], ripgrepPath: rg, search: { ...(timeoutMs ? { timeoutMs } : {}), graceMs: GRACE_MS, rawOutputMaxBytes: 100_000 } });
          const outcome = await callTool(tool, tool === globTool ? { pattern: '*' } : { pattern: 'needle' }, env);
          assertWellFormed(outcome);
          assert.ok('error' in outcome && fake.codes.includes(outcome.error.code), `${tool.name}: ${shown(outcome).slice(0, 300)}`);
          assert.ok(outcome.error.message.length < 70_000, `${tool.name}: the message is ${outcome.error.message.length} characters`);
          const pgid = Number(readFileSync(pidFile, 'utf8'));
          await waitUntil(() => groupMembers(pgid).length === 0);
          assert.deepEqual(groupMembers(pgid), [], `${tool.name}: the stand-in's processes are still running`);
        }
      });
    }
  });

  describe('a web server that stalls', () => {
    let server: ScriptedServer;
    beforeEach(async () => (server = await startScriptedServer()));
    afterEach(() => server.close());

    const stallAfterHeaders = (res: ServerResponse, body: string, type: string) => {
      res.writeHead(200, { 'content-type': type });
      res.write(body); // and never ends
    };
    const noSocketLeft = async () => {
      await waitUntil(() => server.openConnections === 0);
      assert.equal(server.openConnections, 0, 'a connection to the stalled server is still open');
    };

    it('web_fetch: after its headers, returns what arrived, marked cut by the timeout, and closes the socket', async () => {
      server.handle = (_req, res) => stallAfterHeaders(res, '<html><body><h1>Partial</h1><p>first part</p>', 'text/html');
      const outcome = await callTool(webFetch, { url: server.url('/stall') }, webToolEnv(webFetchConfig({ fetchTimeoutMs: 1_000 })));
      assert.ok('output' in outcome, shown(outcome));
      assert.equal((outcome.output.value as WebFetchValue).cut, 'timeout');
      assert.match(outcome.output.text, /fetch timeout \(setting scout\.webFetch\.fetchTimeoutMs\) ran out; the body is incomplete/);
      await noSocketLeft();
    });

    it('web_fetch: before its headers, fails with WEB_TIMEOUT and closes the socket', async () => {
      server.handle = () => undefined;
      const outcome = await callTool(webFetch, { url: server.url('/silent') }, webToolEnv(webFetchConfig({ fetchTimeoutMs: 1_000 })));
      assert.equal('error' in outcome && outcome.error.code, 'WEB_TIMEOUT');
      await noSocketLeft();
    });

    it('web_search: a provider that stalls after its headers fails with WEB_TIMEOUT and keeps no socket', async () => {
      server.handle = (_req, res) => stallAfterHeaders(res, '{"results": [', 'application/json');
      const config = webSearchConfig({ provider: 'tavily', baseUrls: { tavily: server.url('/') }, searchTimeoutMs: 1_000 });
      const env: ToolEnv = { ...webToolEnv(config), getSecret: async () => TAVILY_KEY };
      const outcome = await callTool(webSearch, { queries: ['a', 'b'] }, env);
      assert.equal('error' in outcome && outcome.error.code, 'WEB_TIMEOUT', shown(outcome));
      await noSocketLeft();
    });
  });
});
