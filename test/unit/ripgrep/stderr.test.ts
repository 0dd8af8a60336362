import * as assert from 'node:assert/strict';
import { readStderr, withToolAdvice } from '../../../src/core/ripgrep/stderr';

/**
 * rg's messages as rg 15 writes them (copied from real runs as an unprivileged user: a chmod 000 folder and
 * file, a path over PATH_MAX, ignore files with rules rg cannot parse).
 */
describe('readStderr (rg error output)', () => {
  it('sorts per-path messages from rg 15 into problems, whatever the message form', () => {
    const stderr = [
      'rg: ./lockedfile: Permission denied (os error 13)',
      'rg: ./locked: IO error for operation on ./locked: Permission denied (os error 13)',
      `rg: ./${'d'.repeat(250)}/e: Filename too long (os error 36)`,
      'rg: gone.txt: No such file or directory (os error 2)',
      'rg: ./sub/.ignore: line 1: error parsing glob \'SECRET{\': unclosed alternate group; missing \'}\' (maybe escape \'{\' with \'[{]\'?)',
      './sub/.ignore: line 2: error parsing glob \'ALSO_SECRET{\': unclosed alternate group; missing \'}\' (maybe escape \'{\' with \'[{]\'?)',
      'rg: /outside/.git/worktrees/wt/../../info/exclude: line 1: error parsing glob \'TOKEN{\': unclosed alternate group',
      'rg: ./odd: Input/output error (os error 5)',
      '',
    ].join('\n');
    const reading = readStderr(stderr, false, ['.']);
    assert.deepEqual(reading.other, []);
    assert.equal(reading.problemsCut, false);
    assert.deepEqual(reading.problems, [
      { path: 'lockedfile', reason: 'permission denied' },
      { path: 'locked', reason: 'permission denied' },
      { path: `${'d'.repeat(250)}/e`, reason: 'name too long' },
      { path: 'gone.txt', reason: 'not found' },
      { path: 'sub/.ignore', reason: 'ignore file rule not applied', line: 1 },
      { path: '/outside/.git/worktrees/wt/../../info/exclude', reason: 'ignore file rule not applied', line: 1 },
      { path: 'odd', reason: 'read error' },
    ]);
    assert.doesNotMatch(JSON.stringify(reading.problems), /SECRET|TOKEN/, 'no ignore-file content survives');
  });

  it('keeps a path that holds a newline or ": " whole', () => {
    const reading = readStderr('rg: ./a\nrg: b: c: Permission denied (os error 13)\n', false, ['.']);
    assert.deepEqual(reading.problems, [{ path: 'a\nrg: b: c', reason: 'permission denied' }]);
  });

  // Real rg 15 lines: its warning of a search without a path, and the ignore files of two folders above the
  // search path "s2/sub" (absolute, in one message whose later lines have no "rg: ").
  const WARNING = "rg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.";
  it('reads a line without a path on its own, never as the start of the path after it', () => {
    const reading = readStderr(`${WARNING}\nrg: ./locked: Permission denied (os error 13)\n${WARNING}\nrg: ./.rgignore: line 1: error parsing glob 'a{': unclosed alternate group\n`, false, ['.']);
    assert.deepEqual(reading.problems, [
      { path: 'locked', reason: 'permission denied' },
      { path: '.rgignore', reason: 'ignore file rule not applied', line: 1 },
    ]);
    assert.deepEqual(reading.other, [WARNING, WARNING]);
    assert.deepEqual(readStderr(`${WARNING}\nrg: src/locked: Permission denied (os error 13)\n`, false, ['src']).problems, [{ path: 'src/locked', reason: 'permission denied' }]);
    assert.deepEqual(readStderr('rg: src/a\nrg: b: Permission denied (os error 13)\n', false, ['src']).problems, [{ path: 'src/a\nrg: b', reason: 'permission denied' }], 'a path under the search path "src" that holds "\\nrg: "');
  });

  it('names each ignore file of a message on its own, once', () => {
    const stderr = [
      "rg: /tmp/ws/.rgignore: line 1: error parsing glob 'a{': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)",
      "/tmp/ws/s2/.rgignore: line 1: error parsing glob 'x\\': dangling '\\'",
      "/tmp/ws/s2/.ignore: line 1: error parsing glob 'x\\': dangling '\\'",
      "/tmp/ws/s2/.ignore: line 4: error parsing glob 'y{': unclosed alternate group",
      '',
    ].join('\n');
    assert.deepEqual(readStderr(stderr, false, ['s2/sub']).problems, [
      { path: '/tmp/ws/.rgignore', reason: 'ignore file rule not applied', line: 1 },
      { path: '/tmp/ws/s2/.rgignore', reason: 'ignore file rule not applied', line: 1 },
      { path: '/tmp/ws/s2/.ignore', reason: 'ignore file rule not applied', line: 1 },
    ]);
  });

  it('leaves rg\'s own errors apart, and skips the first, cut message of a truncated stderr when it ends like a problem', () => {
    const reading = readStderr("ied (os error 13)\nrg: ./x: Permission denied (os error 13)\nrg: regex parse error:\n    (\n    ^\nerror: unclosed group\n", true, ['.']);
    assert.deepEqual(reading.problems, [{ path: 'x', reason: 'permission denied' }]);
    assert.deepEqual(reading.other, ['rg: regex parse error:\n    (\n    ^\nerror: unclosed group']);
    assert.equal(reading.problemsCut, true);
    assert.deepEqual(readStderr('xx)\n    ^\nerror: unclosed group\n', true, ['.']).other, ['xx)\n    ^\nerror: unclosed group'], 'the cut end of a regex error stays an error');
  });
});

describe('withToolAdvice (rg hints that name rg flags)', () => {
  it('replaces each known hint with advice in terms of the tool arguments', () => {
    const multiline = withToolAdvice('rg: the literal "\\n" is not allowed in a regex\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.');
    assert.equal(multiline, 'rg: the literal "\\n" is not allowed in a regex\n\ngrep matches one line at a time, so a pattern cannot match a line break: search for one line of the text (its first line, say), then read the file at the reported line to see what follows.');
  });

  it('drops any other line of rg prose that names a flag, and keeps the indented echo of the pattern', () => {
    assert.equal(withToolAdvice('rg: some error\nRunning with --debug will show why.\n    --pre=x(\n    ^'), 'rg: some error\n    --pre=x(\n    ^');
  });
});
