import type { VerticalRun } from '../readers/pdf-text-page.js';
import type { BoundingBox, LayoutLine } from './layout.types.js';

/** Runs of one column: the same middle, each starting where the one above ends. */
function columnsOf(runs: readonly VerticalRun[]): VerticalRun[][] {
  const sorted = [...runs].sort((a, b) => b.x - a.x || a.top - b.top);
  const columns: VerticalRun[][] = [];
  for (const run of sorted) {
    const column = columns.find((candidate) => {
      const last = candidate.at(-1) as VerticalRun;
      return (
        Math.abs(last.x - run.x) < 0.5 * Math.min(last.size, run.size) &&
        run.top >= last.top &&
        run.top <= last.top + last.length + 1.2 * last.size
      );
    });
    if (column) column.push(run);
    else columns.push([run]);
  }
  return columns;
}

/** The lines of vertical runs: one per column, right to left, each read top to bottom. */
export function columnLines(
  runs: readonly VerticalRun[],
  pageNumber: number,
  pageWidth: number,
  pageHeight: number,
): LayoutLine[] {
  const box = (left: number, top: number, width: number, height: number): BoundingBox => ({
    left: left / pageWidth,
    top: top / pageHeight,
    width: width / pageWidth,
    height: height / pageHeight,
    page: pageNumber,
  });
  const lines = columnsOf(runs).map((column) => {
    const size = Math.max(...column.map((run) => run.size));
    let text = '';
    column.forEach((run, i) => {
      const above = column[i - 1];
      const gap = above ? run.top - (above.top + above.length) : 0;
      text += (i === 0 ? '' : gap > 0.5 * size ? ' ' : '') + run.text;
    });
    const width = Math.max(...column.map((run) => run.width));
    const left = column[0].x - width / 2;
    const top = column[0].top;
    const bottom = Math.max(...column.map((run) => run.top + run.length));
    const bbox = box(left, top, width, bottom - top);
    return {
      text,
      bbox,
      // The text's size across the column, as a horizontal line's is its height.
      size: size / pageHeight,
      segments: [{ text, left: bbox.left, right: bbox.left + bbox.width }],
      words: column.map((run) => ({ text: run.text, bbox: box(left, run.top, width, run.length) })),
    };
  });
  return inReadingOrder(lines);
}

/**
 * Columns right to left within a band of columns that overlap down the page (a block;
 * a paragraph's first column may start lower, indented), bands top to bottom.
 */
function inReadingOrder(lines: LayoutLine[]): LayoutLine[] {
  const byTop = [...lines].sort((a, b) => a.bbox.top - b.bbox.top);
  const bands: LayoutLine[][] = [];
  let bottom = -Infinity;
  for (const line of byTop) {
    const end = line.bbox.top + line.bbox.height;
    const band = bands.at(-1);
    if (band && line.bbox.top < bottom) {
      band.push(line);
      bottom = Math.max(bottom, end);
    } else {
      bands.push([line]);
      bottom = end;
    }
  }
  const right = (line: LayoutLine) => line.bbox.left + line.bbox.width;
  return bands.flatMap((band) => band.sort((a, b) => right(b) - right(a)));
}

/**
 * Horizontal lines (in their reading order) and vertical columns (columnLines) as one
 * sequence: a column comes before the first horizontal line that starts below it. A page
 * without columns keeps its lines as they are.
 */
export function withColumns(lines: LayoutLine[], columns: readonly LayoutLine[]): LayoutLine[] {
  if (columns.length === 0) return lines;
  const out: LayoutLine[] = [];
  let next = 0;
  for (const line of lines) {
    while (next < columns.length && columns[next].bbox.top < line.bbox.top)
      out.push(columns[next++]);
    out.push(line);
  }
  return [...out, ...columns.slice(next)];
}
