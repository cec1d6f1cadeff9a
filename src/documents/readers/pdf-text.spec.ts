import { describe, expect, it } from '@jest/globals';
import { textOf } from './pdf.reader.js';

const items = (...parts: [string, boolean?][]) =>
  parts.map(([str, hasEOL]) => ({ str, hasEOL: hasEOL ?? false }));

describe('the text of a PDF page from its text items', () => {
  it('joins Chinese and Japanese characters placed one by one without spaces', () => {
    expect(
      textOf(items(['发'], ['票'], ['号'], ['码'], ['：'], ['12345', true], ['简'], ['历'])),
    ).toBe('发票号码： 12345\n简历');
    expect(textOf(items(['請'], ['求'], ['書'], ['合計', true]))).toBe('請求書合計');
  });

  it('keeps the spaces of spaced scripts, Korean included, and between Han and Latin text', () => {
    expect(textOf(items(['Invoice'], ['number'], ['42', true]))).toBe('Invoice number 42');
    expect(textOf(items(['청구서'], ['번호']))).toBe('청구서 번호');
    expect(textOf(items(['发票'], ['INV-7'], ['金额']))).toBe('发票 INV-7 金额');
  });
});
