import {
  joinParagraphLines,
  writtenWords,
  type WrittenWords,
} from '../readers/line-hyphenation.js';
import { writePipeTable } from '../readers/pipe-tables.js';
import type { LayoutEngine } from '../versions/engines.js';
import type { BoundingBox, LayoutLine, LayoutPage } from './layout.types.js';
import { roundBox, unionBox } from './layout.types.js';
import { isRightToLeft } from './line-order.js';

/** Block types, as the reductoai SDK names them. */
export type BlockType =
  | 'Header'
  | 'Footer'
  | 'Title'
  | 'Section Header'
  | 'Page Number'
  | 'List Item'
  | 'Table'
  | 'Key Value'
  | 'Text';

export interface ParseBlock {
  type: BlockType;
  bbox: BoundingBox;
  content: string;
  confidence: 'high' | 'low';
  /** Table cells (rows of strings) for Table blocks. */
  extra?: { rows: string[][] } | null;
}

/** Page margins (fractions of the height) where running headers and footers sit. */
const HEADER_ZONE = 0.07;
const FOOTER_ZONE = 0.93;
const LIST_MARKER = /^(?:[•·▪◦‣●○■\-*–]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s+/i;
/** A number marker written in the digits of any script ("١.", "۲)", "३."). */
const NUMBER_MARKER = /^\(?\p{Nd}{1,2}[.)]\s+/u;
/**
 * A number marker of a right-to-left line: "1." stands with its dot on the left of the
 * number, and where the run, without right-to-left letters, reads as drawn, it is ".1" at
 * the line's start.
 */
const RIGHT_TO_LEFT_NUMBER_MARKER = /^[.)]\p{Nd}{1,2}\s+/u;

/** Whether `text` (a line's, trimmed) starts with a list marker. */
const startsWithListMarker = (text: string) =>
  LIST_MARKER.test(text) ||
  NUMBER_MARKER.test(text) ||
  (RIGHT_TO_LEFT_NUMBER_MARKER.test(text) && isRightToLeft(text));

const PAGE_NUMBER = /^(?:page\s+)?\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?$|^-\s*\d{1,4}\s*-$/i;

