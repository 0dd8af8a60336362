import * as assert from 'node:assert/strict';
import { buildReport, type WorkspaceSearchMatch } from '../../../src/core/workspaceSearch/report';
import type { ScanOutcome } from '../../../src/core/workspaceSearch/report';

const CAP = 128 * 1024;
const header = { query: 'needle', caseSensitive: false, maxResults: 100, workspaceFolder: 'ws', path: '.' };

function outcome(matches: WorkspaceSearchMatch[], reasons: ScanOutcome['reasons'] = []): ScanOutcome {
  return {
    matches,
    filesFound: 1,
    scannedFiles: 1,
    skippedFiles: 0,
    skippedFileReasons: {},
    directories: 1,
    entries: 1,
    skippedEntries: 0,
    unreadableDirectories: 0,
    readBytes: 10,
    reasons,
  };
}
const match = (i: number, preview: string): WorkspaceSearchMatch => ({ path: `src/file${i}.ts`, line: i + 1, column: 1, preview });

describe('workspace_search report', () => {
  it('is one JSON value: the text is exactly JSON.stringify(value)', () => {
    const { value, text } = buildReport(header, outcome([match(0, 'a needle')]));
    assert.equal(text, JSON.stringify(value));
    assert.deepEqual(JSON.parse(text), value);
    assert.equal(value.truncated, false);
    assert.deepEqual(value.truncatedBy, []);
    assert.equal(value.matchCount, 1);
    assert.equal(value.omittedMatches, 0);
  });

  it('sets truncated whenever any reason applies, in a fixed order', () => {
    const { value } = buildReport(header, outcome([], ['previewClipped', 'depth', 'skippedFiles']));
    assert.equal(value.truncated, true);
    assert.deepEqual(value.truncatedBy, ['depth', 'skippedFiles', 'previewClipped']);
  });

  it('drops matches from the end to stay within 128 KiB, and says how many', () => {
    // Control characters are escaped as \u00XX: six bytes of JSON for each code unit of preview.
    const matches = Array.from({ length: 100 }, (_, i) => match(i, `${'\u0001'.repeat(494)}needle`));
    const { value, text } = buildReport(header, outcome(matches));
    const bytes = Buffer.byteLength(text);
    assert.ok(bytes <= CAP, `${bytes} bytes`);
    assert.ok(value.omittedMatches > 0);
    assert.equal(value.matchCount, 100);
    assert.equal(value.matches.length + value.omittedMatches, 100);
    assert.deepEqual(value.matches, matches.slice(0, value.matches.length), 'a prefix is kept');
    assert.deepEqual(value.truncatedBy, ['reportSize']);
    assert.equal(text, JSON.stringify(value));
    // The largest prefix that fits: one more match would pass the cap.
    const oneMore = { ...value, matches: matches.slice(0, value.matches.length + 1), omittedMatches: value.omittedMatches - 1 };
    assert.ok(Buffer.byteLength(JSON.stringify(oneMore)) > CAP);
  });

  it('counts UTF-8 bytes, not UTF-16 code units', () => {
    const matches = Array.from({ length: 100 }, (_, i) => match(i, '语'.repeat(450)));
    const { text, value } = buildReport(header, outcome(matches));
    assert.ok(text.length < CAP && Buffer.byteLength(text) <= CAP);
    assert.ok(value.omittedMatches > 0, '100 × 1,350 bytes of preview do not fit');
  });

  it('keeps a report that fits whole', () => {
    const matches = Array.from({ length: 100 }, (_, i) => match(i, 'x'.repeat(500)));
    const { value, text } = buildReport(header, outcome(matches));
    assert.equal(value.omittedMatches, 0);
    assert.ok(Buffer.byteLength(text) < CAP);
  });
});
