import type { StructureMarks } from './html.reader.js';
import type { PageSize } from './document.types.js';
import { writePipeTable } from './pipe-tables.js';

/**
 * What a slide or a sheet holds, as the DOCX and HTML readers' text has it: headings,
 * paragraphs, list items and tables. Written as text the way `StructureMarks` says, so the
 * layout of parse reads them as it reads a DOCX (headings behind `#`, list items behind a
 * marker, pipe tables).
 */
export type OfficeBlock =
  | { kind: 'heading'; level: 1 | 2; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'item'; level: number; text: string }
  | { kind: 'table'; rows: string[][] };

/** One page of a slide deck, workbook or CSV file. */
export interface OfficePage {
  blocks: OfficeBlock[];
  /** A slide's size; sheets and CSV files have none. */
  size?: PageSize;
}

/** Characters of the blocks' text (cells of tables too), as limits count them. */
export function blockCharacters(blocks: readonly OfficeBlock[]): number {
  let characters = 0;
  for (const block of blocks) {
    if (block.kind !== 'table') characters += block.text.length;
    else for (const row of block.rows) for (const cell of row) characters += cell.length;
  }
  return characters;
}

/** The widest a column of a plain table is padded to, as the HTML converter's tables. */
const MAX_COLUMN_WIDTH = 60;

/** A table in columns of spaces (what classification reads, as for DOCX and HTML tables). */
function plainTable(rows: readonly string[][]): string {
  const cells = rows.map((row) => row.map((cell) => cell.replace(/\s+/g, ' ').trim()));
  const widths: number[] = [];
  for (const row of cells) {
    row.forEach((cell, c) => {
      widths[c] = Math.min(MAX_COLUMN_WIDTH, Math.max(widths[c] ?? 0, cell.length));
    });
  }
  return cells
    .map((row) =>
      row
        .map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c])))
        .join('   ')
        .trimEnd(),
    )
    .filter((line) => line !== '')
    .join('\n');
}

function blockText(block: OfficeBlock, marks: StructureMarks): string {
  switch (block.kind) {
    case 'heading':
      return marks === 'marked' ? `${'#'.repeat(block.level)} ${block.text}` : block.text;
    case 'paragraph':
      return block.text;
    case 'item':
      return `${'  '.repeat(block.level)}* ${block.text}`;
    case 'table':
      if (block.rows.length === 0 || block.rows[0].length === 0) return '';
      return marks === 'marked' ? writePipeTable(block.rows) : plainTable(block.rows);
  }
}

/** The page's text: blocks apart by a blank line, list items of one list line after line. */
export function officePageText(blocks: readonly OfficeBlock[], marks: StructureMarks): string {
  let text = '';
  let previous: OfficeBlock | undefined;
  for (const block of blocks) {
    const written = blockText(block, marks);
    if (written === '') continue;
    if (text !== '') text += previous?.kind === 'item' && block.kind === 'item' ? '\n' : '\n\n';
    text += written;
    previous = block;
  }
  return text;
}