interface TypedLine {
  line: LayoutLine;
  type: BlockType;
  confidence: 'high' | 'low';
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The body text size of the document: the median line size, weighted by characters. */
function bodySize(pages: readonly LayoutPage[]): number {
  const sizes: number[] = [];
  for (const page of pages) {
    for (const line of page.lines) {
      for (let i = 0; i < Math.min(line.text.length, 200); i += 10) sizes.push(line.size);
    }
  }
  return median(sizes);
}

function typeLines(pages: readonly LayoutPage[], detailed: boolean): TypedLine[][] {
  const body = bodySize(pages);
  return pages.map((page) =>
    page.lines.map((line): TypedLine => {
      const confidence = page.source === 'ocr' ? 'low' : 'high';
      const text = line.text.trim();
      const relative = body > 0 ? line.size / body : 1;
      if (!detailed) {
        return { line, type: relative >= 1.5 ? 'Title' : 'Text', confidence };
      }
      if (!page.synthetic) {
        const bottom = line.bbox.top + line.bbox.height;
        if (line.bbox.top < HEADER_ZONE) {
          return { line, type: PAGE_NUMBER.test(text) ? 'Page Number' : 'Header', confidence };
        }
        if (bottom > FOOTER_ZONE) {
          return { line, type: PAGE_NUMBER.test(text) ? 'Page Number' : 'Footer', confidence };
        }
      }
      if (relative >= 1.6) return { line, type: 'Title', confidence };
      if (relative >= 1.15) return { line, type: 'Section Header', confidence };
      if (startsWithListMarker(text)) return { line, type: 'List Item', confidence };
      return { line, type: 'Text', confidence };
    }),
  );
}

function lineBlock({ line, type, confidence }: TypedLine): ParseBlock {
  return { type, bbox: roundBox(line.bbox), content: line.text, confidence };
}

/** True when `row`'s columns start where `header`'s do (within 3% of the page width). */
export function alignedColumns(header: LayoutLine, row: LayoutLine): boolean {
  if (row.segments.length !== header.segments.length) return false;
  return row.segments.every((segment, i) => {
    const column = header.segments[i];
    // Cells may be left-, right- or centre-aligned under their header.
    const starts = Math.abs(segment.left - column.left) < 0.03;
    const ends = Math.abs(segment.right - column.right) < 0.03;
    const overlaps = segment.left < column.right && segment.right > column.left;
    return starts || ends || overlaps;
  });
}

/**
 * The edges a paragraph's lines share: the left edge, or the right one where the lines read
 * right to left (a right-aligned Arabic or Hebrew paragraph has a ragged left edge, and a
 * justified one's last line ends on the right).
 */
type Alignment = 'left' | 'right';
const ALIGNMENTS: readonly Alignment[] = ['left', 'right'];

/**
 * Whether `next` continues the paragraph `previous` ends, and how: of the alignments the
 * paragraph's lines have shared so far, those `next` shares with `previous` (edges within 5%
 * of the page width). Empty when it does not continue it: too far below, another size, or
 * aligned otherwise. Right edges count only between right-to-left lines: in left-to-right
 * text they also line up a right-aligned date or amount with the paragraph above it, and
 * centred lines with each other, which read as blocks of their own.
 */
function continuedAlignments(
  previous: LayoutLine,
  next: LayoutLine,
  alignments: readonly Alignment[],
): Alignment[] {
  const gap = next.bbox.top - (previous.bbox.top + previous.bbox.height);
  const similarSize = Math.abs(next.size - previous.size) <= 0.15 * previous.size;
  if (gap < -0.002 || gap >= 0.9 * previous.bbox.height || !similarSize) return [];
  const edge = (box: BoundingBox, alignment: Alignment) =>
    alignment === 'left' ? box.left : box.left + box.width;
  return alignments.filter(
    (alignment) =>
      Math.abs(edge(next.bbox, alignment) - edge(previous.bbox, alignment)) < 0.05 &&
      (alignment === 'left' || (isRightToLeft(previous.text) && isRightToLeft(next.text))),
  );
}

const rightEdge = (box: BoundingBox) => box.left + box.width;

/**
 * Whether `next` continues the list item starting at `item` whose last line so far is
 * `previous`: close below it and indented under the item's text, not under its marker. The
 * marker stands where the item's line starts reading: on the left of a left-to-right line,
 * on the right of a right-to-left one (`rightToLeft`), so the indent is on that side.
 */
function continuesListItem(
  item: LayoutLine,
  rightToLeft: boolean,
  previous: LayoutLine,
  next: LayoutLine,
): boolean {
  const gap = next.bbox.top - (previous.bbox.top + previous.bbox.height);
  if (gap >= 0.9 * previous.bbox.height) return false;
  if (rightToLeft) return rightEdge(next.bbox) < rightEdge(item.bbox) - 0.005;
  return next.bbox.left > item.bbox.left + 0.005;
}

const tableable = (t: TypedLine) => t.type === 'Text' || t.type === 'Section Header';

/**
 * The columns of `row` that the segments of `next` continue, one each in order, when `next`
 * holds wrapped lines of the row's cells: both read right to left, `next` close below
 * `previous` (the row's line or its last wrapped line) and of a similar size, with fewer
 * segments than the row, each under one column only and sharing its right or left edge or
 * its centre (within 3% of the page width). Null otherwise. Left-to-right tables are not
 * read so: there a line under some columns only is as often a row with empty cells.
 */
function wrappedCells(row: LayoutLine, previous: LayoutLine, next: LayoutLine): number[] | null {
  if (next.segments.length >= row.segments.length) return null;
  const gap = next.bbox.top - (previous.bbox.top + previous.bbox.height);
  const similarSize = Math.abs(next.size - previous.size) <= 0.15 * previous.size;
  if (gap < -0.002 || gap >= 0.9 * previous.bbox.height || !similarSize) return null;
  const columns: number[] = [];
  for (const segment of next.segments) {
    const under = row.segments.flatMap((column, index) =>
      segment.left < column.right && segment.right > column.left ? [index] : [],
    );
    if (under.length !== 1 || (columns.length > 0 && under[0] <= columns[columns.length - 1])) {
      return null;
    }
    const column = row.segments[under[0]];
    const aligned =
      Math.abs(segment.right - column.right) < 0.03 ||
      Math.abs(segment.left - column.left) < 0.03 ||
      Math.abs(segment.left + segment.right - column.left - column.right) / 2 < 0.03;
    if (!aligned) return null;
    columns.push(under[0]);
  }
  // Directions last: the geometry above already turns most lines away.
  return isRightToLeft(row.text) && isRightToLeft(next.text) ? columns : null;
}

/**
 * A table from line `start` (a line of two segments or more): the lines whose columns line
 * up with it, each a row, with the wrapped lines of a row's cells added to those cells.
 * `end` is the index after its last line.
 */
function tableFrom(lines: readonly TypedLine[], start: number): { rows: string[][]; end: number } {
  const header = lines[start].line;
  const rows = [header.segments.map((s) => s.text)];
  let row = header;
  let end = start + 1;
  while (end < lines.length && tableable(lines[end])) {
    const next = lines[end].line;
    if (alignedColumns(header, next)) {
      rows.push(next.segments.map((s) => s.text));
      row = next;
    } else {
      const columns = wrappedCells(row, lines[end - 1].line, next);
      if (columns === null) break;
      const cells = rows[rows.length - 1];
      columns.forEach((column, k) => (cells[column] += ' ' + next.segments[k].text));
    }
    end++;
  }
  return { rows, end };
}

/**
 * layout-v4: table detection over runs of multi-column lines, then paragraphs from
 * consecutive text lines, list items with their continuation lines.
 */
function paragraphBlocks(lines: TypedLine[], words: WrittenWords): ParseBlock[] {
  const blocks: ParseBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const current = lines[i];
    if (tableable(current) && current.line.segments.length >= 2) {
      const table = tableFrom(lines, i);
      if (table.rows.length >= 2) {
        blocks.push({
          type: 'Table',
          bbox: roundBox(unionBox(lines.slice(i, table.end).map((t) => t.line.bbox))),
          content: writePipeTable(table.rows),
          confidence: current.confidence,
          extra: { rows: table.rows },
        });
        i = table.end;
        continue;
      }
    }
    if (current.type === 'Text' || current.type === 'List Item') {
      const group = [current.line];
      const rightToLeftItem = current.type === 'List Item' && isRightToLeft(current.line.text);
      let alignments = ALIGNMENTS;
      let end = i + 1;
      while (end < lines.length) {
        const next = lines[end];
        const previousLine = group[group.length - 1];
        if (next.type !== 'Text' || next.line.segments.length >= 2) break;
        if (current.type === 'List Item') {
          if (!continuesListItem(current.line, rightToLeftItem, previousLine, next.line)) break;
        } else {
          const shared = continuedAlignments(previousLine, next.line, alignments);
          if (shared.length === 0) break;
          alignments = shared;
        }
        group.push(next.line);
        end++;
      }
      blocks.push({
        type: current.type,
        bbox: roundBox(unionBox(group.map((l) => l.bbox))),
        // A word broken at a line's end reads whole (readers/line-hyphenation.ts).
        content: joinParagraphLines(
          group.map((l) => l.text),
          words,
        ),
        confidence: current.confidence,
      });
      i = end;
      continue;
    }
    blocks.push(lineBlock(current));
    i++;
  }
  return blocks;
}

/** Blocks of every page in reading order, formed as the layout engine decides. */
export function formBlocks(engine: LayoutEngine, pages: readonly LayoutPage[]): ParseBlock[] {
  const typed = typeLines(pages, engine !== 'line-blocks-basic');
  if (engine === 'paragraph-blocks') {
    const words = writtenWords(
      pages.flatMap((page) => page.lines.map((line) => line.text)).join('\n'),
    );
    return typed.flatMap((lines) => paragraphBlocks(lines, words));
  }
  return typed.flatMap((lines) => lines.map(lineBlock));
}
