import { GlobMatcher, type ByteSet, type GlobNode, type MatchGuard } from './globMatcher';

/**
 * ripgrep's glob syntax, as `--glob` reads it, in TypeScript: a parser that accepts and rejects what rg 15
 * does, and a matcher that decides what rg would.
 *
 * Scout needs this for grep's `include`. rg's own `--glob` is an *override*: a file or directory it matches is
 * searched even when it is hidden or git-ignored, which is not what `include` promises. So grep keeps
 * rg's walk (with every ignore and hidden rule) and applies `include` itself: rg gets only a file-name type and
 * directory pruning derived from the glob (see `search/include.ts`), and this matcher decides the rest.
 *
 * Semantics (ripgrep's `ignore` crate, `GitignoreBuilder::add_line`, then `globset` with `literal_separator`):
 * - a leading `#` makes the line a comment (Scout escapes it before it gets here, see `search/patterns.ts`);
 *   trailing whitespace is dropped unless escaped as `\ `;
 * - a leading `/` anchors the glob at the workdir; a glob with no other `/` matches the file name at any depth
 *   (it gets a `**\/` prefix); a trailing `/` matches directories only; a trailing `/**` matches what is
 *   inside a directory, not the directory;
 * - `*` and `?` never match `/`; `**` is recursive only as a whole path segment, elsewhere it is `*`;
 *   `[...]`, `[!...]`, `[^...]` classes (a `]` or `-` first is literal), `{a,b}` alternation (nested allowed,
 *   empty branches dropped), and `\` escaping any character.
 * - matching is on bytes (rg compiles the glob as a byte regex): `?` matches one byte, a class matches one
 *   byte, and a non-ASCII literal matches its UTF-8 bytes. {@link matchesPath} therefore compares the path's
 *   UTF-8 bytes.
 *
 * Only `/` separates path segments (as on Linux and macOS; rg on Windows also splits on `\`).
 */

/** A glob rg would reject. `message` is rg's reason, e.g. `unclosed character class; missing ']'`. */
export class GlobSyntaxError extends Error {
  override readonly name = 'GlobSyntaxError';
}

type Token =
  | { readonly kind: 'literal'; readonly char: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'star' }
  | { readonly kind: 'recursivePrefix' }
  | { readonly kind: 'recursiveSuffix' }
  | { readonly kind: 'recursiveZeroOrMore' }
  | { readonly kind: 'class'; readonly negated: boolean; readonly ranges: readonly (readonly [string, string])[] }
  | { readonly kind: 'alternates'; readonly branches: readonly Token[][] };

/** A parsed `--glob` value. */
export interface RipgrepGlob {
  /** The glob as given. */
  readonly source: string;
  /** True when it matches directories only (a trailing `/`): no file ever matches. */
  readonly onlyDirectories: boolean;
  /** True when it matches every path (`**`, `**\/*`…): no filter is needed. */
  readonly matchesEverything: boolean;
  /**
   * The directories (workdir-relative segments) every match lies under, from the glob's literal start:
   * `src/lib/**\/*.ts` → `['src', 'lib']`. Empty when the glob is not anchored or starts with a wildcard.
   */
  readonly literalDirectories: readonly string[];
  /**
   * A glob on file names alone (rg `--type-add` syntax) that every matching file's name satisfies, when there
   * is one: `src/**\/*.test.ts` → `*.test.ts`. `exact` when it decides alone (the glob has no directory part).
   */
  readonly fileName?: { readonly glob: string; readonly exact: boolean };
  /**
   * The automaton of the byte regex rg compiles, over a path's UTF-8 bytes as a latin1 string (see
   * {@link matchesPath}); its time is linear in the path.
   */
  readonly matcher: GlobMatcher;
}

/**
 * Parses `glob` the way rg parses the `--glob` value {@link keepTrailingWhiteSpace} makes of it (every search
 * passes globs so): as a gitignore line whose trailing white space is part of the glob.
 *
 * @throws GlobSyntaxError when rg would reject it (unclosed class or alternation, `}` without `{`, a reversed
 *   range, a trailing `\`); the message is rg's reason.
 */
