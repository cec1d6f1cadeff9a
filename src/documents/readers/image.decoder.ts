import sharp, { type SharpOptions } from 'sharp';
import { CorruptDocumentError } from './document.errors.js';
import { documentLimits, enforceLimit } from './document-limits.js';

// An executor runs one task at a time on a machine other executors share: one libvips
// thread each, and no operation cache (decoded images would stay resident between tasks).
sharp.concurrency(1);
sharp.cache(false);

/** One decoded page, as OCR reads it. */
export interface RasterImage {
  width: number;
  height: number;
  /**
   * The page's pixels as 8-bit grey, in a binary PGM (a header and the raw bytes): the one
   * encoding Tesseract's image reader takes without decompressing anything.
   */
  pgm: Buffer;
}

/** An image opened far enough to know its pages; each page is decoded when read. */
interface OpenedImage {
  pages: number;
  /** Decodes page `index` (0-based). */
  page(index: number): Promise<RasterImage>;
}

/**
 * Formats whose pages are pages of a document. The frames of an animated GIF or WebP are
 * not: only their first frame is read.
 */
const PAGED_FORMATS = new Set(['tiff']);

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function corrupt(error: unknown): CorruptDocumentError {
  return new CorruptDocumentError('image', `The image cannot be decoded: ${describe(error)}`, {
    cause: error,
  });
}

/**
 * Opens an image with libvips (sharp): PNG, JPEG, TIFF (every page), WebP, GIF, AVIF.
 * Each page's width x height is read from its header and checked against MAX_IMAGE_PIXELS
 * before that page is decoded (libvips also refuses past the same limit on its own).
 * A header or body libvips cannot read is a CorruptDocumentError, never a crash.
 */
export async function openImage(bytes: Uint8Array): Promise<OpenedImage> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const limitInputPixels = documentLimits().maxImagePixels;
  // Headers are read without a pixel limit, so a page past it is refused by enforceLimit
  // naming the setting; decoding has the limit too (libvips checks it before it allocates).
  const options = (page: number, decoding = false): SharpOptions => ({
    page,
    limitInputPixels: decoding ? limitInputPixels : false,
    // Errors refuse the file; warnings do not (scanners write TIFFs with odd but readable
    // tags, and libtiff warns about every page when it counts them).
    failOn: 'error',
  });
  let format: string | undefined;
  let pages: number;
  try {
    const metadata = await sharp(input, options(0)).metadata();
    format = metadata.format;
    pages = PAGED_FORMATS.has(format) ? Math.max(1, metadata.pages ?? 1) : 1;
  } catch (error) {
    throw corrupt(error);
  }
  return {
    pages,
    async page(index) {
      let width: number;
      let height: number;
      try {
        ({ width = 0, height = 0 } = await sharp(input, options(index)).metadata());
      } catch (error) {
        throw corrupt(error);
      }
      enforceLimit(
        'maxImagePixels',
        width * height,
        (max) =>
          `Page ${index + 1} of the ${format ?? ''} image is ${width} x ${height} = ` +
          `${width * height} pixels; at most ${max} are read`,
      );
      try {
        const { data, info } = await sharp(input, options(index, true))
          // Phone photos carry their orientation in EXIF; OCR reads upright text.
          .autoOrient()
          // Transparent pixels read as paper, not as black.
          .flatten({ background: '#ffffff' })
          .greyscale()
          .raw({ depth: 'uchar' })
          .toBuffer({ resolveWithObject: true });
        const header = Buffer.from(`P5\n${info.width} ${info.height}\n255\n`, 'ascii');
        return {
          width: info.width,
          height: info.height,
          pgm: Buffer.concat([header, data]),
        };
      } catch (error) {
        throw corrupt(error);
      }
    },
  };
}
