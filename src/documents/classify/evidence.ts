import type { EvidenceKey } from './schema.compiler.js';
import type { Term } from './text-analysis.js';

/** Term counts of a text (a page, a document, metadata), ready for matching. */
export interface Evidence {
  /** Lemma and phrase ("due date") counts, weighted; negated occurrences excluded. */
  counts: Map<string, number>;
  /** Lemmas seen inside a negation ("not an invoice"). */
  negated: Map<string, number>;
  /** Number of content tokens. */
  length: number;
}

/** Stem keys live in the same map as lemmas, marked so the two never collide. */
export const STEM_PREFIX = '~';

export function emptyEvidence(): Evidence {
  return { counts: new Map(), negated: new Map(), length: 0 };
}

function add(counts: Map<string, number>, key: string, weight: number): void {
  counts.set(key, (counts.get(key) ?? 0) + weight);
}

/**
 * Adds terms to `into`. With `phrases`, adjacent lemmas of one sentence also count as a
 * phrase; with `stems`, each word's stem counts too. With `negation`, negated terms are set
 * aside instead of counted. Weak terms (stop-listed nouns and adjectives) count as words
 * only: they neither form phrases nor separate the words around them, nor add to `length`,
 * so evidence for criteria without them is what it was before they were kept.
 */
export function addTerms(
  into: Evidence,
  allTerms: readonly Term[],
  options: { phrases: boolean; stems?: boolean; negation: boolean; weight?: number },
): Evidence {
  const weight = options.weight ?? 1;
  const terms: Term[] = [];
  for (const term of allTerms) {
    if (!term.weak) terms.push(term);
    else if (options.negation && term.negated) add(into.negated, term.lemma, weight);
    else {
      add(into.counts, term.lemma, weight);
      if (options.stems) add(into.counts, STEM_PREFIX + term.stem, weight);
    }
  }
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i];
    if (options.negation && term.negated) {
      add(into.negated, term.lemma, weight);
      continue;
    }
    add(into.counts, term.lemma, weight);
    if (options.stems) add(into.counts, STEM_PREFIX + term.stem, weight);
    const next = terms[i + 1];
    if (
      options.phrases &&
      next !== undefined &&
      next.sentence === term.sentence &&
      !(options.negation && next.negated)
    ) {
      add(into.counts, `${term.lemma} ${next.lemma}`, weight);
    }
  }
  into.length += terms.length;
  return into;
}

/** BM25 term-frequency saturation, capped at 1: one mention in a short text is a full match. */
const K1 = 1.2;
const B = 0.5;
const AVERAGE_LENGTH = 250;

function saturation(tf: number, length: number): number {
  if (tf <= 0) return 0;
  const k = K1 * (1 - B + (B * length) / AVERAGE_LENGTH);
  return Math.min(1, (tf * (K1 + 1)) / (tf + k));
}

/** Credit for another form of the word (same stem) and for a WordNet relative. */
const STEM_CREDIT = 0.8;
const SYNONYM_CREDIT = 0.6;

/**
 * How strongly `evidence` matches a set of keys, 0..1: the weighted share of keys found,
 * each saturating with repetition. `length` is the text length used for saturation.
 */
export function matchStrength(
  keys: readonly EvidenceKey[],
  evidence: Evidence,
  length = evidence.length,
): number {
  let total = 0;
  let matched = 0;
  for (const { key, weight, alternatives } of keys) {
    total += weight;
    let best = saturation(evidence.counts.get(key) ?? 0, length);
    if (best < 1) {
      for (const alternative of alternatives) {
        const factor = alternative.startsWith(STEM_PREFIX) ? STEM_CREDIT : SYNONYM_CREDIT;
        const credit = factor * saturation(evidence.counts.get(alternative) ?? 0, length);
        if (credit > best) best = credit;
      }
    }
    matched += weight * best;
  }
  return total === 0 ? 0 : matched / total;
}
