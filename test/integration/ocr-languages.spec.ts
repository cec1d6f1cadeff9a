import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { loadConfig } from '../../src/config/app-config.js';
import { ConfigError } from '../../src/config/config-error.js';
import { OCR_LANGUAGE_CODES, ocrLanguagesProblem } from '../../src/config/ocr-language-data.js';
import type { ParseOutcome } from '../../src/documents/parse/parse.runner.js';
import { poolOptionsFrom } from '../../src/documents/executors/task.pool.js';
import { loadDocument } from '../../src/documents/readers/document.loader.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { eld } from 'eld/small';
import {
  bundledModelFile,
  modelOfReading,
  modelOfScript,
  modelsOfScript,
  OcrLanguageMissingError,
} from '../../src/documents/readers/ocr-languages.js';
import { makePng } from '../support/documents.js';
import { DEFAULT_LAYOUT, executorPool } from '../support/operation-executors.js';

// OCR runs tesseract.js (WASM) with the bundled language data: slow, so few cases and
// generous time-outs.
const OCR_TIMEOUT = 120_000;

/** Words of a reading in any Latin-script language, lower-cased. */
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

afterAll(async () => {
  await terminateOcr();
});

const GERMAN_PAGE =
  'Kassenbon Bäckerei Müller\n' +
  'Rückgeld und Wechselgeld werden gezählt\n' +
  'Vielen Dank für Ihren Einkauf, schöne Grüße aus Straßburg\n' +
  'Die Öffnungszeiten ändern sich nächste Woche';

describe('OCR in the language of the page', () => {
  it(
    'reads a German page with its umlauts and ß',
    async () => {
      const doc = await loadDocument(makePng(GERMAN_PAGE));
      expect(doc.pages[0].source).toBe('ocr');
      expect(words(doc.pages[0].text)).toEqual(
        expect.arrayContaining([
          'bäckerei',
          'müller',
          'rückgeld',
          'gezählt',
          'für',
          'schöne',
          'grüße',
          'straßburg',
          'öffnungszeiten',
          'ändern',
          'nächste',
        ]),
      );
    },
    OCR_TIMEOUT,
  );

  it(
    'keeps the English reading, with a warning, when the language worker cannot start',
    async () => {
      await terminateOcr();
      // The language worker links its models into a temporary directory: none can be made
      // (a read-only file system).
      const noTemporaryDirectory = jest.spyOn(fs, 'mkdtempSync').mockImplementation(() => {
        throw Object.assign(new Error('EROFS: read-only file system, mkdtemp'), { code: 'EROFS' });
      });
      const warned = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        // Another page than the first case's, which may be read from a cache.
        const doc = await loadDocument(makePng(`Quittung\n${GERMAN_PAGE}`));
        expect(words(doc.pages[0].text)).toEqual(
          expect.arrayContaining(['quittung', 'kassenbon', 'wechselgeld', 'vielen', 'dank']),
        );
        expect(words(doc.pages[0].text)).not.toContain('straßburg');
        expect(warned).toHaveBeenCalledWith(
          expect.stringMatching(/^OCR: page kept in its English reading, the deu reading failed/),
        );
      } finally {
        warned.mockRestore();
        noTemporaryDirectory.mockRestore();
        await terminateOcr();
      }
    },
    OCR_TIMEOUT,
  );

  it(
    "reads a page in Greek script in the script's model",
    async () => {
      const doc = await loadDocument(
        makePng(
          'Πανεπιστήμιο Αθηνών\nΠτυχίο Μηχανικού Ηλεκτρονικών Υπολογιστών\n' +
            'Η Γραμματεία της Σχολής βεβαιώνει ότι ο φοιτητής ολοκλήρωσε τις σπουδές του',
        ),
      );
      expect(words(doc.pages[0].text)).toEqual(
        expect.arrayContaining([
          'αθηνών',
          'πτυχίο',
          'μηχανικού',
          'ηλεκτρονικών',
          'υπολογιστών',
          'γραμματεία',
          'σχολής',
          'βεβαιώνει',
          'φοιτητής',
          'ολοκλήρωσε',
          'σπουδές',
        ]),
      );
    },
    OCR_TIMEOUT,
  );

  it(
    'reads a page of Greek capitals, which read well as Latin letters, in Greek',
    async () => {
      const doc = await loadDocument(
        makePng(
          'ΕΛΛΗΝΙΚΗ ΔΗΜΟΚΡΑΤΙΑ\nΑΡΙΘΜΟΣ ΜΗΤΡΩΟΥ 4470\nΠΑΝΕΠΙΣΤΗΜΙΟ ΑΘΗΝΩΝ\n' +
            'ΠΤΥΧΙΟ ΜΗΧΑΝΙΚΟΥ ΗΛΕΚΤΡΟΝΙΚΩΝ ΥΠΟΛΟΓΙΣΤΩΝ',
        ),
      );
      // Read in English: "EAAHNIKH AHMOKPATIA", "MANEMNIZTHMIO AGHNQN".
      expect(words(doc.pages[0].text)).toEqual(
        expect.arrayContaining([
          'ελληνικη',
          'δημοκρατια',
          'αριθμος',
          'μητρωου',
          'πανεπιστημιο',
          'αθηνων',
          'πτυχιο',
          'μηχανικου',
        ]),
      );
    },
    OCR_TIMEOUT,
  );

  it(
    'reads an English page as before',
    async () => {
      const doc = await loadDocument(
        makePng('INVOICE 4711\nTotal amount due: 1250.00 USD\nThank you for your business'),
      );
      expect(words(doc.pages[0].text)).toEqual([
        'invoice',
        '4711',
        'total',
        'amount',
        'due',
        '1250',
        '00',
        'usd',
        'thank',
        'you',
        'for',
        'your',
        'business',
      ]);
    },
    OCR_TIMEOUT,
  );
});

