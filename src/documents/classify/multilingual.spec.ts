import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  MULTILINGUAL_DOCUMENTS,
  type MultilingualDocument,
} from '../../../test/support/multilingual-documents.js';
import { evaluate, loadEvalSet, type EvalSet } from '../../../test/support/classify-eval.js';
import { classify, warmUpClassifier } from './classify.js';
import type { ClassificationCategory } from './classify.types.js';
import { detectLanguage, LANGUAGES } from './language.js';

let set: EvalSet;

beforeAll(async () => {
  set = await loadEvalSet();
  warmUpClassifier();
});

const byLanguage = (language: string): MultilingualDocument[] =>
  MULTILINGUAL_DOCUMENTS.filter((document) => document.language === language);

describe('documents in any of the eight languages, English criteria', () => {
  it('has an invoice, a receipt and a bank statement in every language', () => {
    for (const language of LANGUAGES) {
      const categories = byLanguage(language).map((document) => document.category);
      if (language !== 'en') {
        expect(categories).toEqual(
          expect.arrayContaining(['invoice', 'receipt', 'bank_statement']),
        );
      }
      expect(categories.length).toBeGreaterThanOrEqual(4);
    }
  });

  it('detects the language of each document', () => {
    for (const document of MULTILINGUAL_DOCUMENTS) {
      expect(`${document.category}: ${detectLanguage(document.text)}`).toBe(
        `${document.category}: ${document.language}`,
      );
    }
  });

  it.each(LANGUAGES.map((language) => [language]))(
    'classifies every %s document with both models',
    (language) => {
      for (const document of byLanguage(language)) {
        for (const model of ['default', 'accurate'] as const) {
          const output = classify({
            pages: document.text.split('\f'),
            classificationSchema: set.schema,
            model,
          });
          expect(`${model} ${document.category} -> ${output.result.category}`).toBe(
            `${model} ${document.category} -> ${document.category}`,
          );
          // No other category is more confident than the one chosen.
          const confidences = output.response_confidence.categories.map((c) => c.confidence);
          const chosen = output.response_confidence.categories.find(
            (category) => category.category === document.category,
          );
          expect(chosen?.confidence).toBe(Math.max(...confidences));
        }
      }
    },
  );

  it('matches criteria written in the document language', () => {
    const german: ClassificationCategory[] = [
      {
        category: 'Rechnung',
        criteria: ['Rechnungsnummer und Rechnungsdatum', 'Positionen mit Menge und Einzelpreis'],
      },
      { category: 'Kassenbon', criteria: ['Summe und Rückgeld', 'Vielen Dank für Ihren Einkauf'] },
      {
        category: 'Kontoauszug',
        criteria: ['Kontonummer und Zeitraum', 'alter und neuer Kontostand'],
      },
    ];
    const expected: Record<string, string> = {
      invoice: 'Rechnung',
      receipt: 'Kassenbon',
      bank_statement: 'Kontoauszug',
    };
    for (const document of byLanguage('de').filter((d) => expected[d.category])) {
      for (const model of ['default', 'accurate'] as const) {
        const output = classify({ pages: [document.text], classificationSchema: german, model });
        expect(output.result.category).toBe(expected[document.category]);
      }
    }
  });

  it('keeps the English evaluation set where it was', () => {
    expect(evaluate(set, 'default').correct).toBeGreaterThanOrEqual(59);
    expect(evaluate(set, 'accurate').correct).toBeGreaterThanOrEqual(69);
  });
});
