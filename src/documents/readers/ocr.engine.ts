import { detectPage, terminateOrientation, type UprightPage } from './page-orientation.js';
import {
  anyOcrLanguageAllowed,
  modelOfReading,
  modelsOfScript,
  ocrLanguageAllowed,
  type OcrLanguageModel,
} from './ocr-languages.js';
import { ocrWorker, terminateOcrWorkers } from './ocr-workers.js';

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

function recognize(image: Uint8Array, thresholding: Thresholding, model: OcrLanguageModel) {
  const reading = lastReading.then(async () => {
    const w = await ocrWorker(model);
    await w.setParameters({ thresholding_method: thresholding });
    // Words with their confidences and boxes: readings are compared by them.
    const recognition = await w.recognize(
      Buffer.from(image.buffer, image.byteOffset, image.byteLength),
      {},
      { text: true, blocks: true },
    );
    return { ...recognition, thresholding };
  });
  lastReading = reading.catch(() => undefined);
  return reading;
}

type Recognition = Awaited<ReturnType<typeof recognize>>;

/**
 * A word read confidently: 2+ letters or digits, or one letter of a script written without
 * spaces (Chinese and Japanese read a character as a word), so readings in any script compare.
 */
const READ_WORD = /[\p{L}\p{N}]{2}|[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;

function confidentWordsOf({ data }: Recognition): number {
  const words = (data.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) => paragraph.lines.flatMap((line) => line.words)),
  );
  return words.filter((word) => word.confidence >= CONFIDENT_WORD && READ_WORD.test(word.text))
    .length;
}

/** The reading of `effort` in English: `thorough` keeps whichever thresholding read more words. */
async function bestRecognition(image: Uint8Array, effort: OcrEffort): Promise<Recognition> {
  const otsu = await recognize(image, '0', 'eng');
  if (effort === 'fast') return otsu;
  const sauvola = await recognize(image, '2', 'eng');
  return confidentWordsOf(sauvola) > confidentWordsOf(otsu) ? sauvola : otsu;
}

/**
 * `image` read in English (bestRecognition), then in the page's own language when that is
 * another bundled one OCR_LANGUAGES allows, the reading with more confidently read words
 * kept. A page read poorly has its orientation and script detected (one detection, only for
 * such pages): turned, it is read upright if that reads more confidently (with the upright
 * page, the frame of its boxes). A page whose English reading is not English has its script
 * detected too (Greek capitals read well as Latin letters, in no language). A page is read
 * again in the models of a script other than Latin it is written in (modelsOfScript) and in
 * the language eld finds in the English reading, the reading with most confident words
 * kept. These readings take the thresholding the English reading kept.
 */
async function readPage(
  image: Uint8Array,
  effort: OcrEffort,
): Promise<{ reading: Recognition; upright?: UprightPage }> {
  let reading = await bestRecognition(image, effort);
  let page = image;
  let upright: UprightPage | undefined;
  let script: string | undefined;
  const readSomething = /[\p{L}\p{N}]/u.test(reading.data.text);
  if (readSomething && reading.data.confidence < TURNED_PAGE_CONFIDENCE) {
    const detected = await detectPage(image);
    script = detected.script;
    if (detected.upright) {
      const uprightReading = await bestRecognition(detected.upright.image, effort);
      if (uprightReading.data.confidence > reading.data.confidence) {
        reading = uprightReading;
        upright = detected.upright;
        page = upright.image;
      }
    }
  }
  if (!anyOcrLanguageAllowed()) return { reading, upright };
  const language = modelOfReading(reading.data.text);
  // A page not read as English may be in a script English letters stand in for (Greek or
  // Cyrillic capitals read as "EAAHNIKH"): its script is detected too, if not yet.
  if (readSomething && script === undefined && language !== 'eng') {
    script = (await detectPage(page)).script;
  }
  // The script's models and the language's: a detection of a non-Latin script on a page eld
  // reads as a Latin-script language may be wrong, and the most confident reading is kept.
  const candidates = [
    ...(script && script !== 'Latin' ? modelsOfScript(script) : []),
    ...(language ? [language] : []),
  ];
  const models = [...new Set(candidates)].filter(
    (model) => model !== 'eng' && ocrLanguageAllowed(model),
  );
  for (const model of models) {
    let inLanguage: Recognition;
    try {
      inLanguage = await recognize(page, reading.thresholding, model);
    } catch (error) {
      // The second reading only improves on the first: a language worker that cannot start
      // (its package gone, no writable temporary directory for its models) leaves the page
      // read in English, as before the languages were bundled, and says why.
      process.emitWarning(
        `OCR: page kept in its English reading, the ${model} reading failed: ${String(error)}`,
      );
      continue;
    }
    if (confidentWordsOf(inLanguage) > confidentWordsOf(reading)) reading = inLanguage;
  }
  return { reading, upright };
}

/**
 * Text of an encoded image (the PGM of image.decoder.ts, a rendered PDF page as PNG), read
 * in the page's language (readPage). Calls are queued: one reading at a time.
 */
export async function recognizeImage(
  image: Uint8Array,
  effort: OcrEffort = 'fast',
): Promise<string> {
  return (await readPage(image, effort)).reading.data.text;
}

/** Stops the OCR worker threads (tests, shutdown). The next call starts what it needs. */
export async function terminateOcr(): Promise<void> {
  await terminateOrientation();
  await terminateOcrWorkers();
}

/** A recognized line with pixel boxes (x0,y0 top-left; x1,y1 bottom-right). */
export interface OcrLine {
  text: string;
  bbox: { x0: number; y0: number; x1: number; y1: number };
  words: { text: string; bbox: { x0: number; y0: number; x1: number; y1: number } }[];
  confidence: number;
}

/**
 * Lines and words of an image with their boxes, for parse's layout, read as `recognizeImage`
 * reads (readPage); `size` is the upright image's when the page was found turned, the frame
 * its boxes are in.
 */
export async function recognizeLayout(
  image: Uint8Array,
  effort: OcrEffort = 'fast',
): Promise<{ text: string; lines: OcrLine[]; size?: { width: number; height: number } }> {
  const { reading: result, upright } = await readPage(image, effort);
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
