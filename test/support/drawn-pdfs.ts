/**
 * PDFs whose text is drawn the ways producers draw it beyond one run per line: accents as
 * glyphs of their own with the letter drawn back over them (TeX), text overprinted with a
 * slight offset (a "bold" of fonts without one), a font without a Unicode map, Chinese and
 * Japanese through a CID font the PDF does not embed, addressed by a predefined Unicode CMap,
 * in horizontal or vertical writing.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

const require = createRequire(import.meta.url);
const SIZE = 12;

/**
 * One line per entry, each of parts drawn at its own position (DejaVu Sans embedded). A part
 * ending in an accent is followed by the next part drawn back over most of the accent's
 * width, as TeX places `\'o`; `overprint` draws every line again at these offsets; lines are
 * `leading` points apart.
 */
export async function makeDrawnPdf(
  lines: readonly (readonly string[])[],
  overprint: readonly number[] = [],
  leading = 24,
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const file = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  const font = await pdf.embedFont(fs.readFileSync(file), { subset: true });
  const page = pdf.addPage([595, 842]);
  lines.forEach((parts, row) => {
    for (const offset of [0, ...overprint]) {
      let x = 50 + offset;
      for (const part of parts) {
        page.drawText(part, { x, y: 780 - row * leading, size: SIZE, font });
        const last = [...part].at(-1) ?? '';
        const backOver = /[\p{Sk}\p{Lm}]/u.test(last) ? 0.8 : 0;
        x += font.widthOfTextAtSize(part, SIZE) - backOver * font.widthOfTextAtSize(last, SIZE);
      }
    }
  });
  return Buffer.from(await pdf.save());
}

/**
 * A run drawn at its own size, `gap` ems of its size after the run before it (0: touching),
 * `rise` ems of its size above the line's baseline (below for a negative one: a superscript,
 * a subscript); `drawnFirst` draws it before the line's other runs, wherever it stands.
 */
export interface SizedRun {
  text: string;
  size: number;
  gap?: number;
  rise?: number;
  drawnFirst?: boolean;
}

/**
 * One line per entry of runs drawn each at its own size on one baseline (DejaVu Sans
 * embedded), as TeX sets small capitals ("E" at 14 pt, "ARLY" at 11 pt touching it) and
 * words without space glyphs (a gap of a third of an em between them).
 */
export async function makeSizedRunsPdf(lines: readonly (readonly SizedRun[])[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const file = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  const font = await pdf.embedFont(fs.readFileSync(file), { subset: true });
  const page = pdf.addPage([595, 842]);
  lines.forEach((runs, row) => {
    let x = 50;
    const drawn = runs.map(({ text, size, gap = 0, rise = 0, drawnFirst = false }) => {
      x += gap * size;
      const at = { text, x, y: 780 - row * 30 + rise * size, size, drawnFirst };
      x += font.widthOfTextAtSize(text, size);
      return at;
    });
    const inOrder = [
      ...drawn.filter((run) => run.drawnFirst),
      ...drawn.filter((run) => !run.drawnFirst),
    ];
    for (const { text, ...at } of inOrder) page.drawText(text, { ...at, font });
  });
  return Buffer.from(await pdf.save());
}

/** Which CID font collection and predefined CMap a script's text is addressed through. */
const COLLECTIONS = {
  ja: { ordering: 'Japan1', font: 'KozMinPr6N-Regular', cmap: 'UniJIS-UTF16' },
  zh: { ordering: 'GB1', font: 'AdobeSongStd-Light', cmap: 'UniGB-UTF16' },
} as const;

/**
 * A one-page PDF of `lines` in a CID font it does not embed (glyphs come from the reader's
 * substitute; text from the CMap), written horizontally (lines top to bottom) or vertically
 * (columns right to left), 24 pt; `indents` starts lines or columns that many ems in.
 */
export function makeCidFontPdf(
  lines: readonly string[],
  language: keyof typeof COLLECTIONS,
  writing: 'horizontal' | 'vertical',
  indents: readonly number[] = [],
): Buffer {
  const { ordering, font, cmap } = COLLECTIONS[language];
  const hex = (text: string) => Buffer.from(text, 'utf16le').swap16().toString('hex');
  const placed = lines.map((line, i) => {
    const indent = 24 * (indents[i] ?? 0);
    return writing === 'vertical'
      ? `1 0 0 1 ${520 - i * 36} ${780 - indent} Tm <${hex(line)}> Tj`
      : `1 0 0 1 ${50 + indent} ${780 - i * 36} Tm <${hex(line)}> Tj`;
  });
  const content = `BT /F1 24 Tf\n${placed.join('\n')}\nET\n`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ' +
      '/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}endstream`,
    `<< /Type /Font /Subtype /Type0 /BaseFont /${font} ` +
      `/Encoding /${cmap}-${writing === 'vertical' ? 'V' : 'H'} /DescendantFonts [6 0 R] >>`,
    `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /${font} ` +
      `/CIDSystemInfo << /Registry (Adobe) /Ordering (${ordering}) /Supplement 4 >> ` +
      '/FontDescriptor 7 0 R /DW 1000 >>',
    `<< /Type /FontDescriptor /FontName /${font} /Flags 4 /FontBBox [-437 -340 1147 1317] ` +
      '/ItalicAngle 0 /Ascent 1317 /Descent -349 /CapHeight 742 /StemV 80 >>',
  ];
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * A one-page PDF of `lines` (DejaVu Sans embedded as a subset) whose font has no ToUnicode
 * map, as some producers write it: a reader gets the glyph numbers, not the letters. With
 * `mappedLines`, a second font (Helvetica, mapped) draws those lines below them.
 */
export async function makeUnmappedFontPdf(
  lines: readonly string[],
  mappedLines: readonly string[] = [],
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const file = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  const font = await pdf.embedFont(fs.readFileSync(file), { subset: true });
  const helvetica = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  lines.forEach((line, row) => page.drawText(line, { x: 50, y: 780 - row * 24, size: 14, font }));
  mappedLines.forEach((line, row) =>
    page.drawText(line, { x: 50, y: 780 - (lines.length + row) * 24, size: 14, font: helvetica }),
  );
  const drawn = await PDFDocument.load(await pdf.save());
  for (const [, object] of drawn.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && object.has(PDFName.of('ToUnicode'))) {
      object.delete(PDFName.of('ToUnicode'));
    }
  }
  return Buffer.from(await drawn.save());
}
