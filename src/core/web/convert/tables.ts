import type TurndownService from 'turndown';
import { CONTINUED_TABLE } from './htmlScan';

/**
 * Table rules for turndown that work on linkedom's DOM.
 *
 * turndown-plugin-gfm's table rule reads `table.rows`, which linkedom's table elements do not implement, so
 * it throws on every table; it also keeps tables without a heading row as raw HTML. These rules find rows
 * and cells by walking child elements (what `rows`/`cells` return in a browser).
 *
 * A **data table** becomes a GFM table:
 * - the header is the first row: a `<thead>` row, or else the table's first row whatever its cells are
 *   (GFM requires a header row, so a table without `<thead>` promotes its first row);
 * - every row is padded to the widest row; `colspan` and `rowspan` are ignored (GFM cannot span cells);
 * - cell text is kept on one line and `|` is escaped; `align` on a header cell sets the column alignment;
 * - a `<caption>` becomes a paragraph above the table; a table without cells produces nothing.
 *
 * A **layout table** (see {@link isLayoutTable}: a page laid out with a table, such as a discussion thread
 * whose every comment is a row) is not a table of data: its cells become blocks, one after the other, so
 * their paragraphs, lists and nested tables keep their own structure.
 *
 * A table continued from an earlier part of a page converted in parts (it carries {@link CONTINUED_TABLE},
 * see segments.ts) is a data table whose rows go on from the part before: no header row is made for it.
 *
 * Rows are rendered whatever holds them: Readability renames a `<table>` it appends beside the article to
 * `<div>`, so an element whose children are rows (or `<thead>`/`<tbody>`/`<tfoot>` sections) is treated as
 * the table it was. Every lookup is cached per table, so a table of n rows costs O(n), not O(n²).
 */
export function gfmTables(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const table = tableOfRow(node.parentNode as Element | null);
      if (table === undefined || isLayoutTable(table)) return `\n\n${content}\n\n`;
      return `${isFirstCell(node) ? '|' : ''} ${oneLine(content)} |`;
    },
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const table = tableOfRow(node);
      if (table === undefined || isLayoutTable(table)) return `\n\n${content}\n\n`;
      const { width, firstRow } = shapeOf(table);
      if (width === 0) return '';
      const cells = cellsOf(node);
      const padding = (cells.length === 0 ? '|' : '') + '  |'.repeat(width - cells.length);
      let line = `\n${content}${padding}`;
      if (firstRow === node && !table.hasAttribute(CONTINUED_TABLE)) {
        const borders = Array.from({ length: width }, (_, i) => ALIGN[(cells[i]?.getAttribute('align') ?? '').toLowerCase()] ?? '---');
        line += `\n| ${borders.join(' | ')} |`;
      }
      return line;
    },
  });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  service.addRule('tableCaption', {
    filter: 'caption',
    replacement: (content, node) => (isLayoutTable(node.parentNode as Element) ? `\n\n${content}\n\n` : ''),
  });
  service.addRule('table', {
    filter: (node) => node.nodeName === 'TABLE' || isRenamedTable(node),
    replacement: (content, node) => {
      if (isLayoutTable(node)) return `\n\n${content}\n\n`;
      if (shapeOf(node).width === 0) return '';
      const caption = childElements(node).find((c) => c.nodeName === 'CAPTION');
      const title = caption ? oneLine(service.escape(caption.textContent ?? '')) : '';
      return `\n\n${title ? `${title}\n\n` : ''}${content.replace(/^\n+/, '')}\n\n`;
    },
  });
}

const ALIGN: Record<string, string> = { left: ':--', right: '--:', center: ':-:' };
const SECTIONS = new Set(['THEAD', 'TBODY', 'TFOOT']);

function childElements(node: Element): Element[] {
  const out: Element[] = [];
  for (let c = node.firstElementChild; c; c = c.nextElementSibling) out.push(c);
  return out;
}

/**
 * The table a row belongs to: its parent, or the parent of its `<thead>`/`<tbody>`/`<tfoot>`, whatever that
 * element is named (see {@link gfmTables}); undefined for a row without a parent.
 */
