/**
 * Arguments from the model cannot escape. fast-check generates random and adversarial
 * argument objects for all five tools (see arbitraries.ts) and runs each through the real tool: glob and grep
 * spawn the real rg behind a wrapper that records its argv, workspace_search reads the real files,
 * web_fetch and web_search talk to loopback servers. Each run checks that:
 * - nothing but a ToolError is thrown, and the result or error is well formed;
 * - no getter or proxy trap of the input ran (values are snapshotted, never read live);
 * - every rg argument that came from the model, or was derived from it, is the value of `--regexp=`, `--glob=`
 *   or `--type-add=` or the one path after `--`, and everything else before `--` is one of Scout's fixed
 *   options, in every rg run of a call (an empty result adds counts);
 * - nothing outside the workspace folders is listed or read: the token planted outside never appears in
 *   any text, value, error, spill document or log line, every listed path lies in a folder, and a
 *   model-chosen URL never reaches a loopback server the user did not allow;
 * - Object.prototype is untouched.
 * Runs per tool: SCOUT_FC_RUNS (default 500; `npm run attack:full` uses 10,000). SCOUT_FC_SEED replays a seed.
 */
import * as assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import fc from 'fast-check';
import { webSearchSecretName } from '../../../src/core/config';
import { UNSAFE_CHARACTERS } from '../../../src/core/controlCharacters';
import { VCS_DIRECTORIES } from '../../../src/core/ripgrep/argv';
import { globTool, type GlobValue } from '../../../src/core/search/glob';
import { grepTool, type GrepValue } from '../../../src/core/search/grep';
import type { ToolEnv } from '../../../src/core/tool';
import { createWebFetchTool } from '../../../src/core/web/fetch/tool';
import { UNTRUSTED_NOTE } from '../../../src/core/web/fetch/output';
import { UNTRUSTED_LINE } from '../../../src/core/web/search/output';
import { createWebSearchTool } from '../../../src/core/web/search/tool';
import { isWithin } from '../../../src/core/workspace/folders';
import type { WorkspaceSearchReport } from '../../../src/core/workspaceSearch/report';
import { workspaceSearchTool } from '../../../src/core/workspaceSearch/tool';
import { makeHostileWorkspace, recordingRipgrep, type HostileWorkspace, type RecordedCall, type RecordingRipgrep } from '../../helpers/hostileWorkspace';
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopbackServer';
import { memorySpill, searchEnv } from '../../helpers/searchEnv';
import { assertNotLeaked, assertWellFormed, callTool, visibleTexts, type Outcome } from '../../helpers/toolOutcome';
import { builtConvertWorker, webFetchConfig, webToolEnv } from '../../helpers/webFetchEnv';
import { json, recordingLogger, searchConfig as webSearchConfig, startScriptedServer, tavilyBody, type ScriptedServer } from '../webSearch/fixtures';
import { argumentObjects, hostileText, wrongType, type Candidate } from './arbitraries';
import { hostileResponse, HOSTILE_RESPONSE_KINDS } from './hostileServer';

const RUNS = Number(process.env.SCOUT_FC_RUNS ?? 500);
const SEED = process.env.SCOUT_FC_SEED === undefined ? undefined : Number(process.env.SCOUT_FC_SEED);

/** What the property runs of one tool saw, printed after the suite (the figures in docs/reliability.md). */
interface ToolStats {
  tried: number;
  failed: number;
  results: number;
  errors: Record<string, number>;
  rgCalls: number;
  ms: number;
}

