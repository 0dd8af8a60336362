import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defaultConfig } from '../../../src/core/config';
import { globTool } from '../../../src/core/search/glob';
import { grepTool } from '../../../src/core/search/grep';
import type { ToolName, ToolOutput } from '../../../src/core/tool';
import { createWebFetchTool } from '../../../src/core/web/fetch/tool';
import { workspaceSearchTool } from '../../../src/core/workspaceSearch/tool';
import { formatToolError, isToolError } from '../../../src/core/errors';
import { selectProvider } from '../../../src/core/web/search/providers';
import { buildCard, MAX_CARD_ROWS, MAX_CARD_SOURCES } from '../../../src/vscode/panel/cards';
import { CONTEXT_BEFORE_MATCH } from '../../../src/vscode/panel/match';
import type { CardBody, CardModel } from '../../../src/vscode/panel/protocol';
import { boundValue, type ToolRun } from '../../../src/vscode/runRecord';
import { startLoopbackServer } from '../../helpers/loopbackServer';
import { folder, memorySpill, searchEnv } from '../../helpers/searchEnv';
import { makeTree, removeTree, setMtime } from '../../helpers/tree';
import { builtConvertWorker, webFetchConfig, webToolEnv } from '../../helpers/webFetchEnv';

const env = (dir: string) => searchEnv({ folders: [folder(dir)] });

/** A finished run as RunLog records it (the value bounded the same way). */
function doneRun(tool: ToolName, input: unknown, output: Pick<ToolOutput, 'text' | 'value' | 'summary'>): ToolRun {
  return { id: 'r1', tool, input, source: 'command', status: 'done', startedAt: 1, durationMs: 5, summary: output.summary, value: boundValue(output.value), text: output.text };
}

/** The counts as the card shows them. */
const counts = (card: CardModel) => card.counts.map((c) => c.text);

/** The highlighted pieces of a card row. */
const marked = (line: { preview: string; highlights: readonly { start: number; end: number }[] }) => line.highlights.map((r) => line.preview.slice(r.start, r.end));

function body<K extends CardBody['kind']>(b: CardBody, kind: K): Extract<CardBody, { kind: K }> {
  assert.equal(b.kind, kind);
  return b as Extract<CardBody, { kind: K }>;
}

