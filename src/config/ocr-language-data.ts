import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Tesseract models of the languages a page may be read in again besides English, each
 * bundled by its `@tesseract.js-data/<code>` package (MIT, like the English data). Chosen for
 * the languages the sentence encoder reads and the evaluation sets hold (Latin script:
 * German, French, Spanish, Portuguese, Italian, Dutch; Chinese, Japanese, Arabic) and three
 * small ones extract reads (Greek, Hebrew, Hindi). Russian has no package. `OCR_LANGUAGES`
 * narrows them (docs/decisions/0524-ocr-in-the-language-of-the-page.md).
 */
export const OCR_LANGUAGE_CODES = [
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
export type OcrLanguageCode = (typeof OCR_LANGUAGE_CODES)[number];

/** Where the gzipped best_int data of `code` sits inside its package. */
export function ocrDataPathIn(packageDir: string, code: string): string {
  return path.join(packageDir, '4.0.0_best_int', `${code}.traineddata.gz`);
}

/**
 * The data file of `code` from its package in node_modules, or undefined when the package or
 * its file is missing. `resolve` is the package lookup, replaceable to test a missing one.
 */
export function installedOcrDataFile(
  code: string,
  resolve: (id: string) => string = require.resolve,
): string | undefined {
  let file: string;
  try {
    file = ocrDataPathIn(path.dirname(resolve(`@tesseract.js-data/${code}/package.json`)), code);
  } catch {
    return undefined;
  }
  return fs.existsSync(file) ? file : undefined;
}

/**
 * Why `codes` cannot be OCR_LANGUAGES (a code not among the bundled ones, or whose package is
 * not installed), naming the code and the installed ones; undefined when all can be read.
 */
export function ocrLanguagesProblem(
  codes: readonly string[],
  resolve?: (id: string) => string,
): string | undefined {
  const unreadable = codes.find(
    (code) =>
      !(OCR_LANGUAGE_CODES as readonly string[]).includes(code) ||
      !installedOcrDataFile(code, resolve),
  );
  if (unreadable === undefined) return undefined;
  const installed = OCR_LANGUAGE_CODES.filter((code) => installedOcrDataFile(code, resolve));
  const why =
    unreadable === 'eng'
      ? 'needs no code (every page is read in English first)'
      : (OCR_LANGUAGE_CODES as readonly string[]).includes(unreadable)
        ? 'is not installed'
        : 'is not a language OCR can read a page again in';
  return `"${unreadable}" ${why}; installed: ${installed.join(',') || 'none'}`;
}
