import { describe, expect, it } from '@jest/globals';
import { findCurrencies } from './amounts.js';
import { currencyReaderOf } from './currency-evidence.js';

const currencies = (text: string, language = 'en') =>
  findCurrencies(text, currencyReaderOf(text, language));

describe('currencyReaderOf', () => {
  it('leaves a symbol no two currencies share as it reads', () => {
    expect(currencies('Total 12,00 € Toronto, Canada', 'fr')).toEqual(['EUR', 'EUR']);
    expect(currencies('TOTAL RM 9.00 Canada')).toEqual(['MYR']);
  });

  it('takes a code the document writes before a country it names', () => {
    expect(currencies('Toronto, Canada. Total $ 12.00 USD')).toEqual(['USD', 'USD']);
  });

  it('falls back on the language when the countries named disagree', () => {
    expect(currencies('From Toronto, Canada to Sydney, Australia. Total $ 12.00')).toEqual([
      'USD',
      'USD',
    ]);
    expect(currencies('Fra Ottawa, Canada til Sydney, Australia. Totalt 120,00 kr', 'no')).toEqual([
      'NOK',
    ]);
  });

  it('does not take a code after a count for the currency it spells ("2 CUP")', () => {
    expect(currencies('2 CUP COFFEE $ 3.50')).toEqual(['USD', 'USD']);
  });

  it('reads the symbol the same way wherever it is written in the document', () => {
    const read = currencyReaderOf('发票 合计 ¥1,280.00', 'en');
    expect([read('¥'), read('￥'), read('$')]).toEqual(['CNY', 'CNY', 'USD']);
  });
});

describe('currencyReaderOf in kanji alone', () => {
  it('reads "¥" as the yen in Japanese written without kana, as the yuan in Chinese', () => {
    const japanese = '株式会社山田 請求書番号 12345 合計 ¥1,250';
    expect(currencyReaderOf(japanese, 'en')('¥')).toBe('JPY');
    const chinese = '发票号码 12345 价税合计 ¥1,250.00';
    expect(currencyReaderOf(chinese, 'en')('¥')).toBe('CNY');
  });
});
