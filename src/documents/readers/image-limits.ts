import { imageSize } from 'image-size';
import { CorruptDocumentError } from './document.errors.js';
import { enforceLimit } from './document-limits.js';

/**
 * Checks an image's pixel count from its header, before anything decodes it: decoders
 * allocate width x height x 4 bytes up front, and a 3.6 MB PNG of one colour can declare
 * 60,000 x 60,000 pixels (14 GB), which aborts the decoding process.
 */
export function checkImageHeader(bytes: Uint8Array): void {
  let width: number;
  let height: number;
  try {
    ({ width, height } = imageSize(ownBuffer(bytes)));
  } catch (error) {
    throw new CorruptDocumentError(
      'image',
      `The image header cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  enforceLimit(
    'maxImagePixels',
    width * height,
    (max) =>
      `The image is ${width} x ${height} = ${width * height} pixels; at most ${max} are read`,
  );
}

/**
 * The bytes on an ArrayBuffer of their own. image-size reads through a DataView of the whole
 * underlying buffer, so on a view into a larger one (Node's pooled buffers) a header cut short
 * would be completed with whatever follows it in memory instead of failing.
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole ? bytes : new Uint8Array(bytes);
}
