import { describe, expect, it } from '@jest/globals';
import { hanLanguage } from './han-language.js';

describe(hanLanguage.name, () => {
  it.each([
    ['株式会社山田 請求書番号 請求日 合計', 'ja'],
    ['東京都港区 御中 小計 消費税 振込先', 'ja'],
    ['発行日 合計金額 消費税 領収書', 'ja'],
  ])('reads kanji without kana as Japanese: %s', (text, language) => {
    expect(hanLanguage(text)).toBe(language);
  });

  it.each([
    ['发票号码 开票日期 价税合计 人民币'],
    ['北京市朝阳区 有限公司 合计'],
    ['統一發票 買受人 營業人 總計 新臺幣'],
    ['台北市 信義區 有限公司 總計'],
  ])('reads simplified and traditional Chinese as Chinese: %s', (text) => {
    expect(hanLanguage(text)).toBe('zh');
  });

  it('reads text whose characters every system shares as Chinese, as before', () => {
    expect(hanLanguage('合計 金額')).toBe('zh');
    expect(hanLanguage('Total 12.00')).toBe('zh');
  });
});
