import TurndownService from 'turndown';
import { strikethrough } from 'turndown-plugin-gfm';
import { markPageLines } from './displayText';
import { lettersIn, normaliseSpace } from './mainContent';
import { gfmTables } from './tables';

// Scout's turndown configuration: how a DOM subtree becomes Markdown (ATX headings, fenced code, GFM tables,
// strikethrough and task lists, one-line links, compact lists).

/**
 * Converts `root` (an element of a linkedom document) to Markdown with Scout's rules; the result is trimmed,
 * and its lines shaped like Scout's own are marked as page text ({@link markPageLines}).
 */
export function toMarkdown(root: Element): string {
  nestStrayLists(root);
  return markPageLines(withoutStrayIndents(converter().turndown(root as unknown as HTMLElement).trim()));
}

/**
 * `markdown` with each block that follows a blank line (outside fenced code) indented no deeper than the
 * block before it lets it be: the column of that block's text, past a list marker (`- `, `1. `) when it opens
 * a list item. Only a list item's continuation is indented on purpose in Scout's Markdown; a deeper indent
 * comes from the HTML's inline whitespace (turndown keeps one space after each void element such as
 * `<source>` or `<meta>`), and four spaces more would make Markdown read the block as an indented code block:
 * a Guardian `<figure>` put an image link 13 spaces in, and it showed as code.
 */
function withoutStrayIndents(markdown: string): string {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  let allowed = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^[ \t]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue;
    }
    if (line.trim() === '') continue;
    const indent = /^[ \t]*/.exec(line)![0].length;
    if ((i === 0 || lines[i - 1]!.trim() === '') && indent > allowed) lines[i] = ' '.repeat(allowed) + line.slice(indent);
    const text = lines[i]!;
    allowed = /^[ \t]*/.exec(text)![0].length + (LIST_MARKER.exec(text.trimStart())?.[0].length ?? 0);
    if (marker !== undefined) fence = marker;
  }
  return lines.join('\n');
}

/** The marker that opens a list item (`- `, `1. `), after which its text starts. */
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])[ \t]+/;

/** Letters and digits in `markdown`'s text, leaving out link and image destinations and titles. */
export function markdownLetterCount(markdown: string): number {
  return lettersIn(markdown.replace(/\]\((?:<[^>\n]*>|[^)\s]*)(?:\s+"(?:[^"\\]|\\.)*")?\)/g, ']'));
}

/**
 * Moves each list that sits directly in another list (`<ul><ul><li>x</li></ul></ul>`, invalid HTML that
 * browsers show as an indented list) into a list item: the item before it, or a new one. turndown would
 * otherwise write it at the outer list's level and the nesting would be lost.
 */
function nestStrayLists(root: Element): void {
  for (const list of Array.from(root.querySelectorAll('ul > ul, ul > ol, ol > ul, ol > ol'))) {
    const before = list.previousElementSibling;
    if (before?.nodeName === 'LI') {
      before.appendChild(list);
    } else {
      const item = list.ownerDocument.createElement('li');
      list.replaceWith(item);
      item.appendChild(list);
    }
  }
}

let service: TurndownService | undefined;

