import { describe, expect, it } from '@jest/globals';
import { PDFDocument, PDFName } from 'pdf-lib';
import { openPdfLayout } from '../parse/pdf-layout.reader.js';
import { addGlyphText, glyphNameLetters, glyphText } from './glyph-text.js';
import { openPdf } from './pdf.reader.js';
import { mappedHelvetica } from '../../../test/support/mapped-helvetica.js';

/**
 * A one-page PDF whose text is drawn as a producer of right-to-left text draws it: glyphs
 * left to right in visual order, each glyph's letters given by the font's ToUnicode map. The
 * glyphs shown are Helvetica's (the page's look does not matter), `glyphs` maps each drawn
 * byte to the text it stands for and `lines` are the bytes drawn, one line each from the top;
 * `glyphNames` names a byte's glyph in the font's encoding.
 */
async function pdfWithGlyphs(
  glyphs: Record<string, string> | undefined,
  lines: string[],
  glyphNames?: Record<string, string>,
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const height = 30 + 30 * lines.length;
  const page = pdf.addPage([400, height]);
  page.node.setFontDictionary(PDFName.of('F1'), mappedHelvetica(pdf, glyphs, glyphNames));
  const shown = lines.map(
    (line, i) => `BT /F1 14 Tf 20 ${height - 30 * (i + 1)} Td (${line}) Tj ET`,
  );
  page.node.addContentStream(pdf.context.register(pdf.context.stream(shown.join('\n'))));
  return Buffer.from(await pdf.save());
}

/**
 * Arabic letters, two lam-alef ligatures (as letters and as one presentation form), ﬁ and
 * fullwidth letters and digits.
 */
const GLYPHS = {
  A: '\u0627', // alef
  B: '\u0644\u0625', // lam-alef with hamza below: one glyph, its letters in logical order
  C: '\u0646', // noon
  D: '\u0644\u0627', // lam-alef
  E: '\u062e', // khah
  F: '\u0644', // lam
  G: '\ufefb', // lam-alef, the isolated presentation form
  H: '\ufb01', // the Latin ligature fi
  I: '\uff29', // fullwidth I
  N: '\uff2e', // fullwidth N
  '7': '\uff17', // fullwidth 7
  l: 'l',
  e: 'e',
  ' ': ' ',
};

/** "لا الإن خلال ال" drawn right to left: the rightmost glyph first in reading order. */
const ARABIC_LINE = 'FA FDE CBA G';
const LATIN_LINE = 'Hle IN7';

describe('the text of glyphs read from a PDF', () => {
  it("puts a ligature glyph's letters in reading order in right-to-left text, compatibility forms read as plain letters", async () => {
    const pdf = await openPdf(await pdfWithGlyphs(GLYPHS, [ARABIC_LINE, LATIN_LINE]));
    try {
      const { text, source } = await pdf.readPage(1);
      expect(source).toBe('text-layer');
      expect(text.split('\n')).toEqual(['لا الإن خلال ال', 'file IN7']);
    } finally {
      await pdf.close();
    }
  });

  it('reads the same lines for parse', async () => {
    const layout = await openPdfLayout(await pdfWithGlyphs(GLYPHS, [ARABIC_LINE, LATIN_LINE]));
    try {
      const page = await layout.readPage(1, 1);
      expect(page.lines.map((line) => line.text)).toEqual(['لا الإن خلال ال', 'file IN7']);
    } finally {
      await layout.close();
    }
  });
});

/**
 * Halfwidth katakana, each voiced mark a glyph of its own: "ﾊﾟｽﾜｰﾄﾞ" four times and "｡"
 * (letters enough for a text layer, not a scan to read).
 */
const KANA = {
  p: '\uff8a', // ﾊ
  q: '\uff9f', // ﾟ, the semi-voiced mark
  s: '\uff7d', // ｽ
  w: '\uff9c', // ﾜ
  x: '\uff70', // ｰ
  t: '\uff84', // ﾄ
  v: '\uff9e', // ﾞ, the voiced mark
  o: '\uff61', // ｡
  ' ': ' ',
};
const KANA_LINE = 'pqswxtv pqswxtv pqswxtv pqswxtvo';
const KANA_TEXT = 'パスワード パスワード パスワード パスワード。';

describe('halfwidth katakana read from a PDF', () => {
  it('reads them as fullwidth katakana, a voiced mark composed with its letter', async () => {
    const bytes = await pdfWithGlyphs(KANA, [KANA_LINE]);
    const pdf = await openPdf(bytes);
    try {
      // Page text writes no space inside Japanese (as it reads CJK text everywhere).
      expect((await pdf.readPage(1)).text).toBe(KANA_TEXT.replaceAll(' ', ''));
    } finally {
      await pdf.close();
    }
    const layout = await openPdfLayout(bytes);
    try {
      const page = await layout.readPage(1, 1);
      expect(page.lines.map((line) => line.text)).toEqual([KANA_TEXT]);
    } finally {
      await layout.close();
    }
  });
});

