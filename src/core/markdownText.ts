/**
 * Text from outside (a search provider, a server, a model) written into Scout's own Markdown so that a
 * CommonMark renderer shows it exactly as written and it forms no structure: no link, image, autolink, raw
 * HTML, entity, emphasis, code span, heading, quote or list. The rules are CommonMark 0.31's: any ASCII
 * punctuation character may be backslash-escaped (§2.4), and a code span's content is taken literally (§6.1).
 *
 * These functions do not neutralise control characters; run text through `showControlPictures` first.
 * Renderers with GFM's extended autolinks (bare `www.` and `http://` text) may still link a URL written as
 * plain text; it then shows the same address it points to.
 */

/**
 * Characters with an inline meaning: `\` (so the text's own backslashes cannot cancel an escape), `` ` ``
 * (code spans), `*` and `_` (emphasis), `[` and `]` (links, images, reference definitions), `<` (autolinks
 * and raw HTML), `&` (entity and numeric character references) and `~` (GFM strikethrough).
 */
const INLINE_SPECIAL = /[\\`*_[\]<&~]/g;

/**
 * `text` for one place inside a line of Markdown (link text, a list item's rest): every character of
 * {@link INLINE_SPECIAL} backslash-escaped. Nothing in it can open or close a link, image, autolink, code
 * span, emphasis or HTML tag, or end Scout's own link around it; a renderer shows exactly `text`.
 */
export function escapeMarkdownInline(text: string): string {
  return text.replace(INLINE_SPECIAL, (c) => `\\${c}`);
}

/**
 * One line of text as a Markdown paragraph line: {@link escapeMarkdownInline}, leading whitespace dropped (4
 * spaces would start a code block), and a first character that would start a block escaped: `#` (heading),
 * `>` (block quote), `-`, `+` (list item, thematic break, setext underline), `=` (setext underline), `|`
 * (GFM table row), and the `.` or `)` after leading digits (ordered list item). `line` must not hold a line
 * feed.
 */
export function escapeMarkdownLine(line: string): string {
  const inline = escapeMarkdownInline(line.trimStart());
  return inline.replace(/^[#>+=|-]/, (c) => `\\${c}`).replace(/^(\d+)([.)])/, '$1\\$2');
}

/**
 * `text` as one CommonMark code span: its content is shown literally, whatever characters it holds. The
 * fence is one backtick longer than the longest run of backticks in `text`, and a space pads each side when
 * `text` starts or ends with a backtick, or both starts and ends with a space (CommonMark §6.1 strips one
 * such space from each side). `text` must not hold a line feed (inside a span it becomes a space).
 */
export function markdownCodeSpan(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const spaceBothEnds = text.startsWith(' ') && text.endsWith(' ') && /[^ ]/.test(text);
  const pad = text.startsWith('`') || text.endsWith('`') || spaceBothEnds ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
