import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/pdf.js';
import { recognizeLayout, type OcrEffort, type OcrLine } from '../readers/ocr.engine.js';
import { formFieldTexts } from '../readers/pdf-form-fields.js';
import { readTextPage } from '../readers/pdf-text-page.js';
import { openPdfDocument, renderPng } from '../readers/pdf.reader.js';
import type { BoundingBox, LayoutLine, LayoutPage, LineSegment } from './layout.types.js';
import { isRightToLeft, readingOrder } from './line-order.js';
import { bulletRuns, type PlacedTextRun } from '../readers/vector-bullets.js';
import { columnLines, withColumns } from './vertical-columns.js';

/** Same rule as the documents library: fewer letters/digits than this means a scan. */
const MIN_TEXT_LAYER_CHARS = 16;

/**
 * Splits a run at wide runs of spaces: PDF producers often pad table columns with spaces
 * inside one text item; each part becomes its own run, positioned by character share.
 */
function splitPadded(run: PlacedTextRun): PlacedTextRun[] {
  const parts = [...run.text.matchAll(/\S+(?: {1,2}\S+)*/g)];
  if (parts.length <= 1) return [{ ...run, text: run.text.trim() }];
  const perChar = run.width / Math.max(1, run.text.length);
  const rightToLeft = isRightToLeft(run.text);
  return parts.map((m) => {
    const offset = (m.index ?? 0) * perChar;
    const width = m[0].length * perChar;
    // A right-to-left run's text (reading order) starts at its right end.
    const x = rightToLeft ? run.x + run.width - offset - width : run.x + offset;
    return { text: m[0], x, y: run.y, width, size: run.size };
  });
}

/** Groups runs into lines (shared baseline) and lines into segments (wide gaps). */
function linesOf(
  runs: PlacedTextRun[],
  pageNumber: number,
  pageWidth: number,
  pageHeight: number,
): LayoutLine[] {
  const sorted = [...runs].sort((a, b) => a.y - b.y || a.x - b.x);
  const groups: PlacedTextRun[][] = [];
  for (const run of sorted) {
    const last = groups.at(-1);
    if (last && Math.abs(last[0].y - run.y) < 0.5 * Math.min(last[0].size, run.size))
      last.push(run);
    else groups.push([run]);
  }
  return groups.map((group) => {
    group.sort((a, b) => a.x - b.x);
    const size = Math.max(...group.map((r) => r.size));
    // A gap this wide parts two cells (segments) of the line.
    const cellGap = 1.2 * size;
    const { rightToLeft, runs: ordered } = readingOrder(group, 0.15 * size, cellGap);
    const segments: LineSegment[] = [];
    const words: LayoutLine['words'] = [];
    let text = '';
    let previousField = false;
    for (const { run, gap, directionChange } of ordered) {
      const current = segments.at(-1);
      if (current && gap < cellGap && !run.field && !previousField) {
        const joiner = gap > 0.15 * size || directionChange ? ' ' : '';
        current.text += joiner + run.text;
        if (rightToLeft) {
          // Read right to left, a segment grows leftwards, a Latin run in it rightwards.
          current.left = Math.min(current.left, run.x / pageWidth);
          current.right = Math.max(current.right, (run.x + run.width) / pageWidth);
        } else current.right = (run.x + run.width) / pageWidth;
        text += joiner + run.text;
      } else {
        segments.push({
          text: run.text,
          left: run.x / pageWidth,
          right: (run.x + run.width) / pageWidth,
        });
        text += (text === '' ? '' : ' ') + run.text;
      }
      previousField = run.field === true;
      const perChar = run.width / Math.max(1, run.text.length);
      const runRightToLeft = isRightToLeft(run.text);
      for (const m of run.text.matchAll(/\S+/g)) {
        const offset = (m.index ?? 0) * perChar;
        const width = m[0].length * perChar;
        // A right-to-left run's first letter is at its right end.
        const x = runRightToLeft ? run.x + run.width - offset - width : run.x + offset;
        words.push({ text: m[0], bbox: box(x, run.y, width, size) });
      }
    }
    const left = Math.min(...group.map((r) => r.x));
    const right = Math.max(...group.map((r) => r.x + r.width));
    return {
      text,
      bbox: box(left, group[0].y, right - left, size),
      size: size / pageHeight,
      segments,
      words,
    };
  });

  function box(x: number, baseline: number, width: number, size: number): BoundingBox {
    // Ascent about 0.8 of the font size above the baseline, descent 0.2 below.
    const top = baseline - 0.8 * size;
    return {
      left: x / pageWidth,
      top: top / pageHeight,
      width: width / pageWidth,
      height: size / pageHeight,
      page: pageNumber,
    };
  }
}

