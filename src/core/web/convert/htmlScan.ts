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
 * Cost: O(source length), plus O(depth) per end tag.
 */
export function scanHtml(source: string, limit = MAX_NESTING_DEPTH): HtmlScan {
  const stack: string[] = [];
  const foreign: boolean[] = [false];
  let depth = 0;
  let bodyStart = -1;
  let bodyEnd = -1;
  let headStart = -1;
  let headEnd = -1;
  const n = source.length;
  let i = 0;
  const result = (tooDeep: boolean): HtmlScan => ({ depth, tooDeep, bodyStart, bodyEnd, headStart, headEnd });

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
      const pos = stack.lastIndexOf(name);
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

    const closes = IMPLIES_CLOSE.get(name);
    if (closes) while (stack.length > 0 && closes.has(stack[stack.length - 1]!)) stack.pop();
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
    stack.push(name);
    if (FOREIGN.has(name)) foreign.push(true);
    else if (HTML_INTEGRATION.has(name)) foreign.push(false);
  }
  return result(false);
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
 * outside an attribute value.
 */
function tagEnd(source: string, from: number): { end: number; selfClosing: boolean } {
  let afterEquals = false;
  let inUnquotedValue = false;
  for (let i = from; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x3e /* > */) {
      const selfClosing = !inUnquotedValue && i > from && source.charCodeAt(i - 1) === 0x2f;
      return { end: i, selfClosing };
    }
    if (afterEquals) {
      if (isSpace(c)) continue;
      afterEquals = false;
      if (c === 0x22 || c === 0x27) {
        const close = source.indexOf(c === 0x22 ? '"' : "'", i + 1);
        if (close < 0) return { end: -1, selfClosing: false };
        i = close;
        continue;
      }
      inUnquotedValue = true;
      continue;
    }
    if (isSpace(c)) inUnquotedValue = false;
    else if (c === 0x3d /* = */ && !inUnquotedValue) afterEquals = true;
  }
  return { end: -1, selfClosing: false };
}