/** The shared turndown instance with Scout's rules (built once per worker). */
function converter(): TurndownService {
  if (service) return service;
  // `br: ''`: a <br> becomes a plain newline, not Markdown's two-space hard break (invisible, and tokens).
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_', strongDelimiter: '**', hr: '---', br: '' });
  service.use([strikethrough, gfmTables]);
  service.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node) => {
      const code = soleCodeChild(node);
      const text = preformattedText(code ?? node).replace(/\n$/, '');
      const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
      return `\n\n${fence}${languageOf(code) ?? languageOf(node) ?? ''}\n${text}\n${fence}\n\n`;
    },
  });
  // turndown pads list markers to four columns ("-   item"); one space reads the same and costs fewer tokens.
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const parent = node.parentNode as Element | null;
      let prefix = `${options.bulletListMarker} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1');
        prefix = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const paragraph = /\n$/.test(content);
      const body = content.replace(/^\n+|\n+$/g, '').replace(TASK_MARKER_SPACE, '$1 ') + (paragraph ? '\n' : '');
      return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (node.nextSibling ? '\n' : '');
    },
  });
  // A link is always one line of text, whatever blocks it wraps (`<a href><p>Title</p></a>`, card links around a
  // heading and a teaser): a line break inside `[…]` would end the link.
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A' && Boolean(node.getAttribute('href')),
    replacement: (content, node) => {
      const text = oneLineLinkText(content);
      const href = node.getAttribute('href')!.replace(/([<>()])/g, '\\$1');
      const title = normaliseSpace(node.getAttribute('title') ?? '').replace(/"/g, '\\"');
      if (text === '') return '';
      const link = `[${text}](${/\s/.test(href) ? `<${href}>` : href}${title ? ` "${title}"` : ''})`;
      // A link around blocks (a card) is a block itself: two of them side by side are two paragraphs, not one line.
      return /^\s*\n|\n\s*$/.test(content) ? `\n\n${link}\n\n` : link;
    },
  });
  // Inline code is its text: a link or emphasis inside <code> is not Markdown inside a code span.
  service.addRule('inlineCode', {
    filter: 'code',
    replacement: (_content, node) => {
      const text = (node.textContent ?? '').replace(/\r?\n|\r/g, ' ');
      if (text === '') return '';
      const space = /^`|^ .*?[^ ].* $|`$/.test(text) ? ' ' : '';
      const fence = '`'.repeat(codeSpanFenceLength(text));
      return `${fence}${space}${text}${space}${fence}`;
    },
  });
  // A GFM task list item (`- [x] done`): the marker {@link markTaskCheckboxes} put in place of its checkbox.
  service.addRule('taskListItem', {
    filter: (node) => node.nodeName === 'SPAN' && node.hasAttribute(TASK_MARKER_ATTRIBUTE),
    replacement: (_content, node) => (node.getAttribute(TASK_MARKER_ATTRIBUTE) === 'x' ? '[x] ' : '[ ] '),
  });
  service.addRule('textlessLink', {
    filter: (node) => node.nodeName === 'A' && normaliseSpace(node.textContent ?? '') === '' && !Array.from(node.querySelectorAll('img')).some((img) => describingAlt(img) !== ''),
    replacement: () => '',
  });
  // An image without alt text says nothing, nor does one whose alt text is a file name (a camera's
  // `P1610279.jpg`), except in a table, where an icon is the cell's value (a status table of check and cross
  // icons came out empty): there its title, or its file name without the extension, stands for it, unless the
  // name is a layout image's (`spacer.gif`, `corner_1.gif`).
  service.addRule('altlessImage', {
    filter: (node) => node.nodeName === 'IMG' && (describingAlt(node) === '' || !node.getAttribute('src')),
    replacement: (_content, node) => {
      const alt = describingAlt(node);
      if (alt !== '' || !node.closest('td, th')) return alt;
      const name = fileNameOf(node.getAttribute('src') ?? '').replace(IMAGE_EXTENSION, '');
      return normaliseSpace(node.getAttribute('title') ?? node.getAttribute('aria-label') ?? '') || (LAYOUT_IMAGE_NAME.test(name) ? '' : name);
    },
  });
  // A formula {@link MATH_MARKER_ATTRIBUTE} marked: its TeX between dollars, as written (no Markdown escapes).
  service.addRule('math', {
    filter: (node) => node.nodeName === 'SPAN' && node.hasAttribute(MATH_MARKER_ATTRIBUTE),
    replacement: (_content, node) => {
      const tex = node.textContent ?? '';
      return node.getAttribute(MATH_MARKER_ATTRIBUTE) === 'block' ? `\n\n$$${tex}$$\n\n` : `$${tex}$`;
    },
  });
  return service;
}

/**
 * Replaces each `<br>` inside `<pre>` or `<code>` by a newline in the text. A `<code>` outside `<pre>` that
 * holds one is a block of lines as a browser shows it: its other whitespace collapsed, and it is put in a
 * `<pre>` so it becomes a fenced block. Run before Readability, which turns every run of two or more `<br>`
 * into a `<p>` that swallows the lines after it: a highlighter's `<span>#include …</span><br><br><span>int
 * main() {` came out as `#include <stdio.h>int main() {` with the default settings.
 */
export function keepCodeLineBreaks(document: Document): void {
  const blocks = new Set<Element>();
  for (const br of Array.from(document.body.querySelectorAll('pre br, code br'))) {
    const code = br.closest('code');
    if (code && !code.closest('pre')) blocks.add(code);
  }
  for (const code of blocks) {
    const walker = document.createTreeWalker(code, 4 /* NodeFilter.SHOW_TEXT */);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) text.textContent = (text.textContent ?? '').replace(/[ \t\n\r\f]+/g, ' ');
  }
  for (const br of Array.from(document.body.querySelectorAll('pre br, code br'))) br.replaceWith(document.createTextNode('\n'));
  for (const code of blocks) {
    const pre = document.createElement('pre');
    code.replaceWith(pre);
    pre.appendChild(code);
  }
}

/** An image file name's extension. */
const IMAGE_EXTENSION = /\.(?:jpe?g|png|gif|webp|svg|bmp|ico|tiff?|avif|heic)$/i;
/** An image's alt text that is only a file name (`P1610279.jpg`, `performance.jpg`): it describes nothing. */
const FILE_NAME_ALT = /^[^\s/\\]{1,100}\.(?:jpe?g|png|gif|webp|svg|bmp|ico|tiff?|avif|heic)$/i;
/** File names of images that only lay a page out: spacers, corners, blank and transparent pixels. */
const LAYOUT_IMAGE_NAME = /^(?:spacer|space|blank|clear|transparent|trans|pixel|dot|shim|1x1|corner|spc)(?:[-_. ]?\w{0,3})?$/i;

/** `img`'s alt text, trimmed; '' when it has none or it is only a file name ({@link FILE_NAME_ALT}). */
export function describingAlt(img: Element): string {
  const alt = (img.getAttribute('alt') ?? '').trim();
  return FILE_NAME_ALT.test(alt) ? '' : alt;
}