/** Lines from OCR boxes (pixels of the rendered page image). */
export function linesFromOcr(
  ocrLines: readonly OcrLine[],
  pageNumber: number,
  imageWidth: number,
  imageHeight: number,
): LayoutLine[] {
  const box = (b: OcrLine['bbox']): BoundingBox => ({
    left: b.x0 / imageWidth,
    top: b.y0 / imageHeight,
    width: (b.x1 - b.x0) / imageWidth,
    height: (b.y1 - b.y0) / imageHeight,
    page: pageNumber,
  });
  return ocrLines.map((line) => {
    const height = line.bbox.y1 - line.bbox.y0;
    const segments: LineSegment[] = [];
    let previousRight = -Infinity;
    for (const word of line.words) {
      const current = segments.at(-1);
      if (current && word.bbox.x0 - previousRight < 1.2 * height) {
        current.text += ' ' + word.text;
        current.right = word.bbox.x1 / imageWidth;
      } else {
        segments.push({
          text: word.text,
          left: word.bbox.x0 / imageWidth,
          right: word.bbox.x1 / imageWidth,
        });
      }
      previousRight = word.bbox.x1;
    }
    return {
      text: line.text,
      bbox: box(line.bbox),
      size: height / imageHeight,
      segments,
      words: line.words.map((w) => ({ text: w.text, bbox: box(w.bbox) })),
    };
  });
}

function alnumCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** Image dimensions from a PNG header (IHDR), to turn OCR pixels into page fractions. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

interface PdfLayoutReader {
  numPages: number;
  readPage(localPage: number, documentPage: number): Promise<LayoutPage>;
  close(): Promise<void>;
}

async function readPage(
  pdf: PDFDocumentProxy,
  localPage: number,
  documentPage: number,
  ocrEffort: OcrEffort,
): Promise<LayoutPage> {
  const page = await pdf.getPage(localPage);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const textPage = await readTextPage(pdf, page);
    const { verticalRuns } = textPage;
    const runs = textPage.runs.flatMap(splitPadded);
    // A filled form's values sit on the lines of their labels; the baseline is where the
    // line boxes (box() below) put it.
    const fields = (await formFieldTexts(page)).map((field) => ({
      ...field,
      x: field.left,
      y: field.top + 0.8 * field.size,
      field: true,
    }));
    // Bullets drawn as shapes (Chromium, symbol fonts turned into outlines) read as the
    // bullet glyph their line would otherwise start with.
    const bullets =
      runs.length === 0
        ? []
        : bulletRuns(await textPage.shapes(Math.max(...runs.map((r) => r.size))), runs);
    const lines = withColumns(
      linesOf([...runs, ...bullets, ...fields], documentPage, viewport.width, viewport.height),
      columnLines(verticalRuns, documentPage, viewport.width, viewport.height),
    );
    // Whether the page is a scan is decided on its own text, not on the fields over it.
    const text = [...runs, ...verticalRuns].map((run) => run.text).join('\n');
    const dimensions = { width: viewport.width, height: viewport.height };
    const textLayer: LayoutPage = {
      pageNumber: documentPage,
      source: 'text-layer',
      lines,
      synthetic: false,
      dimensions,
    };
    // A page mostly of fonts without a Unicode map is read as a scan (pdf-unmapped-fonts.ts).
    if (alnumCount(text) >= MIN_TEXT_LAYER_CHARS && !textPage.unread) return textLayer;
    const png = await renderPng(page, pdf);
    const ocr = await recognizeLayout(png, ocrEffort);
    // A turned scan is read upright: its boxes are in the upright image's frame.
    const { width, height } = ocr.size ?? pngSize(png);
    const ocrLines = [
      ...linesFromOcr(ocr.lines, documentPage, width, height),
      ...linesOf(fields, documentPage, viewport.width, viewport.height),
    ].sort((a, b) => a.bbox.top - b.bbox.top);
    return alnumCount(ocr.text) > alnumCount(text)
      ? { ...textLayer, source: 'ocr', lines: ocrLines }
      : textLayer;
  } finally {
    page.cleanup();
  }
}

/**
 * Opens a PDF for reading pages with positioned lines (text layer, or OCR boxes read with
 * `ocrEffort` where a page has no usable text layer).
 */
export async function openPdfLayout(
  bytes: Uint8Array,
  password?: string,
  ocrEffort: OcrEffort = 'fast',
): Promise<PdfLayoutReader> {
  const pdf = await openPdfDocument(bytes, password);
  return {
    numPages: pdf.numPages,
    readPage: (localPage, documentPage) => readPage(pdf, localPage, documentPage, ocrEffort),
    close: () => pdf.destroy(),
  };
}
