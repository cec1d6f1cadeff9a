import { describe, expect, it } from '@jest/globals';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { mappedHelvetica } from '../../../test/support/mapped-helvetica.js';
import { formBlocks, type ParseBlock } from './layout.engines.js';
import { openPdfLayout } from './pdf-layout.reader.js';

/** Bytes of Helvetica's glyphs standing for Arabic letters (through a ToUnicode map). */
const ARABIC: Record<string, string> = {
  A: '\u0627', // alef
  B: '\u0628', // beh
  D: '\u062f', // dal
  H: '\u0647', // heh
  K: '\u0643', // kaf
  L: '\u0644', // lam
  M: '\u0645', // meem
  N: '\u0646', // noon
  R: '\u0631', // reh
  S: '\u0633', // seen
  T: '\u062a', // teh
  W: '\u0648', // waw
  Y: '\u064a', // yeh
  1: '\u0661', // Arabic-Indic one
  2: '\u0662', // Arabic-Indic two
};

/** The same bytes standing for Hebrew letters. */
const HEBREW: Record<string, string> = {
  A: '\u05d0', // alef
  B: '\u05d1', // bet
  D: '\u05d3', // dalet
  H: '\u05d4', // he
  K: '\u05db', // kaf
  L: '\u05dc', // lamed
  M: '\u05de', // mem
  N: '\u05e0', // nun
  R: '\u05e8', // resh
  S: '\u05e1', // samekh
  T: '\u05ea', // tav
  W: '\u05d5', // vav
  Y: '\u05d9', // yod
};

type Script = 'arabic' | 'hebrew' | 'latin';

/**
 * A piece of text on the page: `text` in reading order, as bytes of the script's font, on
 * the baseline `y` points from the top; a right-to-left piece ends at `right` and is drawn
 * backwards (as producers draw it, glyphs left to right in visual order), a Latin one
 * starts at `left`.
 */
type Piece = { text: string; script: Script; y: number } & ({ right: number } | { left: number });

const SIZE = 12;