describe('bundled OCR language data', () => {
  it('finds every bundled model in node_modules', () => {
    expect(bundledModelFile('deu')).toMatch(
      /@tesseract\.js-data\/deu\/4\.0\.0_best_int\/deu\.traineddata\.gz$/,
    );
  });

  it('refuses a language whose package is missing, naming it, instead of fetching it', () => {
    const missing = () => {
      throw new Error("Cannot find module '@tesseract.js-data/deu/package.json'");
    };
    expect(() => bundledModelFile('deu', missing)).toThrow(OcrLanguageMissingError);
    expect(() => bundledModelFile('deu', missing)).toThrow(
      /OCR data for "deu" missing .*install @tesseract\.js-data\/deu .*never downloaded/,
    );
  });

  it('refuses a language whose package lacks its data file', () => {
    const emptyPackage = () => '/nonexistent/@tesseract.js-data/deu/package.json';
    expect(() => bundledModelFile('deu', emptyPackage)).toThrow(OcrLanguageMissingError);
  });
});

describe('the model a page is read again in', () => {
  const german =
    'Vielen Dank für Ihren Einkauf. Die Rechnung enthält die Mehrwertsteuer und wird ' +
    'innerhalb von vierzehn Tagen ohne Abzug bezahlt.';

  it('is the language of the English reading, whatever the shared detector is narrowed to', () => {
    eld.setLanguageSubset(['en', 'fr']);
    try {
      expect(modelOfReading(german)).toBe('deu');
    } finally {
      eld.setLanguageSubset(false);
    }
  });

  it('is none for a reading too short to tell its language', () => {
    expect(modelOfReading('Summe 12,40')).toBeUndefined();
  });

  it("is the script's model for a script other than Latin", () => {
    expect([modelOfScript('Han'), modelOfScript('Greek'), modelOfScript('Latin')]).toEqual([
      'chi_sim',
      'ell',
      undefined,
    ]);
  });

  it('is every bundled cased script model for a cased script, whose capitals detection confuses', () => {
    expect(modelsOfScript('Cyrillic')).toEqual(['ell']);
    expect(modelsOfScript('Greek')).toEqual(['ell']);
    expect(modelsOfScript('Arabic')).toEqual(['ara']);
    expect(modelsOfScript('Latin')).toEqual([]);
  });
});

describe('OCR_LANGUAGES', () => {
  const ocrLanguages = (value?: string) =>
    loadConfig(value === undefined ? {} : { OCR_LANGUAGES: value }).processing.ocrLanguages;

  it('is every bundled language when unset, English only when empty, as listed otherwise', () => {
    expect(ocrLanguages()).toEqual([...OCR_LANGUAGE_CODES]);
    expect(ocrLanguages('')).toEqual([]);
    expect(ocrLanguages(' deu, FRA ')).toEqual(['deu', 'fra']);
  });

  it('refuses the start for an unknown code, naming it and the installed ones', () => {
    expect(() => ocrLanguages('deu,xyz')).toThrow(ConfigError);
    expect(() => ocrLanguages('deu,xyz')).toThrow(
      /OCR_LANGUAGES: "xyz" is not a language OCR can read a page again in; installed: deu,fra,spa,por,ita,nld,chi_sim,jpn,ara,ell,heb,hin/,
    );
  });

  it('refuses a bundled code whose package is not installed', () => {
    const withoutGerman = (id: string) => {
      if (id.startsWith('@tesseract.js-data/deu/')) throw new Error(`Cannot find module '${id}'`);
      return createRequire(import.meta.url).resolve(id);
    };
    expect(ocrLanguagesProblem(['fra', 'deu'], withoutGerman)).toMatch(
      /^"deu" is not installed; installed: fra,spa,/,
    );
  });

  it(
    'empty: an executor reads a German page in English only',
    async () => {
      const pool = executorPool(
        poolOptionsFrom(
          { ...loadConfig({ OCR_LANGUAGES: '' }).processing, cpuWorkerWarmThreads: 1 },
          1,
        ),
      );
      try {
        const outcome = (await pool.run({
          kind: 'parse',
          documents: [{ bytes: makePng(GERMAN_PAGE), name: 'receipt.png' }],
          request: {},
          versions: { layout: DEFAULT_LAYOUT },
        })) as ParseOutcome;
        const read = words(outcome.result.chunks.map((chunk) => chunk.content).join('\n'));
        // Read, but not in German: the German model reads these words (the first case).
        expect(read).toEqual(expect.arrayContaining(['kassenbon', 'und', 'woche']));
        expect(read).not.toEqual(expect.arrayContaining(['straßburg']));
        expect(read).not.toEqual(expect.arrayContaining(['grüße']));
      } finally {
        await pool.close();
      }
    },
    OCR_TIMEOUT * 2,
  );
});
