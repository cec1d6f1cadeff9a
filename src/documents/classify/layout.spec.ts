import { afterAll, describe, expect, it } from '@jest/globals';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { loadDocument } from '../readers/document.loader.js';
import { terminateOcr } from '../readers/ocr.engine.js';
import { classify } from './classify.js';
import { describeLayout, layoutProfile, type PageDimensions } from './layout.js';

afterAll(async () => {
  await terminateOcr();
});

const text = 'Quarterly figures of the project\nRevenue grew in every region this year.';
const A4: PageDimensions = { width: 595, height: 842, unit: 'pt' };
const SLIDE: PageDimensions = { width: 720, height: 405, unit: 'pt' };
const A0: PageDimensions = { width: 2384, height: 3370, unit: 'pt' };
const CARD: PageDimensions = { width: 252, height: 144, unit: 'pt' };

async function pdfWithPages(sizes: [number, number][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const [width, height] of sizes) {
    pdf.addPage([width, height]).drawText('A page with enough words to be read as text.', {
      x: 10,
      y: height / 2,
      size: 8,
      font,
    });
  }
  return pdf.save();
}

describe('page size and orientation in the layout evidence', () => {
  it('describes landscape, large and small pages, and says nothing when sizes are unknown', () => {
    const described = (sizes: (PageDimensions | undefined)[]) =>
      describeLayout(
        layoutProfile(
          sizes.map(() => text),
          sizes,
        ),
      ).join(' ');
    expect(described([SLIDE, SLIDE, SLIDE])).toContain('landscape orientation');
    expect(described([A4, A4])).toContain('portrait orientation');
    expect(described([A4, A4])).not.toMatch(/large pages|Small pages/);
    expect(described([A0])).toContain('Very large pages');
    expect(described([CARD])).toContain('Small pages');
    expect(described([undefined, undefined])).not.toMatch(/orientation|large|Small/);
    // An image's size is in pixels: its shape counts, its area does not.
    expect(described([{ width: 4000, height: 3000, unit: 'px' }])).toMatch(/landscape(?!.*large)/);
  });

  it('reads each PDF page size, and the classifier accepts pages with sizes', async () => {
    const loaded = await loadDocument(
      await pdfWithPages([
        [842, 595],
        [595, 842],
      ]),
      'x.pdf',
    );
    expect(loaded.pages.map((page) => page.size)).toEqual([
      { width: 842, height: 595, unit: 'pt' },
      { width: 595, height: 842, unit: 'pt' },
    ]);
    const output = classify({
      pages: loaded.pages,
      classificationSchema: [
        { category: 'report', criteria: ['figures of a project'] },
        { category: 'letter', criteria: ['a letter to a person'] },
      ],
    });
    expect(output.usage.num_pages).toBe(2);
    expect(output.result.category).not.toBeNull();
  });
});
