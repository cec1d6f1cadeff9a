import { describe, expect, it } from '@jest/globals';
import { classify, warmUpClassifier } from './classify.js';
import { clipLongWords, MAX_WORD_CHARS } from './long-words.js';

describe(clipLongWords.name, () => {
  it('cuts only words longer than the limit', () => {
    const long = 'x'.repeat(1_000);
    expect(clipLongWords(`invoice ${long} total`)).toBe(
      `invoice ${'x'.repeat(MAX_WORD_CHARS)} total`,
    );
    expect(clipLongWords('Rechnungsnummer and total amount due')).toBe(
      'Rechnungsnummer and total amount due',
    );
  });

  it('lets a 100,000-character criterion, page and metadata be classified within 2 s of CPU', () => {
    warmUpClassifier();
    const word = 'a'.repeat(100_000);
    // CPU time, not wall-clock: classify is synchronous, and a loaded machine stretches only
    // the latter.
    const started = process.cpuUsage();
    const output = classify({
      pages: [`Invoice number 7. ${word}`],
      classificationSchema: [
        { category: 'invoice', criteria: ['invoice number', word] },
        { category: 'letter', criteria: ['dear sir'] },
      ],
      documentMetadata: word,
      model: 'accurate',
    });
    expect(output.result.category).toBe('invoice');
    expect(output.response_confidence.categories[0].criteria_confidence[1].criterion).toBe(word);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(2_000);
  });
});