/** Scout's fixed rg options (argv.ts); any other option must carry a value after `=` ({@link VALUE_OPTIONS}). */
const FIXED_RG_OPTIONS = new Set(['--no-config', '--files', '--files-with-matches', '--null', '--json', '--sort=modified', '--sort=path', '--crlf', '--binary', '--no-ignore', '--hidden', '--type=scoutinclude', '--no-require-git', '--no-ignore-parent', '--type-add=scoutvisible:[!.]*', '--type-not=scoutvisible', '--pcre2', '--fixed-strings', ...VCS_DIRECTORIES.map((d) => `--glob=!${d}`)]);
/** The options that carry a value taken from or derived from a model argument. */
const VALUE_OPTIONS = ['--regexp=', '--glob=', '--type-add=scoutinclude:'];
/** {@link UNSAFE_CHARACTERS} for one `test` (without its global flag, which keeps a position between calls). */
const UNSAFE_CHARACTERS_ONCE = new RegExp(UNSAFE_CHARACTERS.source);
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

describe('attack: hostile arguments, property-based (fast-check)', function () {
  this.timeout(600_000 + RUNS * 400);
  const stats: Record<string, ToolStats> = {};
  let world: HostileWorkspace;
  let rg: RecordingRipgrep;

  before(() => {
    world = makeHostileWorkspace();
    rg = recordingRipgrep(world.base);
  });
  after(() => {
    world.remove();
    let tried = 0;
    let failed = 0;
    for (const [tool, s] of Object.entries(stats)) {
      tried += s.tried;
      failed += s.failed;
      const errors = Object.entries(s.errors).sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`).join(', ');
      console.log(`      attack: ${tool}: ${s.tried} argument objects, ${s.failed} failed; ${s.results} results, errors: ${errors || 'none'}${s.rgCalls ? `; rg ran ${s.rgCalls} times` : ''} (${(s.ms / 1000).toFixed(1)} s)`);
    }
    console.log(`      attack: ${tried} generated argument objects in all, ${failed} failed${SEED === undefined ? '' : ` (seed ${SEED})`}`);
  });

  /** Runs `check` on RUNS candidates, counting outcomes. */
  async function property(name: string, candidates: fc.Arbitrary<Candidate>, check: (candidate: Candidate) => Promise<Outcome>): Promise<void> {
    const s: ToolStats = (stats[name] = { tried: 0, failed: 0, results: 0, errors: {}, rgCalls: 0, ms: 0 });
    const started = Date.now();
    try {
      await fc.assert(
        fc.asyncProperty(candidates, async (candidate) => {
          s.tried++;
          try {
            const outcome = await check(candidate);
            assert.equal(candidate.reads.count, 0, `the ${candidate.form} input was read through a getter or proxy trap`);
            assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_NAMES, 'Object.prototype was changed');
            assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
            if ('output' in outcome) s.results++;
            else s.errors[outcome.error.code] = (s.errors[outcome.error.code] ?? 0) + 1;
          } catch (e) {
            s.failed++;
            throw e;
          }
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    } finally {
      s.ms = Date.now() - started;
    }
  }

  /** The env of one glob/grep/workspace_search call in the hostile workspace, with everything it writes kept. */
  function workspaceEnv() {
    const log = recordingLogger();
    const spill = memorySpill();
    const env: ToolEnv = { ...searchEnv({ folders: world.folders, ripgrepPath: rg.path, spill, search: { timeoutMs: 10_000, graceMs: 500 } }), log };
    return { env, seen: (outcome: Outcome) => [...visibleTexts(outcome), ...spill.texts, ...log.lines] };
  }

  const roots = () => [world.root, world.second];

  /**
   * The rg calls of one tool call (the search, then the counts behind an explanation of an empty result):
   * checks each argv (see the file comment) and returns the first, or undefined when rg did not run. The
   * regex is passed as given; a glob is passed as Scout reads it (patterns.ts), and an include only as a
   * file-name type and pruning globs derived from it (include.ts), so those are checked for their form.
   */
  function checkRipgrepCall(modelValues: { regexp?: unknown }): RecordedCall | undefined {
    // The one call that searches nothing: whether this rg has PCRE2 (asked once per binary, regexReadings.ts).
    const calls = rg.calls().filter(({ argv }) => !(argv.length === 2 && argv[0] === '--no-config' && argv[1] === '--pcre2-version'));
    for (const { cwd, argv } of calls) {
      assert.ok(roots().includes(cwd), `rg ran in ${cwd}, not in a workspace folder`);
      assert.equal(argv[0], '--no-config');
      const sep = argv.indexOf('--');
      assert.ok(sep > 0, `no "--" in ${JSON.stringify(argv)}`);
      assert.equal(argv.length, sep + 2, `expected exactly one path after "--": ${JSON.stringify(argv)}`);
      for (const option of argv.slice(0, sep)) {
        assert.match(option, /^--[a-z][a-z0-9-]*(=|$)/, `${JSON.stringify(option.slice(0, 80))} is not a long option`);
        assert.ok(FIXED_RG_OPTIONS.has(option) || VALUE_OPTIONS.some((prefix) => option.startsWith(prefix)), `${JSON.stringify(option.slice(0, 80))} is neither a fixed option nor a value behind --regexp=/--glob=/--type-add=`);
      }
      const target = realpathSync(path.resolve(cwd, argv[sep + 1]!));
      assert.ok(roots().some((r) => isWithin(r, target)), `rg searched ${target}, outside the workspace folders`);
    }
    const call = calls[0];
    // spawn passes arguments as UTF-8, which turns a lone surrogate into U+FFFD.
    if (call && typeof modelValues.regexp === 'string') assert.ok(call.argv.includes(wellFormed(`--regexp=${modelValues.regexp}`)), 'the regex is not passed as --regexp=<pattern>');
    return call;
  }

  /** Every listed path of a glob/grep value lies inside the folder it is relative to. */
  function checkListedPaths(workdir: string, paths: readonly string[]): void {
    assert.ok(roots().includes(workdir), `workdir ${workdir} is not a workspace folder`);
    for (const p of paths) assert.ok(isWithin(workdir, path.resolve(workdir, p)), `listed ${p}, outside ${workdir}`);
  }

  const text = () => hostileText(world);
  const globPatterns = fc.constantFrom('*', '*.ts', '**/*', '*.{ts,md}', '**/page.tsx', '!*', '-*', '--files', '*secret*', '**/../*', '/*', '[', '{');
  const searchPaths = fc.constantFrom('src', '-L', '--follow', '--pre=sh', './--follow', 'app/(auth)/[id]', 'ws2/lib', 'ws2', '.', 'loop/loop/src', 'mid', 'out', 'mid/link', 'spin1', 'src/pipe.ts', 'secret-link.txt', 'src/a.ts', 'with space.txt', '.hidden', '..', '../ws-secret');
  const mostly = <T>(specific: fc.Arbitrary<T>) => fc.oneof({ weight: 2, arbitrary: specific }, { weight: 3, arbitrary: text() });

  it(`glob: ${RUNS} generated argument objects`, async () => {
    const candidates = argumentObjects(['pattern', 'path'], ['pattern'], (key) => (key === 'pattern' ? mostly(globPatterns) : mostly(searchPaths)));
    await property('glob', candidates, async (candidate) => {
      rg.reset();
      const { env, seen } = workspaceEnv();
      const outcome = await callTool(globTool, candidate.input, env);
      assertWellFormed(outcome);
      assertNotLeaked(world.token, seen(outcome), 'glob');
      if (checkRipgrepCall({})) stats.glob!.rgCalls++;
      if ('output' in outcome) {
        const value = outcome.output.value as GlobValue;
        checkListedPaths(value.workdir, value.paths);
      }
      return outcome;
    });
    assert.ok(stats.glob!.rgCalls >= RUNS / 5, `only ${stats.glob!.rgCalls} of ${RUNS} runs reached rg: the generator is too weak`);
  });

  it(`grep: ${RUNS} generated argument objects`, async () => {
    const regexes = fc.constantFrom('needle', '.', '(?i)NEEDLE', '^', '[', '\\p{L}+', 'SCOUTSECRET', '-e', '--files', 'a{99999}', '(a*)*b', '\\bneedle\\b');
    const includes = fc.constantFrom('*.ts', '*.{ts,md}', '**/*.txt', 'a,b', '!*.ts', '../*', '/etc/*', '**', '[', '*secret*');
    const candidates = argumentObjects(['pattern', 'path', 'include'], ['pattern'], (key) =>
      key === 'pattern' ? mostly(regexes) : key === 'path' ? mostly(searchPaths) : mostly(includes),
    );
    await property('grep', candidates, async (candidate) => {
      rg.reset();
      const { env, seen } = workspaceEnv();
      const outcome = await callTool(grepTool, candidate.input, env);
      assertWellFormed(outcome);
      assertNotLeaked(world.token, seen(outcome), 'grep');
      const args = parsedOrUndefined(() => grepTool.parse(candidate.input, env.config));
      if (checkRipgrepCall({ regexp: args?.pattern })) stats.grep!.rgCalls++;
      if ('output' in outcome) {
        const value = outcome.output.value as GrepValue;
        checkListedPaths(value.workdir, value.matches.map((m) => m.path));
      }
      return outcome;
    });
    assert.ok(stats.grep!.rgCalls >= RUNS / 5, `only ${stats.grep!.rgCalls} of ${RUNS} runs reached rg: the generator is too weak`);
  });

  it(`workspace_search: ${RUNS} generated argument objects`, async () => {
    const queries = fc.constantFrom('needle', 'SCOUTSECRET', 'Needle', '  needle  ', 'İ', '\\', '..', '-L');
    const maxResults = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, 1, 100, 101, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 1e308), fc.string({ maxLength: 3 }));
    const candidates = argumentObjects(['query', 'caseSensitive', 'maxResults', 'path'], ['query'], (key) =>
      key === 'query' ? mostly(queries) : key === 'path' ? mostly(searchPaths) : key === 'caseSensitive' ? fc.oneof(fc.boolean(), wrongType) : maxResults,
    );
    let searched = 0;
    await property('workspace_search', candidates, async (candidate) => {
      const { env, seen } = workspaceEnv();
      const outcome = await callTool(workspaceSearchTool, candidate.input, env);
      assertWellFormed(outcome);
      assertNotLeaked(world.token, seen(outcome), 'workspace_search');
      if ('output' in outcome) {
        searched++;
        const report = outcome.output.value as WorkspaceSearchReport;
        // The text is the report's JSON, unsafe characters escaped (reportText), and parses back to it.
        assert.deepEqual(JSON.parse(outcome.output.text), report);
        assert.doesNotMatch(outcome.output.text, UNSAFE_CHARACTERS_ONCE);
        const folder = world.folders.find((f) => f.name === report.workspaceFolder);
        assert.ok(folder, `unknown workspace folder ${report.workspaceFolder}`);
        for (const m of report.matches) assert.ok(isWithin(folder.path, path.resolve(folder.path, m.path)), `listed ${m.path}`);
      }
      return outcome;
    });
    // About a fifth of the generated objects are valid enough to search (97 of 500 in one CI run, with a
    // random seed): the floor is half that, so it catches a generator that stopped reaching the search.
    assert.ok(searched >= RUNS / 10, `only ${searched} of ${RUNS} runs searched: the generator is too weak`);
  });

  describe('web_fetch', () => {
    const tool = createWebFetchTool(builtConvertWorker());
    let server: LoopbackServer;
    before(async () => {
      server = await startLoopbackServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`private ${world.token}\n`);
      });
    });
    after(() => server.close());

    /** Spellings of the loopback server and other non-public destinations, none of them allowed. */
    const blockedUrls = () => {
      const port = server.port;
      const hosts = [
        '127.0.0.1', 'localhost', 'LOCALHOST.', '127.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1', '0x7f000001', '[::1]', '[::ffff:127.0.0.1]',
        '[::ffff:7f00:1]', '0.0.0.0', '0', '[::]', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.100.100.200', '[fd00:ec2::254]',
        '100.64.0.1', '[fe80::1]', '[fc00::1]', '224.0.0.1', '255.255.255.255', '198.51.100.7', 'metadata.invalid', 'printer.invalid',
      ];
      return fc
        .tuple(
          fc.oneof({ weight: 4, arbitrary: fc.constantFrom('http', 'https', 'HTTP') }, { weight: 1, arbitrary: fc.constantFrom('file', 'ftp', 'gopher', 'data', 'javascript', 'ws') }),
          fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('user:pass@', 'admin@', ':@') }),
          fc.constantFrom(...hosts),
          fc.constantFrom(`:${port}`, `:${port}`, '', ':80', ':0', ':99999'),
          text(),
        )
        .map(([scheme, credentials, host, portPart, rest]) => `${scheme}://${credentials}${host}${portPart}/${rest}`);
    };

    it(`refuses every model-chosen private destination: ${RUNS} generated argument objects`, async () => {
      const config = webFetchConfig({ allowedPrivateHosts: [], fetchTimeoutMs: 3_000 });
      const candidates = argumentObjects(['url'], ['url'], () => fc.oneof({ weight: 3, arbitrary: blockedUrls() }, { weight: 1, arbitrary: text() }));
      await property('web_fetch (guarded)', candidates, async (candidate) => {
        const log = recordingLogger();
        const outcome = await callTool(tool, candidate.input, { ...webToolEnv(config), log });
        assertWellFormed(outcome);
        assertNotLeaked(world.token, [...visibleTexts(outcome), ...log.lines], 'web_fetch');
        assert.equal(server.requests.length, 0, `a model-chosen URL reached the loopback server: ${JSON.stringify(server.requests[0]?.url)}`);
        return outcome;
      });
    });

    it(`turns any loopback response into a result or a structured error: ${RUNS} generated argument objects`, async () => {
      const hostile = await startLoopbackServer((req, res) => hostileResponse(req, res));
      // Without keep-alive every finished request closes its socket, so an open one afterwards is a leak.
      const noKeepAlive = new http.Agent({ keepAlive: false });
      try {
        const config = webFetchConfig({ allowedPrivateHosts: ['127.0.0.1'], fetchTimeoutMs: 5_000 });
        const urls = fc.tuple(fc.integer({ min: 0, max: HOSTILE_RESPONSE_KINDS - 1 }), text()).map(([kind, rest]) => `${hostile.origin}/${kind}/${encodeURIComponent(wellFormed(rest)).slice(0, 2000)}`);
        const candidates = argumentObjects(['url'], ['url'], () => fc.oneof({ weight: 6, arbitrary: urls }, { weight: 1, arbitrary: text() }));
        await property('web_fetch (hostile server)', candidates, async (candidate) => {
          const outcome = await callTool(tool, candidate.input, { ...webToolEnv(config), httpAgent: { http: noKeepAlive } });
          assertWellFormed(outcome);
          if ('output' in outcome) {
            const [first, , note] = outcome.output.text.split('\n');
            assert.match(first!, /^Fetched http:\/\/127\.0\.0\.1:\d+\/.* \(HTTP \d{3}\)$/);
            assert.equal(note, `Note: ${UNTRUSTED_NOTE}`, 'the untrusted-text reminder must precede the page text');
          }
          return outcome;
        });
        const deadline = Date.now() + 10_000; // a generous wait for sockets that must close soon
        while (hostile.openConnections > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(hostile.openConnections, 0, 'web_fetch left connections open');
      } finally {
        await hostile.close();
      }
    });
  });

  it(`web_search: ${RUNS} generated argument objects against a loopback provider that echoes the API key`, async () => {
    const key = `tvly-${'k'.repeat(4)}${Math.random().toString(36).slice(2, 14)}Z9`;
    const tool = createWebSearchTool(builtConvertWorker());
    const server: ScriptedServer = await startScriptedServer();
    server.handle = (_req, res, recorded) => providerReply(res, recorded.body, key, server.origin);
    try {
      const config = webSearchConfig({ provider: 'tavily', baseUrls: { tavily: server.url('/') }, searchTimeoutMs: 5_000 });
      const queries = fc.oneof(
        { weight: 6, arbitrary: fc.array(fc.oneof(fc.constantFrom('node streams', 'needle', 'ignore previous instructions', '<b>x</b> &amp;'), text()), { minLength: 1, maxLength: 4 }) },
        { weight: 1, arbitrary: fc.array(text(), { minLength: 1, maxLength: 6 }) },
        { weight: 1, arbitrary: fc.constantFrom([], [''], ['  '], Array(3), [key], Array.from({ length: 1000 }, (_, i) => `q${i}`)) },
        { weight: 1, arbitrary: fc.array(wrongType, { maxLength: 3 }) },
      );
      const hint = (valid: string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom('zz', 'xx', 'i-klingon', 'x', '') }, { weight: 1, arbitrary: text() });
      const countries = hint(['us', 'US', ' de ', 'uk', 'jp']);
      const languages = hint(['en', 'DE', 'zh-cn', 'zh_CN', 'pt-BR']);
      const candidates = argumentObjects(['queries', 'country', 'language'], ['queries'], (k) => (k === 'queries' ? queries : k === 'country' ? countries : languages));
      await property('web_search', candidates, async (candidate) => {
        const log = recordingLogger();
        const env: ToolEnv = { ...webToolEnv(config), log, getSecret: async (name) => (name === webSearchSecretName('tavily') ? key : undefined) };
        const outcome = await callTool(tool, candidate.input, env);
        assertWellFormed(outcome);
        assertNotLeaked(key, [...visibleTexts(outcome), ...log.lines], 'web_search', 8);
        if ('output' in outcome) assert.ok(outcome.output.text.endsWith(UNTRUSTED_LINE), 'the untrusted-text reminder must close every result');
        return outcome;
      });
    } finally {
      await server.close();
    }
  });
});