describe('panel cards', () => {
  let dir: string;
  before(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'scout-cards-')));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src', 'a.ts'), 'const x = 1;\n  // é😀 TODO: tidy\nTODO again\n');
    writeFileSync(path.join(dir, 'src', 'b.ts'), 'nothing\nlast TODO\n');
    mkdirSync(path.join(dir, 'many'));
    for (let i = 0; i < 80; i++) writeFileSync(path.join(dir, 'many', `f${i}.txt`), 'TODO\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists real grep matches by file with the match highlighted and targets in the run workdir', async () => {
    const input = { pattern: 'TODO', path: 'src' };
    const output = await grepTool.run(grepTool.parse(input, defaultConfig()), env(dir));
    const { card, targets } = buildCard(doneRun('grep', input, output));
    assert.deepEqual(counts(card), ['3 matches', '2 files with matches']);
    const files = body(card.body, 'files');
    assert.deepEqual(files.files.map((f) => f.path), ['src/a.ts', 'src/b.ts']);
    const line = files.files[0]!.lines[0]!;
    assert.equal(line.lineNumber, 2);
    assert.equal(line.preview, '// é😀 TODO: tidy');
    assert.deepEqual(marked(line), ['TODO']);
    assert.deepEqual(targets[line.target], { kind: 'file', path: 'src/a.ts', workdir: dir, lineNumber: 2, match: { literal: 'TODO', caseSensitive: true } });
    assert.deepEqual(targets[files.files[1]!.target], { kind: 'file', path: 'src/b.ts', workdir: dir });
    assert.deepEqual(card.args, [
      { name: 'pattern', value: 'TODO' },
      { name: 'path', value: 'src' },
    ]);
  });

  it('bounds a large grep card and counts the rows left out', async () => {
    const input = { pattern: 'TODO' };
    const output = await grepTool.run(grepTool.parse(input, defaultConfig()), env(dir));
    const files = body(buildCard(doneRun('grep', input, output)).card.body, 'files');
    const rows = files.files.reduce((n, f) => n + 1 + f.lines.length, 0);
    const lines = files.files.reduce((n, f) => n + f.lines.length, 0);
    assert.ok(rows <= MAX_CARD_ROWS && rows >= MAX_CARD_ROWS - 1);
    assert.equal(lines + files.omitted, 83);
    assert.equal(files.more, `${files.omitted} more matches in the full result`);
  });

  it('counts what the stored value no longer holds as left out', async () => {
    const input = { pattern: '*.txt' };
    const output = await globTool.run(globTool.parse(input, defaultConfig()), env(dir));
    const run = doneRun('glob', input, { ...output, value: { ...(output.value as object), paths: (output.value as { paths: string[] }).paths.slice(0, 10) } });
    const files = body(buildCard(run).card.body, 'files');
    assert.equal(files.files.length, 10);
    assert.equal(files.omitted, 70);
    assert.equal(files.more, '70 more files in the full result');
  });

  it('lists real glob paths as file rows', async () => {
    const input = { pattern: '*.ts' };
    const output = await globTool.run(globTool.parse(input, defaultConfig()), env(dir));
    const { card, targets } = buildCard(doneRun('glob', input, output));
    const files = body(card.body, 'files');
    assert.deepEqual(files.files.map((f) => f.path).sort(), ['src/a.ts', 'src/b.ts']);
    assert.ok(files.files.every((f) => f.lines.length === 0));
    assert.deepEqual(counts(card), ['2 files found']);
    assert.equal(files.more, undefined);
    assert.equal(targets.length, 2);
  });

  it('shows a zero-width space in a real file name and in the pattern, which read as "ab.ts" and "a*" before', async () => {
    const zw = mkdtempSync(path.join(tmpdir(), 'scout-cards-zw-'));
    try {
      writeFileSync(path.join(zw, 'a\u200bb.ts'), 'x\n');
      const input = { pattern: 'a\u200b*' };
      const output = await globTool.run(globTool.parse(input, defaultConfig()), env(zw));
      const { card, targets } = buildCard(doneRun('glob', input, output));
      assert.deepEqual(body(card.body, 'files').files.map((f) => f.path), ['a\\u200bb.ts']);
      assert.deepEqual(card.args, [{ name: 'pattern', value: 'a\\u200b*' }]);
      // The row still opens the real file.
      assert.deepEqual(targets[0], { kind: 'file', path: 'a\u200bb.ts', workdir: realpathSync(zw) });
    } finally {
      rmSync(zw, { recursive: true, force: true });
    }
  });

  it('offers the full result only for a call that saved one (over a cap)', async () => {
    const input = { pattern: '*.ts' };
    const output = await globTool.run(globTool.parse(input, defaultConfig()), env(dir));
    const run = doneRun('glob', input, output);
    assert.equal(buildCard(run).card.hasFullResult, false);
    assert.equal(buildCard(run).card.hasText, true);
    assert.equal(buildCard({ ...run, spillUri: 'untitled:Untitled-1', spillTitle: 'Scout glob "*.ts": 2 files, complete result' }).card.hasFullResult, true);
    // Released by Scout (the title forgotten): still offered, and it opens the text the model saw.
    assert.equal(buildCard({ ...run, spillUri: 'untitled:Untitled-1' }).card.hasFullResult, true);
  });

  it('shows an empty search as an empty list, not as an error', async () => {
    const input = { pattern: 'no-such-text-anywhere' };
    const output = await grepTool.run(grepTool.parse(input, defaultConfig()), env(dir));
    const files = body(buildCard(doneRun('grep', input, output)).card.body, 'files');
    assert.equal(files.files.length, 0);
  });

  it('lists real workspace_search matches and finds them again by the literal query and its case rule', async () => {
    const input = { query: ' todo ', path: 'src' };
    const output = await workspaceSearchTool.run(workspaceSearchTool.parse(input, defaultConfig()), env(dir));
    const { card, targets } = buildCard(doneRun('workspace_search', input, output));
    const files = body(card.body, 'files');
    assert.deepEqual(files.files.map((f) => f.path), ['src/a.ts', 'src/b.ts']);
    const line = files.files[0]!.lines[0]!;
    assert.equal(line.lineNumber, 2);
    assert.deepEqual(marked(line), ['TODO']);
    assert.deepEqual(targets[line.target], { kind: 'file', path: 'src/a.ts', folder: path.basename(dir), lineNumber: 2, match: { literal: 'todo', caseSensitive: false } });
    // Files with matches and files scanned are different counts, and the card says which is which.
    assert.deepEqual(counts(card), ['3 matches', '2 files with matches', '2 files scanned', '0 skipped']);
  });

  it('labels a workspace_search whose only limit was two skipped binary files as skipped, not truncated', async () => {
    const tree = mkdtempSync(path.join(tmpdir(), 'scout-cards-skipped-'));
    try {
      writeFileSync(path.join(tree, 'notes.txt'), 'a todo here\n');
      for (const name of ['a.bin', 'b.bin']) writeFileSync(path.join(tree, name), Buffer.from([0x74, 0x6f, 0x64, 0x6f, 0, 1, 2, 0, 0x74]));
      const input = { query: 'todo' };
      const output = await workspaceSearchTool.run(workspaceSearchTool.parse(input, defaultConfig()), env(tree));
      assert.deepEqual((output.value as { truncatedBy: string[] }).truncatedBy, ['skippedFiles']);
      assert.equal(output.summary?.truncated, true);
      const { card } = buildCard(doneRun('workspace_search', input, output));
      assert.equal(card.truncated, false);
      assert.ok(counts(card).includes('2 skipped'), counts(card).join(', '));
      // Another limit still shows: the result limit, with the skipped files beside it.
      const limited = buildCard(doneRun('workspace_search', input, { ...output, value: { ...(output.value as object), truncatedBy: ['skippedFiles', 'maxResults'] } })).card;
      assert.equal(limited.truncated, true);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('lists web sources but never offers a non-web link', () => {
    const sources = [
      { title: 'Docs', url: 'https://example.com/docs', snippet: 'About <b>it</b>', provider: 'brave' },
      { title: 'Evil', url: 'javascript:alert(1)' },
      { title: 'File', url: 'file:///etc/passwd' },
      ...Array.from({ length: MAX_CARD_SOURCES + 3 }, (_, i) => ({ title: '', url: `http://example.org/${i}` })),
    ];
    const run = doneRun('web_search', { queries: ['docs'] }, { text: 'Sources: …', value: { answer: 'An answer.', sources }, summary: { matches: sources.length, truncated: false } });
    const { card, targets } = buildCard(run);
    const b = body(card.body, 'sources');
    assert.equal(b.sources.length, MAX_CARD_SOURCES);
    assert.equal(b.omitted, 4);
    assert.equal(b.sources[0]!.snippet, 'About <b>it</b>');
    assert.equal(b.sources[1]!.title, 'http://example.org/0');
    assert.deepEqual(b.answers, [{ text: 'An answer.' }]);
    assert.ok(targets.every((t) => t.kind === 'url' && /^https?:/.test(t.url)));
    assert.equal(card.counts[0]!.kind, 'sources');
    assert.equal(b.more, '4 more sources in the full result');
  });

  it('shows a real fetched page with its facts and the first lines of its Markdown', async () => {
    const html = `<!DOCTYPE html><html><head><title>T</title><script>document.title = "pwned"</script></head><body><h1>Title</h1>${Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i} &lt;script&gt;alert(${i})&lt;/script&gt;</p>`).join('')}</body></html>`;
    const server = await startLoopbackServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
    try {
      const tool = createWebFetchTool(builtConvertWorker());
      const input = { url: server.url('/page') };
      const output = await tool.run(tool.parse(input, webFetchConfig()), webToolEnv());
      const { card, targets } = buildCard(doneRun('web_fetch', input, output));
      const page = body(card.body, 'page');
      assert.equal(page.finalUrl, server.url('/page'));
      assert.equal(page.status, 200);
      assert.equal(page.contentType, 'text/html; charset=utf-8');
      assert.equal(page.bytes, Buffer.byteLength(html));
      assert.equal(page.format, 'markdown');
      assert.equal(page.truncated, false);
      assert.equal(typeof page.extracted, 'boolean');
      // The page's own script is dropped by the conversion; script-like text stays text for the panel to show as text.
      assert.doesNotMatch(page.excerpt, /pwned/);
      assert.match(page.excerpt, /Paragraph 0 <script\\?>alert\(0\)<\/script\\?>/);
      assert.ok(page.excerpt.endsWith('\n…'));
      assert.ok(page.excerpt.split('\n').length <= 13);
      assert.deepEqual(targets[page.target], { kind: 'url', url: server.url('/page') });
    } finally {
      await server.close();
    }
  });

  it('falls back to the model text for a value of unknown shape', () => {
    const run = doneRun('grep', { pattern: 'x' }, { text: 'one\ntwo', value: { something: 'else' }, summary: { truncated: false } });
    assert.deepEqual(buildCard(run).card.body, { kind: 'text', text: 'one\ntwo' });
  });

  it('shows running, failed and cancelled runs without a body', () => {
    const base: ToolRun = { id: 'r2', tool: 'grep', input: { pattern: '[' }, source: 'agent', status: 'running', startedAt: 1, progress: 'searching…' };
    assert.equal(buildCard(base).card.progress, 'searching…');
    assert.deepEqual(buildCard(base).card.body, { kind: 'none' });
    const failed: ToolRun = { ...base, status: 'error', error: { code: 'SEARCH_INVALID_PATTERN', message: 'bad regex' }, text: 'Error: bad regex' };
    const card = buildCard(failed).card;
    assert.equal(card.progress, undefined);
    assert.deepEqual(card.error, { code: 'SEARCH_INVALID_PATTERN', message: 'bad regex', summary: 'The pattern is not valid.' });
    assert.equal(card.hasText, true);
  });

  it('describes odd inputs without throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const card = buildCard({ id: 'r3', tool: 'glob', input: { a: 'x'.repeat(1000), b: [1, 2], c: cyclic }, source: 'agent', status: 'error', startedAt: 1 }).card;
    assert.equal(card.args[0]!.value.length, 201);
    assert.equal(card.args[1]!.value, '[1,2]');
    assert.equal(card.args[2]!.value, '[object Object]');
    assert.deepEqual(buildCard({ id: 'r4', tool: 'glob', input: 'str', source: 'agent', status: 'error', startedAt: 1 }).card.args, [{ name: 'input', value: '"str"' }]);
  });
});

describe('panel cards show the model’s view', () => {
  /** A tree shaped like a real repository's: the oldest files all under src/, then test/ and node_modules/. */
  let tree: string;
  before(() => {
    const entries: Record<string, string> = {};
    for (let i = 0; i < 40; i++) entries[`src/s${String(i).padStart(2, '0')}.ts`] = 'x\n';
    for (let i = 0; i < 15; i++) entries[`test/t${String(i).padStart(2, '0')}.ts`] = 'x\n';
    for (let i = 0; i < 15; i++) entries[`node_modules/pkg/n${String(i).padStart(2, '0')}.js`] = 'x\n';
    tree = makeTree(entries);
    Object.keys(entries).forEach((rel, i) => setMtime(tree, rel, 1_600_000_000 + i * 60));
  });
  after(() => removeTree(tree));

  /** The paths the model's text lists: the lines before the first blank line. */
  const pageOf = (text: string) => text.slice(0, text.indexOf('\n\n')).split('\n');

  it('lists exactly the sampled page the model got, then how many more the full result holds', async () => {
    const input = { pattern: '*' };
    const globEnv = searchEnv({ folders: [folder(tree)], search: { globMaxResults: 12 }, spill: memorySpill() });
    const output = await globTool.run(globTool.parse(input, globEnv.config), globEnv);
    const files = body(buildCard(doneRun('glob', input, output)).card.body, 'files');
    const modelPage = pageOf(output.text);
    assert.equal(modelPage.length, 12);
    // The sample reaches all three folders; the head of the list would be src/ only.
    assert.ok(['src/', 'test/', 'node_modules/'].every((dir) => modelPage.some((p) => p.startsWith(dir))), modelPage.join(' '));
    assert.deepEqual(files.files.map((f) => f.path), modelPage);
    assert.equal(files.more, '58 more files in the full result');
    assert.match(output.text, /\[58 more files not shown\./);
  });

  it('lists the head the model got when sampling is off', async () => {
    const input = { pattern: '*' };
    const globEnv = searchEnv({ folders: [folder(tree)], search: { globMaxResults: 12, sampleOverCapGlobResults: false } });
    const output = await globTool.run(globTool.parse(input, globEnv.config), globEnv);
    const files = body(buildCard(doneRun('glob', input, output)).card.body, 'files');
    assert.deepEqual(files.files.map((f) => f.path), pageOf(output.text));
    assert.ok(files.files.every((f) => f.path.startsWith('src/')));
  });

  it('lists a whole page longer than a grep card, as the model got it', async () => {
    const input = { pattern: '*' };
    const globEnv = searchEnv({ folders: [folder(tree)], search: { globMaxResults: MAX_CARD_ROWS + 5 } });
    const output = await globTool.run(globTool.parse(input, globEnv.config), globEnv);
    const files = body(buildCard(doneRun('glob', input, output)).card.body, 'files');
    assert.deepEqual(files.files.map((f) => f.path), pageOf(output.text));
    assert.equal(files.more, '5 more files in the full result');
  });
});

describe('panel card rows on long lines', () => {
  let tree: string;
  const far = `${'const filler = 1; '.repeat(12)}needle here, needle there${' // tail'.repeat(60)}`;
  before(() => {
    tree = makeTree({ 'long.ts': `short needle\n${far}\n` });
  });
  after(() => removeTree(tree));

  const rowsOf = (b: CardBody) => body(b, 'files').files.flatMap((f) => f.lines);

  it('shows a window around grep’s first match, with … on each side and every match in it highlighted', async () => {
    const input = { pattern: 'needle' };
    const output = await grepTool.run(grepTool.parse(input, defaultConfig()), env(tree));
    const rows = rowsOf(buildCard(doneRun('grep', input, output)).card.body);
    assert.equal(rows[0]!.preview, 'short needle');
    const row = rows[1]!;
    assert.ok(far.indexOf('needle') > 200, 'the match is past where a plain row would be cut');
    assert.ok(row.preview.startsWith('…') && row.preview.endsWith('…'), row.preview);
    assert.deepEqual(marked(row), ['needle', 'needle']);
    assert.ok(row.highlights[0]!.start <= 1 + CONTEXT_BEFORE_MATCH);
  });

  it('does the same for workspace_search, whose report gives only the first match', async () => {
    const input = { query: 'NEEDLE' };
    const output = await workspaceSearchTool.run(workspaceSearchTool.parse(input, defaultConfig()), env(tree));
    const rows = rowsOf(buildCard(doneRun('workspace_search', input, output)).card.body);
    assert.deepEqual(marked(rows[0]!), ['needle']);
    const row = rows[1]!;
    assert.ok(row.preview.startsWith('…') && row.preview.endsWith('…'), row.preview);
    assert.deepEqual(marked(row), ['needle', 'needle']);
    assert.ok(row.highlights[0]!.start <= 1 + CONTEXT_BEFORE_MATCH);
  });
});

describe('panel error cards', () => {
  const failedRun = (tool: ToolName, e: unknown): ToolRun => {
    assert.ok(isToolError(e), String(e));
    return { id: 'e1', tool, input: {}, source: 'agent', status: 'error', startedAt: 1, durationMs: 2, error: { code: e.code, message: e.message }, text: formatToolError(e) };
  };

  it('offers Set API key when web_search has no key for its provider', async () => {
    const config = { ...defaultConfig().webSearch, provider: 'tavily' as const };
    const error = await selectProvider(config, async () => undefined).then(() => undefined, (e: unknown) => e);
    const card = buildCard(failedRun('web_search', error)).card;
    assert.equal(card.error?.fix, 'setApiKey');
    assert.equal(card.error?.summary, 'Web search needs a valid API key for its provider.');
    assert.equal(card.error?.code, 'WEB_PROVIDER_UNCONFIGURED');
    assert.match(card.error!.message, /Scout has none/);
  });

  it('offers no key for a web_search error a key cannot fix', async () => {
    const config = { ...defaultConfig().webSearch, provider: 'searxng' as const };
    const error = await selectProvider(config, async () => undefined).then(() => undefined, (e: unknown) => e);
    const card = buildCard(failedRun('web_search', error)).card;
    assert.equal(card.error?.fix, undefined);
    assert.equal(card.error?.summary, 'Web search is not set up yet.');
  });

  it('puts a person’s summary above the model’s message of a real grep error', async () => {
    // In a folder of its own: grep also searches an invalid regex as literal text, and the whole temp folder
    // (integration runs leave editor profiles there) took longer than the test's bound on a busy machine.
    const root = makeTree({ 'a.txt': 'no such text\n' });
    const error = await grepTool.run(grepTool.parse({ pattern: 'nowhere(b' }, defaultConfig()), env(root)).then(() => undefined, (e: unknown) => e).finally(() => removeTree(root));
    const card = buildCard(failedRun('grep', error)).card;
    assert.equal(card.error?.summary, 'The pattern is not valid.');
    assert.equal(card.error?.code, 'SEARCH_INVALID_PATTERN');
    assert.equal(card.error?.fix, undefined);
  });

  it('summarises a code it does not know', () => {
    const card = buildCard({ id: 'e2', tool: 'glob', input: {}, source: 'agent', status: 'error', startedAt: 1, error: { code: 'FUTURE_CODE', message: 'm' } }).card;
    assert.equal(card.error?.summary, 'The call failed.');
  });
});

describe('stored run values', () => {
  it('cuts arrays and strings at any depth and keeps everything else', () => {
    const value = { matches: Array.from({ length: 1000 }, (_, i) => ({ path: `f${i}`, line: 'y'.repeat(30_000), n: i, ok: true, none: null })) };
    const bounded = boundValue(value) as typeof value;
    assert.equal(bounded.matches.length, 200);
    assert.equal(bounded.matches[199]!.line.length, 20_000);
    assert.deepEqual({ ...bounded.matches[3], line: '' }, { path: 'f3', line: '', n: 3, ok: true, none: null });
  });
});
