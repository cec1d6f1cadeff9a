/**
 * Generators of real documents for tests: text-layer PDFs, image-only ("scanned") PDFs,
 * PNGs and DOCX files, so specs exercise the same parsers and OCR as production input.
 */
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import {
  Document,
  HeadingLevel,
  Packer,
  PageBreak,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const require = createRequire(import.meta.url);
const FONT_FAMILY = 'DocprocTestSans';
let fontRegistered = false;

/** A font shipped in an npm package, so rendering never depends on system fonts. */
function ensureFont(): void {
  if (fontRegistered) return;
  GlobalFonts.registerFromPath(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), FONT_FAMILY);
  fontRegistered = true;
}

/** Splits text into lines of at most `width` characters at word boundaries. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** A PDF with a real text layer, one page per entry (US Letter, Helvetica). */
export async function makePdf(pages: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([612, 792]);
    let y = 740;
    for (const line of wrap(text, 85)) {
      if (y < 40) break;
      page.drawText(line, { x: 50, y, size: 11, font });
      y -= 15;
    }
  }
  return Buffer.from(await pdf.save());
}

/** Quarter turns clockwise: how a scanned page lies when it was fed in turned. */
export type PageTurn = 0 | 90 | 180 | 270;

/**
 * A PNG of black text on white, large enough for OCR (about 150 dpi for 12pt text), upright
 * or turned clockwise by `turn` degrees.
 */
export function makePng(text: string, width = 1275, turn: PageTurn = 0): Buffer {
  ensureFont();
  const fontSize = 30;
  const lineHeight = Math.round(fontSize * 1.5);
  const lines = wrap(text, Math.floor(width / (fontSize * 0.6)));
  const height = Math.max(300, 120 + lines.length * lineHeight);
  const sideways = turn === 90 || turn === 270;
  const canvas = createCanvas(sideways ? height : width, sideways ? width : height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.translate(canvas.width / 2, canvas.height / 2);
  context.rotate((turn * Math.PI) / 180);
  context.translate(-width / 2, -height / 2);
  context.fillStyle = '#000000';
  context.font = `${fontSize}px ${FONT_FAMILY}`;
  lines.forEach((line, index) => context.fillText(line, 60, 80 + index * lineHeight));
  return canvas.toBuffer('image/png');
}

/**
 * A PNG of black text lines on paper lit unevenly, from white on the left to a deep shadow
 * on the right (as in a phone photo): one global threshold loses the text in the shadow,
 * a local one reads it. Each line starts further right, deeper in the shadow.
 */
export function makeShadowedPng(lines: string[]): Buffer {
  ensureFont();
  const width = 1000;
  const canvas = createCanvas(width, 120 + lines.length * 85);
  const context = canvas.getContext('2d');
  const light = context.createLinearGradient(0, 0, width, 0);
  light.addColorStop(0, '#ffffff');
  light.addColorStop(1, '#1a1a1a');
  context.fillStyle = light;
  context.fillRect(0, 0, width, canvas.height);
  context.fillStyle = '#000000';
  context.font = `34px ${FONT_FAMILY}`;
  lines.forEach((line, index) => context.fillText(line, 40 + index * 150, 70 + index * 85));
  return canvas.toBuffer('image/png');
}

/**
 * A PDF whose pages are only images of text (no text layer), as a scanner makes them; with
 * `turn`, each page's text lies turned by that many degrees clockwise.
 */
export async function makeScannedPdf(pages: string[], turn: PageTurn = 0): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (const text of pages) {
    const image = await pdf.embedPng(makePng(text, 1275, turn));
    const page = pdf.addPage([612, 792]);
    // Fitted to the page whole, at its own aspect ratio (a page turned sideways is tall).
    const scale = Math.min(612 / image.width, 792 / image.height);
    const [width, height] = [image.width * scale, image.height * scale];
    page.drawImage(image, { x: 0, y: 792 - height, width, height });
  }
  return Buffer.from(await pdf.save());
}

/**
 * A DOCX with one paragraph per entry. An entry that is exactly `PAGE_BREAK` becomes an
 * explicit page break; `{ heading, text }` a paragraph in Word's heading style of that level;
 * `{ table }` a Word table of those rows of cells.
 */
export const PAGE_BREAK = '\f';
export async function makeDocx(
  paragraphs: (string | { heading: 1 | 2; text: string } | { table: string[][] })[],
): Promise<Buffer> {
  const levels = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2 };
  const children = paragraphs.map((entry) =>
    typeof entry !== 'string'
      ? 'table' in entry
        ? new Table({
            rows: entry.table.map(
              (cells) =>
                new TableRow({
                  children: cells.map(
                    (text) => new TableCell({ children: [new Paragraph({ text })] }),
                  ),
                }),
            ),
          })
        : new Paragraph({ heading: levels[entry.heading], children: [new TextRun(entry.text)] })
      : entry === PAGE_BREAK
        ? new Paragraph({ children: [new PageBreak()] })
        : new Paragraph({ children: [new TextRun(entry)] }),
  );
  const document = new Document({ sections: [{ children }] });
  return Packer.toBuffer(document);
}

/**
 * An uncompressed 8-bit grayscale baseline TIFF of the text (canvases cannot encode TIFF,
 * and scanners still produce it).
 */
export function makeTiff(text: string): Buffer {
  ensureFont();
  const width = 1275;
  const lines = wrap(text, 40);
  const height = Math.max(300, 120 + lines.length * 45);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  context.font = `30px ${FONT_FAMILY}`;
  lines.forEach((line, index) => context.fillText(line, 60, 80 + index * 45));
  const rgba = context.getImageData(0, 0, width, height).data;
  const pixels = Buffer.alloc(width * height);
  for (let i = 0; i < pixels.length; i++) {
    pixels[i] = Math.round((rgba[i * 4] + rgba[i * 4 + 1] + rgba[i * 4 + 2]) / 3);
  }
  const tags: [number, number, number][] = [
    [256, 4, width], // ImageWidth (LONG)
    [257, 4, height], // ImageLength
    [258, 3, 8], // BitsPerSample (SHORT)
    [259, 3, 1], // Compression: none
    [262, 3, 1], // PhotometricInterpretation: BlackIsZero
    [273, 4, 0], // StripOffsets, patched below
    [277, 3, 1], // SamplesPerPixel
    [278, 4, height], // RowsPerStrip
    [279, 4, pixels.length], // StripByteCounts
  ];
  const ifdSize = 2 + tags.length * 12 + 4;
  const dataOffset = 8 + ifdSize;
  const header = Buffer.alloc(dataOffset);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  header.writeUInt32LE(8, 4);
  header.writeUInt16LE(tags.length, 8);
  tags.forEach(([tag, type, value], index) => {
    const at = 10 + index * 12;
    header.writeUInt16LE(tag, at);
    header.writeUInt16LE(type, at + 2);
    header.writeUInt32LE(1, at + 4);
    const actual = tag === 273 ? dataOffset : value;
    if (type === 3) header.writeUInt16LE(actual, at + 8);
    else header.writeUInt32LE(actual, at + 8);
  });
  header.writeUInt32LE(0, 10 + tags.length * 12);
  return Buffer.concat([header, pixels]);
}
