import { describe, expect, it } from '@jest/globals';
import { makeUnmappedFontPdf } from '../../../test/support/drawn-pdfs.js';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { loadDocument } from './document.loader.js';

describe('PDF fonts without a Unicode map', () => {
  const LINES = [
    'The quarterly report describes revenue and costs.',
    'Payment is due within thirty days of the invoice date.',
  ];

  it('reads a page of such a font as a scan, by OCR, in both loaders', async () => {
    const pdf = await makeUnmappedFontPdf(LINES);
    const [page] = (await loadDocument(pdf, 'report.pdf')).pages;
    expect(page.source).toBe('ocr');
    expect(page.text).toMatch(/quarterly report/);
    const layout = await loadLayoutDocument(pdf, 'report.pdf');
    expect(layout.pages[0].source).toBe('ocr');
    expect(layout.pages[0].lines.map((line) => line.text).join(' ')).toMatch(/quarterly report/);
  });

  it('drops the codes of such a font from a page mostly of mapped text', async () => {
    const mapped = [
      'Invoice 42 from the supplier to the customer.',
      'The amount due is payable within thirty days.',
      'Thank you for your business and prompt payment.',
    ];
    const pdf = await makeUnmappedFontPdf(['Quarterly report of the board'], mapped);
    const [page] = (await loadDocument(pdf, 'invoice.pdf')).pages;
    expect(page.source).toBe('text-layer');
    expect(page.text).toBe(mapped.join('\n'));
    const layout = await loadLayoutDocument(pdf, 'invoice.pdf');
    expect(layout.pages[0].lines.map((line) => line.text)).toEqual(mapped);
  });
});
