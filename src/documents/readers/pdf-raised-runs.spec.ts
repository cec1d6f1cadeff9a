import { describe, expect, it } from '@jest/globals';
import { makeSizedRunsPdf } from '../../../test/support/drawn-pdfs.js';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { loadDocument } from './document.loader.js';

/** What classification reads and the lines parse, extract and split read, of one PDF. */
async function readings(pdf: Buffer): Promise<{ text: string; lines: string[] }> {
  const text = (await loadDocument(pdf, 'a.pdf')).pages.map((page) => page.text).join('\f');
  const layout = await loadLayoutDocument(pdf, 'a.pdf');
  return { text, lines: layout.pages.flatMap((page) => page.lines.map((line) => line.text)) };
}

describe('PDF runs raised or lowered from their base, and runs at another size', () => {
  it('reads a superscript or subscript after its base, in either drawing order', async () => {
    const pdf = await makeSizedRunsPdf([
      [
        { text: 'Ranked', size: 10 },
        { text: '2', size: 10, gap: 0.3 },
        { text: 'nd', size: 7, rise: 0.5 },
        { text: 'of 150', size: 10, gap: 0.3 },
      ],
      [
        { text: 'Platz', size: 10 },
        { text: '1', size: 10, gap: 0.3 },
        { text: 'er', size: 7, rise: 0.5, drawnFirst: true },
      ],
      [
        { text: 'Water', size: 10 },
        { text: 'H', size: 10, gap: 0.3 },
        { text: '2', size: 7, rise: -0.3 },
        { text: 'O', size: 10 },
      ],
    ]);
    const expected = ['Ranked 2nd of 150', 'Platz 1er', 'Water H2O'];
    const { text, lines } = await readings(pdf);
    expect(text).toBe(expected.join('\n'));
    expect(lines).toEqual(expected);
  });

  it('keeps other raised runs (a footnote mark, a trademark) words of their own, on the line', async () => {
    const pdf = await makeSizedRunsPdf([
      [
        { text: 'Paris', size: 10 },
        { text: '3', size: 7, rise: 0.4, drawnFirst: true },
        { text: 'and Lyon', size: 10, gap: 0.3 },
      ],
      [
        { text: 'Total $5,000', size: 10 },
        { text: '1', size: 7, rise: 0.4 },
        { text: 'due', size: 10, gap: 0.3 },
      ],
      [
        { text: 'Call PAY-TAX', size: 10 },
        { text: 'TM', size: 6, rise: 0.5 },
        { text: 'or 888-1040', size: 10, gap: 0.3 },
        { text: 'TM', size: 6, rise: 0.5 },
      ],
    ]);
    const { text, lines } = await readings(pdf);
    expect(text).toBe('Paris 3 and Lyon\nTotal $5,000 1 due\nCall PAY-TAX TM or 888-1040 TM');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^Paris ?3 and Lyon$/);
  });

  it('reads a label and a number set at another size beside it as two words', async () => {
    const pdf = await makeSizedRunsPdf([
      [
        { text: 'July', size: 9 },
        { text: '08', size: 7, gap: 0.05 },
        { text: 'Aug', size: 9, gap: 2 },
        { text: '08', size: 7, gap: 0.05 },
      ],
      [
        { text: 'Total', size: 10 },
        { text: '12', size: 10, gap: 0.3 },
        { text: 'kg', size: 8, gap: 0.05 },
      ],
    ]);
    expect((await readings(pdf)).text).toBe('July 08 Aug 08\nTotal 12 kg');
  });
});
