import * as assert from 'node:assert/strict';
import * as z from 'zod/mini';
import { isToolError } from '../../../src/core/errors';
import { includeProblem } from '../../../src/core/search/arguments';
import { globInputSchema, globTool } from '../../../src/core/search/glob';
import { grepInputSchema, grepTool } from '../../../src/core/search/grep';
import { folder, runTool, searchConfig } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

const config = searchConfig();

function argumentError(parse: () => unknown): string {
  try {
    parse();
  } catch (e) {
    assert.ok(isToolError(e), String(e));
    assert.equal(e.code, 'INVALID_ARGUMENT');
    return e.message;
  }
  assert.fail('expected INVALID_ARGUMENT');
}

describe('glob and grep arguments', () => {
  describe('include: one positive glob', () => {
    const accepted = ['*.ts', '*.{ts,tsx}', 'src/**/*.test.ts', '{a,b}/{c,d}.md', '[,]x', '\\,literal', 'a[!b]c', '[],x]', 'file name.txt', 'x!'];
    for (const glob of accepted) it(`accepts ${JSON.stringify(glob)}`, () => assert.equal(includeProblem(glob), undefined));

    const rejected: [string, RegExp][] = [
      ['*.ts,*.tsx', /ONE glob, not a comma-separated list.*\*\.\{ts,tsx\}/],
      ['*.ts, *.js', /comma-separated/],
      ['{a,b},c', /comma-separated/],
      ['[a],b', /comma-separated/],
      ['!*.test.ts', /exclusion/],
      ['!node_modules', /exclusion/],
      ['', /must not be blank/],
      ['   ', /must not be blank/],
      ['a\0b', /NUL/],
      ['*'.repeat(10_001), /longer than 10000 characters/],
    ];
    for (const [glob, message] of rejected) {
      it(`rejects ${JSON.stringify(glob)}`, () => assert.match(argumentError(() => grepTool.parse({ pattern: 'x', include: glob }, config)), message));
    }
  });

  it('accepts the documented shapes', () => {
    assert.deepEqual(globTool.parse({ pattern: '**/*.md', path: 'docs' }, config), { pattern: '**/*.md', path: 'docs' });
    assert.deepEqual(grepTool.parse({ pattern: '-1' }, config), { pattern: '-1' });
    assert.deepEqual(grepTool.parse({ pattern: 'TODO', path: '-dir', include: '*.ts' }, config), { pattern: 'TODO', path: '-dir', include: '*.ts' });
  });

  const invalid: [string, unknown, RegExp][] = [
    ['a missing pattern', {}, /^pattern: is required/],
    ['a blank pattern', { pattern: '  ' }, /^pattern must not be blank/],
    ['a NUL in the pattern', { pattern: 'a\0' }, /NUL/],
    ['a non-string pattern', { pattern: 3 }, /^pattern: must be a string/],
    ['an empty path', { pattern: 'x', path: '' }, /^path must not be blank/],
    ['a NUL in the path', { pattern: 'x', path: 'a\0b' }, /NUL/],
    ['an unknown key', { pattern: 'x', head_limit: 10 }, /unknown argument "head_limit"/],
    ['an array instead of an object', ['x'], /JSON object/],
    ['a null path', { pattern: 'x', path: null }, /^path: must be a string/],
    ['a pattern too long for an argv string', { pattern: 'x'.repeat(200_000) }, /^pattern is longer than 10000 characters/],
    ['a path too long', { pattern: 'x', path: 'a/'.repeat(6000) }, /^path is longer than 10000 characters\. Give the directory or file to search/],
  ];
  for (const [name, input, message] of invalid) {
    it(`rejects ${name} for both tools`, () => {
      assert.match(argumentError(() => globTool.parse(input, config)), message);
      assert.match(argumentError(() => grepTool.parse(input, config)), message);
    });
  }

  // ["*.ts","*.md"] for include (the schema says string) got only "include: must be a string.".
  describe('a glob given as a list of strings', () => {
    it('suggests the one brace glob built from its values, for include and for glob\'s pattern', () => {
      assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include: ['*.ts', '*.md'] }, config)), 'include: must be ONE glob as a string, not a list of 2. Put them in one glob with brace alternation: "*.{ts,md}".');
      assert.equal(argumentError(() => globTool.parse({ pattern: ['*.ts', '*.md'] }, config)), 'pattern: must be ONE glob as a string, not a list of 2. Put them in one glob with brace alternation: "*.{ts,md}".');
      assert.match(argumentError(() => grepTool.parse({ pattern: 'x', include: ['src/**', '*.md'] }, config)), /brace alternation: "\{src\/\*\*,\*\*\/\*\.md\}"\.$/);
      assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include: ['*.ts'] }, config)), 'include: must be a string, not a list. Give the glob itself: "*.ts".');
    });

    it('keeps the plain message for other wrong types, and for grep\'s pattern (a regex)', () => {
      assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include: 5 }, config)), 'include: must be a string.');
      assert.equal(argumentError(() => grepTool.parse({ pattern: ['a', 'b'] }, config)), 'pattern: must be a string.');
      assert.equal(argumentError(() => globTool.parse({}, config)), 'pattern: is required (string).');
    });

    it('suggests braces built from a comma list of other globs too', () => {
      assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include: 'src/**,*.md' }, config)), 'include must be ONE glob, not a comma-separated list ("src/**,*.md"). Use brace alternation instead: "{src/**,**/*.md}". A comma that is part of a file name is escaped: "src/**\\\\,*.md".');
    });

    // Both suggested the made-up "*.{ts,txt}", which drops globs and adds .txt: a silently narrower search.
    it('keeps every glob of a list whose items hold braces or commas, and adds none', () => {
      assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include: ['*.{ts,md}', '*.py'] }, config)), 'include: must be ONE glob as a string, not a list of 2. Put them in one glob with brace alternation: "*.{ts,md,py}".');
      // In a JSON list a comma is part of a name, as rg reads it: "*,ts" split into "*" matched every file.
      assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include: ['*,ts', '*.md'] }, config)), 'include: must be ONE glob as a string, not a list of 2. Put them in one glob with brace alternation: "{*\\\\,ts,*.md}".');
      assert.equal(argumentError(() => globTool.parse({ pattern: ['*.{ts,md}', '*.py'] }, config)), 'pattern: must be ONE glob as a string, not a list of 2. Put them in one glob with brace alternation: "*.{ts,md,py}".');
      assert.equal(argumentError(() => globTool.parse({ pattern: ['src/{a,b}/*.ts', 'docs/**'] }, config)), 'pattern: must be ONE glob as a string, not a list of 2. Put them in one glob with brace alternation: "{src/a/*.ts,src/b/*.ts,docs/**}".');
      assert.match(argumentError(() => grepTool.parse({ pattern: 'x', include: '*.{ts,md},*.py' }, config)), /^include must be ONE glob, not a comma-separated list \("\*\.\{ts,md\},\*\.py"\)\. Use brace alternation instead: "\*\.\{ts,md,py\}"\. /);
      // rg drops an empty alternative, so "*.{ts,}" is "*.ts" and "*." is not added.
      assert.match(argumentError(() => grepTool.parse({ pattern: 'x', include: ['*.{ts,}', '*.md'] }, config)), /brace alternation: "\*\.\{ts,md\}"\.$/);
    });

    it('suggests the one glob it builds, and that glob finds what each item finds', async () => {
      const root = makeTree({ 'ws/a.ts': '', 'ws/b.md': '', 'ws/c.py': '', 'ws/d.txt': '', 'ws/ts': '', 'ws/e,ts': '', 'ws/docs/r.md': '', 'ws/lib/p.py': '', 'ws/src/x/y.ts': '', 'ws/src/z.txt': '' });
      try {
        const cases = [
          [['*.{ts,md}', '*.py'], ['a.ts', 'b.md', 'c.py', 'docs/r.md', 'lib/p.py', 'src/x/y.ts']],
          [['*,ts', '*.md'], ['b.md', 'docs/r.md', 'e,ts']],
          // A folder given with its "/": "docs/" and "lib/" gave "{docs/,lib/}", which matched nothing.
          [['docs/', 'lib/'], ['docs/r.md', 'lib/p.py']],
          // A bare name matches files of that name only; the suggestion says so (below).
          [['src', '*.md'], ['b.md', 'docs/r.md']],
        ] as const;
        for (const [items, expected] of cases) {
          const glob = /brace alternation: ("(?:[^"\\]|\\.)*")\./.exec(argumentError(() => globTool.parse({ pattern: items }, config)))![1]!;
          const out = await runTool(globTool, { pattern: JSON.parse(glob) as string }, { folders: [folder(`${root}/ws`)] });
          assert.deepEqual([...out.value.paths].sort(), expected, glob);
        }
      } finally {
        removeTree(root);
      }
    });

    // "src" alone is read as the files under the folder src; inside braces it matches only files named src.
    it('says that a name without a wildcard matches only files of that name inside braces, and how to get a folder\'s files', () => {
      assert.equal(
        argumentError(() => globTool.parse({ pattern: ['src', 'x.d', '*.md'] }, config)),
        'pattern: must be ONE glob as a string, not a list of 3. Put them in one glob with brace alternation: "{src,x.d,*.md}". Inside braces "src", "x.d" match only files of that name, not the files in a folder of that name: for those, write "src/**".',
      );
      assert.doesNotMatch(argumentError(() => globTool.parse({ pattern: ['*.ts', 'docs/'] }, config)), /Inside braces/);
      assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include: [' '] }, config)), 'include: must be a string, not a list. Leave include out to search every file, or give one glob, such as "*.ts".');
    });

    it('says why no one glob means the list, and what to do instead, never a made-up example', () => {
      // "*,ts" was split into "*" and "ts": "{*,ts}" matches every file.
      assert.match(argumentError(() => grepTool.parse({ pattern: 'x', include: '*,ts' }, config)), /No one glob means the same: split at its commas it holds "\*", which matches every file\. Give the globs you meant \("\.ts" files are "\*\.ts"\)\. A comma that is part of a file name is escaped: "\*\\\\,ts"\.$/);
      const include = (value: unknown) => argumentError(() => grepTool.parse({ pattern: 'x', include: value }, config));
      const list = 'include: must be ONE glob as a string, not a list of 2. No one glob means the same:';
      // An absolute path inside braces matches nothing: "{**/*.ts,/tmp/ws/weird/*.txt}" found only the .ts files.
      assert.equal(include(['**/*.ts', '/tmp/ws/weird/*.txt']), `${list} "/tmp/ws/weird/*.txt" starts with "/", which Scout reads only in a glob of its own: inside braces it would match nothing. Make one call per glob. Or give paths relative to the workspace folder.`);
      assert.equal(include(['../lib/*.ts', '*.md']), `${list} "../lib/*.ts" holds a ".", ".." or empty ("//") segment, which Scout reads only in a glob of its own: inside braces it would match nothing. Make one call per glob. Or give paths relative to the workspace folder.`);
      assert.match(include(['./src/*.ts', '*.md']), /"\.\/src\/\*\.ts" holds a "\.", "\.\." or empty/);
      assert.match(include(['src//*.ts', '*.md']), /"src\/\/\*\.ts" holds a "\.", "\.\." or empty/);
      assert.equal(include(['*.ts', '!*.test.ts']), `${list} "!*.test.ts" is an exclusion ("!…"), and a glob cannot exclude. Give only the globs of the files you want.`);
      assert.equal(include(['*.{a,b,c,d,e,f,g,h}{1,2,3,4,5,6,7,8}', '*.md']), `${list} with their braces expanded they are more than 64 globs, the most Scout puts in one alternation. Make one call per glob.`);
      assert.equal(include(['*.{ts', '*.md']), `${list} "*.{ts" has a "{" that is never closed. Close it, or escape it as "\\{".`);
      assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include: '**/*.ts,/tmp/ws/weird/*.txt' }, config)), 'include must be ONE glob, not a comma-separated list ("**/*.ts,/tmp/ws/weird/*.txt"). No one glob means the same: "/tmp/ws/weird/*.txt" starts with "/", which Scout reads only in a glob of its own: inside braces it would match nothing. Make one call per glob. Or give paths relative to the workspace folder. A comma that is part of a file name is escaped: "**/*.ts\\\\,/tmp/ws/weird/*.txt".');
      assert.match(argumentError(() => globTool.parse({ pattern: '*.ts,!*.d.ts' }, config)), /No one glob means the same: "!\*\.d\.ts" is an exclusion/);
      for (const message of [include(['**/*.ts', '/tmp/ws/weird/*.txt']), include(['*.ts', '!*.test.ts'])]) assert.doesNotMatch(message, /txt\}|\{ts,txt/);
    });

    // [] and a list holding a non-string got only "must be a string.", with no next step.
    it('gives the next step for an empty list and for a list holding a non-string', () => {
      assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include: [] }, config)), 'include: must be a string, not an empty list. Leave include out to search every file, or give one glob, such as "*.ts".');
      assert.equal(argumentError(() => globTool.parse({ pattern: [] }, config)), 'pattern: must be a string, not an empty list. Give one glob, such as "*.ts".');
      for (const include of [['*.ts', 5], [1, 2]]) {
        assert.equal(argumentError(() => grepTool.parse({ pattern: 'x', include }, config)), 'include: must be ONE glob as a string, not a list. Give one glob; brace alternation puts several in one ("{a,b}").');
      }
      assert.equal(argumentError(() => globTool.parse({ pattern: ['*.ts', 5] }, config)), 'pattern: must be ONE glob as a string, not a list. Give one glob; brace alternation puts several in one ("{a,b}").');
    });
  });

  describe("glob's pattern: one positive glob, like grep's include", () => {
    it('rejects "!*.ts", which rg would read as every file except .ts', () => {
      const message = argumentError(() => globTool.parse({ pattern: '!*.ts' }, config));
      assert.equal(message, 'pattern must be one positive glob; "!*.ts" is an exclusion ("!…"), which is not supported. Name the files to list instead.');
    });
    it('rejects "*.ts,*.txt", which rg would read as one glob containing a comma, and suggests "*.{ts,txt}"', () => {
      const message = argumentError(() => globTool.parse({ pattern: '*.ts,*.txt' }, config));
      assert.equal(message, 'pattern must be ONE glob, not a comma-separated list ("*.ts,*.txt"). Use brace alternation instead: "*.{ts,txt}". A comma that is part of a file name is escaped: "*.ts\\\\,*.txt".');
    });
    it('accepts brace alternation, a class holding a comma, and a "!" not at the start', () => {
      for (const pattern of ['*.{ts,txt}', '[,]x', 'a[!b]c', 'x!']) assert.deepEqual(globTool.parse({ pattern }, config), { pattern });
    });
    it("keeps grep's pattern a regex: a leading ! and commas are ordinary characters there", () => {
      assert.deepEqual(grepTool.parse({ pattern: '!a,b' }, config), { pattern: '!a,b' });
    });
    it('quotes at most 200 characters of the value', () => {
      const message = argumentError(() => globTool.parse({ pattern: `!${'x'.repeat(9_000)}` }, config));
      assert.ok(message.includes(`"!${'x'.repeat(199)}"…`), message.slice(0, 300));
      assert.ok(message.length < 400, `${message.length} characters`);
    });
  });

  it('names the argument and gives advice that fits it when a value is too long', () => {
    const long = '*'.repeat(10_001);
    const messages = [
      argumentError(() => globTool.parse({ pattern: long }, config)),
      argumentError(() => grepTool.parse({ pattern: long }, config)),
      argumentError(() => grepTool.parse({ pattern: 'x', path: long }, config)),
      argumentError(() => grepTool.parse({ pattern: 'x', include: long }, config)),
    ];
    assert.match(messages[0]!, /^pattern is longer than 10000 characters\. Use a shorter glob/);
    assert.match(messages[1]!, /^pattern is longer than 10000 characters\. Use a shorter regular expression/);
    assert.match(messages[2]!, /^path is longer than 10000 characters\. Give the directory or file to search/);
    assert.match(messages[3]!, /^include is longer than 10000 characters\. Use a shorter glob/);
    for (const message of messages.slice(2)) assert.doesNotMatch(message, /pattern/);
  });

  describe('deeply nested braces', () => {
    const nested = (levels: number) => `${'{a,'.repeat(levels)}b${'}'.repeat(levels)}`;
    for (const levels of [2000, 500, 33]) {
      it(`refuses ${levels} levels of { } in a glob pattern and in an include with the bound, never a stack trace`, () => {
        for (const message of [argumentError(() => globTool.parse({ pattern: nested(levels) }, config)), argumentError(() => grepTool.parse({ pattern: 'x', include: nested(levels) }, config))]) {
          assert.match(message, /^(pattern|include) nests \{ \} alternations more than 32 levels deep, the most Scout accepts\. Use a flatter glob/);
          assert.doesNotMatch(message, /at |\.ts:|stack/i);
        }
      });
    }
    it('counts unclosed braces too, and leaves escaped ones and those in a class alone', () => {
      assert.match(argumentError(() => globTool.parse({ pattern: '{'.repeat(2000) }, config)), /more than 32 levels deep/);
      assert.deepEqual(globTool.parse({ pattern: '\\{'.repeat(2000) }, config), { pattern: '\\{'.repeat(2000) });
      assert.deepEqual(globTool.parse({ pattern: '[{]'.repeat(2000) }, config), { pattern: '[{]'.repeat(2000) });
    });
  });

  it('rejects include on glob as an unknown argument', () => {
    assert.match(argumentError(() => globTool.parse({ pattern: '*', include: '*.ts' }, config)), /unknown argument "include"/);
  });

  it('describes every property for the model', () => {
    for (const [name, schema] of [['glob', globInputSchema], ['grep', grepInputSchema]] as const) {
      const json = z.toJSONSchema(schema) as { properties: Record<string, { description?: string }> };
      for (const [key, property] of Object.entries(json.properties)) {
        assert.ok((property.description ?? '').length > 40, `${name}.${key} has a description`);
      }
    }
  });
});
