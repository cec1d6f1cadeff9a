import { convert, type FormatCallback } from 'html-to-text';
import { checkHtmlDepth } from './markup-depth.js';
import { writePipeTable } from './pipe-tables.js';

/**
 * How headings and tables come out of the text: `plain` as their words, tables in columns
 * of spaces (what classification reads), `marked` as Markdown writes them (headings behind
 * the `#` marks of their level, tables as pipe tables), so the layout of a format without
 * type sizes or cells (HTML, DOCX) can tell a heading and a table as it does in Markdown.
 */
export type StructureMarks = 'plain' | 'marked';

const HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;

/** True for an element inside a table cell. */
function inCell(node: { parent?: { name?: string; parent?: unknown } | null }): boolean {
  for (let at = node.parent; at; at = at.parent as typeof at) {
    if (at.name === 'td' || at.name === 'th') return true;
  }
  return false;
}

/**
 * The built-in heading format, behind `level` marks (words upper-cased as the plain text has
 * them); in a table cell without them, as a cell holds words, not a heading.
 */
const markedHeading: FormatCallback = (elem, walk, builder, options) => {
  builder.openBlock({ leadingLineBreaks: 2 });
  if (!inCell(elem)) {
    builder.addInline(`${'#'.repeat(Number(options.level))} `, { noWordTransform: true });
  }
  if (options.uppercase !== false) builder.pushWordTransform((word) => word.toUpperCase());
  walk(elem.children, builder);
  if (options.uppercase !== false) builder.popWordTransform();
  builder.closeBlock({ trailingLineBreaks: 2 });
};

/** Browsers cap `colspan` there; a larger one would only make empty cells. */
const MAX_COLSPAN = 1000;

interface TableCell {
  colspan: number;
  rowspan: number;
  text: string;
}

/**
 * Cells a table of `written` cells may have once spans are spread and short rows padded: a
 * few lines of HTML (`colspan="1000"` on every row) must not make millions of cells.
 */
const spreadCells = (written: number) => 4 * written + 64;

/**
 * The cells of a table on a grid, a spanning cell's text in its first place and short rows
 * padded; rows as written (ragged) when that grid would pass `spreadCells`.
 */
function gridOf(table: TableCell[][]): string[][] {
  const rows = table.filter((cells) => cells.length > 0);
  const written = rows.reduce((sum, cells) => sum + cells.length, 0);
  const span = (cell: TableCell, r: number) => ({
    columns: Math.min(Math.max(1, cell.colspan), MAX_COLSPAN),
    rows: Math.min(Math.max(1, cell.rowspan), rows.length - r),
  });
  let spread = 0;
  rows.forEach((cells, r) => {
    for (const cell of cells) spread += span(cell, r).columns * span(cell, r).rows;
  });
  if (spread > spreadCells(written)) return rows.map((cells) => cells.map((cell) => cell.text));
  const grid: string[][] = rows.map(() => []);
  rows.forEach((cells, r) => {
    let column = 0;
    for (const cell of cells) {
      while (grid[r][column] !== undefined) column++;
      const { columns, rows: down } = span(cell, r);
      for (let dr = 0; dr < down; dr++) {
        for (let dc = 0; dc < columns; dc++) {
          grid[r + dr][column + dc] = dr === 0 && dc === 0 ? cell.text : '';
        }
      }
      column += columns;
    }
  });
  const width = grid.reduce((widest, row) => Math.max(widest, row.length), 0);
  const padded = rows.length * width <= spreadCells(written);
  return grid.map((row) =>
    Array.from({ length: padded ? width : row.length }, (_, c) => row[c] ?? ''),
  );
}

/**
 * A table as a Markdown pipe table, its first row the header (cells keep their case). A
 * table inside a cell is its words, row after row: a pipe table has no cell within a cell.
 */
const markedTable: FormatCallback = (elem, walk, builder) => {
  const nested = inCell(elem);
  builder.openTable();
  walkTable(elem);
  builder.closeTable({
    tableToString: (rows) => {
      const grid = gridOf(rows);
      if (nested) return grid.map((cells) => cells.filter((c) => c !== '').join(' ')).join('\n');
      return grid.length > 0 && grid[0].length > 0 ? writePipeTable(grid) : '';
    },
    leadingLineBreaks: 2,
    trailingLineBreaks: 2,
  });

  function walkTable(node: typeof elem): void {
    for (const child of node.children ?? []) {
      if (child.type !== 'tag') continue;
      if (['thead', 'tbody', 'tfoot', 'center'].includes(child.name ?? '')) {
        walkTable(child);
      } else if (child.name === 'tr') {
        builder.openTableRow();
        for (const cell of child.children) {
          if (cell.type !== 'tag' || (cell.name !== 'td' && cell.name !== 'th')) continue;
          builder.openTableCell();
          walk(cell.children, builder);
          builder.closeTableCell({
            colspan: Number(cell.attribs?.colspan) || 1,
            rowspan: Number(cell.attribs?.rowspan) || 1,
          });
        }
        builder.closeTableRow();
      }
    }
  }
};

function optionsFor(marks: StructureMarks) {
  return {
    wordwrap: false as const,
    formatters: { markedHeading, markedTable },
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'noscript', format: 'skip' },
      { selector: 'template', format: 'skip' },
      { selector: 'svg', format: 'skip' },
      { selector: 'iframe', format: 'skip' },
      // The first three levels keep their case; the others are upper-cased as by default.
      ...HEADING_LEVELS.map((level) => ({
        selector: `h${level}`,
        ...(marks === 'marked' ? { format: 'markedHeading' } : {}),
        options: { level, ...(level <= 3 ? { uppercase: false } : {}) },
      })),
      { selector: 'table', format: marks === 'marked' ? 'markedTable' : 'dataTable' },
    ],
  };
}

const OPTIONS = { plain: optionsFor('plain'), marked: optionsFor('marked') };

/**
 * Visible text of an HTML document: no tags, scripts, styles or link targets. The converter
 * recurses per element level, so the depth is checked first (DocumentLimitError).
 */
export function htmlToText(html: string, marks: StructureMarks = 'plain'): string {
  checkHtmlDepth(html);
  return convert(html, OPTIONS[marks])
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
