/**
 * A filled PDF form: its values are widget annotations over the page, outside the page's
 * text. Parse and extract (positioned lines) and classify (page text) read them where they
 * are drawn. The form is generated here with pdf-lib, as form software fills one.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import { loadDocument } from '../../src/documents/readers/document.loader.js';

let bytes: Uint8Array;

beforeAll(async () => {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  const form = pdf.getForm();
  page.drawText('Membership application', { x: 50, y: 780, size: 16, font });
  const labels = ['Full name:', 'Date of birth:', 'Country:', 'Newsletter:', 'Paper copy:'];
  labels.forEach((label, i) => page.drawText(label, { x: 50, y: 740 - 30 * i, size: 11, font }));
  const box = (i: number) => ({ x: 160, y: 735 - 30 * i, width: 200, height: 18 });
  const name = form.createTextField('name');
  name.addToPage(page, box(0));
  name.setText('Ada Lovelace');
  const birth = form.createTextField('birth');
  birth.addToPage(page, box(1));
  birth.setText('10 December 1815');
  const country = form.createDropdown('country');
  country.addOptions(['France', 'United Kingdom']);
  country.addToPage(page, box(2));
  country.select('United Kingdom');
  const newsletter = form.createCheckBox('newsletter');
  newsletter.addToPage(page, { ...box(3), width: 14, height: 14 });
  newsletter.check();
  const paper = form.createCheckBox('paper');
  paper.addToPage(page, { ...box(4), width: 14, height: 14 });
  bytes = await pdf.save();
});

describe('a filled PDF form', () => {
  it('puts each value on its label line, a cell of its own', async () => {
    const document = await loadLayoutDocument(bytes, 'application.pdf');
    const lines = document.pages[0].lines.map((line) => line.segments.map((s) => s.text));
    expect(lines).toEqual([
      ['Membership application'],
      ['Full name:', 'Ada Lovelace'],
      ['Date of birth:', '10 December 1815'],
      ['Country:', 'United Kingdom'],
      ['Newsletter:', '☒'],
      ['Paper copy:', '☐'],
    ]);
  });

  it('extracts the values, ticked and empty boxes as booleans', async () => {
    const document = await loadLayoutDocument(bytes, 'application.pdf');
    const { result } = extractDocument(
      document,
      {
        type: 'object',
        properties: {
          full_name: { type: 'string' },
          date_of_birth: { type: 'string', format: 'date' },
          country: { type: 'string' },
          newsletter: { type: 'boolean' },
          paper_copy: { type: 'boolean' },
        },
      },
      { engine: 'label-typed', citations: false },
    );
    expect(result).toEqual({
      full_name: 'Ada Lovelace',
      date_of_birth: '1815-12-10',
      country: 'United Kingdom',
      newsletter: true,
      paper_copy: false,
    });
  });

  it("gives classification the values with the page's text", async () => {
    const document = await loadDocument(bytes, 'application.pdf');
    expect(document.pages[0].text).toContain('Full name:');
    expect(document.pages[0].text).toContain('Ada Lovelace');
    expect(document.pages[0].text).toContain('United Kingdom');
  });
});
