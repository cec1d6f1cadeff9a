import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { eld } from 'eld/small';

const require = createRequire(import.meta.url);

/**
 * Tesseract models of the languages a page may be read in besides English, each bundled by
 * its `@tesseract.js-data/<code>` package (MIT, like the English data). Chosen for the
 * languages the sentence encoder reads and the evaluation sets hold (Latin script: German,
 * French, Spanish, Portuguese, Italian, Dutch; Chinese, Japanese, Arabic) and three small
 * ones extract reads (Greek, Hebrew, Hindi). Russian has no package.
 */
export const OCR_LANGUAGE_MODELS = [
  'deu',
  'fra',
  'spa',
  'por',
  'ita',
  'nld',
  'chi_sim',
  'jpn',
  'ara',
  'ell',
  'heb',
  'hin',
] as const;
export type OcrLanguageModel = (typeof OCR_LANGUAGE_MODELS)[number] | 'eng';

/** The model of a language eld names (ISO 639-1), for the Latin-script languages bundled. */
const MODEL_OF_LANGUAGE: Record<string, OcrLanguageModel> = {
  en: 'eng',
  de: 'deu',
  fr: 'fra',
  es: 'spa',
  pt: 'por',
  it: 'ita',
  nl: 'nld',
};

/**
 * The model of a script Tesseract's orientation detection names. Han is read as simplified
 * Chinese (Japanese pages are named Japanese, Hiragana or Katakana); Latin is decided by the
 * language of the words read (`modelOfReading`).
 */
const MODEL_OF_SCRIPT: Record<string, OcrLanguageModel> = {
  Han: 'chi_sim',
  Japanese: 'jpn',
  Hiragana: 'jpn',
  Katakana: 'jpn',
  Arabic: 'ara',
  Greek: 'ell',
  Hebrew: 'heb',
  Devanagari: 'hin',
};

export function modelOfScript(script: string | undefined): OcrLanguageModel | undefined {
  return script ? MODEL_OF_SCRIPT[script] : undefined;
}

/** Below this many letters a reading says too little for its language to be trusted. */
const MIN_LETTERS = 40;

/**
 * An eld instance of OCR's own: classification narrows the shared one to the languages it
 * stems, so a page's reading would otherwise be judged among other languages depending on
 * whether the process had classified before. This one weighs every language eld knows.
 */
let detector: typeof eld | undefined;

/**
 * The model of the language `text` (a first reading in English) is written in, when the
 * detection is reliable and that language's model is bundled; 'eng' for English.
 */
export function modelOfReading(text: string): OcrLanguageModel | undefined {
  if ((text.match(/\p{L}/gu) ?? []).length < MIN_LETTERS) return undefined;
  detector ??= eld.newInstance();
  const detected = detector.detect(text);
  return detected.isReliable() ? MODEL_OF_LANGUAGE[detected.language] : undefined;
}

/** A bundled OCR model's data file missing (a package not installed): never fetched. */
export class OcrLanguageMissingError extends Error {
  constructor(
    readonly model: OcrLanguageModel,
    file: string,
  ) {
    super(
      `OCR data for "${model}" missing at ${file}: install @tesseract.js-data/${model} ` +
        '(npm ci); it is never downloaded at run time',
    );
    this.name = 'OcrLanguageMissingError';
  }
}

/**
 * The gzipped best_int data file of `model`, read from its package in node_modules (an
 * absolute local path, so tesseract.js reads it from disk and never fetches). Refuses with
 * OcrLanguageMissingError when the package or its file is missing. `resolve` is the package
 * lookup, replaceable to test the refusal.
 */
export function bundledModelFile(
  model: OcrLanguageModel,
  resolve: (id: string) => string = require.resolve,
): string {
  let file = path.join(`@tesseract.js-data/${model}`, '4.0.0_best_int', `${model}.traineddata.gz`);
  try {
    const pkg = path.dirname(resolve(`@tesseract.js-data/${model}/package.json`));
    file = path.join(pkg, '4.0.0_best_int', `${model}.traineddata.gz`);
  } catch {
    throw new OcrLanguageMissingError(model, file);
  }
  if (!fs.existsSync(file)) throw new OcrLanguageMissingError(model, file);
  return file;
}