export function parseRipgrepGlob(glob: string): RipgrepGlob {
  // GitignoreBuilder::add_line, its trim of trailing white space undone by keepTrailingWhiteSpace
  let line = glob;
  let anchored = false;
  if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
    anchored = line.startsWith('/');
  } else {
    // A leading "!" is refused before this point (include and pattern are one positive glob).
    if (line.startsWith('/')) {
      line = line.slice(1);
      anchored = true;
    }
  }
  let onlyDirectories = false;
  if (line.endsWith('/')) {
    onlyDirectories = true;
    line = line.slice(0, -1);
    if (line.endsWith('\\')) line = line.slice(0, -1);
  }
  let actual = line;
  if (!anchored && !line.includes('/') && !(actual.startsWith('**/') || actual === '**')) actual = `**/${actual}`;
  if (actual.endsWith('/**')) actual = `${actual}/*`;

  const tokens = new Parser(actual).parse();
  const everything = tokens.length === 1 && tokens[0]!.kind === 'recursivePrefix';
  const matcher = new GlobMatcher(everything ? { kind: 'repeat', set: ANY_BYTE } : toNode(tokens));
  return {
    source: glob,
    onlyDirectories,
    matchesEverything: !onlyDirectories && (everything || isRecursiveStar(tokens)),
    literalDirectories: literalDirectories(tokens),
    ...fileNamePart(tokens),
    matcher,
  };
}

/**
 * True when `glob` matches the workdir-relative file path `path` (`/`-separated, no `./`), as rg's `--glob`
 * would for a file. `rawBytes` are the name's exact bytes when it is not valid UTF-8 (`path` then holds the
 * lossy text). Time is linear in the path's length (see `globMatcher.ts`); `guard` runs every few thousand
 * steps and may throw to stop a long match (the call's cancellation or deadline).
 */
export function matchesPath(glob: RipgrepGlob, path: string, rawBytes?: Buffer, guard?: MatchGuard): boolean {
  if (glob.onlyDirectories) return false;
  if (glob.matchesEverything) return true;
  const bytes = rawBytes ? rawBytes.toString('latin1') : isAscii(path) ? path : Buffer.from(path, 'utf8').toString('latin1');
  return glob.matcher.matches(bytes, guard);
}

/**
 * `text` as a glob that matches exactly `text`: each character that glob syntax gives a meaning to is put in a
 * one-character class, which needs no escape character and reads the same on every platform (`[id]` →
 * `[[]id]`: a `]` outside a class is already literal). `/` stays the separator. Given to rg as a `--glob`
 * that it ends, it still needs {@link keepTrailingWhiteSpace}.
 */
