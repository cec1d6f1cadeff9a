/**
 * Fonts and text fitting shared by AcroForm filling and drawing into boxes: Helvetica for
 * what WinAnsi can write, DejaVu Sans (embedded, subset) for the rest of Latin, Greek and
 * Cyrillic; overflow pages for text that does not fit its box.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { type PDFDocument, type PDFFont, StandardFonts, rgb } from 'pdf-lib';

const require = createRequire(import.meta.url);

export interface Fonts {
  /** The font that can write `text`: Helvetica when it can, else the Unicode font. */
  for(text: string): Promise<PDFFont>;
}

export function fontsFor(doc: PDFDocument): Fonts {
  let helvetica: PDFFont | undefined;
  let unicode: PDFFont | undefined;
  return {
    async for(text: string): Promise<PDFFont> {
      helvetica ??= await doc.embedFont(StandardFonts.Helvetica);
      try {
        helvetica.encodeText(text);
        return helvetica;
      } catch {
        if (!unicode) {
          doc.registerFontkit(fontkit);
          const file = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
          unicode = await doc.embedFont(fs.readFileSync(file), { subset: true });
        }
        return unicode;
      }
    },
  };
}

/** Smallest size text is shrunk to before it is said not to fit. */
export const MIN_FONT_SIZE = 6;

/** Whether `text` fits a box of `width` x `height` at `size` (wrapped when the box is tall). */
function fits(font: PDFFont, text: string, size: number, width: number, height: number): boolean {
  const lineHeight = size * 1.2;
  const lines = Math.max(1, Math.floor((height - 2) / lineHeight));
  if (lines === 1) return font.widthOfTextAtSize(text, size) <= width - 4;
  return wrap(font, text, size, width - 4).length <= lines;
}

/** Words wrapped into lines no wider than `width`. */
export function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/u)) {
    let line = '';
    for (const word of paragraph.split(/\s+/u)) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (line !== '' && font.widthOfTextAtSize(candidate, size) > width) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    lines.push(line);
  }
  return lines;
}

/** The largest size from `preferred` down to MIN_FONT_SIZE at which text fits, or undefined. */
export function fittingSize(
  font: PDFFont,
  text: string,
  preferred: number,
  width: number,
  height: number,
): number | undefined {
  for (let size = preferred; size >= MIN_FONT_SIZE; size -= 0.5) {
    if (fits(font, text, size, width, height)) return size;
  }
  return undefined;
}

/** What did not fit, written in full on pages added at the end. */
export interface OverflowEntry {
  label: string;
  text: string;
}

/** Appends continuation pages listing each entry; returns the 1-indexed page of each. */
export async function writeOverflowPages(
  doc: PDFDocument,
  fonts: Fonts,
  entries: readonly OverflowEntry[],
): Promise<number[]> {
  const pages: number[] = [];
  if (entries.length === 0) return pages;
  const size = 10;
  const margin = 50;
  let page = doc.addPage();
  let y = page.getHeight() - margin;
  const heading = await fonts.for('Continuation');
  page.drawText('Continuation', { x: margin, y, size: 14, font: heading, color: rgb(0, 0, 0) });
  y -= 28;
  for (const entry of entries) {
    const font = await fonts.for(`${entry.label} ${entry.text}`);
    const lines = [
      `${entry.label}:`,
      ...wrap(font, entry.text, size, page.getWidth() - 2 * margin),
    ];
    if (y - lines.length * size * 1.3 < margin) {
      page = doc.addPage();
      y = page.getHeight() - margin;
    }
    pages.push(doc.getPageCount());
    for (const line of lines) {
      page.drawText(line, { x: margin, y, size, font });
      y -= size * 1.3;
    }
    y -= size;
  }
  return pages;
}