describe(addGlyphText.name, () => {
  const added = (...glyphs: string[]) => {
    const run: string[] = [];
    for (const glyph of glyphs) addGlyphText(run, glyph);
    return run;
  };

  it('composes a halfwidth voiced mark with the letter before, as NFKC does with the two', () => {
    expect(added('\uff76', '\uff9e')).toEqual(['\u30ac']);
    expect(added('\uff8a', '\uff9f', '\uff73', '\uff9e').join('')).toBe(
      '\uff8a\uff9f\uff73\uff9e'.normalize('NFKC'),
    );
  });

  it('adds a mark that composes with nothing as the combining mark, and other glyphs as read', () => {
    expect(added(' ', '\uff9e')).toEqual([' ', '\u3099']);
    expect(added('\uff71', '\uff9e')).toEqual(['\u30a2', '\u3099']);
    expect(added('\u0644\u0625', 'e')).toEqual(['\u0625\u0644', 'e']);
  });
});

describe(glyphText.name, () => {
  it("reverses a right-to-left glyph's letters, so the run's reversal gives them back in order", () => {
    expect(glyphText('\u0644\u0625')).toBe('\u0625\u0644');
    // Hebrew shin with its dot: the point stays with its letter once the run is reversed.
    expect(glyphText('\u05e9\u05c1')).toBe('\u05c1\u05e9');
  });

  it('reads presentation forms as their letters, a ligature as its letters reversed', () => {
    expect(glyphText('\ufe8d')).toBe('\u0627');
    expect(glyphText('\ufefb')).toBe('\u0627\u0644');
    expect(glyphText('\ufdf2')).toBe([...'\u0627\u0644\u0644\u0647'].reverse().join(''));
    expect(glyphText('\uff29\uff2e\uff17')).toBe('IN7');
    expect(glyphText('\uff76\uff70\uff84\uff9e\uff64')).toBe('カード、');
  });

  it('leaves single letters, left-to-right glyphs and digits as they are', () => {
    expect(glyphText('\u0644')).toBe('\u0644');
    expect(glyphText('fi')).toBe('fi');
    expect(glyphText('\ufb01')).toBe('\ufb01');
    expect(glyphText('\u06f1\u06f2')).toBe('\u06f1\u06f2');
    // Fullwidth punctuation keeps Chinese and Japanese text joined (see textOf).
    expect(glyphText('\uff1a')).toBe('\uff1a');
    expect(glyphText('\u0644a')).toBe('\u0644a');
  });
});

/** Ligature glyphs as producers name them, one a variant ("f_i.liga"), one by code points. */
const LIGATURE_NAMES = { A: 't_i', B: 'f_f_i', D: 'f_i.liga', E: 'uni00740074', F: 'T_h' };
const LIGATURE_LINE = 'ConsumpAon eBcient Dnal, waEer; Fe end.';
const LIGATURE_TEXT = 'Consumption efficient final, watter; The end.';

describe('ligature glyphs read by their names', () => {
  it("reads a glyph named for its letters that the font's encoding alone gives", async () => {
    const pdf = await openPdf(await pdfWithGlyphs(undefined, [LIGATURE_LINE], LIGATURE_NAMES));
    try {
      expect((await pdf.readPage(1)).text).toBe(LIGATURE_TEXT);
    } finally {
      await pdf.close();
    }
  });

  it('reads a glyph its ToUnicode map gives as U+FFFD, a private-use code or nothing by its name', async () => {
    const unread = { A: '\ufffd', B: '\ue000', D: '', a: 'a' };
    const bytes = await pdfWithGlyphs(unread, [LIGATURE_LINE], LIGATURE_NAMES);
    const pdf = await openPdf(bytes);
    try {
      expect((await pdf.readPage(1)).text).toBe(LIGATURE_TEXT);
    } finally {
      await pdf.close();
    }
    const layout = await openPdfLayout(bytes);
    try {
      const page = await layout.readPage(1, 1);
      expect(page.lines.map((line) => line.text)).toEqual([LIGATURE_TEXT]);
    } finally {
      await layout.close();
    }
  });

  it("keeps a ToUnicode map's letters over a glyph's name", async () => {
    const mapped = { A: 'ti', B: 'ffi', D: 'fi', E: 'tt', F: 'Th' };
    const pdf = await openPdf(
      await pdfWithGlyphs(mapped, [LIGATURE_LINE], { ...LIGATURE_NAMES, A: 'x_y' }),
    );
    try {
      expect((await pdf.readPage(1)).text).toBe(LIGATURE_TEXT);
    } finally {
      await pdf.close();
    }
  });
});

describe(glyphNameLetters.name, () => {
  const codeOf = (name: string) => ({ t: 0x74, i: 0x69, f: 0x66, a: 0x61 })[name] ?? -1;

  it("spells ligatures, variants and code point sequences by the glyph list's rules", () => {
    expect(glyphNameLetters('t_i', codeOf)).toBe('ti');
    expect(glyphNameLetters('f_f_i.alt1', codeOf)).toBe('ffi');
    expect(glyphNameLetters('uni00740069', codeOf)).toBe('ti');
    expect(glyphNameLetters('uni0074_i', codeOf)).toBe('ti');
  });

  it('reads no name with a part it does not know, nor one pdf.js reads alone', () => {
    expect(glyphNameLetters('t_q', codeOf)).toBeUndefined();
    expect(glyphNameLetters('t', codeOf)).toBeUndefined();
    expect(glyphNameLetters('a.sc', codeOf)).toBeUndefined();
    expect(glyphNameLetters('.notdef', codeOf)).toBeUndefined();
    expect(glyphNameLetters('uniE000', codeOf)).toBeUndefined();
    expect(glyphNameLetters('uniD800', codeOf)).toBeUndefined();
  });
});
