import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { EvalDocument } from '../support/classify-eval.js';
import { predictAll, score, wordOverlapBaseline } from '../support/classify-eval-metrics.js';
import { readManifest, repositoryRoot } from '../support/classify-eval-real.js';

const root = repositoryRoot();
const manifest = readManifest(root);
const criteria = JSON.parse(
  fs.readFileSync(path.join(root, 'bench', 'classify-eval', 'criteria.json'), 'utf8'),
) as { category: string; criteria: string[] }[];

describe('real-document evaluation set: manifest', () => {
  it('holds at least 240 documents, 30 per category, 40 % not in English', () => {
    expect(manifest.length).toBeGreaterThanOrEqual(240);
    const perCategory = new Map<string, number>();
    for (const entry of manifest) {
      perCategory.set(entry.category, (perCategory.get(entry.category) ?? 0) + 1);
    }
    expect([...perCategory.keys()].sort()).toEqual(criteria.map((c) => c.category).sort());
    for (const count of perCategory.values()) expect(count).toBeGreaterThanOrEqual(30);
    const notEnglish = manifest.filter((entry) => entry.language !== 'en').length;
    expect(notEnglish / manifest.length).toBeGreaterThanOrEqual(0.4);
  });

  it('records for every document its source, licence, language, hash and split', () => {
    const problems: string[] = [];
    const ids = new Set<string>();
    const check = (ok: boolean, what: string, id: string) => {
      if (!ok) problems.push(`${id}: ${what}`);
    };
    for (const entry of manifest) {
      check(!ids.has(entry.id), 'duplicate id', entry.id);
      ids.add(entry.id);
      check(/^[\w.-]+\/[\w.-]+$/.test(entry.source.repo), 'repository', entry.id);
      check(/^[0-9a-f]{40}$/.test(entry.source.commit), 'commit', entry.id);
      check(entry.source.path.length > 0, 'path', entry.id);
      check(entry.licence.length > 0, 'licence', entry.id);
      check(/^[a-z]{2}$/.test(entry.language), 'language', entry.id);
      check(/^[0-9a-f]{64}$/.test(entry.sha256), 'sha256', entry.id);
      check(entry.split === 'dev' || entry.split === 'holdout', 'split', entry.id);
    }
    expect(problems).toEqual([]);
  });

  it('splits every category into a dev part and a holdout part of about 40 %', () => {
    for (const { category } of criteria) {
      const entries = manifest.filter((entry) => entry.category === category);
      const holdout = entries.filter((entry) => entry.split === 'holdout').length;
      expect(holdout / entries.length).toBeGreaterThanOrEqual(0.3);
      expect(holdout / entries.length).toBeLessThanOrEqual(0.5);
    }
  });
});

describe('real-document evaluation set: scoring', () => {
  const schema = [
    { category: 'invoice', criteria: ['invoice number and amount due'] },
    { category: 'receipt', criteria: ['store receipt with change given'] },
  ];
  const doc = (category: string, text: string, language = 'en'): EvalDocument => ({
    file: `${category}-${text.length}`,
    category,
    language,
    split: 'dev',
    pages: [text],
  });
  const documents = [
    doc('invoice', 'Invoice number 12, amount due 40 EUR'),
    doc('receipt', 'Store receipt, change given 2 EUR'),
    doc('receipt', 'Kassenbon Rückgeld 2 EUR', 'de'),
  ];

  it('scores accuracy, per-language tallies, confusion and macro-F1', () => {
    const predictions = predictAll(documents, wordOverlapBaseline(schema));
    const scores = score(predictions, ['invoice', 'receipt']);
    // The German receipt shares no word with the English criteria: the tie goes to invoice.
    expect(predictions.map((p) => p.got)).toEqual(['invoice', 'receipt', 'invoice']);
    expect(scores.correct).toBe(2);
    expect(scores.perLanguage).toEqual({
      en: { correct: 2, total: 2 },
      de: { correct: 0, total: 1 },
    });
    expect(scores.confusion.receipt).toEqual({ receipt: 1, invoice: 1 });
    // F1 invoice = 2*1/(2+1), F1 receipt = 2*1/(1+2)
    expect(scores.macroF1).toBeCloseTo(2 / 3, 5);
  });

  it('counts a predictor that throws as an error, not a crash of the run', () => {
    const predictions = predictAll(documents, () => {
      throw new TypeError('boom');
    });
    const scores = score(predictions, ['invoice', 'receipt']);
    expect(scores.errors).toBe(3);
    expect(scores.correct).toBe(0);
    expect(scores.confusion.invoice).toEqual({ none: 1 });
  });
});
