/**
 * Seed 004: HTML nested deeper than this many levels is passed through raw instead of being converted.
 * A DOM that deep makes recursive converters (turndown, readability) slow or overflow the stack.
 */
export const MAX_NESTING_DEPTH = 512;

/** What one lexical pass over an HTML source found. Offsets are UTF-16 indexes into the source. */
export interface HtmlScan {
  /** Deepest element nesting reached (counting stops once it passes the limit). */
  readonly depth: number;
  /** True when `depth` passed the limit: the source must not be converted. */
  readonly tooDeep: boolean;
  /** Just after the first `<body …>` start tag; -1 when there is none. */
  readonly bodyStart: number;
  /** At the last `</body>` end tag; -1 when there is none. */
  readonly bodyEnd: number;
  /** Just after the first `<head …>` start tag; -1 when there is none. */
  readonly headStart: number;
  /** At the first `</head>` end tag; -1 when there is none. */
  readonly headEnd: number;
  /** Start tags, and attributes in them: the nodes a DOM of the source would hold besides its text. */
  readonly nodes: number;
  /** `<a>` start tags. */
  readonly links: number;
  /**
   * Where the source can be cut into parts of about `segmentNodes` nodes each, in source order (see
   * {@link SegmentCut}); empty when the source has fewer nodes.
   */
  readonly cuts: readonly SegmentCut[];
}

/**
 * A place where an HTML source can be cut so that each part parses to the tree it has inside the whole source:
 * the part starting at `offset` (a start tag) is parsed after `reopen`, the start tags of the elements still
 * open there (without `html`, `head` and `body`). A reopened `<table>` carries the attribute
 * {@link CONTINUED_TABLE}, so the table rules continue its rows instead of promoting one to a header.
 */
export interface SegmentCut {
  readonly offset: number;
  readonly reopen: string;
}

/** Attribute set on a `<table>` start tag reopened by a {@link SegmentCut}: the table began in the part before. */
export const CONTINUED_TABLE = 'data-scout-continued';

/**
 * Nodes (start tags and their attributes, counted lexically before anything is parsed) a page may hold to be
 * parsed into one DOM. linkedom, Readability and turndown together peak at about 2–4 KB of memory per node
 * (link-dense pages cost the most: a 59,000-node page of links peaked at 224 MB for the whole conversion
 * process), so one DOM's work stays far inside the conversion process's 512 MB heap, while real article pages
 * (a few thousand to 40,000 nodes) stay whole. A denser page is cut into parts of {@link SEGMENT_NODES} nodes
 * (segments.ts). Scout's choice, from `npm run bench -- --only web-fetch`.
 */
export const MAX_DOM_NODES = 60_000;

/**
 * Nodes (start tags and their attributes) per part when a source is cut (see {@link HtmlScan.cuts}): about what
 * linkedom, Readability and turndown handle in tens of MB. Scout's choice.
 */
export const SEGMENT_NODES = 20_000;

/** Elements a part may start with when it is cut (block starts); a cut never falls inside a paragraph, a link or a row's cells. */
const SEGMENT_STARTS = new Set(
  ['address', 'article', 'aside', 'blockquote', 'center', 'details', 'div', 'dl', 'dt', 'dd', 'fieldset', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'tfoot', 'thead', 'tr', 'ul'],
);
/**
 * Elements that may be open across a cut: containers of blocks, which reopen harmlessly (and custom elements,
 * whose names hold a hyphen, such as a specification's `emu-clause`).
 */
const SEGMENT_CONTAINERS = new Set(
  ['address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'div', 'dl', 'fieldset', 'figure', 'footer', 'form', 'header', 'html', 'li', 'main', 'nav', 'ol', 'section', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul'],
);
/** Elements not reopened after a cut: the part is parsed into a document of its own, which has them. */
const NOT_REOPENED = new Set(['html', 'head', 'body']);

/** An open element: its name and where its start tag is in the source. */
interface OpenElement {
  readonly name: string;
  readonly start: number;
  /** Index of the start tag's `>`. */
  readonly end: number;
}

