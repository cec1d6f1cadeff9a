import { describe, expect, it } from '@jest/globals';
import { PDFDocument, PDFName } from 'pdf-lib';
import { mappedHelvetica } from '../../../test/support/mapped-helvetica.js';
import { formBlocks, type ParseBlock } from './layout.engines.js';
import { openPdf } from '../readers/pdf.reader.js';
import { openPdfLayout } from './pdf-layout.reader.js';

/** Bytes of Helvetica's glyphs standing for Hebrew letters (through a ToUnicode map). */
const HEBREW: Record<string, string> = {
  A: '\u05d0', // alef
  B: '\u05d1', // bet
  L: '\u05dc', // lamed
  M: '\u05de', // mem
  R: '\u05e8', // resh
  S: '\u05e1', // samekh
};

const SIZE = 12;
const PAGE_HEIGHT = 400;

/**
 * A piece of the page: text (Latin from `left`, or Hebrew bytes drawn backwards so they
 * end at `right`) on the baseline `y` points from the top, or content stream operators
 * drawn as they are (in PDF space: origin at the bottom left).
 */
type Piece =
  | { text: string; left: number; y: number }
  | { hebrew: string; right: number; y: number }
  | { draw: string };

/** Average Helvetica advance at SIZE, close enough to place a Hebrew piece's start. */
const advance = (text: string) => text.length * 0.6 * SIZE;

