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

describe('currencyReaderOf for a symbol of one letter before an amount', () => {
  it('reads none where nothing else in the document supports it (a size, a row)', () => {
    expect(currencies('Jacket, size L 32. Total 45.00')).toEqual([]);
    expect(currencies('Shirt S 12 Total 19.90')).toEqual([]);
    expect(currencies('Total: R 129.99')).toEqual([]);
  });

  it('reads the same letter before two amounts as the currency', () => {
    expect(currencies('Bread R 12.99 Total: R 129.99')).toEqual(['ZAR', 'ZAR']);
  });

  it('reads the letter of a currency the document names, or of the countries it names', () => {
    expect(currencies('Total: R 129.99, all prices in ZAR')).toEqual(['ZAR']);
    expect(currencies('Amounts in South African rand. Total: R 129.99')).toEqual(['ZAR']);
    expect(currencies('San Pedro Sula, Honduras. Total: L 320.00', 'es')).toEqual(['HNL']);
    expect(currencies('Gaborone, Botswana. Total: P 45.00')).toEqual(['BWP']);
  });

  it("reads the letter the document's language writes in its likeliest country", () => {
    expect(currencies('Totaal: R 129.99 Dankie vir u besigheid', 'af')).toEqual(['ZAR']);
  });
});
