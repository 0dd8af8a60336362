import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');

/** A tracker citation: the word issue (or issues) followed by a number, or a number in parentheses after "#". */
const TRACKER_CITATION = /\bissues? #?\d+|\(#\d+\)/i;

/** Calls whose first argument names a test or a group of tests. */
const TEST_NAMERS = new Set(['describe', 'context', 'it', 'specify', 'suite', 'test']);

/** Every TypeScript and JavaScript file under `dir` (absolute paths), skipping generated and installed trees. */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.') ? [] : codeFiles(full);
    return /\.(?:ts|mts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The comments of `text` and the names its describe/it calls give, each with its 1-based line. */
function commentsAndTestNames(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: { line: number; text: string }[] = [];
  const at = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line + 1;
  // Comments are trivia around the parsed nodes, so a `//` inside a string, template or regex is never one.
  const seen = new Set<number>();
  const visit = (node: ts.Node): void => {
    for (const range of [...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []), ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? [])]) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      found.push({ line: at(range.pos), text: text.slice(range.pos, range.end) });
    }
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.expression : node.expression;
      const first = node.arguments[0];
      if (ts.isIdentifier(callee) && TEST_NAMERS.has(callee.text) && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first) || ts.isTemplateExpression(first))) {
        found.push({ line: at(first.getStart()), text: first.getText() });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('comments give reasons, not tracker numbers', () => {
  it('no comment or test name in src/ or test/ cites an issue number', function () {
    this.timeout(60_000);
    const offences: string[] = [];
    for (const file of [...codeFiles(path.join(ROOT, 'src')), ...codeFiles(path.join(ROOT, 'test'))]) {
      for (const item of commentsAndTestNames(file, readFileSync(file, 'utf8'))) {
        const m = TRACKER_CITATION.exec(item.text);
        if (m) offences.push(`${path.relative(ROOT, file)}:${item.line}: "${m[0]}"`);
      }
    }
    assert.deepEqual(offences, [], 'say why instead of citing the tracker');
  });

  it('finds a citation in a comment and a test name, and not in test data', () => {
    const sample = [
      '/** Cards kept across reloads (issue 6). */',
      'const a = 1; // see Issues 4 and 11',
      "describe('web pages (#12)', () => {});",
      'const page = `<h2>Issue 12</h2>`;',
      "const title = 'Parser rewrite · Issue #12';",
    ].join('\n');
    const hits = commentsAndTestNames('sample.ts', sample).filter((c) => TRACKER_CITATION.test(c.text)).map((c) => c.line);
    assert.deepEqual(hits, [1, 2, 3]);
  });
});