async function pdfOf(pieces: Piece[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([500, PAGE_HEIGHT]);
  const font = (letters?: Record<string, string>) => mappedHelvetica(pdf, letters);
  page.node.setFontDictionary(PDFName.of('La'), font());
  page.node.setFontDictionary(PDFName.of('He'), font(HEBREW));
  const shown = pieces.map((piece) => {
    if ('draw' in piece) return piece.draw;
    const y = PAGE_HEIGHT - piece.y;
    if ('text' in piece) {
      return `BT /La ${SIZE} Tf ${piece.left} ${y} Td (${piece.text}) Tj ET`;
    }
    const drawn = [...piece.hebrew].reverse().join('');
    return `BT /He ${SIZE} Tf ${piece.right - advance(drawn)} ${y} Td (${drawn}) Tj ET`;
  });
  page.node.addContentStream(pdf.context.register(pdf.context.stream(shown.join('\n'))));
  return Buffer.from(await pdf.save());
}

async function blocksOf(pieces: Piece[]): Promise<ParseBlock[]> {
  const layout = await openPdfLayout(await pdfOf(pieces));
  try {
    return formBlocks('paragraph-blocks', [await layout.readPage(1, 1)]);
  } finally {
    await layout.close();
  }
}

/** The page text classification and extract read (not parse's lines). */
async function pageTextOf(pieces: Piece[]): Promise<string> {
  const reader = await openPdf(await pdfOf(pieces));
  try {
    return (await reader.readPage(1)).text;
  } finally {
    await reader.close();
  }
}

const typed = (blocks: ParseBlock[]) => blocks.map((block) => [block.type, block.content]);

/** A disc of radius `r` centred `x`, `y` points from the top (four Bézier arcs), filled. */
function disc(x: number, y: number, r: number, paint = 'f'): Piece {
  const cy = PAGE_HEIGHT - y;
  const k = 0.5523 * r;
  const path = [
    `${x + r} ${cy} m`,
    `${x + r} ${cy + k} ${x + k} ${cy + r} ${x} ${cy + r} c`,
    `${x - k} ${cy + r} ${x - r} ${cy + k} ${x - r} ${cy} c`,
    `${x - r} ${cy - k} ${x - k} ${cy - r} ${x} ${cy - r} c`,
    `${x + k} ${cy - r} ${x + r} ${cy - k} ${x + r} ${cy} c`,
    `h ${paint}`,
  ];
  return { draw: path.join(' ') };
}

/** A rectangle from `left`, `top` (points from the top of the page), painted by `paint`. */
function rectangle(left: number, top: number, width: number, height: number, paint = 'f') {
  return { draw: `${left} ${PAGE_HEIGHT - top - height} ${width} ${height} re ${paint}` };
}

// Lines 15 points apart; the x-height's middle is about 3 points above the baseline.
const LINE = 15;

describe('bullets drawn as shapes', () => {
  it('reads a filled disc, a stroked circle and a filled square before a line as its marker', async () => {
    const blocks = await blocksOf([
      { text: 'Items follow.', left: 40, y: 60 },
      disc(54, 60 + LINE - 3.5, 2),
      { text: 'First item', left: 62, y: 60 + LINE },
      { draw: '0.8 w' },
      disc(54, 60 + 2 * LINE - 3.5, 2, 'S'),
      { text: 'Second item', left: 62, y: 60 + 2 * LINE },
      rectangle(52, 60 + 3 * LINE - 5.5, 4, 4),
      { text: 'Third item', left: 62, y: 60 + 3 * LINE },
    ]);
    expect(typed(blocks)).toEqual([
      ['Text', 'Items follow.'],
      ['List Item', '• First item'],
      ['List Item', '• Second item'],
      ['List Item', '• Third item'],
    ]);
  });

  it('places the shape through the transformations in force (a scaled, flipped space)', async () => {
    // Chromium draws a page in a space scaled down and flipped: 0.25 x, y from the top.
    const flipped = `q 0.25 0 0 -0.25 0 ${PAGE_HEIGHT} cm`;
    const blocks = await blocksOf([
      { draw: `${flipped} 208 ${4 * (60 - 5.5)} 16 16 re f Q` },
      { text: 'First item', left: 62, y: 60 },
      { draw: `${flipped} 208 ${4 * (60 + LINE - 5.5)} 16 16 re f Q` },
      { text: 'Second item', left: 62, y: 60 + LINE },
    ]);
    expect(typed(blocks)).toEqual([
      ['List Item', '• First item'],
      ['List Item', '• Second item'],
    ]);
  });

  it('reads a ball drawn as stacked discs as one marker', async () => {
    // A shaded ball: discs shrinking towards its highlight, each its own path.
    const blocks = await blocksOf([
      disc(54, 60 - 3.5, 2.5),
      disc(53.8, 60 - 3.7, 2),
      disc(53.6, 60 - 3.9, 1.5),
      disc(53.4, 60 - 4.1, 1),
      { text: 'Shaded item', left: 62, y: 60 },
    ]);
    expect(typed(blocks)).toEqual([['List Item', '• Shaded item']]);
  });

  it('keeps a wrapped item together: its lines under its text, not under its marker', async () => {
    const blocks = await blocksOf([
      disc(54, 60 - 3.5, 2),
      { text: 'An item that wraps', left: 62, y: 60 },
      { text: 'onto a second line', left: 62, y: 60 + LINE },
      disc(54, 60 + 2 * LINE - 3.5, 2),
      { text: 'Next item', left: 62, y: 60 + 2 * LINE },
    ]);
    expect(typed(blocks)).toEqual([
      ['List Item', '• An item that wraps onto a second line'],
      ['List Item', '• Next item'],
    ]);
  });

  it('reads a shape on the right of a right-to-left line as its marker', async () => {
    const blocks = await blocksOf([
      disc(448, 60 - 3.5, 2),
      { hebrew: 'SBL MRA', right: 440, y: 60 },
      disc(448, 60 + LINE - 3.5, 2),
      { hebrew: 'LBM', right: 440, y: 60 + LINE },
    ]);
    const hebrew = (bytes: string) => [...bytes].map((b) => HEBREW[b] ?? b).join('');
    expect(typed(blocks)).toEqual([
      ['List Item', `• ${hebrew('SBL MRA')}`],
      ['List Item', `• ${hebrew('LBM')}`],
    ]);
  });

  it('reads no marker from rules, underlines, boxes larger than the text, or dots elsewhere', async () => {
    const blocks = await blocksOf([
      // A table's rule and an underline: closed but thin.
      rectangle(40, 48, 300, 0.5),
      { text: 'Underlined heading', left: 62, y: 60 },
      rectangle(62, 62, 100, 0.8),
      // A check box larger than the text before its label.
      rectangle(46, 60 + LINE - 10, 11, 11, 'S'),
      { text: 'Accept the terms', left: 62, y: 60 + LINE },
      // A dot on the baseline (a leader's dot), and one between two words of a line.
      disc(54, 60 + 2 * LINE - 1, 1.5),
      { text: 'Low dot', left: 62, y: 60 + 2 * LINE },
      { text: 'Name', left: 62, y: 60 + 3 * LINE },
      disc(100, 60 + 3 * LINE - 3.5, 2),
      { text: 'Title', left: 106, y: 60 + 3 * LINE },
      // A number in a ball (a numbered heading), the number in a smaller font.
      disc(54, 60 + 5 * LINE - 3.5, 3.5),
      { draw: `BT /La 5 Tf 52.6 ${PAGE_HEIGHT - 60 - 5 * LINE + 2} Td (1) Tj ET` },
      { text: 'Numbered heading', left: 62, y: 60 + 5 * LINE },
      // An open stroke (a tick) the size of a bullet.
      {
        draw: `52 ${PAGE_HEIGHT - 60 - 4 * LINE + 3} m 54 ${PAGE_HEIGHT - 60 - 4 * LINE + 1} l 57 ${PAGE_HEIGHT - 60 - 4 * LINE + 6} l S`,
      },
      { text: 'Ticked line', left: 62, y: 60 + 4 * LINE },
    ]);
    expect(blocks.every((block) => !block.content.includes('•'))).toBe(true);
    expect(blocks.every((block) => block.type !== 'List Item')).toBe(true);
  });

  it('adds no second marker to a line that starts with a bullet glyph', async () => {
    const blocks = await blocksOf([
      disc(54, 60 - 3.5, 2),
      { text: '- Dashed item', left: 62, y: 60 },
    ]);
    expect(typed(blocks)).toEqual([['List Item', '- Dashed item']]);
  });
});

describe('bullets drawn as shapes in the page text', () => {
  it('starts each item a shape marks with the marker, left to right and right to left', async () => {
    const text = await pageTextOf([
      { text: 'Items follow.', left: 40, y: 60 },
      disc(54, 60 + LINE - 3.5, 2),
      { text: 'First item', left: 62, y: 60 + LINE },
      rectangle(52, 60 + 2 * LINE - 5.5, 4, 4),
      { text: 'Second item', left: 62, y: 60 + 2 * LINE },
      disc(448, 60 + 3 * LINE - 3.5, 2),
      { hebrew: 'SBL MRA', right: 440, y: 60 + 3 * LINE },
    ]);
    const hebrew = [...'SBL MRA'].map((b) => HEBREW[b] ?? b).join('');
    expect(text.split('\n')).toEqual([
      'Items follow.',
      '• First item',
      '• Second item',
      `• ${hebrew}`,
    ]);
  });

  it('adds no marker for a dot between two words, a box larger than the text or a glyph bullet', async () => {
    const text = await pageTextOf([
      { text: 'Name', left: 62, y: 60 },
      disc(100, 60 - 3.5, 2),
      { text: 'Title', left: 106, y: 60 },
      rectangle(46, 60 + LINE - 10, 11, 11, 'S'),
      { text: 'Accept the terms', left: 62, y: 60 + LINE },
      disc(54, 60 + 2 * LINE - 3.5, 2),
      { text: '- Dashed item', left: 62, y: 60 + 2 * LINE },
    ]);
    expect(text.split('\n')).toEqual(['Name Title', 'Accept the terms', '- Dashed item']);
  });
});
