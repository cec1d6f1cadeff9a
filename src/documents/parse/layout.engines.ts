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
      if (LIST_MARKER.test(text)) return { line, type: 'List Item', confidence };
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

/**
 * layout-v4: table detection over runs of multi-column lines, then paragraphs from
 * consecutive text lines, list items with their continuation lines.
 */
function paragraphBlocks(lines: TypedLine[]): ParseBlock[] {
  const blocks: ParseBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const current = lines[i];
    const tableable = (t: TypedLine) => t.type === 'Text' || t.type === 'Section Header';
    if (tableable(current) && current.line.segments.length >= 2) {
      let end = i + 1;
      while (
        end < lines.length &&
        tableable(lines[end]) &&
        alignedColumns(current.line, lines[end].line)
      ) {
        end++;
      }
      if (end - i >= 2) {
        const rows = lines.slice(i, end).map((t) => t.line.segments.map((s) => s.text));
        blocks.push({
          type: 'Table',
          bbox: roundBox(unionBox(lines.slice(i, end).map((t) => t.line.bbox))),
          content: writePipeTable(rows),
          confidence: current.confidence,
          extra: { rows },
        });
        i = end;
        continue;
      }
    }
    if (current.type === 'Text' || current.type === 'List Item') {
      const group = [current.line];
      let alignments = ALIGNMENTS;
      let end = i + 1;
      while (end < lines.length) {
        const next = lines[end];
        const previousLine = group[group.length - 1];
        if (next.type !== 'Text' || next.line.segments.length >= 2) break;
        if (current.type === 'List Item') {
          // A wrapped list item continues indented under its text, not under the marker.
          const gap = next.line.bbox.top - (previousLine.bbox.top + previousLine.bbox.height);
          if (next.line.bbox.left <= current.line.bbox.left + 0.005) break;
          if (gap >= 0.9 * previousLine.bbox.height) break;
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
        content: group.map((l) => l.text.trim()).join(' '),
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
  if (engine === 'paragraph-blocks') return typed.flatMap(paragraphBlocks);
  return typed.flatMap((lines) => lines.map(lineBlock));
}
