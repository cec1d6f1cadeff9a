import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { PDFDocument, PDFName } from 'pdf-lib';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/pdf.js';
import { mappedHelvetica } from '../../../test/support/mapped-helvetica.js';
import { paintedPathsFromOperatorList, shapeBoxes } from './painted-paths.js';
import { readTextPage } from './pdf-text-page.js';
import { openPdf, openPdfDocument } from './pdf.reader.js';

const HEIGHT = 300;

/** A line of Helvetica text at `x`, its baseline `y` points from the top. */
const text = (x: number, y: number, shown: string) =>
  `BT /F1 12 Tf ${x} ${HEIGHT - y} Td (${shown}) Tj ET`;

/**
 * Closed outlines painted every way the text pass follows: a rectangle filled, a path
 * closed and stroked under a transformation in a saved state, curves of the `v` and `y`
 * forms, a scaled square filled and stroked, one form drawn three times (a form without text
 * is what pdf.js skips when drawn again), and what is no outline: an open stroke, two
 * subpaths, a clipping path.
 */
const CONTENT = [
  text(72, 40, 'First item'),
  `60 ${HEIGHT - 38} 4 4 re f`,
  `q 1 0 0 1 60 ${HEIGHT - 58} cm 0 0 m 4 0 l 4 4 l 0 4 l h S Q`,
  text(72, 60, 'Second item'),
  `60 ${HEIGHT - 84} m 64 ${HEIGHT - 84} 64 ${HEIGHT - 80} v 60 ${HEIGHT - 80} 60 ${HEIGHT - 84} y f`,
  `q 2 0 0 2 0 0 cm 30 ${(HEIGHT - 104) / 2} 2 2 re b Q`,
  ...[0, 1, 2].map((i) => `q 1 0 0 1 60 ${HEIGHT - 124 - 20 * i} cm /Bu Do Q`),
  `20 20 m 200 20 l S`,
  `20 30 4 4 re 40 30 4 4 re f`,
  `0 0 10 10 re W n`,
].join('\n');

async function pdfWithShapes(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([400, HEIGHT]);
  page.node.setFontDictionary(PDFName.of('F1'), mappedHelvetica(pdf));
  const form = pdf.context.stream('0 0 4 4 re f', {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, 10, 10],
  });
  page.node.setXObject(PDFName.of('Bu'), pdf.context.register(form));
  page.node.addContentStream(pdf.context.register(pdf.context.stream(CONTENT)));
  return Buffer.from(await pdf.save());
}

/** The operator list read by every page proxy of pdf.js, watched. */
async function watchOperatorLists() {
  const pdf = await openPdfDocument(await pdfWithShapes());
  const proto = Object.getPrototypeOf(await pdf.getPage(1)) as PDFPageProxy;
  await pdf.destroy();
  return jest.spyOn(proto, 'getOperatorList');
}

describe('painted outlines', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('are read in the text pass as the operator list has them', async () => {
    const pdf = await openPdfDocument(await pdfWithShapes());
    try {
      const page = await pdf.getPage(1);
      const fromTextPass = await (await readTextPage(pdf, page)).shapes(100);
      const fromOperatorList = await paintedPathsFromOperatorList(page);
      expect(fromTextPass).toHaveLength(7);
      expect(fromTextPass).toEqual(shapeBoxes(fromOperatorList, page, 100));
    } finally {
      await pdf.destroy();
    }
  });

  it('come with the page text without a second pdf.js pass', async () => {
    const operatorLists = await watchOperatorLists();
    const reader = await openPdf(await pdfWithShapes());
    try {
      const { text: pageText } = await reader.readPage(1);
      expect(pageText.split('\n').slice(0, 2)).toEqual(['• First item', '• Second item']);
      expect(operatorLists).not.toHaveBeenCalled();
    } finally {
      await reader.close();
    }
  });
});
