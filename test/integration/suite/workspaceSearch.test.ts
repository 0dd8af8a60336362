import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fixture, invokeText, KNOWN_FILES, scoutApi } from '../support';

/** The content of a fixture file (see KNOWN_FILES). */
const contentOf = (rel: string): string => KNOWN_FILES.find(([name]) => name === rel)![1];

describe('workspace_search as a language-model tool', () => {
  let root: string;
  before(async () => {
    await scoutApi();
    ({ root } = await fixture());
    // An installed package that mentions the query: workspace_search never enters node_modules.
    fs.mkdirSync(path.join(root, 'node_modules', 'pkg'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules', 'pkg', 'index.js'), 'exports.GREETING = "hi";\n');
  });
  after(() => fs.rmSync(path.join(root, 'node_modules'), { recursive: true, force: true }));

  it('reports every matching line of src/ as JSON, ignoring case, with the counts of what it read', async () => {
    const text = await invokeText('workspace_search', { query: 'greeting', path: 'src' });
    const folder = vscode.workspace.workspaceFolders![0]!.name;
    assert.deepEqual(JSON.parse(text), {
      query: 'greeting',
      caseSensitive: false,
      maxResults: 100,
      workspaceFolder: folder,
      path: 'src',
      matchCount: 3,
      omittedMatches: 0,
      truncated: false,
      truncatedBy: [],
      filesFound: 2,
      scannedFiles: 2,
      skippedFiles: 0,
      skippedFileReasons: {},
      // src and src/util; their entries are app.ts, util and strings.ts.
      directories: 2,
      entries: 3,
      skippedEntries: 0,
      unreadableDirectories: 0,
      readBytes: Buffer.byteLength(contentOf('src/app.ts')) + Buffer.byteLength(contentOf('src/util/strings.ts')),
      matches: [
        { path: 'src/app.ts', line: 1, column: 10, preview: "import { GREETING } from './util/strings';" },
        { path: 'src/app.ts', line: 4, column: 13, preview: '  return `${GREETING}, ${name}`;' },
        { path: 'src/util/strings.ts', line: 1, column: 14, preview: "export const GREETING = 'hello';" },
      ],
    });
  });

  it('takes regex and shell characters literally, and records the same report on the call’s card', async () => {
    const query = '`${GREETING}, ${name}`';
    const text = await invokeText('workspace_search', { query, caseSensitive: true, path: 'src' });
    const report = JSON.parse(text) as { matches: { path: string; line: number }[]; matchCount: number };
    assert.deepEqual(
      report.matches.map((m) => [m.path, m.line]),
      [['src/app.ts', 4]],
    );
    const run = (await scoutApi()).runs().find((r) => r.tool === 'workspace_search' && (r.input as { query?: string }).query === query);
    assert.ok(run, 'the call has no card in the run log');
    assert.equal(run.source, 'agent');
    assert.equal(run.status, 'done');
    assert.deepEqual(run.value, report);
    assert.deepEqual(run.summary, { matches: 1, files: 2, skipped: 0, truncated: false });
  });

  it('refuses a path in an excluded directory and a query over 256 characters with INVALID_ARGUMENT', async () => {
    const excluded = await invokeText('workspace_search', { query: 'GREETING', path: 'node_modules/pkg' });
    assert.match(excluded, /^Error: path "node_modules\/pkg" is inside "node_modules", a directory workspace_search never searches/);
    assert.match(excluded, /\(code: INVALID_ARGUMENT\)$/);
    assert.match(await invokeText('workspace_search', { query: 'q'.repeat(257) }), /\(code: INVALID_ARGUMENT\)$/);
  });
});
