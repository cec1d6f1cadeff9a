/**
 * Markdown pipe tables (GitHub Flavored Markdown): how a table is written in text, and
 * read back as rows of cells. Layout reads Markdown's tables, and HTML's and DOCX's
 * written so, as table rows.
 */

/** A line of Markdown: running text, or a row of a pipe table as its cells (unescaped). */
export type MarkdownLine = { text: string } | { cells: string[] };

/** A delimiter cell: dashes, with a colon at either end for the column's alignment. */
const DELIMITER_CELL = /^:?-+:?$/;

/** A cell's text as it may stand between pipes: on one line, its own pipes escaped. */
function escapeCell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** The rows as a pipe table: the first is the header, then the delimiter row. */
export function writePipeTable(rows: readonly (readonly string[])[]): string {
  const [header, ...body] = rows;
  const line = (cells: readonly string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...body.map(line)].join('\n');
}

/**
 * The cells of a table row, or undefined for a line without an unescaped pipe. The pipes
 * at either end are optional; `\|` is a pipe within a cell.
 */
function cellsOf(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!/(?:^|[^\\])\|/.test(trimmed)) return undefined;
  const inner = trimmed.replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/**
 * The lines of Markdown text with its pipe tables read: a table is a header row, a
 * delimiter row with as many cells (which is dropped), then the rows up to the first line
 * without a pipe. Every row has the header's number of cells: empty ones are added to a
 * short row, a long row's extra cells are dropped (as GitHub Flavored Markdown does).
 *
 * The tables of the text hold at most as many cells as it has characters: a written cell
 * takes two or more, which leaves room for padding short rows, but a wide header over
 * many one-cell rows cannot pad out into millions of cells. Past that, a table ends and its
 * remaining rows are read as the text they are.
 */
export function readPipeTables(lines: readonly string[]): MarkdownLine[] {
  let cellsLeft = lines.reduce((sum, line) => sum + line.length, 0);
  const read: MarkdownLine[] = [];
  let i = 0;
  while (i < lines.length) {
    const header = cellsOf(lines[i]);
    const delimiter = i + 1 < lines.length ? cellsOf(lines[i + 1]) : undefined;
    const isTable =
      header !== undefined &&
      delimiter !== undefined &&
      delimiter.length === header.length &&
      delimiter.every((cell) => DELIMITER_CELL.test(cell)) &&
      header.length <= cellsLeft;
    if (!isTable) {
      read.push({ text: lines[i] });
      i++;
      continue;
    }
    read.push({ cells: header });
    cellsLeft -= header.length;
    i += 2;
    for (let row = cellsOf(lines[i] ?? ''); row !== undefined; row = cellsOf(lines[i] ?? '')) {
      if (header.length > cellsLeft) break;
      cellsLeft -= header.length;
      read.push({ cells: header.map((_, column) => row?.[column] ?? '') });
      i++;
    }
  }
  return read;
}
