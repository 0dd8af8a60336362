import MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;

/**
 * What a Markdown text turns into when a real renderer reads it (markdown-it: its `commonmark` preset, or
 * `gfm` for the default preset, which adds GFM tables and strikethrough), so tests can check that text from
 * outside formed no structure of its own.
 */
export interface MarkdownStructure {
  /** Every token type that occurred, block and inline (`heading_open`, `link_open`, `html_inline`, …). */
  readonly types: ReadonlySet<string>;
  /** Links in document order: destination as the renderer resolved it, and the link text as displayed. */
  readonly links: readonly { readonly href: string; readonly text: string }[];
  /** The displayed text of each heading, and its tag (`h2`). */
  readonly headings: readonly { readonly tag: string; readonly text: string }[];
  /** The displayed text of every paragraph (list items' included), in document order. */
  readonly paragraphs: readonly string[];
}

const RENDERERS = { commonmark: new MarkdownIt('commonmark'), gfm: new MarkdownIt('default') };

/** Parses `markdown` with markdown-it and summarises it (see {@link MarkdownStructure}). */
export function markdownStructure(markdown: string, flavour: keyof typeof RENDERERS = 'commonmark'): MarkdownStructure {
  const tokens = RENDERERS[flavour].parse(markdown, {});
  const types = new Set<string>();
  const links: { href: string; text: string }[] = [];
  const headings: { tag: string; text: string }[] = [];
  const paragraphs: string[] = [];
  tokens.forEach((token, i) => {
    types.add(token.type);
    for (const child of token.children ?? []) types.add(child.type);
    if (token.type !== 'inline') return;
    const opener = tokens[i - 1];
    if (opener?.type === 'heading_open') headings.push({ tag: opener.tag, text: displayed(token.children ?? []) });
    if (opener?.type === 'paragraph_open') paragraphs.push(displayed(token.children ?? []));
    const children = token.children ?? [];
    children.forEach((child, j) => {
      if (child.type !== 'link_open') return;
      const close = children.findIndex((c, k) => k > j && c.type === 'link_close');
      links.push({ href: String(child.attrGet('href') ?? ''), text: displayed(children.slice(j + 1, close)) });
    });
  });
  return { types, links, headings, paragraphs };
}

/** The text a reader sees for inline tokens (markup dropped, code and raw HTML shown as written). */
function displayed(children: readonly Token[]): string {
  return children.map((c) => (c.type === 'softbreak' || c.type === 'hardbreak' ? '\n' : c.type === 'image' ? displayed(c.children ?? []) : c.content)).join('');
}

/** Token types that mean text formed structure beyond paragraphs, Scout's headings, list and links. */
export const FOREIGN_STRUCTURE = [
  'image',
  'html_inline',
  'html_block',
  'code_inline',
  'code_block',
  'fence',
  'em_open',
  'strong_open',
  's_open',
  'blockquote_open',
  'ordered_list_open',
  'table_open',
  'hr',
  'hardbreak',
] as const;
