import { describe, expect, it } from '@jest/globals';
import { makeDrawnPdf, makeSizedRunsPdf, type SizedRun } from '../../../test/support/drawn-pdfs.js';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { loadDocument } from './document.loader.js';

/** What classification reads and the lines parse, extract and split read, of one PDF. */
async function readings(pdf: Buffer): Promise<{ text: string; lines: string[] }> {
  const text = (await loadDocument(pdf, 'a.pdf')).pages.map((page) => page.text).join('\f');
  const layout = await loadLayoutDocument(pdf, 'a.pdf');
  return { text, lines: layout.pages.flatMap((page) => page.lines.map((line) => line.text)) };
}

describe('PDF text drawn glyph by glyph', () => {
  it('reads an accent drawn as its own glyph, its letter drawn back over it, as one letter', async () => {
    const pdf = await makeDrawnPdf([
      ['Medici´', 'on de nivel en tanques port´', 'atiles y bater´', 'ıas.'],
      ['Relat´', 'orio m´', 'edico, situa¸', 'c˜', 'ao.'],
      ['D´', 'ecembre, tr`', 'es, na¨', 'ıve, ˆ', 'etre.'],
      ['Prosíme o ´', 'uhradu: Jurˇ', 'cíˇ', 'cek, Dvoˇ', 'rák.'],
    ]);
    const expected = [
      'Medición de nivel en tanques portátiles y baterías.',
      'Relatório médico, situação.',
      'Décembre, très, naïve, être.',
      'Prosíme o úhradu: Jurčíček, Dvořák.',
    ];
    const { text, lines } = await readings(pdf);
    expect(text).toBe(expected.join('\n'));
    expect(lines).toEqual(expected);
  });

  it('keeps an accent that stands beside a letter, not over it', async () => {
    const pdf = await makeDrawnPdf([['Corpos d´água, o ´ signo e ¨ só.']]);
    expect((await readings(pdf)).text).toBe('Corpos d´água, o ´ signo e ¨ só.');
  });

  it('reads text overprinted with a slight offset once', async () => {
    const pdf = await makeDrawnPdf(
      [['Fatura de serviços'], ['Faktura nr. 42, beløb i alt'], ['Total à payer']],
      [0.2, 0.4],
    );
    const expected = ['Fatura de serviços', 'Faktura nr. 42, beløb i alt', 'Total à payer'];
    const { text, lines } = await readings(pdf);
    expect(text).toBe(expected.join('\n'));
    expect(lines).toEqual(expected);
  });

  it('reads small capitals, a larger capital touching smaller ones, as one word', async () => {
    /** A word in small capitals as TeX sets it, a third of an em after the word before. */
    const smallCaps = (word: string, first: boolean): SizedRun[] => [
      { text: word[0], size: 14, gap: first ? 0 : 0.33 },
      { text: word.slice(1).toUpperCase(), size: 11 },
    ];
    const title = (words: string[]) => words.flatMap((word, i) => smallCaps(word, i === 0));
    const pdf = await makeSizedRunsPdf([
      title(['Early', 'Text', 'Classification']),
      title(['Früherkennung', 'Über', 'Ölpreise']),
      [
        { text: 'Heading', size: 16 },
        { text: 'and', size: 10, gap: 0.3 },
        { text: 'text', size: 12, gap: 0.25 },
      ],
    ]);
    const expected = [
      'EARLY TEXT CLASSIFICATION',
      'FRÜHERKENNUNG ÜBER ÖLPREISE',
      'Heading and text',
    ];
    const { text, lines } = await readings(pdf);
    expect(text).toBe(expected.join('\n'));
    expect(lines).toEqual(expected);
  });
});