// The tree rules below are those of htmlparser2 10 (the tokenizer linkedom builds its DOM with), so the
// depth counted here is the depth linkedom will build.
const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW_TEXT = new Map(['script', 'style', 'title', 'textarea', 'xmp'].map((n) => [n, new RegExp(`</${n}[\\s/>]`, 'gi')]));
const FOREIGN = new Set(['math', 'svg']);
const HTML_INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);
const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
/** A start tag closes the open elements on top of the stack that are in its set (htmlparser2 `openImpliesClose`). */
const IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((n): [string, Set<string>] => [n, FORM]),
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section', 'table', 'ul'].map(
    (n): [string, Set<string>] => [n, P],
  ),
]);

/**
 * One linear pass over an HTML source that measures element nesting lexically, without building a DOM,
 * and notes where the head and body are. It stops as soon as nesting passes `limit`.
 *
 * Markup that does not create elements cannot move the count: comments (`<!-- … -->`, including the short
 * `<!-->`), doctype and other declarations, CDATA, processing instructions, quoted attribute values, and the
 * raw text of script/style/title/textarea/xmp are skipped whole, so a `</div>` hidden in any of them does
 * not close anything. Implied end tags, void elements and `/>` inside SVG/MathML follow htmlparser2's rules.
 * On the way it counts nodes and links, and notes a cut after every `segmentNodes` nodes (or so): at the
 * next start tag of a block whose open ancestors are all block containers, or at the next start tag of any
 * element once twice as many have passed without one.
 * Cost: O(source length), plus O(depth) per end tag and per cut.
 */
