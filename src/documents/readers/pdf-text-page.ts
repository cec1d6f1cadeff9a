/**
 * A text page of a PDF as both page readers take it (the text of classification and the
 * positioned lines of parse, extract and split): read by pdf.js in one pass, its items
 * mended (pdf-text-items.ts) and placed on the page, so both read the same runs in the same
 * places, and the outlines the same pass painted for the bullets drawn as shapes.
 */
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/pdf.js';
import {
  paintedPathsFromOperatorList,
  shapeBoxes,
  withPaintedPaths,
  type ShapeBox,
} from './painted-paths.js';
import { joinedWordParts, mendTextItems, type PdfTextItem } from './pdf-text-items.js';
import { readableItems } from './pdf-unmapped-fonts.js';
import type { PlacedTextRun } from './vector-bullets.js';

/** A run of horizontal text placed on the page, with the text item it was read from. */
export interface ItemRun extends PlacedTextRun {
  item: PdfTextItem;
}

/**
 * Text written in vertical columns (Japanese, Chinese: a font with a vertical writing mode,
 * `-V` CMaps), in top-left page coordinates (points). Its lines are columns read top to
 * bottom, the columns right to left; grouped by baseline as horizontal lines are, every
 * column of a block would share one "line" read left to right, last column first.
 */
export interface VerticalRun {
  text: string;
  /** The column's middle. */
  x: number;
  top: number;
  /** The column's width (the glyphs' width) and length down the page. */
  width: number;
  length: number;
  size: number;
}

export interface PdfTextPage {
  /**
   * pdf.js's text items of the page, mended, in pdf.js's order, without those of fonts
   * without a Unicode map (pdf-unmapped-fonts.ts).
   */
  items: unknown[];
  /** Whether most of the page's text is such fonts' codes or unread characters: a scan's. */
  unread: boolean;
  /** Each horizontal item holding more than spaces, placed (top-left points, baseline). */
  runs: ItemRun[];
  /** Each item of a vertical writing mode holding more than spaces, placed. */
  verticalRuns: VerticalRun[];
  /** The closed outlines the page paints, at most `maxSide` points wide and tall. */
  shapes(maxSide: number): Promise<ShapeBox[]>;
}

/**
 * The name pdf.js's worker gives the document (`g_` and the loading task's id), which its
 * text extraction tells the outlines it reads by.
 */
const workerDocId = (pdf: PDFDocumentProxy) => `g_${pdf.loadingTask.docId}`;

/** Reads the text page `page` of `pdf`. */
export async function readTextPage(
  pdf: PDFDocumentProxy,
  page: PDFPageProxy,
): Promise<PdfTextPage> {
  const { result: content, painted } = await withPaintedPaths(page, workerDocId(pdf), () =>
    page.getTextContent(),
  );
  const viewport = page.getViewport({ scale: 1 });
  const styles = content.styles as Record<string, { vertical?: boolean } | undefined>;
  const readable = readableItems(mendTextItems(content.items));
  const items = joinedWordParts(readable.items);
  const unread = readable.unread;
  const runs: ItemRun[] = [];
  const verticalRuns: VerticalRun[] = [];
  for (const entry of items) {
    const item = entry as PdfTextItem;
    if (typeof item?.str !== 'string' || !item.transform || item.str.trim() === '') continue;
    const [, , c, d, e, f] = item.transform;
    const [x, y] = viewport.convertToViewportPoint(e, f) as [number, number];
    const size = Math.hypot(c, d) || item.height || 10;
    if (item.fontName !== undefined && styles[item.fontName]?.vertical) {
      const length = item.height ?? 0;
      verticalRuns.push({
        text: item.str.trim(),
        x,
        top: y,
        width: item.width || size,
        length,
        size,
      });
    } else runs.push({ item, text: item.str, x, y, width: item.width ?? 0, size });
  }
  return {
    items,
    unread,
    runs,
    verticalRuns,
    shapes: async (maxSide) =>
      shapeBoxes(painted ?? (await paintedPathsFromOperatorList(page)), page, maxSide),
  };
}
