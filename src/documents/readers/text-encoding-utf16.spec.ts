import { describe, expect, it } from '@jest/globals';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { loadDocument } from './document.loader.js';
import { unmarkedUtf16Order } from './text-encoding.js';

const pageTexts = async (bytes: Uint8Array, name: string) =>
  (await loadDocument(bytes, name)).pages.map((page) => page.text);

const UTF16_TEXTS = {
  en: 'Invoice 42\nPlease pay the amount due by 1 March 2024.\n',
  ru: 'Счёт-фактура\nПросим оплатить сумму до наступления срока платежа.\n',
  ja: '請求書\n下記の通りご請求申し上げます。\n',
};

describe('UTF-16 text without a byte-order mark', () => {
  it.each(Object.entries(UTF16_TEXTS))('reads %s text in either byte order', async (_, text) => {
    const little = Buffer.from(text, 'utf16le');
    const big = Buffer.from(text, 'utf16le').swap16();
    expect(unmarkedUtf16Order(little)).toBe('utf-16le');
    expect(unmarkedUtf16Order(big)).toBe('utf-16be');
    for (const bytes of [little, big]) {
      expect(await pageTexts(bytes, 'export.txt')).toEqual([text.trim()]);
      const layout = await loadLayoutDocument(bytes, 'export.txt');
      expect(layout.pages[0].lines.map((line) => line.text).join('\n')).toBe(text.trim());
    }
  });

  it('takes no 8-bit text, odd-length bytes or NUL-free bytes for UTF-16', () => {
    expect(unmarkedUtf16Order(Buffer.from('plain ASCII text'))).toBeUndefined();
    expect(unmarkedUtf16Order(Buffer.from('Invoice 42\n', 'utf16le').subarray(1))).toBeUndefined();
    expect(unmarkedUtf16Order(Buffer.from('請求書下記の通り', 'utf16le'))).toBeUndefined();
  });
});
