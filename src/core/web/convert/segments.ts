import { bodyRange, documentBase, parseDocument, parseSkeleton, prepareDocument } from './htmlDocument';
import { CONTINUED_TABLE, type HtmlScan, type SegmentCut } from './htmlScan';
import { normaliseSpace, removeChrome, textLength, type ContentSource } from './mainContent';
import { markPageLines } from './displayText';
import { toMarkdown } from './markdownRules';

/** What {@link segmentedMarkdown} produced. */
export interface SegmentedMarkdown {
  /** The parts' Markdown, joined; when not every part was converted, followed by the rest of the body's source. */
  readonly markdown: string;
  /** The page's title (`<title>`), '' when it has none. */
  readonly title: string;
  readonly content: ContentSource;
  readonly pageChars: number;
  readonly contentChars: number;
  readonly segments: { readonly nodes: number; readonly count: number; readonly converted: number };
}

/** The line between the converted Markdown and the source of the parts there was no time for. */
export const UNCONVERTED_REST = '(Scout stopped converting here: the conversion budget ran out. The rest of the page follows as its HTML source.)';

/**
 * Converts a page too large for one DOM part by part, so memory stays bounded whatever the page (a
 * dense 5 MiB page aborted the whole process). The body is cut at `scan.cuts` (about
 * `SEGMENT_NODES` nodes each, at block boundaries); each part is parsed after the start tags of the elements
 * open at its start, so it builds the tree it had in the whole page, then prepared like a whole page (URLs
 * made absolute against the page's base, scripts, banners and, with `extractMainContent`, the navigation,
 * sidebars and the site's header and footer dropped) and converted, and its DOM is let go before the next part
 * is parsed. Rows of a table cut in two continue the table. Readability is not run: it needs the whole page.
 *
 * With a `deadline`, a part starts only if the parts so far, on average, leave time for it; the Markdown then
 * ends with {@link UNCONVERTED_REST} and the source of the remaining parts (the caller makes it display-safe).
 */
export function segmentedMarkdown(source: string, scan: HtmlScan, options: { baseUrl: string; extractMainContent: boolean; deadline?: number; now: () => number }): SegmentedMarkdown {
  const [bodyStart, bodyEnd] = bodyRange(source, scan);
  const cuts = scan.cuts.filter((c) => c.offset > bodyStart && c.offset < bodyEnd);
  const starts: SegmentCut[] = [{ offset: bodyStart, reopen: '' }, ...cuts];
  let base = options.baseUrl;
  let title = '';
  let markdown = '';
  let pageChars = 0;
  let contentChars = 0;
  let converted = 0;
  const began = options.now();
  for (const [i, part] of starts.entries()) {
    const end = starts[i + 1]?.offset ?? bodyEnd;
    if (i > 0 && options.deadline !== undefined && options.now() + (options.now() - began) / i > options.deadline) break;
    const body = part.reopen + source.slice(part.offset, end);
    let document: Document;
    if (i === 0) {
      document = parseDocument(source, scan, body);
      base = documentBase(document, options.baseUrl);
      title = normaliseSpace(document.title);
    } else {
      document = parseSkeleton('', body);
    }
    prepareDocument(document, base, options.extractMainContent);
    pageChars += textLength(document.body);
    if (options.extractMainContent) removeChrome(document.body);
    contentChars += textLength(document.body);
    const text = toMarkdown(document.body);
    const continuesTable = part.reopen.includes(CONTINUED_TABLE) && text.startsWith('|') && markdown.endsWith('|');
    markdown += markdown === '' || text === '' ? text : `${continuesTable ? '\n' : '\n\n'}${text}`;
    converted++;
  }
  if (converted < starts.length) markdown += `\n\n${UNCONVERTED_REST}\n\n${markPageLines(source.slice(starts[converted]!.offset, bodyEnd))}`;
  return {
    markdown: markdown.trim(),
    title,
    content: options.extractMainContent ? 'body-cleaned' : 'body',
    pageChars,
    contentChars,
    segments: { nodes: scan.nodes, count: starts.length, converted },
  };
}
