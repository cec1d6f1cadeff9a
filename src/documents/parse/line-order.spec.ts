import { describe, expect, it } from '@jest/globals';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { mappedHelvetica } from '../../../test/support/mapped-helvetica.js';
import { openPdfLayout } from './pdf-layout.reader.js';
import { isRightToLeft, readingOrder } from './line-order.js';

/** Arabic letters drawn with Helvetica's glyphs of these bytes (through a ToUnicode map). */
const ARABIC = { A: '\u0627', B: '\u0628', L: '\u0644', N: '\u0646', W: '\u0648' };

/**
 * A one-page PDF of one line drawn in pieces, as a producer of right-to-left text draws
 * it: each piece at its own place from the left, `arabic` pieces in a font whose bytes
 * stand for Arabic letters (drawn left to right, so read from the right), the others in
 * plain Helvetica, each in marked content as tagged PDFs draw a run (pdf.js keeps such
 * pieces apart). `gap` is the space before a piece, in points.
 */
async function pdfOfPieces(
  pieces: { text: string; arabic?: boolean; gap: number }[],
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([500, 60]);
  const helvetica = await pdf.embedFont(StandardFonts.Helvetica);
  const font = (toUnicode: boolean) => mappedHelvetica(pdf, toUnicode ? ARABIC : undefined);
  page.node.setFontDictionary(PDFName.of('Ar'), font(true));
  page.node.setFontDictionary(PDFName.of('La'), font(false));
  let x = 20;
  const shown = pieces.map(({ text, arabic, gap }) => {
    x += gap;
    const at = x;
    x += helvetica.widthOfTextAtSize(text, 14);
    return `/Span <<>> BDC BT /${arabic ? 'Ar' : 'La'} 14 Tf ${at.toFixed(2)} 30 Td (${text}) Tj ET EMC`;
  });
  page.node.addContentStream(pdf.context.register(pdf.context.stream(shown.join('\n'))));
  return Buffer.from(await pdf.save());
}

async function lineOf(pieces: Parameters<typeof pdfOfPieces>[0]) {
  const layout = await openPdfLayout(await pdfOfPieces(pieces));
  try {
    const page = await layout.readPage(1, 1);
    expect(page.lines).toHaveLength(1);
    return page.lines[0];
  } finally {
    await layout.close();
  }
}

describe('the reading order of a line read from a PDF', () => {
  it('reads a right-to-left line from the right, a Latin run in it from the left, with the space a direction change stands for', async () => {
    // Drawn from the left: "Python", touching "و", "R", then "نلاب بلان" (drawn backwards).
    const line = await lineOf([
      { text: 'Python', gap: 0 },
      { text: 'W', arabic: true, gap: 0 },
      { text: 'R', gap: 4 },
      { text: 'NALB BALN', arabic: true, gap: 4 },
    ]);
    expect(line.text).toBe('نلاب بلان R و Python');
  });

  it('keeps two Latin words of a right-to-left line in their own order', async () => {
    const line = await lineOf([
      { text: 'ALB', arabic: true, gap: 0 },
      { text: 'pandas', gap: 4 },
      { text: 'Python', gap: 4 },
      { text: 'NALB BALN WALB', arabic: true, gap: 4 },
    ]);
    expect(line.text).toBe('بلاو نلاب بلان pandas Python بلا');
  });

  it('reads a number drawn in pieces as one number, after the label to its right', async () => {
    const line = await lineOf([
      { text: '1403', gap: 0 },
      { text: '/', gap: 0 },
      { text: '09', gap: 0 },
      { text: '/', gap: 0 },
      { text: '19', gap: 0 },
      { text: 'ALB', arabic: true, gap: 8 },
    ]);
    expect(line.text).toBe('بلا 1403/09/19');
  });

  it('puts the cell on the right first in a right-to-left row, each cell where it is drawn', async () => {
    const line = await lineOf([
      { text: 'NA', arabic: true, gap: 0 },
      { text: 'ALB', arabic: true, gap: 100 },
    ]);
    expect(line.segments.map((segment) => segment.text)).toEqual(['بلا', 'ان']);
    expect(line.segments[0].left).toBeGreaterThan(line.segments[1].right);
  });

  it('reads cells of numbers and Latin side by side in a right-to-left row from the right, each on its own', async () => {
    // Drawn from the left: a quantity, a model number and a label, wide gaps between them.
    const line = await lineOf([
      { text: '1', gap: 0 },
      { text: 'AC-2040', gap: 100 },
      { text: 'ALB', arabic: true, gap: 100 },
    ]);
    expect(line.segments.map((segment) => segment.text)).toEqual(['بلا', 'AC-2040', '1']);
  });

  it("boxes a right-to-left run's first word at its right end", async () => {
    const line = await lineOf([{ text: 'NALB BALN', arabic: true, gap: 0 }]);
    expect(line.words.map((word) => word.text)).toEqual(['نلاب', 'بلان']);
    expect(line.words[0].bbox.left).toBeGreaterThan(line.words[1].bbox.left);
  });

  it('reads a left-to-right line with a right-to-left word from the left, as drawn', async () => {
    const line = await lineOf([
      { text: 'Total', gap: 0 },
      { text: 'ALB', arabic: true, gap: 4 },
      { text: '42', gap: 4 },
    ]);
    expect(line.text).toBe('Total بلا 42');
  });
});

describe(readingOrder.name, () => {
  const run = (text: string, x: number, width: number) => ({ text, x, width });

  it('orders a right-to-left line by the bidirectional algorithm and gives each run the gap before it', () => {
    const runs = [
      run('Python', 0, 30),
      run('و', 34, 5),
      run('R', 42, 6),
      run('تعتبر البرمجة بلغة', 50, 80),
    ];
    const { rightToLeft, runs: ordered } = readingOrder(runs, 2);
    expect(rightToLeft).toBe(true);
    expect(ordered.map((entry) => entry.run.text)).toEqual([
      'تعتبر البرمجة بلغة',
      'R',
      'و',
      'Python',
    ]);
    expect(ordered.map((entry) => entry.gap)).toEqual([-Infinity, 2, 3, 4]);
  });

  it('keeps a left-to-right phrase of a right-to-left line in its order, but not across a cell gap', () => {
    const runs = [run('2040', 0, 20), run('AC', 24, 10), run('رقم', 40, 15)];
    const words = readingOrder(runs, 2).runs.map((entry) => entry.run.text);
    expect(words).toEqual(['رقم', '2040', 'AC']);
    const cells = readingOrder(runs, 2, 3).runs.map((entry) => entry.run.text);
    expect(cells).toEqual(['رقم', 'AC', '2040']);
  });

  it('leaves a left-to-right line in left-to-right order', () => {
    const runs = [run('b', 20, 5), run('a', 0, 5)];
    const { rightToLeft, runs: ordered } = readingOrder(runs, 2);
    expect(rightToLeft).toBe(false);
    expect(ordered.map((entry) => entry.run.text)).toEqual(['a', 'b']);
  });
});

describe(isRightToLeft.name, () => {
  it('goes by the majority of strong characters', () => {
    expect(isRightToLeft('بلغة R و Python')).toBe(false);
    expect(isRightToLeft('تعتبر البرمجة بلغة R و Python')).toBe(true);
    expect(isRightToLeft('2024 / 12')).toBe(false);
  });
});
