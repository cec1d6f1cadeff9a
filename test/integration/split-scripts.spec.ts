import { describe, expect, it } from '@jest/globals';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import { headingWords } from '../../src/documents/split/heading-words.js';
import {
  readSplitPages,
  splitDocument,
  type SplitSection,
} from '../../src/documents/split/split.operation.js';
import { makeDocx, PAGE_BREAK } from '../support/documents.js';

const named = (...names: string[]): SplitSection[] =>
  names.map((name) => ({ name, description: '' }));

/** A DOCX whose pages each open with a heading (the first line of each entry). */
async function pagesDocx(pages: string[][]) {
  const paragraphs = pages.flatMap((lines, i) => [
    ...(i > 0 ? [PAGE_BREAK] : []),
    { heading: 1 as const, text: lines[0] },
    ...lines.slice(1),
  ]);
  return loadLayoutDocument(await makeDocx(paragraphs), 'pages.docx');
}

describe('split reads headings and values of scripts other than Latin', () => {
  it('finds a section named inside a heading written without spaces (Chinese)', async () => {
    const document = await pagesDocx([
      ['增值税专用发票', '发票号码：12345', '开票日期：2024年3月19日', '合计：¥1,250.50'],
      ['购销合同', '甲方：北京公司', '乙方：上海公司', '本合同自签订之日起生效。'],
    ]);
    const { scored } = readSplitPages(document, named('发票', '合同'), false);
    expect(scored.map((page) => [page.headingMatch, page.best, page.evidence])).toEqual([
      [true, 0, '增值税专用发票'],
      [true, 1, '购销合同'],
    ]);
  });

  it('finds a section named with the Arabic article joined to its heading', async () => {
    const document = await pagesDocx([
      ['الفاتورة الضريبية', 'رقم الفاتورة: ١٢٣٤٥', 'الإجمالي: ١٬٢٥٠٫٥٠ ر.س'],
      ['تفاصيل البضائع', 'الصنف الكمية السعر', 'حديد ١٠ ١٠٠'],
      ['العقد', 'الطرف الأول: شركة الرياض', 'يسري هذا العقد من تاريخ توقيعه.'],
      ['الإيصال', 'استلمنا مبلغ خمسمائة ريال', 'المستلم: أحمد'],
    ]);
    const { scored } = readSplitPages(document, named('فاتورة', 'عقد', 'إيصال'), false);
    const headed = scored.filter((page) => page.headingMatch);
    expect(headed.map((page) => [page.page.pageNumber, page.best, page.evidence])).toEqual([
      [1, 0, 'الفاتورة الضريبية'],
      [3, 1, 'العقد'],
      [4, 2, 'الإيصال'],
    ]);
  });

  it('cuts words where their script ends them and leaves Latin words as they are', () => {
    expect(headingWords('增值税专用发票')).toContain('发票');
    expect(headingWords('Tax Invoice – No. 12')).toEqual(['tax', 'invoice', 'no', '12']);
  });

  it('keeps one partition for one value printed in Arabic-Indic digits and marks', async () => {
    const document = await pagesDocx([
      ['Invoice', 'Invoice number: 12345', 'Total: 100.00'],
      ['Invoice', 'Invoice number: \u200f١٢٣٤٥\u200f', 'Total: 100.00'],
      ['Invoice', 'Invoice number: ６７８', 'Total: 50.00'],
    ]);
    const sections = [{ name: 'Invoice', description: '', partition_key: 'invoice number' }];
    expect(splitDocument(document, sections).splits[0].partitions).toEqual([
      { name: '12345', pages: [1, 2], conf: 'high' },
      { name: '678', pages: [3], conf: 'high' },
    ]);
  });
});
