import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { terminateOrientation, uprightTurn, type UprightPage } from './page-orientation.js';

const require = createRequire(import.meta.url);

/**
 * English LSTM data bundled by `@tesseract.js-data/eng`. An absolute local directory makes
 * tesseract.js read the file from disk; it only fetches when langPath is a URL or unset.
 */
export function bundledLangPath(): string {
  const pkg = path.dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  return path.join(pkg, '4.0.0_best_int');
}

let worker: Promise<Worker> | undefined;

async function startWorker(): Promise<Worker> {
  const langPath = bundledLangPath();
  if (!fs.existsSync(path.join(langPath, 'eng.traineddata.gz'))) {
    // Refuse instead of letting tesseract.js fall back to a download.
    throw new Error(`Bundled OCR data missing at ${langPath}`);
  }
  return createWorker('eng', OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    // 'none' neither reads nor writes a cache copy in the working directory.
    cacheMethod: 'none',
    cachePath: langPath,
    // Without a handler tesseract.js also throws a failed job's error from its message
    // listener, an uncaught exception that would take the process down; the job's promise
    // is rejected either way, and that is where callers handle it.
    errorHandler: () => undefined,
  });
}

/** The process-wide OCR worker, started on first use (a worker thread of its own). */
function ocrWorker(): Promise<Worker> {
  if (!worker) {
    worker = startWorker();
    worker.catch(() => (worker = undefined));
  }
  return worker;
}

/**
 * How hard to read an image. `fast` reads it once with Tesseract's global (Otsu) threshold.
 * `thorough` also reads it with local (Sauvola) thresholding, which separates text from
 * uneven light and a textured background (a phone photo of a till receipt on a table, a
 * shadow across a page), and keeps whichever reading has more confidently read words. Both
 * readings are always made: a reading that lost half the page still reports a high mean
 * confidence over the words it did find, so confidence cannot tell when to retry.
 */
export type OcrEffort = 'fast' | 'thorough';

/** A word counts as read when Tesseract is at least this confident and it has 2+ alphanumerics. */
const CONFIDENT_WORD = 70;

/** Tesseract's `thresholding_method`: 0 global Otsu (its default), 2 tiled Sauvola. */
type Thresholding = '0' | '2';

/**
 * Below this mean word confidence a reading may be of a page turned on its side or upside
 * down, whose "words" are glyphs read across: only then is the page's orientation detected,
 * so a page that reads well pays nothing for it. Upright generated and scanned pages read at
 * 85-95, the same pages turned a quarter or half turn at 30-46.
 */
const TURNED_PAGE_CONFIDENCE = 60;

/**
 * Recognition with a threshold. Reading parameters are worker state, so each reading sets
 * its own and recognizes with no other reading in between.
 */
let lastReading: Promise<unknown> = Promise.resolve();

function recognize(image: Uint8Array, thresholding: Thresholding, blocks: boolean) {
  const reading = lastReading.then(async () => {
    const w = await ocrWorker();
    await w.setParameters({ thresholding_method: thresholding });
    // Words with their confidences and boxes (`blocks`) only where a caller reads them.
    return w.recognize(
      Buffer.from(image.buffer, image.byteOffset, image.byteLength),
      {},
      { text: true, blocks },
    );
  });
  lastReading = reading.catch(() => undefined);
  return reading;
}

type Recognition = Awaited<ReturnType<typeof recognize>>;

function confidentWordsOf({ data }: Recognition): number {
  const words = (data.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) => paragraph.lines.flatMap((line) => line.words)),
  );
  return words.filter(
    (word) => word.confidence >= CONFIDENT_WORD && /[\p{L}\p{N}]{2}/u.test(word.text),
  ).length;
}

/** The reading of `effort`: `thorough` keeps whichever thresholding read more words. */
async function bestRecognition(image: Uint8Array, effort: OcrEffort): Promise<Recognition> {
  const otsu = await recognize(image, '0', true);
  if (effort === 'fast') return otsu;
  const sauvola = await recognize(image, '2', true);
  return confidentWordsOf(sauvola) > confidentWordsOf(otsu) ? sauvola : otsu;
}

/**
 * `image` read by `readPage`, or, when it reads poorly and orientation detection finds it
 * turned, the upright page read by `readPage` if that reads more confidently (with the
 * upright page, the frame of its boxes): at most one detection and one more reading, and
 * only for such pages.
 */
async function readUpright<R extends { data: { text: string; confidence: number } }>(
  image: Uint8Array,
  readPage: (image: Uint8Array) => Promise<R>,
): Promise<{ reading: R; upright?: UprightPage }> {
  const reading = await readPage(image);
  const readSomething = /[\p{L}\p{N}]/u.test(reading.data.text);
  if (!readSomething || reading.data.confidence >= TURNED_PAGE_CONFIDENCE) return { reading };
  const upright = await uprightTurn(image);
  if (!upright) return { reading };
  const uprightReading = await readPage(upright.image);
  return uprightReading.data.confidence > reading.data.confidence
    ? { reading: uprightReading, upright }
    : { reading };
}

/**
 * Text of an encoded image (the PGM of image.decoder.ts, a rendered PDF page as PNG). Calls
 * are queued on one worker. A page read poorly and found turned is read upright
 * (readUpright).
 */
export async function recognizeImage(
  image: Uint8Array,
  effort: OcrEffort = 'fast',
): Promise<string> {
  // Words and their boxes are read only where `thorough` compares the thresholdings by them.
  const readPage = (page: Uint8Array) =>
    effort === 'fast' ? recognize(page, '0', false) : bestRecognition(page, effort);
  return (await readUpright(image, readPage)).reading.data.text;
}

/** Stops the OCR worker thread (tests, shutdown). The next call starts a new one. */
export async function terminateOcr(): Promise<void> {
  const current = worker;
  worker = undefined;
  await terminateOrientation();
  if (current) await (await current).terminate();
}

/** A recognized line with pixel boxes (x0,y0 top-left; x1,y1 bottom-right). */
export interface OcrLine {
  text: string;
  bbox: { x0: number; y0: number; x1: number; y1: number };
  words: { text: string; bbox: { x0: number; y0: number; x1: number; y1: number } }[];
  confidence: number;
}

/**
 * Lines and words of an image with their boxes, for parse's layout: one reading (`fast`), or
 * the better of two thresholdings (`thorough`, as `recognizeImage`). A page read poorly and
 * found turned is read upright (readUpright); `size` is then the upright image's, the frame
 * its boxes are in.
 */
export async function recognizeLayout(
  image: Uint8Array,
  effort: OcrEffort = 'fast',
): Promise<{ text: string; lines: OcrLine[]; size?: { width: number; height: number } }> {
  const { reading: result, upright } = await readUpright(image, (page) =>
    bestRecognition(page, effort),
  );
  const lines: OcrLine[] = [];
  for (const block of result.data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words
          .filter((word) => word.text.trim() !== '')
          .map((word) => ({ text: word.text, bbox: word.bbox }));
        if (words.length === 0) continue;
        lines.push({
          text: words.map((word) => word.text).join(' '),
          bbox: line.bbox,
          words,
          confidence: line.confidence,
        });
      }
    }
  }
  const size = upright && { width: upright.width, height: upright.height };
  return { text: result.data.text, lines, ...(size ? { size } : {}) };
}