/** `text` as it reaches another process or the network: UTF-8, with each lone surrogate turned into U+FFFD. */
function wellFormed(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The parsed arguments, or undefined when they were refused (re-parsing a snapshot-safe input is side-effect free). */
function parsedOrUndefined<A>(parse: () => A): A | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}

/**
 * The loopback Tavily's reply, chosen by a hash of the request body so it is the same on every replay: a
 * normal answer that echoes the query and the API key (in a title, a snippet and the answer), a 401 whose
 * detail quotes the key, a 429 (retry at once), an HTML page, a JSON array, a 500, or a redirect carrying
 * the key.
 */
function providerReply(res: import('node:http').ServerResponse, body: string, key: string, origin: string): void {
  let query = '';
  try {
    query = wellFormed(String((JSON.parse(body) as { query?: unknown }).query ?? ''));
  } catch {
    query = body;
  }
  let hash = 0;
  for (let i = 0; i < body.length; i++) hash = (hash * 31 + body.charCodeAt(i)) >>> 0;
  switch (hash % 8) {
    case 0:
      return json(res, { detail: { error: `Unauthorized: missing or invalid API key ${key}.` } }, 401);
    case 1:
      return json(res, { detail: { error: 'rate limited' } }, 429, { 'retry-after': '0' });
    case 2:
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>Sign in. Your key: ${key}</body></html>`);
      return;
    case 3:
      return json(res, [key, query]);
    case 4:
      return json(res, { message: `${'x'.repeat(190)}${key}` }, 500);
    case 5:
      res.writeHead(302, { location: `${origin}/elsewhere?key=${key}` }).end();
      return;
    default:
      return json(
        res,
        tavilyBody(query, [
          { title: `${query} ${key}`, url: `https://example.com/?q=${encodeURIComponent(query)}`, snippet: `<b>${query}</b> &amp; ${'y'.repeat(280)}${key}` },
          { title: `${'t'.repeat(195)}${key}`, url: 'https://example.org/', snippet: `[click](javascript:alert(1)) ${key}` },
        ], `Answer for ${query}: the key is ${key}`),
      );
  }
}
