import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { classify } from './classify.js';
import type { ClassificationCategory } from './classify.types.js';
import { detectLanguage, LANGUAGES } from './language.js';
import { describeLayout, layoutProfile } from './layout.js';
import { termsOf } from './lexical.js';

const schema: ClassificationCategory[] = [
  { category: 'invoice', criteria: ['invoice number', 'total amount due'] },
  { category: 'resume', criteria: ['work experience', 'skills such as AWS IAM, S3'] },
  { category: 'medical_record', criteria: ['patient name', 'diagnosis'] },
];

/** Tokens that once broke the analyser or are likely to: no lemma, scripts, marks, emoji. */
const awkward = fc.constantFrom(
  'AWS IAM, S3',
  'iam',
  "n't",
  '😀👩🏽‍💻',
  'שלום עולם',
  'مرحبا بالعالم',
  '\u202Eabc\u202C',
  '\u200B\u200D\uFEFF',
  'Ünïcödé ß ﬁ',
  '中文文本',
  '\u0000\u0007',
  '\uD800',
  '1.000,00 €',
  'e.g.',
  '...',
  '',
);

/** Random text: any code points, graphemes, and mixes of the awkward tokens above. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc
    .array(fc.oneof(awkward, fc.string({ unit: 'grapheme-ascii', maxLength: 12 })), {
      maxLength: 40,
    })
    .map((tokens) => tokens.join(' ')),
);

describe('classification never crashes on content', () => {
  it('reads "AWS IAM, S3" as words (tokens without a stem)', () => {
    expect(termsOf('Skills: AWS IAM, S3 and EC2', 'en')).toEqual(
      expect.arrayContaining(['skill', 'iam']),
    );
    for (const model of ['default', 'accurate'] as const) {
      const output = classify({
        pages: ['Work experience: cloud engineer. Skills: AWS IAM, S3.'],
        classificationSchema: schema,
        model,
      });
      expect(output.result.category).toBe('resume');
    }
  });

  it('reads the words and the form of any text in every language', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...LANGUAGES), (value, language) => {
        for (const term of termsOf(value, language)) {
          expect(typeof term).toBe('string');
          expect(term.length).toBeGreaterThan(0);
        }
        for (const sentence of describeLayout(layoutProfile([value]))) {
          expect(sentence.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('classifies any pages, metadata and criteria with both models', () => {
    const category = fc.record({
      category: text.filter((value) => value.trim() !== ''),
      criteria: fc.array(text, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 4 }),
        fc.option(text, { nil: undefined }),
        fc.oneof(fc.constant(schema), fc.array(category, { minLength: 1, maxLength: 3 })),
        fc.constantFrom('default' as const, 'accurate' as const),
        (pages, metadata, categories, model) => {
          const output = classify({
            pages,
            classificationSchema: categories,
            documentMetadata: metadata,
            model,
          });
          expect(categories.map((entry) => entry.category)).toContain(output.result.category);
          for (const entry of output.response_confidence.categories) {
            expect(entry.confidence).toBeGreaterThanOrEqual(0);
            expect(entry.confidence).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('layout traits and language detection stay linear', () => {
  it('reads an 80,000-character page without line breaks quickly (no regex backtracking)', () => {
    const page = Array.from({ length: 4000 }, (_, i) => `item${i} 1.234,56 x`).join(' ');
    detectLanguage('warm up');
    const start = process.cpuUsage();
    layoutProfile([page]);
    layoutProfile([page.replace(/ x /g, '\n')]);
    detectLanguage(page);
    // A quadratic pattern took seconds on this page. CPU time, not wall-clock: the work is
    // synchronous, and a loaded machine stretches only the latter.
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(1500);
  });
});
