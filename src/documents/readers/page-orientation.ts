import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { createWorker, OEM, type Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);

/**
 * Tesseract's orientation and script data, bundled by `@tesseract.js-data/osd` (same terms
 * and layout as the English data): read from disk, never fetched.
 */
function bundledOsdPath(): string {
  const pkg = path.dirname(require.resolve('@tesseract.js-data/osd/package.json'));
  return path.join(pkg, '4.0.0');
}

/**
 * Below this Tesseract orientation confidence a detected quarter turn is not trusted: a
 * page of few glyphs or none gives a guess, and turning an upright page would lose it.
 */
const MIN_ORIENTATION_CONFIDENCE = 2;

/** Below this script confidence the detected script is a guess and the page is read in English. */
const MIN_SCRIPT_CONFIDENCE = 2;

let worker: Promise<Worker> | undefined;

async function startWorker(): Promise<Worker> {
  const langPath = bundledOsdPath();
  if (!fs.existsSync(path.join(langPath, 'osd.traineddata.gz'))) {
    throw new Error(`Bundled orientation data missing at ${langPath}`);
  }
  // Orientation detection exists only in Tesseract's legacy engine, hence its own worker.
  return createWorker('osd', OEM.TESSERACT_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    cachePath: langPath,
    legacyCore: true,
    legacyLang: true,
    errorHandler: () => undefined,
  });
}

/** The orientation worker, started only when a page first needs it. */
function orientationWorker(): Promise<Worker> {
  if (!worker) {
    worker = startWorker();
    worker.catch(() => (worker = undefined));
  }
  return worker;
}

/** Decoded grey pixels of a binary PGM (image.decoder.ts), which sharp does not read. */
function pgmPixels(image: Buffer): { data: Buffer; width: number; height: number } | undefined {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(image.subarray(0, 64).toString('latin1'));
  if (!header) return undefined;
  const [whole, width, height] = header;
  return { data: image.subarray(whole.length), width: Number(width), height: Number(height) };
}

/** A page turned upright: a PGM (what Tesseract reads fastest) and its size in pixels. */
export interface UprightPage {
  image: Buffer;
  width: number;
  height: number;
}

/** `image` turned clockwise by `degrees`. */
async function turned(image: Buffer, degrees: number): Promise<UprightPage> {
  const pgm = pgmPixels(image);
  const input = pgm
    ? sharp(pgm.data, { raw: { width: pgm.width, height: pgm.height, channels: 1 } })
    : sharp(image);
  const { data, info } = await input
    .rotate(degrees)
    .greyscale()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const header = Buffer.from(`P5\n${info.width} ${info.height}\n255\n`, 'ascii');
  return { image: Buffer.concat([header, data]), width: info.width, height: info.height };
}

/**
 * What Tesseract's orientation and script detection finds on a page: the page turned upright
 * when it lies on its side or upside down (a scan fed in turned), undefined when upright or
 * undecided; and the script it is written in (Tesseract's name: "Latin", "Han", "Arabic",
 * ...) when the detection is sure of it.
 */
export async function detectPage(
  image: Uint8Array,
): Promise<{ upright?: UprightPage; script?: string }> {
  const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  const { data } = await (await orientationWorker()).detect(bytes);
  const script =
    data.script && (data.script_confidence ?? 0) >= MIN_SCRIPT_CONFIDENCE ? data.script : undefined;
  const degrees = data.orientation_degrees;
  if (!degrees || (data.orientation_confidence ?? 0) < MIN_ORIENTATION_CONFIDENCE) {
    return script ? { script } : {};
  }
  return { upright: await turned(bytes, degrees), ...(script ? { script } : {}) };
}

/** Stops the orientation worker (tests, shutdown). */
export async function terminateOrientation(): Promise<void> {
  const current = worker;
  worker = undefined;
  if (current) await (await current).terminate();
}
