import { eld } from 'eld/small';
import {
  installedOcrDataFile,
  OCR_LANGUAGE_CODES,
  type OcrLanguageCode,
  ocrDataPathIn,
} from '../../config/ocr-language-data.js';

/** English, or a bundled model a page may be read in besides it (config/ocr-language-data.ts). */
export type OcrLanguageModel = OcrLanguageCode | 'eng';

/*
 * The languages OCR_LANGUAGES lets this process read a page again in. Plain data like the
 * document limits, so it travels with each task into the executor processes.
 */
let allowed: ReadonlySet<OcrLanguageModel> = new Set(OCR_LANGUAGE_CODES);

/** Sets the languages this process's OCR may read again in (undefined: every bundled one). */
export function setOcrLanguages(codes: readonly OcrLanguageCode[] | undefined): void {
  allowed = new Set(codes ?? OCR_LANGUAGE_CODES);
}

/** Whether a page may be read again in `model` (English is always read). */
export function ocrLanguageAllowed(model: OcrLanguageModel): boolean {
  return model === 'eng' || allowed.has(model);
}

/** Whether OCR_LANGUAGES leaves any language besides English. */
export function anyOcrLanguageAllowed(): boolean {
  return allowed.size > 0;
}

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

/**
 * Scripts other than Latin written in capitals and small letters, whose capitals share their
 * shapes with each other's and Latin's (Α Β Ε Η Ι Κ Μ Ν Ο Ρ Τ Χ, А В Е Н К М О Р С Т Х):
 * Tesseract's script detection names a page of Greek capitals Cyrillic.
 */
const CASED_SCRIPTS = ['Greek', 'Cyrillic', 'Armenian', 'Georgian'];

/**
 * The models a page of `script` is read again in, the most confident reading kept: its own
 * model; for a cased script, the bundled model of every cased script, since the detection
 * tells them apart poorly.
 */
export function modelsOfScript(script: string | undefined): OcrLanguageModel[] {
  if (!script || !CASED_SCRIPTS.includes(script)) {
    const model = modelOfScript(script);
    return model ? [model] : [];
  }
  const models = CASED_SCRIPTS.map((cased) => MODEL_OF_SCRIPT[cased]);
  return [...new Set(models.filter((model) => model !== undefined))];
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
  resolve?: (id: string) => string,
): string {
  const file = installedOcrDataFile(model, resolve);
  if (!file)
    throw new OcrLanguageMissingError(model, ocrDataPathIn(`@tesseract.js-data/${model}`, model));
  return file;
}