export function scanHtml(source: string, limit = MAX_NESTING_DEPTH, segmentNodes = SEGMENT_NODES): HtmlScan {
  const stack: OpenElement[] = [];
  const foreign: boolean[] = [false];
  let depth = 0;
  let bodyStart = -1;
  let bodyEnd = -1;
  let headStart = -1;
  let headEnd = -1;
  let nodes = 0;
  let links = 0;
  let sinceCut = 0;
  const cuts: SegmentCut[] = [];
  const n = source.length;
  let i = 0;
  const result = (tooDeep: boolean): HtmlScan => ({ depth, tooDeep, bodyStart, bodyEnd, headStart, headEnd, nodes, links, cuts });

  while (i < n) {
    const lt = source.indexOf('<', i);
    if (lt < 0) break;
    const next = source.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (source.startsWith('<!--', lt)) {
        const end = source.indexOf('-->', lt + 2);
        if (end < 0) break; // an unterminated comment runs to the end
        i = end + 3;
      } else if (source.startsWith('<![CDATA[', lt)) {
        const end = source.indexOf(']]>', lt + 9);
        if (end < 0) break;
        i = end + 3;
      } else {
        const end = source.indexOf('>', lt + 2);
        if (end < 0) break;
        i = end + 1;
      }
      continue;
    }
    if (next === 0x3f /* ? */) {
      const end = source.indexOf('>', lt + 2);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (next === 0x2f /* / */) {
      if (!isAsciiLetter(source.charCodeAt(lt + 2))) {
        const end = source.indexOf('>', lt + 2); // `</>` is ignored; `</ …>` is a bogus comment
        if (end < 0) break;
        i = end + 1;
        continue;
      }
      const nameEnd = tagNameEnd(source, lt + 2);
      const name = source.slice(lt + 2, nameEnd).toLowerCase();
      const tag = tagEnd(source, nameEnd);
      if (tag.end < 0) break;
      i = tag.end + 1;
      if (name === 'body') bodyEnd = lt;
      if (name === 'head' && headEnd < 0) headEnd = lt;
      if (FOREIGN.has(name) || HTML_INTEGRATION.has(name)) {
        if (foreign.length > 1) foreign.pop();
      }
      if (VOID.has(name)) continue;
      let pos = stack.length - 1;
      while (pos >= 0 && stack[pos]!.name !== name) pos--;
      if (pos >= 0) stack.length = pos;
      continue;
    }
    if (!isAsciiLetter(next)) {
      i = lt + 1;
      continue;
    }

    const nameEnd = tagNameEnd(source, lt + 1);
    const name = source.slice(lt + 1, nameEnd).toLowerCase();
    const tag = tagEnd(source, nameEnd);
    if (tag.end < 0) break; // a tag cut off by the end of the source creates nothing
    i = tag.end + 1;
    if (name === 'body' && bodyStart < 0) bodyStart = i;
    if (name === 'head' && headStart < 0) headStart = i;

    nodes += 1 + tag.attributes;
    sinceCut += 1 + tag.attributes;
    if (name === 'a') links++;
    const closes = IMPLIES_CLOSE.get(name);
    if (closes) while (stack.length > 0 && closes.has(stack[stack.length - 1]!.name)) stack.pop();
    if (sinceCut > segmentNodes && (sinceCut > 2 * segmentNodes || (SEGMENT_STARTS.has(name) && stack.every((e) => SEGMENT_CONTAINERS.has(e.name) || e.name.includes('-'))))) {
      cuts.push({ offset: lt, reopen: reopenTags(source, stack) });
      sinceCut = 0;
    }
    if (stack.length + 1 > depth) depth = stack.length + 1;
    if (depth > limit) return result(true);
    if (VOID.has(name)) continue;

    const raw = RAW_TEXT.get(name);
    if (raw) {
      raw.lastIndex = i;
      const close = raw.exec(source);
      if (!close) break; // raw text runs to the end
      const end = tagEnd(source, close.index + 2 + name.length).end;
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (tag.selfClosing && foreign[foreign.length - 1]) continue;
    stack.push({ name, start: lt, end: tag.end });
    if (FOREIGN.has(name)) foreign.push(true);
    else if (HTML_INTEGRATION.has(name)) foreign.push(false);
  }
  return result(false);
}

/** The start tags of the open elements, outermost first, as {@link SegmentCut.reopen} gives them. */
function reopenTags(source: string, open: readonly OpenElement[]): string {
  let tags = '';
  for (const e of open) {
    if (NOT_REOPENED.has(e.name)) continue;
    const tag = source.slice(e.start, e.end + 1);
    tags += e.name === 'table' ? `<table ${CONTINUED_TABLE}${tag.slice(6)}` : tag;
  }
  return tags;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** Index just past a tag name starting at `from` (names end at whitespace, `/` or `>`). */
function tagNameEnd(source: string, from: number): number {
  let i = from;
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (isSpace(c) || c === 0x2f || c === 0x3e) break;
    i++;
  }
  return i;
}

/**
 * Finds the `>` that ends a tag whose attributes start at `from`, skipping quoted attribute values.
 * `end` is -1 when the source ends first. `selfClosing` is true for a `/` directly before that `>`
 * outside an attribute value. `attributes` counts the attribute names on the way.
 */
function tagEnd(source: string, from: number): { end: number; selfClosing: boolean; attributes: number } {
  let afterEquals = false;
  let inUnquotedValue = false;
  let inName = false;
  let attributes = 0;
  for (let i = from; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x3e /* > */) {
      const selfClosing = !inUnquotedValue && i > from && source.charCodeAt(i - 1) === 0x2f;
      return { end: i, selfClosing, attributes };
    }
    if (afterEquals) {
      if (isSpace(c)) continue;
      afterEquals = false;
      if (c === 0x22 || c === 0x27) {
        const close = source.indexOf(c === 0x22 ? '"' : "'", i + 1);
        if (close < 0) return { end: -1, selfClosing: false, attributes };
        i = close;
        continue;
      }
      inUnquotedValue = true;
      continue;
    }
    if (isSpace(c) || c === 0x2f /* / */) {
      inUnquotedValue = false;
      inName = false;
    } else if (c === 0x3d /* = */ && !inUnquotedValue) {
      afterEquals = true;
      inName = false;
    } else if (!inName && !inUnquotedValue) {
      inName = true;
      attributes++;
    }
  }
  return { end: -1, selfClosing: false, attributes };
}
