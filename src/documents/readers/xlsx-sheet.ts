import { Parser } from 'htmlparser2';
import { enforceLimit } from './document-limits.js';
import { sheetRegions, type PlacedCell } from './sheet-regions.js';
import { shownNumber, type NumberKind } from './xlsx-values.js';

/** What the cells of a sheet are read with: the workbook's strings, styles and date system. */
export interface WorkbookContext {
  sharedStrings: string[];
  numberKinds: NumberKind[];
  date1904: boolean;
  /** Cells read so far in the workbook, against MAX_SHEET_CELLS. */
  cellsRead: number;
  /** Characters of the cells read so far, against MAX_OFFICE_TEXT_CHARS. */
  charactersRead: number;
}

/** A sheet's non-empty cells, row -> column -> text (both 1-based), and its merged ranges. */
export interface SheetCells {
  rows: Map<number, Map<number, string>>;
  merges: { top: number; left: number; bottom: number; right: number }[];
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** `BC12` -> row 12, column 55; undefined for anything else. */
export function cellPosition(reference: string): { row: number; column: number } | undefined {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(reference.trim());
  if (!match) return undefined;
  let column = 0;
  for (const letter of match[1].toUpperCase()) column = column * 26 + letter.charCodeAt(0) - 64;
  return { row: Number(match[2]), column };
}

/** Counts one more cell (or merged range) of the workbook against its limit. */
export function countCell(context: WorkbookContext, what: string): void {
  context.cellsRead++;
  enforceLimit(
    'maxSheetCells',
    context.cellsRead,
    (max) => `The ${what} holds more than ${max} cells`,
  );
}

/**
 * Reads the shared strings of a workbook as its part streams in (rich-text runs joined,
 * phonetic readings left out); more strings than MAX_SHEET_CELLS are refused.
 */
export function sharedStringsReader(): { write(chunk: string): void; end(): string[] } {
  const strings: string[] = [];
  let current: string | undefined;
  let inText = false;
  let phonetic = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        if (local === 'si') {
          enforceLimit(
            'maxSheetCells',
            strings.length + 1,
            (max) => `The XLSX holds more than ${max} shared strings`,
          );
          current = '';
        } else if (local === 'rPh') phonetic++;
        else if (local === 't') inText = true;
      },
      onclosetag(name) {
        const local = localName(name);
        if (local === 'si') {
          strings.push(current ?? '');
          current = undefined;
        } else if (local === 'rPh') phonetic--;
        else if (local === 't') inText = false;
      },
      ontext(text) {
        if (inText && phonetic === 0 && current !== undefined) current += text;
      },
    },
    { xmlMode: true, recognizeSelfClosing: true },
  );
  return {
    write: (chunk) => parser.write(chunk),
    end: () => {
      parser.end();
      return strings;
    },
  };
}

/** A worksheet read as its text streams in: `write` each chunk, then `end` for its cells. */
export interface SheetReader {
  write(chunk: string): void;
  end(): SheetCells;
}

/**
 * Reads a worksheet part as it streams (no tree): each cell's value as the cell shows it
 * (shared and inline strings, numbers, dates and percentages through the cell's number
 * format, booleans, errors, a formula's cached value), empty cells left out. Every `<c>`
 * counts against MAX_SHEET_CELLS, so a sheet of millions of cells stops at the limit; the
 * range its `<dimension>` claims is not read.
 */
export function sheetReader(context: WorkbookContext, sheetName: string): SheetReader {
  const rows = new Map<number, Map<number, string>>();
  const merges: SheetCells['merges'] = [];
  let row = 0;
  let column = 0;
  let cell: { type: string; style: number; value: string; inline: string } | undefined;
  let reading: 'v' | 't' | undefined;
  let phonetic = 0;
  const what = `XLSX (sheet "${sheetName}")`;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const local = localName(name);
        if (local === 'row') {
          const number = Number(attributes.r);
          row = Number.isInteger(number) && number > 0 ? number : row + 1;
          column = 0;
        } else if (local === 'c') {
          countCell(context, what);
          const position = attributes.r ? cellPosition(attributes.r) : undefined;
          if (position) {
            row = position.row;
            column = position.column;
          } else column++;
          cell = {
            type: attributes.t ?? 'n',
            style: Number(attributes.s ?? 0),
            value: '',
            inline: '',
          };
        } else if (local === 'v' && cell) reading = 'v';
        else if (local === 't' && cell) reading = 't';
        else if (local === 'rPh') phonetic++;
        else if (local === 'mergeCell') {
          const [from, to] = (attributes.ref ?? '').split(':');
          const start = cellPosition(from ?? '');
          const end = cellPosition(to ?? from ?? '');
          if (start && end) {
            countCell(context, what);
            merges.push({
              top: Math.min(start.row, end.row),
              left: Math.min(start.column, end.column),
              bottom: Math.max(start.row, end.row),
              right: Math.max(start.column, end.column),
            });
          }
        }
      },
      onclosetag(name) {
        const local = localName(name);
        if (local === 'v' || local === 't') reading = undefined;
        else if (local === 'rPh') phonetic--;
        else if (local === 'c' && cell) {
          const text = cellText(cell, context).trim();
          if (text !== '') {
            context.charactersRead += text.length;
            enforceLimit(
              'maxOfficeTextChars',
              context.charactersRead,
              (max) => `The ${what} holds more than ${max} characters of text`,
            );
            let cells = rows.get(row);
            if (!cells) rows.set(row, (cells = new Map()));
            cells.set(column, text);
          }
          cell = undefined;
        }
      },
      ontext(text) {
        if (!cell || phonetic > 0) return;
        if (reading === 'v') cell.value += text;
        else if (reading === 't') cell.inline += text;
      },
    },
    { xmlMode: true, recognizeSelfClosing: true },
  );
  return {
    write: (chunk) => parser.write(chunk),
    end: () => {
      parser.end();
      return { rows, merges };
    },
  };
}

