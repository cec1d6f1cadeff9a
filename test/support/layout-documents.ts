/**
 * A PDF generator with layout (titles, headings, paragraphs, lists, tables, running header
 * and footer) for parse/extract/split specs. It records where each line was drawn, so specs
 * can check blocks and citation boxes against the truth.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';

export type LayoutElement =
  | { title: string }
  | { heading: string }
  | { paragraph: string }
  | { list: string[] }
  | { table: string[][] }
  | { keyValues: [string, string][] }
  /** Lines set closely, one under the other (an address block). */
  | { lines: string[] }
  | { gap: number };

export interface LayoutPageSpec {
  header?: string;
  footer?: string;
  elements: LayoutElement[];
}

/** One drawn line: page (1-indexed), text, and its box as page fractions (top-left origin). */
export interface DrawnLine {
  page: number;
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 50;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

export async function makeLayoutPdf(
  pages: LayoutPageSpec[],
): Promise<{ bytes: Buffer; lines: DrawnLine[] }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const lines: DrawnLine[] = [];
  pages.forEach((spec, index) => {
    const pageNumber = index + 1;
    const page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    const draw = (text: string, x: number, y: number, size: number, isBold = false) => {
      const f = isBold ? bold : font;
      page.drawText(text, { x, y, size, font: f });
      lines.push({
        page: pageNumber,
        text,
        left: x / PAGE_WIDTH,
        top: (PAGE_HEIGHT - y - 0.8 * size) / PAGE_HEIGHT,
        width: f.widthOfTextAtSize(text, size) / PAGE_WIDTH,
        height: size / PAGE_HEIGHT,
      });
    };
    if (spec.header) draw(spec.header, MARGIN, PAGE_HEIGHT - 30, 9);
    if (spec.footer) draw(spec.footer, PAGE_WIDTH / 2 - 20, 25, 9);
    let y = PAGE_HEIGHT - 80;
    for (const element of spec.elements) {
      if ('title' in element) {
        draw(element.title, MARGIN, y, 22, true);
        y -= 36;
      } else if ('heading' in element) {
        y -= 6;
        draw(element.heading, MARGIN, y, 15, true);
        y -= 24;
      } else if ('paragraph' in element) {
        for (const line of wrap(element.paragraph, 90)) {
          draw(line, MARGIN, y, 11);
          y -= 14;
        }
        y -= 12;
      } else if ('list' in element) {
        for (const item of element.list) {
          draw(`• ${item}`, MARGIN + 10, y, 11);
          y -= 16;
        }
        y -= 10;
      } else if ('table' in element) {
        for (const row of element.table) {
          row.forEach((cell, column) => draw(cell, MARGIN + column * 150, y, 11));
          y -= 18;
        }
        y -= 12;
      } else if ('keyValues' in element) {
        for (const [label, value] of element.keyValues) {
          draw(`${label}: ${value}`, MARGIN, y, 11);
          y -= 16;
        }
        y -= 10;
      } else if ('lines' in element) {
        for (const line of element.lines) {
          draw(line, MARGIN, y, 11);
          y -= 13;
        }
        y -= 10;
      } else {
        y -= element.gap;
      }
    }
  });
  return { bytes: Buffer.from(await pdf.save()), lines };
}

/**
 * An invoice (a title, `fields` as "label: value" lines, a one-item table) whose second page
 * only thanks the reader, then a service agreement: the three pages that parse, extract and
 * split are run on with and without model-version pins.
 */
export function invoiceThenAgreement(fields: [string, string][]): LayoutPageSpec[] {
  return [
    {
      elements: [
        { title: 'Invoice' },
        { keyValues: fields },
        {
          table: [
            ['Description', 'Qty', 'Amount'],
            ['Widget', '2', '40.00'],
          ],
        },
      ],
    },
    { elements: [{ paragraph: 'Thank you for your business.' }] },
    {
      elements: [
        { title: 'Service Agreement' },
        { paragraph: 'Terms agreed between the parties.' },
      ],
    },
  ];
}

/** An invoice followed by `pages - 1` pages of terms: reading it costs per page. */
export function invoiceWithTerms(pages: number): LayoutPageSpec[] {
  const terms: LayoutPageSpec = {
    elements: [
      { heading: 'Terms and conditions' },
      {
        paragraph:
          'Payment is due within thirty days of the invoice date. Late payments bear interest ' +
          'at the statutory rate. Goods remain our property until paid in full. '.repeat(6),
      },
      { list: ['Returns within 14 days', 'Warranty of two years', 'Delivery at cost'] },
    ],
  };
  return [
    {
      elements: [
        { title: 'Invoice' },
        {
          keyValues: [
            ['Invoice Number', 'INV-2026-0042'],
            ['Invoice Date', 'March 5, 2026'],
            ['Total Due', '1,240.50'],
          ],
        },
        {
          table: [
            ['Description', 'Qty', 'Amount'],
            ['Widget', '2', '40.00'],
            ['Gadget', '1', '1,200.50'],
          ],
        },
      ],
    },
    ...Array.from({ length: pages - 1 }, () => terms),
  ];
}
