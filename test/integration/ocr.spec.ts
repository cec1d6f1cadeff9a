import { afterAll, describe, expect, it } from '@jest/globals';
import { CorruptDocumentError } from '../../src/documents/readers/document.errors.js';
import { loadDocument } from '../../src/documents/readers/document.loader.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import type { LayoutDocument } from '../../src/documents/parse/layout.types.js';
import {
  makePdf,
  makePng,
  makeScannedPdf,
  makeShadowedPng,
  makeTiff,
} from '../support/documents.js';

// OCR runs tesseract.js (WASM) with the bundled English data: slow, so few cases and
// generous time-outs.
const OCR_TIMEOUT = 120_000;

/** OCR may drop punctuation or merge spaces; compare on lower-case words. */
const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** A receipt photographed with its right part in shadow, where its later lines are printed. */
function shadowedReceipt(): Buffer {
  return makeShadowedPng([
    'Subtotal 11.70',
    'Tax 1.17',
    'Total 14.50',
    'Cappuccino 2.20',
    'Thank you for your visit',
  ]);
}

afterAll(async () => {
  await terminateOcr();
});

describe('OCR of generated documents', () => {
  it(
    'reads the text of a PNG',
    async () => {
      const doc = await loadDocument(makePng('INVOICE 4711\nTotal amount due: 1250.00 USD'));
      expect(doc.fileType).toBe('image');
      expect(doc.totalPages).toBe(1);
      expect(doc.pages[0].source).toBe('ocr');
      expect(words(doc.pages[0].text)).toEqual(
        expect.arrayContaining(['invoice', '4711', 'total', 'amount', 'due', 'usd']),
      );
    },
    OCR_TIMEOUT,
  );

  it(
    'reads the text of a TIFF',
    async () => {
      const doc = await loadDocument(makeTiff('Bank statement for March'));
      expect(doc.fileType).toBe('image');
      expect(words(doc.pages[0].text)).toEqual(['bank', 'statement', 'for', 'march']);
    },
    OCR_TIMEOUT,
  );

  it(
    'reads image-only PDF pages through OCR and only the selected ones',
    async () => {
      const pdf = await makeScannedPdf([
        'Patient discharge summary',
        'Diagnosis: acute bronchitis',
        'Follow up with your physician',
      ]);
      const doc = await loadDocument(pdf, 'scan.pdf', { pageRange: [1, 3] });
      expect(doc.fileType).toBe('pdf');
      expect(doc.totalPages).toBe(3);
      expect(doc.pages.map((p) => [p.pageNumber, p.source])).toEqual([
        [1, 'ocr'],
        [3, 'ocr'],
      ]);
      expect(words(doc.pages[0].text)).toEqual(['patient', 'discharge', 'summary']);
      expect(words(doc.pages[1].text)).toEqual(['follow', 'up', 'with', 'your', 'physician']);
    },
    OCR_TIMEOUT,
  );

  it(
    'reads text in a shadow only with thorough effort (a second, locally thresholded reading)',
    async () => {
      const photo = shadowedReceipt();
      const fast = words((await loadDocument(photo)).pages[0].text);
      const thorough = words(
        (await loadDocument(photo, 'photo.png', { ocr: 'thorough' })).pages[0].text,
      );
      // The global threshold turns the shadowed right part black: its lines are lost.
      expect(fast).toEqual(expect.arrayContaining(['subtotal', 'tax']));
      expect(fast).not.toContain('cappuccino');
      expect(thorough).toEqual(
        expect.arrayContaining(['subtotal', 'tax', 'total', '14', 'cappuccino', 'thank', 'you']),
      );
    },
    OCR_TIMEOUT,
  );

  it(
    'reads a shadowed photo into positioned lines only with thorough effort (Deep Extract reads so)',
    async () => {
      const photo = shadowedReceipt();
      const lineWords = (doc: LayoutDocument) =>
        words(doc.pages.flatMap((page) => page.lines.map((line) => line.text)).join('\n'));
      const fast = lineWords(await loadLayoutDocument(photo, 'photo.png'));
      const thorough = lineWords(await loadLayoutDocument(photo, 'photo.png', { ocr: 'thorough' }));
      expect(fast).not.toContain('cappuccino');
      expect(thorough).toEqual(expect.arrayContaining(['subtotal', 'total', '14', 'cappuccino']));
    },
    OCR_TIMEOUT,
  );

  it.each([90, 180, 270] as const)(
    'reads an image turned %i degrees as upright (orientation detected on a poor reading)',
    async (turn) => {
      const text = 'INVOICE 4711\nTotal amount due: 1250.00 USD\nPayment within thirty days';
      const doc = await loadDocument(makePng(text, 1275, turn));
      expect(words(doc.pages[0].text)).toEqual(
        expect.arrayContaining(['invoice', '4711', 'total', 'amount', 'due', 'payment', 'thirty']),
      );
    },
    OCR_TIMEOUT,
  );

  it(
    'reads a scanned PDF page fed in sideways as upright',
    async () => {
      const pdf = await makeScannedPdf(
        ['Patient discharge summary\nDiagnosis: acute bronchitis\nFollow up with your physician'],
        90,
      );
      const doc = await loadDocument(pdf, 'scan.pdf');
      expect(doc.pages[0].source).toBe('ocr');
      expect(words(doc.pages[0].text)).toEqual(
        expect.arrayContaining(['patient', 'discharge', 'diagnosis', 'bronchitis', 'physician']),
      );
    },
    OCR_TIMEOUT,
  );

  it(
    'reads a page turned 90 degrees into positioned lines in reading order (parse reads so)',
    async () => {
      const lines = ['Patient discharge summary', 'Diagnosis acute bronchitis', 'Follow up'];
      const pdf = await makeScannedPdf([lines.join('\n')], 90);
      const doc = await loadLayoutDocument(pdf, 'scan.pdf');
      const read = doc.pages[0].lines.map((line) => words(line.text).join(' '));
      expect(read).toEqual(lines.map((line) => words(line).join(' ')));
      const tops = doc.pages[0].lines.map((line) => line.bbox.top);
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      for (const line of doc.pages[0].lines)
        expect(line.bbox.left + line.bbox.width).toBeLessThanOrEqual(1);
    },
    OCR_TIMEOUT,
  );

  it(
    'reads a clean image the same with either effort',
    async () => {
      const png = makePng('Receipt 0042\nCash paid 12.00 EUR');
      const fast = await loadDocument(png);
      const thorough = await loadDocument(png, 'receipt.png', { ocr: 'thorough' });
      expect(words(thorough.pages[0].text)).toEqual(words(fast.pages[0].text));
    },
    OCR_TIMEOUT,
  );

  it(
    'reports an unreadable image as corrupt without crashing the process',
    async () => {
      const uncaught: unknown[] = [];
      const listener = (error: unknown) => uncaught.push(error);
      process.on('uncaughtException', listener);
      try {
        const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 7)]);
        await expect(loadDocument(jpeg)).rejects.toThrow(CorruptDocumentError);
        // The OCR worker still works afterwards.
        const doc = await loadDocument(makePng('Still reading text'));
        expect(words(doc.pages[0].text)).toEqual(['still', 'reading', 'text']);
      } finally {
        process.off('uncaughtException', listener);
      }
      expect(uncaught).toEqual([]);
    },
    OCR_TIMEOUT,
  );

  it(
    'does not OCR pages that have a text layer',
    async () => {
      const doc = await loadDocument(await makePdf(['A page with a proper text layer of words.']));
      expect(doc.pages[0].source).toBe('text-layer');
    },
    OCR_TIMEOUT,
  );
});
