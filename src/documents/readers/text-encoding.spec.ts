import { describe, expect, it } from '@jest/globals';
import { makeDocx } from '../../../test/support/documents.js';
import { encodeLegacy, encodeUtf16 } from '../../../test/support/legacy-encodings.js';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { loadDocument } from './document.loader.js';
import { declaredCharset } from './text-encoding.js';

/** One invoice line or two per language, as a user's legacy system would export them. */
const TEXTS = {
  ja: '請求書\n発行日：2024年3月1日\n下記の通りご請求申し上げます。お支払い期限までにお振込みください。',
  zh: '发票\n开票日期：2024年3月1日\n请在付款期限前将款项汇入以下账户。谢谢合作。',
  zhHant: '發票\n開票日期：2024年3月1日\n請在付款期限前將款項匯入以下帳戶。謝謝合作。',
  ko: '청구서\n발행일: 2024년 3월 1일\n결제 기한 전에 금액을 송금해 주시기 바랍니다. 감사합니다.',
  pt: 'Fatura\nData de emissão: 1 de março de 2024\nPor favor, efetue o pagamento até à data de vencimento.',
  es: 'Factura\nFecha de emisión: 1 de marzo de 2024\nLe rogamos que efectúe el pago antes del vencimiento. ¡Gracias!',
  it: 'Fattura\nData di emissione: 1º marzo 2024\nSi prega di effettuare il pagamento entro la scadenza. Perché?',
  fr: 'Facture\nDate d’émission : 1er mars 2024\nVeuillez régler le montant dû avant l’échéance — merci.',
  da: 'Faktura\nUdstedelsesdato: 1. marts 2024\nVenligst betal beløbet før forfaldsdatoen. Hilsen Søren Østergård.',
  sv: 'Faktura\nFakturadatum: 1 mars 2024\nVänligen betala beloppet före förfallodagen. Hälsningar Åsa Öberg.',
  pl: 'Faktura\nData wystawienia: 1 marca 2024\nProsimy o zapłatę należności przed terminem płatności. Łódź.',
  cs: 'Faktura\nDatum vystavení: 1. března 2024\nProsíme o úhradu částky před datem splatnosti. Děkujeme.',
  ru: 'Счёт-фактура\nДата выставления: 1 марта 2024\nПросим оплатить сумму до наступления срока платежа.',
  el: 'Τιμολόγιο\nΗμερομηνία έκδοσης: 1 Μαρτίου 2024\nΠαρακαλούμε να εξοφλήσετε το ποσό πριν από τη λήξη.',
};

/** Each text in the legacy encodings its language is still found in. */
const LEGACY: [keyof typeof TEXTS, string][] = [
  ['ja', 'shift_jis'],
  ['ja', 'euc-jp'],
  ['ja', 'iso-2022-jp'],
  ['zh', 'gb18030'],
  ['zhHant', 'big5'],
  ['ko', 'euc-kr'],
  ['pt', 'windows-1252'],
  ['es', 'iso-8859-1'],
  ['it', 'windows-1252'],
  ['fr', 'windows-1252'],
  ['da', 'iso-8859-1'],
  ['sv', 'windows-1252'],
  ['pl', 'iso-8859-2'],
  ['cs', 'windows-1250'],
  ['ru', 'koi8-r'],
  ['ru', 'windows-1251'],
  ['el', 'iso-8859-7'],
];

const pageText = async (bytes: Uint8Array, name: string) =>
  (await loadDocument(bytes, name)).pages.map((page) => page.text).join('\f');

describe('text files in legacy encodings', () => {
  it.each(LEGACY)(
    'reads %s text written in %s as its own characters',
    async (language, encoding) => {
      const bytes = encodeLegacy(TEXTS[language], encoding);
      expect(await pageText(bytes, 'invoice.txt')).toBe(TEXTS[language]);
      expect(await pageText(bytes, 'invoice.md')).toBe(TEXTS[language]);
    },
  );

  it('reads the same characters for parse, extract and split (the layout loader)', async () => {
    for (const [language, encoding] of [
      ['ja', 'shift_jis'],
      ['ru', 'koi8-r'],
      ['da', 'iso-8859-1'],
    ] as const) {
      const layout = await loadLayoutDocument(encodeLegacy(TEXTS[language], encoding), 'a.txt');
      const lines = layout.pages.flatMap((page) => page.lines.map((line) => line.text));
      expect(lines.join('\n')).toBe(TEXTS[language]);
    }
  });

  it('reads UTF-16 with a byte-order mark in both byte orders and UTF-8 with one', async () => {
    for (const language of ['ja', 'el', 'sv'] as const) {
      const text = TEXTS[language];
      expect(await pageText(encodeUtf16(text, 'le'), 'a.txt')).toBe(text);
      expect(await pageText(encodeUtf16(text, 'be'), 'a.txt')).toBe(text);
      const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
      expect(await pageText(utf8, 'a.txt')).toBe(text);
    }
  });

  it('reads an HTML page in the charset it declares', async () => {
    // Three Latin-2 letters only: too little for a detector to tell ISO-8859-2 from others.
    const body = '<p>Zażółć</p>';
    for (const head of [
      '<meta charset="iso-8859-2">',
      '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-2">',
    ]) {
      const html = `<!doctype html><html><head>${head}<title>x</title></head><body>${body}</body></html>`;
      expect(await pageText(encodeLegacy(html, 'iso-8859-2'), 'page.html')).toContain('Zażółć');
    }
    const japanese = `<html><head><meta charset="Shift_JIS"></head><body><p>${TEXTS.ja}</p></body></html>`;
    expect(await pageText(encodeLegacy(japanese, 'shift_jis'), 'page.htm')).toContain(
      'お支払い期限までにお振込みください。',
    );
  });

  it('keeps reading valid UTF-8 as UTF-8 whatever a page declares', async () => {
    const html = `<html><head><meta charset="windows-1252"></head><body><p>${TEXTS.pl}</p></body></html>`;
    expect(await pageText(Buffer.from(html), 'page.html')).toContain('należności');
  });

  it('names the charset an HTML or XML document declares in its first bytes', () => {
    expect(declaredCharset(Buffer.from('<?xml version="1.0" encoding="EUC-JP"?><html>'))).toBe(
      'EUC-JP',
    );
    expect(declaredCharset(Buffer.from('<html><meta charset=koi8-r><body>'))).toBe('koi8-r');
    expect(declaredCharset(Buffer.from('<html><body>charset=big5</body>'))).toBeUndefined();
  });

  it('still refuses binary content', async () => {
    const binary = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256));
    await expect(loadDocument(binary, 'data.bin')).rejects.toThrow(/binary/i);
  });

  it('reads halfwidth katakana, fullwidth letters and ligatures as plain letters in every text format', async () => {
    const written = 'ｾｲｷｭｳｼｮ ﾊﾟｽﾜｰﾄﾞ ＩＮＶ－１２３ ﬁnance ﬂux';
    const plain = 'セイキュウショ パスワード INV－123 finance flux';
    expect(await pageText(Buffer.from(written), 'a.txt')).toBe(plain);
    // Shift_JIS's single-byte katakana: where halfwidth text comes from.
    expect(await pageText(encodeLegacy('ｾｲｷｭｳｼｮ ﾊﾟｽﾜｰﾄﾞ', 'shift_jis'), 'a.md')).toBe(
      'セイキュウショ パスワード',
    );
    expect(
      await pageText(Buffer.from(`<html><body><p>${written}</p></body></html>`), 'a.html'),
    ).toBe(plain);
    expect(await pageText(await makeDocx([written]), 'a.docx')).toBe(plain);
  });
});
