import type { DocumentFileType, PageTextSource } from '../readers/document.types.js';

/**
 * A box on a page as fractions of the page's width and height (0..1), origin top-left,
 * as in the reductoai BoundingBox. `page` is 1-indexed in the whole document.
 */
export interface BoundingBox {
  left: number;
  top: number;
  width: number;
  height: number;
  page: number;
}

/** A run of text on a line separated from its neighbours by a wide gap (a table cell). */
export interface LineSegment {
  text: string;
  left: number;
  right: number;
}

export interface LayoutLine {
  text: string;
  bbox: BoundingBox;
  /** Text height as a fraction of the page height; compares lines within a page. */
  size: number;
  segments: LineSegment[];
  words: { text: string; bbox: BoundingBox }[];
}

export interface LayoutPage {
  pageNumber: number;
  source: PageTextSource;
  /** Lines in reading order. */
  lines: LayoutLine[];
  /** True when positions are estimated (DOCX, HTML, text): no page geometry exists. */
  synthetic: boolean;
  /** The page's width and height in points as displayed (PDF pages; absent otherwise). */
  dimensions?: { width: number; height: number };
}

export interface LayoutDocument {
  fileType: DocumentFileType;
  totalPages: number;
  pages: LayoutPage[];
}

export function pageText(page: LayoutPage): string {
  return page.lines.map((line) => line.text).join('\n');
}

/** The smallest box holding all of `boxes` (all on the same page). */
export function unionBox(boxes: readonly BoundingBox[]): BoundingBox {
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { left, top, width: right - left, height: bottom - top, page: boxes[0].page };
}

/** Rounds a box's fractions to 4 decimals: stable output, and more is noise. */
export function roundBox(box: BoundingBox): BoundingBox {
  const r = (n: number) => Math.round(n * 10_000) / 10_000;
  return {
    left: r(box.left),
    top: r(box.top),
    width: r(box.width),
    height: r(box.height),
    page: box.page,
  };
}
