import { describe, expect, it } from '@jest/globals';
import { allChunks, allLines } from './chunks.js';
import { describeLayout, layoutProfile } from './layout.js';
import { termsOf } from './lexical.js';
import { joinWords, wordsOf } from './words.js';

/** A dense page of running Japanese prose: long lines, no spaces between words. */
const JAPANESE_SENTENCE =
  '本章ではこのソフトウェアを使用して、クレジットカードの取引を記録し、毎月の請求書と照合する方法を順を追って詳しく説明します。';
const japanesePage = Array.from({ length: 12 }, () => JAPANESE_SENTENCE).join('\n');
/** The same page in English, for comparison. */
const ENGLISH_SENTENCE =
  'This chapter explains step by step how to use this software to record credit card transactions and check them against each monthly statement.';
const englishPage = Array.from({ length: 12 }, () => ENGLISH_SENTENCE).join('\n');

describe('words of scripts written without spaces', () => {
  it('cuts Chinese, Japanese and Thai into words and joins them back as written', () => {
    for (const text of [
      JAPANESE_SENTENCE,
      '我们的发票包括所有项目的总金额。',
      'ใบแจ้งหนี้นี้รวมยอดทั้งหมด',
    ]) {
      const words = wordsOf(text);
      expect(words.length).toBeGreaterThan(5);
      expect(joinWords(words)).toBe(text);
    }
  });

  it('leaves spaced scripts as whitespace tokens', () => {
    expect(wordsOf('  Rechnung Nr. 42,  vom  3. März ').map((word) => word.text)).toEqual([
      'Rechnung',
      'Nr.',
      '42,',
      'vom',
      '3.',
      'März',
    ]);
    expect(joinWords(wordsOf('GnuCashを使用して Rechnung'))).toBe('GnuCashを使用して Rechnung');
  });

  it('describes a dense page of Japanese as the same page in English, not as a few short lines', () => {
    const japanese = describeLayout(layoutProfile([japanesePage]));
    expect(japanese).toEqual(describeLayout(layoutProfile([englishPage])));
    expect(japanese).not.toContain('Very few words on each page.');
    expect(japanese).not.toContain('Mostly short lines of a few words each.');
  });

  it('reads no line of a script without case (Arabic, Chinese) as a heading in capitals', () => {
    const arabic =
      'يشرح هذا الفصل كيفية استخدام البرنامج لتسجيل المعاملات ومطابقتها مع كشف الحساب الشهري';
    for (const page of [japanesePage, Array.from({ length: 12 }, () => arabic).join('\n')]) {
      expect(layoutProfile([page]).headings).toBe(0);
    }
    expect(
      layoutProfile(['INVOICE\nPlease pay within 30 days of the invoice date.']).headings,
    ).toBe(0.5);
  });

  it('reads a Japanese page in chunks of about a sentence, as an English one', () => {
    const japanese = allChunks([japanesePage]);
    expect(japanese.length).toBeGreaterThanOrEqual(allChunks([englishPage]).length / 2);
    for (const chunk of japanese) expect(chunk.text.length).toBeLessThan(200);
    expect(allLines([japanesePage])[0].text).toBe(JAPANESE_SENTENCE);
  });

  it('finds the words of a Japanese criterion in a Japanese document', () => {
    const document = new Set(termsOf(japanesePage, 'en', 'all'));
    const criterion = termsOf('クレジットカードの取引の記録', 'en');
    expect(criterion.length).toBeGreaterThan(1);
    for (const term of criterion) expect(document.has(term)).toBe(true);
  });
});
