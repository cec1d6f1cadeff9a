import sharp from 'sharp';
import { makePng } from './documents.js';

/** The image formats docproc reads, as the files a client sends would be encoded. */
export const IMAGE_FORMATS = ['png', 'jpeg', 'tiff', 'webp', 'gif', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Text rendered as `format` (the text is drawn by the test's own font, then encoded by libvips). */
export async function makeImage(text: string, format: ImageFormat, width = 1275): Promise<Buffer> {
  const image = sharp(makePng(text, width));
  switch (format) {
    case 'png':
      return image.png().toBuffer();
    case 'jpeg':
      return image.jpeg({ quality: 90 }).toBuffer();
    case 'tiff':
      return image.tiff({ compression: 'lzw' }).toBuffer();
    case 'webp':
      return image.webp({ lossless: true }).toBuffer();
    case 'gif':
      return image.gif().toBuffer();
    case 'avif':
      return image.avif({ quality: 80 }).toBuffer();
  }
}

/** A multi-page TIFF (as a scanner's document feeder writes), one page per text. */
export async function makeMultiPageTiff(texts: string[]): Promise<Buffer> {
  const pages = texts.map((text) => makePng(text));
  return sharp(pages, { join: { animated: true } })
    .tiff({ compression: 'lzw' })
    .toBuffer();
}

/**
 * An uncompressed 8-bit grey TIFF written tag by tag, one IFD per page: a page may declare
 * any size while carrying only `data` (a header that lies about its dimensions).
 */
export function makeRawTiff(pages: { width: number; height: number; data: Buffer }[]): Buffer {
  const TAGS = 9;
  const ifdSize = 2 + TAGS * 12 + 4;
  const parts: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  header.writeUInt32LE(8, 4);
  parts.push(header);
  let offset = 8;
  pages.forEach(({ width, height, data }, index) => {
    const dataOffset = offset + ifdSize;
    const next = index === pages.length - 1 ? 0 : dataOffset + data.length;
    const tags: [number, number, number][] = [
      [256, 4, width], // ImageWidth
      [257, 4, height], // ImageLength
      [258, 3, 8], // BitsPerSample
      [259, 3, 1], // Compression: none
      [262, 3, 1], // PhotometricInterpretation: BlackIsZero
      [273, 4, dataOffset], // StripOffsets
      [277, 3, 1], // SamplesPerPixel
      [278, 4, height], // RowsPerStrip
      [279, 4, data.length], // StripByteCounts
    ];
    const ifd = Buffer.alloc(ifdSize);
    ifd.writeUInt16LE(TAGS, 0);
    tags.forEach(([tag, type, value], i) => {
      ifd.writeUInt16LE(tag, 2 + i * 12);
      ifd.writeUInt16LE(type, 4 + i * 12);
      ifd.writeUInt32LE(1, 6 + i * 12);
      if (type === 3) ifd.writeUInt16LE(value, 10 + i * 12);
      else ifd.writeUInt32LE(value, 10 + i * 12);
    });
    ifd.writeUInt32LE(next, 2 + TAGS * 12);
    parts.push(ifd, data);
    offset = dataOffset + data.length;
  });
  return Buffer.concat(parts);
}