function tableOfRow(row: Element | null): Element | undefined {
  const parent = row?.parentNode as Element | null | undefined;
  if (!parent || parent.nodeType !== 1) return undefined;
  if (SECTIONS.has(parent.nodeName)) {
    const grandparent = parent.parentNode as Element | null;
    return grandparent?.nodeType === 1 ? grandparent : undefined;
  }
  return parent;
}

/** An element other than `<table>` whose child elements include a row or a table section (a renamed table). */
function isRenamedTable(node: Element): boolean {
  if (node.nodeName === 'TABLE' || node.nodeName === 'TR' || SECTIONS.has(node.nodeName)) return false;
  for (let c = node.firstElementChild; c; c = c.nextElementSibling) if (c.nodeName === 'TR' || SECTIONS.has(c.nodeName)) return true;
  return false;
}

/** What `HTMLTableElement.rows` returns: `<tr>` children of the table and of its thead/tbody/tfoot, thead first. */
function rowsOf(table: Element): Element[] {
  const head: Element[] = [];
  const body: Element[] = [];
  const foot: Element[] = [];
  for (const c of childElements(table)) {
    if (c.nodeName === 'TR') body.push(c);
    else if (SECTIONS.has(c.nodeName)) {
      const rows = childElements(c).filter((r) => r.nodeName === 'TR');
      (c.nodeName === 'THEAD' ? head : c.nodeName === 'TFOOT' ? foot : body).push(...rows);
    }
  }
  return [...head, ...body, ...foot];
}

/** What `HTMLTableRowElement.cells` returns. */
function cellsOf(row: Element): Element[] {
  return childElements(row).filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH');
}

/** True when no `<td>`/`<th>` comes before `cell` in its row. */
function isFirstCell(cell: Element): boolean {
  for (let c = cell.previousElementSibling; c; c = c.previousElementSibling) if (c.nodeName === 'TD' || c.nodeName === 'TH') return false;
  return true;
}

interface TableShape {
  /** Cells in the widest row. */
  readonly width: number;
  readonly rowCount: number;
  /** The header row (see {@link gfmTables}). */
  readonly firstRow: Element | undefined;
  readonly layout: boolean;
}

const shapes = new WeakMap<Element, TableShape>();

/** The table's shape, worked out once per table. */
function shapeOf(table: Element): TableShape {
  let shape = shapes.get(table);
  if (shape === undefined) {
    const rows = rowsOf(table);
    const width = rows.reduce((w, r) => Math.max(w, cellsOf(r).length), 0);
    shape = { width, rowCount: rows.length, firstRow: rows[0], layout: layoutByShape(table, rows, width) };
    shapes.set(table, shape);
  }
  return shape;
}

/**
 * Whether a table lays out the page rather than holding data (Scout's rule, in the spirit of the data-table
 * test browsers' reader modes use): a table marked `role="presentation"` (or `none`), or one holding another
 * table, is layout; one with a header cell (`<th>`), a `<thead>` or a `<caption>` is data; otherwise a table of
 * one row or one column is layout, and so is a small one (at most 10 cells) with a cell holding blocks
 * (paragraphs, lists, divisions, headings, forms) or no text at all, which no reader takes for a data table.
 */
export function isLayoutTable(table: Element): boolean {
  return shapeOf(table).layout;
}

const BLOCKS = 'p, div, ul, ol, dl, pre, blockquote, h1, h2, h3, h4, h5, h6, form, center';

function layoutByShape(table: Element, rows: readonly Element[], width: number): boolean {
  const role = (table.getAttribute('role') ?? '').trim().toLowerCase();
  if (role === 'presentation' || role === 'none') return true;
  if (table.querySelector('table') !== null) return true;
  if (table.hasAttribute(CONTINUED_TABLE) || table.querySelector('th, thead, caption') !== null) return false;
  if (rows.length <= 1 || width <= 1) return true;
  if (rows.length * width > 10) return false;
  return rows.some((r) => cellsOf(r).some((c) => c.querySelector(BLOCKS) !== null || (c.textContent ?? '').trim() === ''));
}

function oneLine(text: string): string {
  return text.replace(/\s*\n+\s*/g, ' ').trim().replace(/\|/g, '\\|');
}
