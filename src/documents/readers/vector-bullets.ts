import type { PDFPageProxy } from 'pdfjs-dist/types/src/pdf.js';
import { isRightToLeft } from './text-direction.js';

/** A box on the page in points, top-left origin (the page's viewport at scale 1). */
export interface ShapeBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

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

type Matrix = [number, number, number, number, number, number];

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/** pdf.js's path drawing codes in a constructPath's data (DrawOPS). */
const MOVE_TO = 0;
const CLOSE_PATH = 4;
/** Points each DrawOPS code takes (moveTo, lineTo, curveTo, quadraticCurveTo, closePath). */
const DRAW_OP_POINTS = [1, 1, 3, 2, 0];

/**
 * Whether a path is one closed outline: a single subpath that is closed, or ends where it
 * starts. Several subpaths are table rules or boxes drawn together, an open one a stroke.
 */
function isClosedOutline(data: ArrayLike<number>): boolean {
  let subpaths = 0;
  let closed = false;
  let start: [number, number] | null = null;
  let last: [number, number] | null = null;
  for (let i = 0; i < data.length;) {
    const code = data[i++];
    if (code === MOVE_TO) subpaths++;
    if (code === CLOSE_PATH) closed = true;
    const points = DRAW_OP_POINTS[code];
    if (points === undefined) return false;
    if (points > 0) {
      last = [data[i + 2 * points - 2], data[i + 2 * points - 1]];
      if (code === MOVE_TO) start = last;
      i += 2 * points;
    }
  }
  if (subpaths !== 1 || start === null || last === null) return false;
  return closed || (Math.abs(start[0] - last[0]) < 0.01 && Math.abs(start[1] - last[1]) < 0.01);
}

/**
 * The boxes of the closed outlines a page paints (filled or stroked), in points from the
 * top-left as the viewport has them; only those at most `maxSide` points wide and tall,
 * since a bullet is the size of a letter. Clipping paths paint nothing and are left out.
 */
export async function paintedShapes(page: PDFPageProxy, maxSide: number): Promise<ShapeBox[]> {
  const { AnnotationMode, OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const painting = new Set<number>([
    OPS.fill,
    OPS.eoFill,
    OPS.stroke,
    OPS.closeStroke,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
  ]);
  const viewport = page.getViewport({ scale: 1 });
  // The page's own content only: annotations (form fields' boxes and values) are read
  // apart, and drawing their appearances costs time for no line of text.
  const list = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  const shapes: ShapeBox[] = [];
  const stack: Matrix[] = [];
  let matrix: Matrix = [1, 0, 0, 1, 0, 0];
  for (let k = 0; k < list.fnArray.length; k++) {
    const fn = list.fnArray[k];
    const args = list.argsArray[k] as unknown[] | null;
    if (fn === OPS.save) stack.push(matrix);
    else if (fn === OPS.restore) matrix = stack.pop() ?? matrix;
    else if (fn === OPS.transform) matrix = multiply(matrix, args as Matrix);
    else if (fn === OPS.paintFormXObjectBegin) {
      // A form is drawn as save, its own matrix, its content, restore.
      stack.push(matrix);
      const formMatrix = args?.[0] as Matrix | null | undefined;
      if (formMatrix) matrix = multiply(matrix, formMatrix);
    } else if (fn === OPS.paintFormXObjectEnd) matrix = stack.pop() ?? matrix;
    else if (fn === OPS.constructPath && args) {
      const [op, [data], minMax] = args as [number, [ArrayLike<number> | null], number[] | null];
      if (!painting.has(op) || !minMax || !data || !isClosedOutline(data)) continue;
      const corners = [
        [minMax[0], minMax[1]],
        [minMax[2], minMax[1]],
        [minMax[0], minMax[3]],
        [minMax[2], minMax[3]],
      ].map(([x, y]) => {
        const pageX = matrix[0] * x + matrix[2] * y + matrix[4];
        const pageY = matrix[1] * x + matrix[3] * y + matrix[5];
        return viewport.convertToViewportPoint(pageX, pageY) as [number, number];
      });
      const xs = corners.map((c) => c[0]);
      const ys = corners.map((c) => c[1]);
      const box = {
        left: Math.min(...xs),
        top: Math.min(...ys),
        right: Math.max(...xs),
        bottom: Math.max(...ys),
      };
      if (box.right - box.left <= maxSide && box.bottom - box.top <= maxSide) shapes.push(box);
    }
  }
  return shapes;
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