/** The attribute of the element that stands for a MathML formula (htmlDocument.ts puts it there): `inline` or `block`. */
export const MATH_MARKER_ATTRIBUTE = 'data-scout-math';

/** The last path segment of an image URL, percent-decoded (`…/icons/check.svg` → `check.svg`); '' for none. */
function fileNameOf(src: string): string {
  const name = src.replace(/[?#].*$/, '').replace(/\/+$/, '').split('/').pop() ?? '';
  try {
    return normaliseSpace(decodeURIComponent(name));
  } catch {
    return name;
  }
}

/** The attribute of the element that stands for a task list item's checkbox: `x` when ticked, else empty. */
const TASK_MARKER_ATTRIBUTE = 'data-scout-task';

/**
 * Replaces each checkbox at the start of a list item (directly, or in its first paragraph or label: GitHub's
 * `task-list-item-checkbox`, Markdown renderers' task lists) by a `<span>` marker holding `[x]` or `[ ]`, which
 * the task list rule writes as GFM's `- [x] done`; other checkboxes are left alone. Run before Readability,
 * which drops every `<input>` (with the default settings every tick was lost: `- [x] done` became `- done`),
 * and because linkedom does not reflect the `checked` attribute into the property turndown-plugin-gfm's rule
 * reads (every box came out unticked).
 */
export function markTaskCheckboxes(document: Document): void {
  for (const input of Array.from(document.body.querySelectorAll('li input'))) {
    if ((input.getAttribute('type') ?? '').trim().toLowerCase() !== 'checkbox' || !isAtItemStart(input)) continue;
    const ticked = input.hasAttribute('checked');
    const marker = document.createElement('span');
    marker.setAttribute(TASK_MARKER_ATTRIBUTE, ticked ? 'x' : '');
    marker.textContent = ticked ? '[x]' : '[ ]';
    input.replaceWith(marker);
  }
}

/**
 * A task marker at the start of an item, with the spaces around it (a `<label>`'s text often starts with one),
 * which become one space after it.
 */
const TASK_MARKER_SPACE = /^\s*(\[[ x]\])\s+/;

/** True when `node` comes first in its list item: no text or element before it there, up through a `<p>` or `<label>`. */
function isAtItemStart(node: Element): boolean {
  for (let el: Element = node; ; ) {
    for (let c = el.previousSibling; c; c = c.previousSibling) if (c.nodeType === 1 || (c.textContent ?? '').trim() !== '') return false;
    const parent = el.parentNode as Element | null;
    if (!parent) return false;
    if (parent.nodeName === 'LI') return true;
    if (parent.nodeName !== 'P' && parent.nodeName !== 'LABEL') return false;
    el = parent;
  }
}

/** The one `<code>` child of a `<pre>`, ignoring whitespace-only text around it (`<pre>\n  <code>…</code>\n</pre>`). */
function soleCodeChild(pre: Element): Element | undefined {
  let code: Element | undefined;
  for (let c = pre.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3 && (c.textContent ?? '').trim() === '') continue;
    if (c.nodeType === 1 && c.nodeName === 'CODE' && !code) code = c as Element;
    else return undefined;
  }
  return code;
}

const BREAKS_LINE = new Set(['DIV', 'P', 'LI', 'TR']);

/** Text of a preformatted element with `<br>` and line-per-element highlighters turned into newlines. */
function preformattedText(root: Element): string {
  let out = '';
  const walk = (node: Node): void => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out += c.textContent ?? '';
      else if (c.nodeName === 'BR') out += '\n';
      else if (c.nodeType === 1) {
        walk(c);
        if (BREAKS_LINE.has(c.nodeName) && !out.endsWith('\n')) out += '\n';
      }
    }
  };
  walk(root);
  return out;
}

function languageOf(el: Element | undefined): string | undefined {
  if (!el) return undefined;
  const classes = `${el.getAttribute('class') ?? ''} ${(el.parentNode as Element | null)?.getAttribute?.('class') ?? ''}`;
  const match = /(?:^|\s)(?:language|lang)-([\w+#.-]{1,30})/.exec(classes) ?? /highlight-(?:text|source)-([a-z0-9]{1,30})/.exec(classes);
  return match?.[1] ?? el.getAttribute('data-lang')?.match(/^[\w+#.-]{1,30}$/)?.[0];
}

/** Converted link content as one line: block breaks become spaces, and heading, quote and list markers go. */
function oneLineLinkText(content: string): string {
  return content
    .split('\n')
    .map((line) => line.replace(/^\s*(?:#{1,6}\s+|>\s?|[-*+]\s+|\d{1,9}[.)]\s+)/, '').trim())
    .filter((line) => line !== '')
    .join(' ');
}

/** Length of the shortest backtick string that can delimit `text` as a code span: one whose length no backtick run in `text` has (CommonMark §6.1). */
function codeSpanFenceLength(text: string): number {
  const runs = new Set(Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  let n = 1;
  while (runs.has(n)) n++;
  return n;
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return longest;
}


