import { describe, expect, it } from '@jest/globals';
import { makeCidFontPdf } from '../../../test/support/drawn-pdfs.js';
import { loadDocument } from '../readers/document.loader.js';
import { loadLayoutDocument } from './layout.loader.js';

/** What classification reads and the lines parse, extract and split read, of one PDF. */
async function readings(pdf: Buffer): Promise<{ text: string; lines: string[] }> {
  const text = (await loadDocument(pdf, 'a.pdf')).pages.map((page) => page.text).join('\f');
  const layout = await loadLayoutDocument(pdf, 'a.pdf');
  return { text, lines: layout.pages.flatMap((page) => page.lines.map((line) => line.text)) };
}

describe('Chinese and Japanese PDFs through a CID font the file does not embed', () => {
  const japanese = [
    '請求書',
    '発行日は二〇二四年三月一日です',
    'お支払い期限までにお振込みください',
  ];
  const chinese = ['发票', '开票日期为二〇二四年三月一日', '请在付款期限前将款项汇入以下账户'];

  it.each([
    ['Japanese', 'ja', japanese],
    ['Chinese', 'zh', chinese],
  ] as const)('reads %s written horizontally', async (_name, language, lines) => {
    const read = await readings(makeCidFontPdf(lines, language, 'horizontal'));
    expect(read.text).toBe(lines.join('\n'));
    expect(read.lines).toEqual(lines);
  });

  it.each([
    ['Japanese', 'ja', japanese],
    ['Chinese', 'zh', chinese],
  ] as const)(
    'reads %s written in vertical columns column by column, right to left',
    async (_name, language, lines) => {
      const read = await readings(makeCidFontPdf(lines, language, 'vertical'));
      expect(read.text).toBe(lines.join('\n'));
      expect(read.lines).toEqual(lines);
    },
  );

  it('keeps a vertical paragraph whose first column starts lower (indented) in its place', async () => {
    const lines = [
      '請求書の件',
      '下記の通りご請求申し上げます',
      'お支払い期限までに',
      'お振込みください',
    ];
    const read = await readings(makeCidFontPdf(lines, 'ja', 'vertical', [0, 1, 0, 0]));
    expect(read.lines).toEqual(lines);
  });
});