export function escapeGlobLiteral(text: string): string {
  return text.replace(/[*?[{}\\,]/g, (c) => `[${c}]`);
}

/**
 * A `--glob` value that rg reads as `glob`, trailing white space included: rg reads the value as a line of a
 * gitignore file and drops its trailing White_Space (unless it ends with `\ `), so `"trail space.txt "`, a name
 * copied from a listing, would match `trail space.txt` instead. That white space goes in an alternation of one
 * (`trail space.txt{ }`), which rg keeps; not in a class, which rg matches byte by byte, so `[\u00a0]` would
 * match no name.
 */
export function keepTrailingWhiteSpace(glob: string): string {
  if (glob.endsWith('\\ ')) return glob;
  let kept = trimWhiteSpaceEnd(glob);
  if (kept === glob) return glob;
  const space = glob.slice(kept.length);
  // A backslash escaping the first of them (`x\<tab>`) would escape the brace instead; in braces it needs none.
  if (/(?:^|[^\\])(?:\\\\)*\\$/.test(kept)) kept = kept.slice(0, -1);
  return `${kept}{${space}}`;
}

/**
 * Unicode's White_Space characters, which Rust's `str::trim_end` drops (rg trims a glob with it). JavaScript's
 * `trimEnd` differs: it drops U+FEFF, which is not White_Space, and keeps U+0085, which is.
 */
const WHITE_SPACE = /^[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;

/** `text` without trailing White_Space, as Rust's `str::trim_end` leaves it. */
function trimWhiteSpaceEnd(text: string): string {
  let end = text.length;
  while (end > 0 && WHITE_SPACE.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

const ASCII = /^[\x00-\x7f]*$/;
function isAscii(text: string): boolean {
  return ASCII.test(text);
}

/** `**\/*` or `**` followed only by stars: any path. */
function isRecursiveStar(tokens: readonly Token[]): boolean {
  return tokens[0]?.kind === 'recursivePrefix' && tokens.length > 1 && tokens.slice(1).every((t) => t.kind === 'star');
}

/** A port of globset's parser (`Parser` in globset's glob.rs), token for token. */
class Parser {
  private readonly chars: string[];
  private index = 0;
  private prev: string | undefined;
  private cur: string | undefined;
  private readonly alternatesStack: number[] = [];
  private readonly branches: Token[][] = [[]];

  constructor(glob: string) {
    this.chars = [...glob];
  }

  parse(): Token[] {
    for (let c = this.bump(); c !== undefined; c = this.bump()) {
      switch (c) {
        case '?':
          this.push({ kind: 'any' });
          break;
        case '*':
          this.parseStar();
          break;
        case '[':
          this.parseClass();
          break;
        case '{':
          this.alternatesStack.push(this.branches.length);
          this.branches.push([]);
          break;
        case '}': {
          const start = this.alternatesStack.pop();
          if (start === undefined) throw new GlobSyntaxError("unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)");
          const alternates: Token = { kind: 'alternates', branches: this.branches.splice(start) };
          this.push(alternates);
          break;
        }
        case ',':
          if (this.alternatesStack.length === 0) this.push({ kind: 'literal', char: ',' });
          else this.branches.push([]);
          break;
        case '\\': {
          const next = this.bump();
          if (next === undefined) throw new GlobSyntaxError("dangling '\\'");
          this.push({ kind: 'literal', char: next });
          break;
        }
        default:
          this.push({ kind: 'literal', char: c });
      }
    }
    if (this.branches.length > 1) throw new GlobSyntaxError("unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)");
    return this.branches[0]!;
  }

  private bump(): string | undefined {
    this.prev = this.cur;
    this.cur = this.chars[this.index++];
    return this.cur;
  }

  private peek(): string | undefined {
    return this.chars[this.index];
  }

  private last(): Token[] {
    return this.branches[this.branches.length - 1]!;
  }

  private push(token: Token): void {
    this.last().push(token);
  }

  private parseStar(): void {
    const prev = this.prev;
    if (this.peek() !== '*') {
      this.push({ kind: 'star' });
      return;
    }
    this.bump();
    const twoStars = (): void => {
      this.push({ kind: 'star' });
      this.push({ kind: 'star' });
    };
    if (this.last().length === 0) {
      const next = this.peek();
      if (next !== undefined && next !== '/') {
        twoStars();
      } else {
        this.push({ kind: 'recursivePrefix' });
        this.bump();
      }
      return;
    }
    if (prev !== '/' && (this.branches.length <= 1 || (prev !== ',' && prev !== '{'))) {
      twoStars();
      return;
    }
    const next = this.peek();
    let isSuffix: boolean;
    if (next === undefined) {
      this.bump();
      isSuffix = true;
    } else if ((next === ',' || next === '}') && this.branches.length >= 2) {
      isSuffix = true;
    } else if (next === '/') {
      this.bump();
      isSuffix = false;
    } else {
      twoStars();
      return;
    }
    const popped = this.last().pop()!;
    if (popped.kind === 'recursivePrefix' || popped.kind === 'recursiveSuffix') this.push(popped);
    else this.push({ kind: isSuffix ? 'recursiveSuffix' : 'recursiveZeroOrMore' });
  }

  private parseClass(): void {
    let negated = false;
    if (this.peek() === '!' || this.peek() === '^') {
      this.bump();
      negated = true;
    }
    const ranges: [string, string][] = [];
    let first = true;
    let inRange = false;
    const extend = (c: string): void => {
      const range = ranges[ranges.length - 1]!;
      range[1] = c;
      if (codePoint(range[1]) < codePoint(range[0])) throw new GlobSyntaxError(`invalid range; '${range[0]}' > '${range[1]}'`);
    };
    for (;;) {
      const c = this.bump();
      if (c === undefined) throw new GlobSyntaxError("unclosed character class; missing ']'");
      if (c === ']') {
        if (!first) break;
        ranges.push([']', ']']);
      } else if (c === '-') {
        if (first) ranges.push(['-', '-']);
        else if (inRange) {
          extend('-');
          inRange = false;
        } else inRange = true;
      } else {
        if (inRange) extend(c);
        else ranges.push([c, c]);
        inRange = false;
      }
      first = false;
    }
    if (inRange) ranges.push(['-', '-']);
    this.push({ kind: 'class', negated, ranges });
  }
}

function codePoint(c: string): number {
  return c.codePointAt(0)!;
}

/** Every byte. */
const ANY_BYTE: ByteSet = new Uint8Array(256).fill(1);
/** Every byte but `/`. */
const NOT_SEPARATOR: ByteSet = (() => {
  const set = new Uint8Array(256).fill(1);
  set[0x2f] = 0;
  return set;
})();
const SEPARATOR: GlobNode = { kind: 'byte', set: byteSet([0x2f]) };
const ANY_PATH: GlobNode = { kind: 'repeat', set: ANY_BYTE };
const EMPTY: GlobNode = { kind: 'sequence', items: [] };

function byteSet(bytes: Iterable<number>): ByteSet {
  const set = new Uint8Array(256);
  for (const b of bytes) set[b] = 1;
  return set;
}

/**
 * globset's `tokens_to_regex` with `literal_separator` as a {@link GlobNode} over bytes: `?` is `[^/]`, `*` is
 * `[^/]*`, `**\/` is `(?:/?|.*\/)`, `/**` is `/.*`, `/**\/` is `(?:/|/.*\/)`, and empty alternation branches
 * are dropped (as globset does).
 */
function toNode(tokens: readonly Token[]): GlobNode {
  const items: GlobNode[] = [];
  for (const token of tokens) {
    switch (token.kind) {
      case 'literal':
        for (const b of Buffer.from(token.char, 'utf8')) items.push({ kind: 'byte', set: byteSet([b]) });
        break;
      case 'any':
        items.push({ kind: 'byte', set: NOT_SEPARATOR });
        break;
      case 'star':
        items.push({ kind: 'repeat', set: NOT_SEPARATOR });
        break;
      case 'recursivePrefix':
        items.push({ kind: 'alternation', branches: [EMPTY, SEPARATOR, { kind: 'sequence', items: [ANY_PATH, SEPARATOR] }] });
        break;
      case 'recursiveSuffix':
        items.push(SEPARATOR, ANY_PATH);
        break;
      case 'recursiveZeroOrMore':
        items.push({ kind: 'alternation', branches: [SEPARATOR, { kind: 'sequence', items: [SEPARATOR, ANY_PATH, SEPARATOR] }] });
        break;
      case 'class':
        items.push({ kind: 'byte', set: classBytes(token) });
        break;
      case 'alternates': {
        const branches = token.branches.filter((b) => !isEmpty(b)).map(toNode);
        if (branches.length) items.push({ kind: 'alternation', branches });
        break;
      }
    }
  }
  return { kind: 'sequence', items };
}

/** True when tokens match only the empty string by construction (no tokens, or only empty alternations). */
function isEmpty(tokens: readonly Token[]): boolean {
  return tokens.every((t) => t.kind === 'alternates' && t.branches.every(isEmpty));
}

/**
 * The bytes a class matches as rg's byte regex reads it: each endpoint stands for its UTF-8 bytes, so a
 * non-ASCII character adds each of its bytes (`[é]` is `[\xc3\xa9]`) and a range runs from the last byte of
 * its start to the first byte of its end. Worked out once by testing the one-class regex on every byte (a
 * single class cannot backtrack).
 */
function classBytes(token: Extract<Token, { kind: 'class' }>): ByteSet {
  const body = token.ranges.map(([a, b]) => (a === b ? bytesOf(a) : `${bytesOf(a)}-${bytesOf(b)}`)).join('');
  const one = new RegExp(`^[${token.negated ? '^' : ''}${body}]$`, 's');
  const set = new Uint8Array(256);
  for (let b = 0; b < 256; b++) if (one.test(String.fromCharCode(b))) set[b] = 1;
  return set;
}

/** The UTF-8 bytes of one character as regex class escapes (`\x2e`), letters and digits as themselves. */
function bytesOf(c: string): string {
  if (/^[A-Za-z0-9]$/.test(c)) return c;
  let out = '';
  for (const b of Buffer.from(c, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
  return out;
}

/** True when a token can match (or contains) a `/`. */
function crossesSegments(token: Token): boolean {
  switch (token.kind) {
    case 'literal':
      return token.char === '/';
    case 'any':
    case 'star':
      return false;
    case 'class':
      // A negated class matches "/" unless it lists it; a positive one when a range holds it.
      return token.negated ? !token.ranges.some(([a, b]) => a <= '/' && '/' <= b) : token.ranges.some(([a, b]) => a <= '/' && '/' <= b);
    case 'alternates':
      return token.branches.some((branch) => branch.some(crossesSegments));
    default:
      return true;
  }
}

/** The directories every match lies under: the literal start of an anchored glob, cut at its last `/`. */
function literalDirectories(tokens: readonly Token[]): string[] {
  let text = '';
  let i = 0;
  for (; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== 'literal') break;
    text += token.char;
  }
  const next = tokens[i];
  const whole = next !== undefined && (next.kind === 'recursiveZeroOrMore' || next.kind === 'recursiveSuffix');
  const dirs = whole ? text : text.slice(0, Math.max(0, text.lastIndexOf('/')));
  const segments = dirs.split('/');
  return dirs === '' || segments.some((s) => s === '' || s === '.' || s === '..') ? [] : segments;
}

/**
 * The rg type glob for the last path segment, when the tokens after the last separator cannot match a `/`,
 * restrict something (not only `*`) and can be written without a `:` (which ends a type name in `--type-add`).
 */
function fileNamePart(tokens: readonly Token[]): Pick<RipgrepGlob, 'fileName'> {
  let cut = -1;
  for (let i = 0; i < tokens.length; i++) {
    const kind = tokens[i]!.kind;
    if (kind === 'recursivePrefix' || kind === 'recursiveZeroOrMore' || (kind === 'literal' && (tokens[i] as { char: string }).char === '/')) cut = i;
    else if (kind === 'recursiveSuffix') return {};
  }
  const name = tokens.slice(cut + 1);
  if (name.length === 0 || name.every((t) => t.kind === 'star') || name.some(crossesSegments) || mayEndWithDot(name)) return {};
  const glob = toGlobText(name);
  if (glob === undefined || glob.includes(':')) return {};
  return { fileName: { glob, exact: cut === 0 && tokens[0]!.kind === 'recursivePrefix' } };
}

/**
 * True unless the tokens surely match no name ending with `.`. rg never selects such a name by file type (its
 * file name is undefined for rg, as for `..`), so a type could not stand for a glob that matches one.
 */
function mayEndWithDot(tokens: readonly Token[]): boolean {
  const last = tokens[tokens.length - 1];
  if (last === undefined) return true;
  switch (last.kind) {
    case 'literal':
      return last.char === '.';
    case 'class':
      return classBytes(last)[0x2e] === 1;
    case 'alternates': {
      const branches = last.branches.filter((b) => !isEmpty(b));
      return branches.length === 0 || branches.some(mayEndWithDot);
    }
    default:
      return true;
  }
}

/**
 * Glob text for tokens that hold no separator: literals escaped in one-character classes (no backslash), classes
 * rewritten with `]` first and `-` last. Undefined for a class whose own syntax characters cannot be placed
 * so (a range starting or ending at `]`, `-`, `!` or `^`, or a `!`/`^` that would come first).
 */
function toGlobText(tokens: readonly Token[]): string | undefined {
  let text = '';
  for (const token of tokens) {
    switch (token.kind) {
      case 'literal':
        text += escapeGlobLiteral(token.char);
        break;
      case 'any':
        text += '?';
        break;
      case 'star':
        text += '*';
        break;
      case 'class': {
        const special = (c: string) => c === ']' || c === '-' || c === '!' || c === '^';
        if (token.ranges.some(([a, b]) => a !== b && (special(a) || special(b)))) return undefined;
        const singles = token.ranges.map(([a, b]) => (a === b ? a : `${a}-${b}`));
        const inner = [...singles.filter((p) => p === ']'), ...singles.filter((p) => p !== ']' && p !== '-'), ...singles.filter((p) => p === '-')].join('');
        if (!token.negated && (inner.startsWith('!') || inner.startsWith('^'))) return undefined;
        text += `[${token.negated ? '!' : ''}${inner}]`;
        break;
      }
      case 'alternates': {
        const branches = token.branches.map(toGlobText);
        if (branches.some((b) => b === undefined)) return undefined;
        text += `{${branches.join(',')}}`;
        break;
      }
      default:
        return undefined;
    }
  }
  return text;
}
