import type { ShapeBox } from './painted-paths.js';
import { isRightToLeft } from './text-direction.js';

/** A positioned text run from pdf.js, in top-left page coordinates (points). */
export interface PlacedTextRun {
  text: string;
  x: number;
  /** Baseline from the top of the page. */
  y: number;
  width: number;
  size: number;
  /** A form field's value: a cell of its own, never run into the label beside it. */
  field?: boolean;
}

/** The marker a bullet drawn as a shape reads as: the one a bullet glyph reads as. */
export const BULLET_TEXT = '•';
/** Text that already starts with a marker of its own (a glyph bullet or dash). */
const STARTS_WITH_MARKER = /^[•·▪◦‣●○■□\-*–]/u;

/**
 * The runs (`BULLET_TEXT`, in the shape's box, on the line's baseline and size) of the
 * shapes that mark a text line as a list item: a closed shape about the size of the
 * line's x-height (each side 0.15 to 0.7 of the text size, at most 1.6 times as long as
 * wide), its middle within the band of lower-case letters (0.1 to 0.6 of the size above the
 * baseline), just before the line's first glyph in reading order with nothing between
 * or over it (within 2.5 times the text size: a hanging indent), and nothing on its other
 * side closer than a cell's gap (1.2 times the size) or than that glyph.
 * General geometry: a table rule or underline is too thin, a form field's box or a check
 * box larger than the text too large, a dot on the baseline too low.
 */
export function bulletRuns<R extends PlacedTextRun>(
  shapes: readonly ShapeBox[],
  runs: readonly R[],
): PlacedTextRun[] {
  const bullets: PlacedTextRun[] = [];
  for (const [run, box] of markedRuns(shapes, runs)) {
    bullets.push({
      text: BULLET_TEXT,
      x: box.left,
      y: run.y,
      width: box.right - box.left,
      size: run.size,
    });
  }
  return bullets;
}

/**
 * The runs of `runs` that shapes mark as list items (the rule of `bulletRuns`), each with
 * the box of its marker.
 */
export function markedRuns<R extends PlacedTextRun>(
  shapes: readonly ShapeBox[],
  runs: readonly R[],
): Map<R, ShapeBox> {
  // A bullet may be drawn as several shapes (a shaded ball as stacked discs): the shapes
  // before one run make one marker, their union judged as one shape.
  const marking = new Map<R, ShapeBox>();
  for (const shape of shapes) {
    const marked = runMarkedBy(shape, runs);
    if (!marked) continue;
    const seen = marking.get(marked);
    marking.set(
      marked,
      seen
        ? {
            left: Math.min(seen.left, shape.left),
            top: Math.min(seen.top, shape.top),
            right: Math.max(seen.right, shape.right),
            bottom: Math.max(seen.bottom, shape.bottom),
          }
        : shape,
    );
  }
  for (const [run, box] of marking) {
    if (runMarkedBy(box, runs) !== run) marking.delete(run);
  }
  return marking;
}

/** The run `shape` marks as a list item (see `bulletRuns`), or null. */
function runMarkedBy<R extends PlacedTextRun>(shape: ShapeBox, runs: readonly R[]): R | null {
  const middle = (shape.top + shape.bottom) / 2;
  // The runs whose glyphs the shape's middle is level with, whatever their size.
  const level = runs.filter(
    (run) => !run.field && middle > run.y - run.size && middle < run.y + 0.2 * run.size,
  );
  // A glyph over the shape (a number in a ball) is the marker itself, or the shape a box.
  if (level.some((run) => run.x < shape.right && run.x + run.width > shape.left)) return null;
  const after = nearest(level, (run) => run.x - shape.right);
  const before = nearest(level, (run) => shape.left - (run.x + run.width));
  const marked =
    markedRun(after, before, isRightToLeft) ??
    markedRun(before, after, (text) => !isRightToLeft(text));
  return marked && fitsAsBullet(shape, marked.run) ? marked.run : null;
}

/** About the size of `run`'s x-height, roughly as tall as wide, in its lower-case band. */
function fitsAsBullet(shape: ShapeBox, run: PlacedTextRun): boolean {
  const width = shape.right - shape.left;
  const height = shape.bottom - shape.top;
  const middle = (shape.top + shape.bottom) / 2;
  if (Math.min(width, height) < 0.15 * run.size || Math.max(width, height) > 0.7 * run.size) {
    return false;
  }
  if (Math.max(width, height) > 1.6 * Math.min(width, height)) return false;
  return middle < run.y - 0.1 * run.size && middle > run.y - 0.6 * run.size;
}

interface Neighbour<R> {
  run: R;
  gap: number;
}

/** The run of `runs` at the smallest gap `gapOf` on that side (not negative), if any. */
function nearest<R extends PlacedTextRun>(
  runs: readonly R[],
  gapOf: (run: R) => number,
): Neighbour<R> | null {
  let best: Neighbour<R> | null = null;
  for (const run of runs) {
    const gap = gapOf(run);
    if (gap < 0) continue;
    if (!best || gap < best.gap) best = { run, gap };
  }
  return best;
}

/**
 * The run a shape marks when `reading` is the run it stands just before in reading order
 * (on its right for a left-to-right run, its left for a right-to-left one: `wrongWay` says
 * when the run's text reads the other way) and `outside`, on its other side, is far.
 */
function markedRun<R extends PlacedTextRun>(
  reading: Neighbour<R> | null,
  outside: Neighbour<R> | null,
  wrongWay: (text: string) => boolean,
): Neighbour<R> | null {
  if (!reading || reading.gap > 2.5 * reading.run.size || wrongWay(reading.run.text)) return null;
  if (STARTS_WITH_MARKER.test(reading.run.text)) return null;
  if (outside && outside.gap < Math.max(1.2 * reading.run.size, reading.gap)) return null;
  return reading;
}
