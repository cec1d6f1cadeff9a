/**
 * The closed outlines a PDF page paints (a bullet drawn as a shape is one), read in the same
 * pdf.js pass as the page's text: pdf.js's text extraction walks every operator of the page
 * already, and its worker module (pdfjs-worker.ts) hands each path operator to
 * `recordPathOperator` here, which builds the path as pdf.js's operator list would. Reading
 * the operator list instead is a second parse of the content stream that also decodes every
 * image; it stays the way shapes are read where the worker module could not be installed.
 */
import type { PDFPageProxy } from 'pdfjs-dist/types/src/pdf.js';

/** A box on the page in points, top-left origin (the page's viewport at scale 1). */
export interface ShapeBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

type Matrix = [number, number, number, number, number, number];

/** A closed outline painted (filled or stroked), as pdf.js builds its path. */
export interface PaintedPath {
  /** The path's bounds in its own space (Float32, as pdf.js keeps them). */
  minMax: ArrayLike<number>;
  /** The transformation to the page's user space in effect when it was painted. */
  matrix: readonly number[];
}

const multiply = (m: readonly number[], n: readonly number[]): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/** pdf.js's path drawing codes in a built path (DrawOPS). */
const MOVE_TO = 0;
const CLOSE_PATH = 4;
/** Points each DrawOPS code takes (moveTo, lineTo, curveTo, quadraticCurveTo, closePath). */
const DRAW_OP_POINTS = [1, 1, 3, 2, 0];

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** The operators a path is built and ended with, by what they do to it. */
interface PathOperators {
  /** Those that paint the current path, filled or stroked. */
  painting: Set<number>;
  /** The painting ones that close the path first. */
  closing: Set<number>;
  /** Those that end a path: painting it, or not (a clipping path). */
  ending: Set<number>;
  /** Those that add to the current path. */
  building: Set<number>;
}

function pathOperators({ OPS }: PdfJs): PathOperators {
  const closing = [OPS.closeStroke, OPS.closeFillStroke, OPS.closeEOFillStroke];
  const painting = [OPS.fill, OPS.eoFill, OPS.stroke, OPS.fillStroke, OPS.eoFillStroke, ...closing];
  return {
    painting: new Set(painting),
    closing: new Set(closing),
    ending: new Set([...painting, OPS.endPath]),
    building: new Set([
      OPS.moveTo,
      OPS.lineTo,
      OPS.curveTo,
      OPS.curveTo2,
      OPS.curveTo3,
      OPS.closePath,
      OPS.rectangle,
    ]),
  };
}

/**
 * Set once pdf.js's text extraction calls `recordPathOperator` (pdfjs-worker.ts); pdf.js
 * itself is loaded on first need only, so the operators are known from then.
 */
let recording: PathOperators | undefined;

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

/** The outline an ending operator paints, if it paints a closed one. */
function paintedOutline(
  painting: Set<number>,
  op: number,
  data: ArrayLike<number> | null,
  minMax: ArrayLike<number> | null,
  matrix: readonly number[],
): PaintedPath | undefined {
  if (!painting.has(op) || !minMax || !data || !isClosedOutline(data)) return undefined;
  return { minMax, matrix };
}

/** What pdf.js's evaluator offers the hook: its page, its document, and its path builder. */
interface TextPassEvaluator {
  pageIndex: number;
  idFactory: { getDocId(): string };
  buildPath(op: number, args: unknown, state: PathState): void;
}

/** The path being built, in the fields pdf.js's `buildPath` writes. */
interface PathState {
  pathBuffer: number[];
  pathMinMax: Float32Array;
  currentPointX: number;
  currentPointY: number;
}

/** One text pass of one page: the outlines it painted, where a reader asked for them. */
interface TextPass extends PathState {
  painted: PaintedPath[] | null;
}

const emptyBounds = () => new Float32Array([Infinity, Infinity, -Infinity, -Infinity]);

/** Readers waiting for a page's outlines, by document and page (`collectionKey`). */
const collections = new Map<string, PaintedPath[]>();
/** Each text pass of pdf.js (one evaluator per page read) and what it collects. */
const passes = new WeakMap<object, TextPass>();

/** The document pdf.js's worker knows a document by, and the page's index. */
const collectionKey = (workerDocId: string, pageIndex: number) => `${workerDocId}:${pageIndex}`;