function cellText(
  cell: { type: string; style: number; value: string; inline: string },
  context: WorkbookContext,
): string {
  switch (cell.type) {
    case 's':
      return context.sharedStrings[Number(cell.value)] ?? '';
    case 'inlineStr':
      return cell.inline;
    case 'b':
      return cell.value.trim() === '1' ? 'TRUE' : cell.value.trim() === '0' ? 'FALSE' : cell.value;
    case 'str':
    case 'e':
    case 'd':
      return cell.value;
    default:
      return shownNumber(cell.value, context.numberKinds[cell.style] ?? 'number', context.date1904);
  }
}

/**
 * A sheet's tables: its cells with text (a merged range's text once, in its first cell),
 * apart where empty rows run between them (`sheetRegions`), each as rows of
 * cells with the rows and columns without text left out (so a stray cell far off adds one
 * row and column, not the empty range between). Throws DocumentLimitError when the tables
 * together would pass MAX_SHEET_CELLS.
 */
export function sheetTables(cells: SheetCells, sheetName: string, cellLimit: number): string[][][] {
  clearMergedCells(cells, cellLimit);
  const placed: PlacedCell[] = [];
  for (const [row, columns] of cells.rows) {
    for (const [column, text] of columns) placed.push({ row, column, text });
  }
  const tables = sheetRegions(placed).map((region) => {
    const rowNumbers = [...new Set(region.map((cell) => cell.row))].sort((a, b) => a - b);
    const columns = [...new Set(region.map((cell) => cell.column))].sort((a, b) => a - b);
    return { region, rowNumbers, columns };
  });
  const spanned = tables.reduce((sum, t) => sum + t.rowNumbers.length * t.columns.length, 0);
  const widest = tables.reduce((most, t) => Math.max(most, t.columns.length), 0);
  const tallest = tables.reduce((most, t) => Math.max(most, t.rowNumbers.length), 0);
  enforceLimit(
    'maxSheetCells',
    spanned,
    (max) =>
      `The XLSX sheet "${sheetName}" spans ${spanned} cells in tables (up to ${tallest} rows by ${widest} columns); at most ${max} are read`,
  );
  return tables.map(({ region, rowNumbers, columns }) => {
    const rowIndex = new Map(rowNumbers.map((row, i) => [row, i]));
    const columnIndex = new Map(columns.map((column, i) => [column, i]));
    const grid = rowNumbers.map(() => columns.map(() => ''));
    for (const cell of region) {
      grid[rowIndex.get(cell.row) ?? 0][columnIndex.get(cell.column) ?? 0] = cell.text;
    }
    return grid;
  });
}

/**
 * Empties the cells a merged range covers beyond its first (writers may keep their old
 * text). Rows are looked up, not the range walked, so a range claiming the whole sheet
 * costs its rows present; past a few times the cell limit of work the rest is left as is.
 */
function clearMergedCells(cells: SheetCells, cellLimit: number): void {
  if (cells.merges.length === 0) return;
  const rowNumbers = [...cells.rows.keys()].sort((a, b) => a - b);
  let work = 0;
  for (const merge of cells.merges) {
    let at = lowerBound(rowNumbers, merge.top);
    for (; at < rowNumbers.length && rowNumbers[at] <= merge.bottom; at++) {
      const row = cells.rows.get(rowNumbers[at]);
      for (const column of row?.keys() ?? []) {
        if (++work > 4 * cellLimit) return;
        const first = rowNumbers[at] === merge.top && column === merge.left;
        if (!first && column >= merge.left && column <= merge.right) row?.delete(column);
      }
    }
  }
}

function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
