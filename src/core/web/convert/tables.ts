import type TurndownService from 'turndown';

/**
 * GFM table rules for turndown that work on linkedom's DOM.
 *
 * turndown-plugin-gfm's table rule reads `table.rows`, which linkedom's table elements do not implement, so
 * it throws on every table; it also keeps tables without a heading row as raw HTML. These rules find rows
 * and cells by walking child elements (what `rows`/`cells` return in a browser), so every table becomes a
 * GFM table:
 * - the header is the first row: a `<thead>` row, or else the table's first row whatever its cells are
 *   (GFM requires a header row, so a table without `<thead>` promotes its first row);
 * - every row is padded to the widest row; `colspan` and `rowspan` are ignored (GFM cannot span cells);
 * - cell text is kept on one line and `|` is escaped; `align` on a header cell sets the column alignment;
 * - a `<caption>` becomes a paragraph above the table; a table without cells produces nothing.
 */
export function gfmTables(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => `${cellIndex(node) === 0 ? '|' : ''} ${oneLine(content)} |`,
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const table = closestTable(node);
      const width = table ? tableWidth(table) : 0;
      const cells = cellsOf(node);
      if (width === 0) return '';
      const padding = (cells.length === 0 ? '|' : '') + '  |'.repeat(width - cells.length);
      let line = `\n${content}${padding}`;
      if (table && rowsOf(table)[0] === node) {
        const borders = Array.from({ length: width }, (_, i) => ALIGN[(cells[i]?.getAttribute('align') ?? '').toLowerCase()] ?? '---');
        line += `\n| ${borders.join(' | ')} |`;
      }
      return line;
    },
  });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  service.addRule('tableCaption', { filter: 'caption', replacement: () => '' });
  service.addRule('table', {
    filter: 'table',
    replacement: (content, node) => {
      if (tableWidth(node) === 0) return '';
      const caption = childElements(node).find((c) => c.nodeName === 'CAPTION');
      const title = caption ? oneLine(service.escape(caption.textContent ?? '')) : '';
      return `\n\n${title ? `${title}\n\n` : ''}${content.replace(/^\n+/, '')}\n\n`;
    },
  });
}

const ALIGN: Record<string, string> = { left: ':--', right: '--:', center: ':-:' };

function childElements(node: Element): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
}

/** What `HTMLTableElement.rows` returns: `<tr>` children of the table and of its thead/tbody/tfoot, thead first. */
function rowsOf(table: Element): Element[] {
  const children = childElements(table);
  const sectionRows = (name: string): Element[] => children.filter((c) => c.nodeName === name).flatMap((s) => childElements(s).filter((r) => r.nodeName === 'TR'));
  const body = children.flatMap((c) => (c.nodeName === 'TR' ? [c] : c.nodeName === 'TBODY' ? childElements(c).filter((r) => r.nodeName === 'TR') : []));
  return [...sectionRows('THEAD'), ...body, ...sectionRows('TFOOT')];
}

/** What `HTMLTableRowElement.cells` returns. */
function cellsOf(row: Element): Element[] {
  return childElements(row).filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH');
}

const widths = new WeakMap<Element, number>();

function tableWidth(table: Element): number {
  let width = widths.get(table);
  if (width === undefined) {
    width = Math.max(0, ...rowsOf(table).map((r) => cellsOf(r).length));
    widths.set(table, width);
  }
  return width;
}

function cellIndex(cell: Element): number {
  const row = cell.parentNode as Element | null;
  return row ? cellsOf(row).indexOf(cell) : 0;
}

function closestTable(node: Element): Element | undefined {
  for (let p = node.parentNode; p; p = p.parentNode) if (p.nodeName === 'TABLE') return p as Element;
  return undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n+\s*/g, ' ').trim().replace(/\|/g, '\\|');
}
