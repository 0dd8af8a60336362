import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';

const ROOT = path.resolve(__dirname, '../../..');
const markdown = new MarkdownIt('default');

/** The Markdown pages the repository documents itself with: README.md and every docs/*.md, repository-relative. */
function pages(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

type Token = MarkdownIt.Token;

/** One destination a page links to or shows. */
interface Destination {
  readonly kind: 'link' | 'image';
  readonly target: string;
}

/** Every token of `tokens`, inline children included, in document order. */
function flatten(tokens: readonly Token[]): Token[] {
  return tokens.flatMap((t) => [t, ...flatten(t.children ?? [])]);
}

/** The link and image destinations of a page as written (markdown-it's parse, so code blocks hold none). */
function destinations(page: string): Destination[] {
  return flatten(markdown.parse(readFileSync(path.join(ROOT, page), 'utf8'), {})).flatMap((t): Destination[] => {
    if (t.type === 'link_open') return [{ kind: 'link', target: String(t.attrGet('href') ?? '') }];
    if (t.type === 'image') return [{ kind: 'image', target: String(t.attrGet('src') ?? '') }];
    return [];
  });
}

/**
 * The anchors GitHub gives a page's headings: the heading's text (code spans without their backticks)
 * lower-cased, every character that is not a letter, digit, space, `-` or `_` dropped, spaces turned into
 * `-`, and `-1`, `-2`, … added to repeats.
 */
function anchors(page: string): Set<string> {
  const tokens = markdown.parse(readFileSync(path.join(ROOT, page), 'utf8'), {});
  const seen = new Map<string, number>();
  const result = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    const text = (tokens[i + 1].children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join('');
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  });
  return result;
}

/** A destination that leaves the repository (a URL with a scheme, or mail). */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

describe('documentation links', () => {
  it('finds README.md and the docs pages, and the slug rule gives GitHub\'s anchors', () => {
    assert.ok(pages().length >= 10, pages().join(', '));
    assert.ok(anchors('docs/benchmarks.md').has('in-the-editor-npm-run-benchhost'));
    assert.ok(anchors('docs/results.md').has('complete-results-over-cap'));
  });

  for (const page of pages()) {
    it(`every relative link and #anchor in ${page} resolves`, () => {
      const broken: string[] = [];
      for (const { kind, target } of destinations(page)) {
        if (isExternal(target)) continue;
        const [file, anchor] = target.split('#', 2) as [string, string | undefined];
        const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file)));
        const absolute = path.join(ROOT, resolved);
        if (resolved.startsWith('../') || !existsSync(absolute)) {
          broken.push(`${kind} ${target}: no file ${resolved}`);
          continue;
        }
        if (anchor !== undefined) {
          if (!resolved.endsWith('.md')) broken.push(`${kind} ${target}: an anchor into a file that is not Markdown`);
          else if (!anchors(resolved).has(anchor)) broken.push(`${kind} ${target}: ${resolved} has no heading "#${anchor}"`);
        }
        if (kind === 'image' && statSync(absolute).isDirectory()) broken.push(`image ${target}: a folder`);
      }
      assert.deepEqual(broken, []);
    });
  }

  it('every docs page is reachable from README.md or the docs index', () => {
    const linked = new Set(
      ['README.md', 'docs/README.md'].flatMap((page) =>
        destinations(page)
          .filter((d) => d.kind === 'link' && !isExternal(d.target))
          .map((d) => path.posix.normalize(path.posix.join(path.posix.dirname(page), d.target.split('#')[0]))),
      ),
    );
    assert.deepEqual(pages().filter((p) => p !== 'README.md' && p !== 'docs/README.md' && !linked.has(p)), []);
  });
});

describe('README.md', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const lines = readme.split('\n');

  it('can be read in five minutes: at most 300 lines', () => {
    assert.ok(lines.length <= 300, `${lines.length} lines`);
  });

  it('says what Scout is and gives the two commands in its first lines', () => {
    const top = lines.slice(0, 15).join('\n');
    assert.match(top, /Scout is a VS Code extension/);
    assert.match(top, /npm install && npm start/);
    assert.match(top, /^npm test\b/m);
  });

  it('shows its pictures as PNG files in media/, each under 150 KB', () => {
    const images = destinations('README.md').filter((d) => d.kind === 'image');
    for (const { target } of images) {
      assert.match(target, /^media\/[\w-]+\.png$/);
      assert.ok(statSync(path.join(ROOT, target)).size < 150 * 1024, `${target} is ${statSync(path.join(ROOT, target)).size} bytes`);
    }
  });
});