/** A one-page PDF (500 x 400 points) of the pieces, each drawn in marked content of its own. */
async function pdfOf(pieces: Piece[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([500, 400]);
  const helvetica = await pdf.embedFont(StandardFonts.Helvetica);
  const font = (letters?: Record<string, string>) => mappedHelvetica(pdf, letters);
  page.node.setFontDictionary(PDFName.of('Ar'), font(ARABIC));
  page.node.setFontDictionary(PDFName.of('He'), font(HEBREW));
  page.node.setFontDictionary(PDFName.of('La'), font());
  const names: Record<Script, string> = { arabic: 'Ar', hebrew: 'He', latin: 'La' };
  const shown = pieces.map((piece) => {
    const width = helvetica.widthOfTextAtSize(piece.text, SIZE);
    const drawn = piece.script === 'latin' ? piece.text : [...piece.text].reverse().join('');
    const x = 'right' in piece ? piece.right - width : piece.left;
    const y = 400 - piece.y;
    // A bullet is byte 0x95 of WinAnsiEncoding.
    const escaped = drawn.replace(/[()\\]/g, (c) => `\\${c}`).replace(/\u2022/g, '\\225');
    return `/Span <<>> BDC BT /${names[piece.script]} ${SIZE} Tf ${x.toFixed(2)} ${y} Td (${escaped}) Tj ET EMC`;
  });
  page.node.addContentStream(pdf.context.register(pdf.context.stream(shown.join('\n'))));
  return Buffer.from(await pdf.save());
}

/** The paragraph-blocks layout's blocks of the PDF of `pieces`. */
async function blocksOf(pieces: Piece[]): Promise<ParseBlock[]> {
  const layout = await openPdfLayout(await pdfOf(pieces));
  try {
    const page = await layout.readPage(1, 1);
    return formBlocks('paragraph-blocks', [page]);
  } finally {
    await layout.close();
  }
}

/** `text` (bytes of the letters) read in `letters`. */
function read(text: string, letters: Record<string, string>): string {
  return [...text].map((byte) => letters[byte] ?? byte).join('');
}

// Lines 15 points apart (one line's spacing at 12 points); the page's body from y = 60.
const LINE = 15;

describe('right-to-left list items of the paragraph-blocks layout', () => {
  it('continues a wrapped Arabic item with lines indented on the right, under its text', async () => {
    // Items end on the right at 440, their bullet at 448; the item's second line reaches
    // further left than its first, its last line is short.
    const item = ['BSM ALLH', 'WALKTAB ALMBYN', 'ALTRYL'];
    const blocks = await blocksOf([
      { text: '\u2022', script: 'latin', left: 448, y: 60 },
      { text: item[0], script: 'arabic', right: 440, y: 60 },
      { text: item[1], script: 'arabic', right: 440, y: 60 + LINE },
      { text: item[2], script: 'arabic', right: 440, y: 60 + 2 * LINE },
      { text: '\u2022', script: 'latin', left: 448, y: 60 + 3 * LINE },
      { text: 'ALKTAB', script: 'arabic', right: 440, y: 60 + 3 * LINE },
      // A paragraph after the list, aligned with the bullets on the right.
      { text: 'MN ALKTAB', script: 'arabic', right: 456, y: 60 + 4 * LINE },
    ]);
    expect(blocks.map((block) => [block.type, block.content])).toEqual([
      ['List Item', `\u2022 ${item.map((text) => read(text, ARABIC)).join(' ')}`],
      ['List Item', `\u2022 ${read('ALKTAB', ARABIC)}`],
      ['Text', read('MN ALKTAB', ARABIC)],
    ]);
  });

  it('continues a wrapped Hebrew item, and ends it at a line starting under its marker', async () => {
    const blocks = await blocksOf([
      { text: '-', script: 'latin', left: 452, y: 60 },
      { text: 'SBR ALM', script: 'hebrew', right: 440, y: 60 },
      { text: 'DBR TMY', script: 'hebrew', right: 440, y: 60 + LINE },
      { text: 'ALM TMY', script: 'hebrew', right: 456, y: 60 + 2 * LINE },
    ]);
    expect(blocks.map((block) => [block.type, block.content])).toEqual([
      ['List Item', `- ${read('SBR ALM DBR TMY', HEBREW)}`],
      ['Text', read('ALM TMY', HEBREW)],
    ]);
  });

  it('reads numbered Hebrew items whose marker is drawn ".1" (the number right of its dot) as list items', async () => {
    // "1." in a right-to-left line: its dot stands left of the number, and a run without
    // right-to-left letters reads left to right.
    const blocks = await blocksOf([
      { text: '.1', script: 'latin', left: 446, y: 60 },
      { text: 'SBR ALM', script: 'hebrew', right: 440, y: 60 },
      { text: 'DBR TMY', script: 'hebrew', right: 430, y: 60 + LINE },
      { text: '.2', script: 'latin', left: 446, y: 60 + 2 * LINE },
      { text: 'ALM TMY', script: 'hebrew', right: 440, y: 60 + 2 * LINE },
      { text: 'MN ALM', script: 'hebrew', right: 456, y: 60 + 3 * LINE },
    ]);
    expect(blocks.map((block) => [block.type, block.content])).toEqual([
      ['List Item', `.1 ${read('SBR ALM DBR TMY', HEBREW)}`],
      ['List Item', `.2 ${read('ALM TMY', HEBREW)}`],
      ['Text', read('MN ALM', HEBREW)],
    ]);
  });

  it('reads Arabic items numbered in Arabic-Indic digits as list items', async () => {
    const blocks = await blocksOf([
      { text: '1.', script: 'arabic', right: 456, y: 60 },
      { text: 'ALKTAB', script: 'arabic', right: 440, y: 60 },
      { text: '2.', script: 'arabic', right: 456, y: 60 + LINE },
      { text: 'MN ALKTAB', script: 'arabic', right: 440, y: 60 + LINE },
    ]);
    expect(blocks.map((block) => [block.type, block.content])).toEqual([
      ['List Item', `\u0661. ${read('ALKTAB', ARABIC)}`],
      ['List Item', `\u0662. ${read('MN ALKTAB', ARABIC)}`],
    ]);
  });

  it('still continues a left-to-right item only with lines indented on the left', async () => {
    const blocks = await blocksOf([
      { text: '\u2022', script: 'latin', left: 40, y: 60 },
      { text: 'The first item of the list', script: 'latin', left: 52, y: 60 },
      { text: 'wraps under its text', script: 'latin', left: 52, y: 60 + LINE },
      { text: 'Then a paragraph starts', script: 'latin', left: 40, y: 60 + 2 * LINE },
    ]);
    expect(blocks.map((block) => [block.type, block.content])).toEqual([
      ['List Item', '\u2022 The first item of the list wraps under its text'],
      ['Text', 'Then a paragraph starts'],
    ]);
  });
});

describe('right-to-left tables of the paragraph-blocks layout', () => {
  it("keeps an Arabic label cell's wrapped lines in its cell, one row", async () => {
    // Two columns: labels ending at 460, values ending at 200; the second label wraps twice.
    const blocks = await blocksOf([
      { text: 'ALTARYK', script: 'arabic', right: 460, y: 60 },
      { text: '1403/09/19', script: 'latin', left: 140, y: 60 },
      { text: 'ALMSTND ALRSMY', script: 'arabic', right: 460, y: 60 + 2 * LINE },
      { text: 'ALBNK ALMRKZY', script: 'arabic', right: 200, y: 60 + 2 * LINE },
      { text: 'LLTSDYR', script: 'arabic', right: 460, y: 60 + 3 * LINE },
      { text: 'WALTKMYL', script: 'arabic', right: 460, y: 60 + 4 * LINE },
      { text: 'ALMBLR', script: 'arabic', right: 460, y: 60 + 6 * LINE },
      { text: '47.500', script: 'latin', left: 160, y: 60 + 6 * LINE },
    ]);
    expect(blocks.map((block) => block.type)).toEqual(['Table']);
    expect(blocks[0].extra?.rows).toEqual([
      [read('ALTARYK', ARABIC), '1403/09/19'],
      [read('ALMSTND ALRSMY LLTSDYR WALTKMYL', ARABIC), read('ALBNK ALMRKZY', ARABIC)],
      [read('ALMBLR', ARABIC), '47.500'],
    ]);
  });

  it("keeps a Hebrew value cell's wrapped line in its cell, in the column it is under", async () => {
    // Three columns ending at 460, 320 and 160; the middle cell of the first row wraps.
    const blocks = await blocksOf([
      { text: 'SBR', script: 'hebrew', right: 460, y: 60 },
      { text: 'DBR TMY ALM', script: 'hebrew', right: 320, y: 60 },
      { text: 'MLK', script: 'hebrew', right: 160, y: 60 },
      { text: 'WSBR', script: 'hebrew', right: 320, y: 60 + LINE },
      { text: 'TMY', script: 'hebrew', right: 460, y: 60 + 3 * LINE },
      { text: 'ALM', script: 'hebrew', right: 320, y: 60 + 3 * LINE },
      { text: 'DBR', script: 'hebrew', right: 160, y: 60 + 3 * LINE },
    ]);
    expect(blocks.map((block) => block.type)).toEqual(['Table']);
    expect(blocks[0].extra?.rows).toEqual([
      [read('SBR', HEBREW), read('DBR TMY ALM WSBR', HEBREW), read('MLK', HEBREW)],
      [read('TMY', HEBREW), read('ALM', HEBREW), read('DBR', HEBREW)],
    ]);
  });

  it('reads a Hebrew row whose model number and quantity cells sit side by side as a row of the table', async () => {
    // Columns ending at 460, 320 and 160: a label, a model number and a quantity.
    const blocks = await blocksOf([
      { text: 'SBR TMY', script: 'hebrew', right: 460, y: 60 },
      { text: 'DBR ALM', script: 'hebrew', right: 320, y: 60 },
      { text: 'MLK', script: 'hebrew', right: 160, y: 60 },
      { text: 'WSBR', script: 'hebrew', right: 460, y: 60 + LINE },
      { text: 'TMY', script: 'hebrew', right: 460, y: 60 + 3 * LINE },
      { text: 'AC-2040', script: 'latin', left: 260, y: 60 + 3 * LINE },
      { text: '2', script: 'latin', left: 150, y: 60 + 3 * LINE },
    ]);
    expect(blocks.map((block) => block.type)).toEqual(['Table']);
    expect(blocks[0].extra?.rows).toEqual([
      [read('SBR TMY WSBR', HEBREW), read('DBR ALM', HEBREW), read('MLK', HEBREW)],
      [read('TMY', HEBREW), 'AC-2040', '2'],
    ]);
  });

  it('reads a left-to-right line under some columns of a table as before, not as a wrapped cell', async () => {
    const blocks = await blocksOf([
      { text: 'Date', script: 'latin', left: 40, y: 60 },
      { text: '2024-03-19', script: 'latin', left: 300, y: 60 },
      { text: 'Issuing office', script: 'latin', left: 40, y: 60 + 2 * LINE },
      { text: 'Head office', script: 'latin', left: 300, y: 60 + 2 * LINE },
      { text: 'of the company', script: 'latin', left: 40, y: 60 + 3 * LINE },
    ]);
    expect(blocks.map((block) => [block.type, block.content])).toEqual([
      ['Table', '| Date | 2024-03-19 |\n| --- | --- |\n| Issuing office | Head office |'],
      ['Text', 'of the company'],
    ]);
  });
});