function passOf(evaluator: TextPassEvaluator): TextPass {
  let pass = passes.get(evaluator);
  if (!pass) {
    const key = collectionKey(evaluator.idFactory.getDocId(), evaluator.pageIndex);
    pass = {
      painted: collections.get(key) ?? null,
      pathBuffer: [],
      pathMinMax: emptyBounds(),
      currentPointX: 0,
      currentPointY: 0,
    };
    passes.set(evaluator, pass);
  }
  return pass;
}

/**
 * Called by pdf.js's text extraction with every operator it reads and its text state (the
 * transformation in `ctm`). Builds the path as the operator list does (pdf.js's own
 * `buildPath`, its Float32 bounds) and keeps the closed outlines painted, for a page a
 * reader is collecting; other operators and other passes cost a set look-up.
 */
export function recordPathOperator(
  evaluator: TextPassEvaluator,
  op: number,
  args: unknown,
  state: { ctm: ArrayLike<number> },
): void {
  if (!recording) return;
  const building = recording.building.has(op);
  if (!building && !recording.ending.has(op)) return;
  const pass = passOf(evaluator);
  if (pass.painted === null) return;
  if (building) {
    evaluator.buildPath(op, args, pass);
    return;
  }
  if (recording.closing.has(op)) pass.pathBuffer.push(CLOSE_PATH);
  if (pass.pathBuffer.length === 0) return;
  const data = new Float32Array(pass.pathBuffer);
  const minMax = pass.pathMinMax.slice();
  pass.pathBuffer.length = 0;
  pass.pathMinMax.set([Infinity, Infinity, -Infinity, -Infinity], 0);
  const outline = paintedOutline(recording.painting, op, data, minMax, Array.from(state.ctm));
  if (outline) pass.painted.push(outline);
}

/**
 * How many outlines a text pass has kept so far. pdf.js skips a form it has drawn once
 * without text when it is drawn again; one that painted an outline is drawn every time, as
 * the operator list draws it.
 */
export function recordedPathCount(evaluator: TextPassEvaluator): number {
  return passOf(evaluator).painted?.length ?? 0;
}

/** Said by the worker module once pdf.js's text extraction calls `recordPathOperator`. */
export async function startPathRecording(): Promise<void> {
  recording = pathOperators(await import('pdfjs-dist/legacy/build/pdf.mjs'));
}

/**
 * Runs `read` (the page's text extraction) and gives its result with the closed outlines
 * the same pass painted; `painted` is undefined where the pass could not collect them (the
 * worker module not installed, or the page already being read), to be read apart.
 */
export async function withPaintedPaths<T>(
  page: PDFPageProxy,
  workerDocId: string,
  read: () => Promise<T>,
): Promise<{ result: T; painted: PaintedPath[] | undefined }> {
  const key = collectionKey(workerDocId, page.pageNumber - 1);
  if (!recording || collections.has(key)) return { result: await read(), painted: undefined };
  const painted: PaintedPath[] = [];
  collections.set(key, painted);
  try {
    return { result: await read(), painted };
  } finally {
    collections.delete(key);
  }
}

/**
 * The closed outlines `page` paints, read from its operator list (a pass of its own): the
 * page's content only, since annotations (form fields' boxes and values) are read apart
 * and drawing their appearances costs time for no line of text.
 */
export async function paintedPathsFromOperatorList(page: PDFPageProxy): Promise<PaintedPath[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const { AnnotationMode, OPS } = pdfjs;
  const { painting } = pathOperators(pdfjs);
  const list = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  const painted: PaintedPath[] = [];
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
      const outline = paintedOutline(painting, op, data, minMax, matrix);
      if (outline) painted.push(outline);
    }
  }
  return painted;
}

/**
 * The boxes of painted outlines in points from the top-left as the viewport has them; only
 * those at most `maxSide` points wide and tall, since a bullet is the size of a letter.
 */
export function shapeBoxes(
  painted: readonly PaintedPath[],
  page: PDFPageProxy,
  maxSide: number,
): ShapeBox[] {
  const viewport = page.getViewport({ scale: 1 });
  const shapes: ShapeBox[] = [];
  for (const { minMax, matrix } of painted) {
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
  return shapes;
}
