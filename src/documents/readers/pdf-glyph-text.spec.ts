import { describe, expect, it } from '@jest/globals';
import { PDFDocument, PDFName } from 'pdf-lib';
import { openPdfLayout } from '../parse/pdf-layout.reader.js';
import { glyphText } from './glyph-text.js';
import { openPdf } from './pdf.reader.js';

/**
 * A one-page PDF whose text is drawn as a producer of right-to-left text draws it: glyphs
 * left to right in visual order, each glyph's letters given by the font's ToUnicode map. The
 * glyphs shown are Helvetica's (the page's look does not matter), `glyphs` maps each drawn
 * byte to the text it stands for and `lines` are the bytes drawn, one line each from the top.
 */
async function pdfWithGlyphs(glyphs: Record<string, string>, lines: string[]): Promise<Buffer> {
  const hex = (text: string) =>
    [...text].map((unit) => unit.charCodeAt(0).toString(16).padStart(4, '0')).join('');
  const entries = Object.entries(glyphs).map(
    ([byte, text]) => `<${byte.charCodeAt(0).toString(16).padStart(2, '0')}> <${hex(text)}>`,
  );
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /Glyphs def /CMapType 2 def',
    '1 begincodespacerange <00> <ff> endcodespacerange',
    `${entries.length} beginbfchar`,
    ...entries,
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const pdf = await PDFDocument.create();
  const height = 30 + 30 * lines.length;
  const page = pdf.addPage([400, height]);
  const font = pdf.context.obj({
    Type: 'Font',
    Subtype: 'Type1',
    BaseFont: 'Helvetica',
    Encoding: 'WinAnsiEncoding',
    ToUnicode: pdf.context.register(pdf.context.stream(cmap)),
  });
  page.node.setFontDictionary(PDFName.of('F1'), pdf.context.register(font));
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
