/**
 * Split rides on the classifier's evidence: each page is classified alone against the
 * request's sections (each section a category whose criterion is its description), and
 * consecutive pages are compared to find where one document ends and the next begins.
 */
import { readDocument } from '../classify/classify.js';
import { isHigh } from '../classify/confidence.js';
import {
  gatherEvidence,
  type CategoryEvidence,
  type CriterionEvidence,
} from '../classify/evidence.js';
import { categoryScore, probabilities, strength } from '../classify/fusion.js';
import { cosine, sentenceEncoder } from '../encoder/sentence-encoder.js';
import { EMBEDDING_SIZE } from '../encoder/use.network.js';
import type { SplitSection } from './split.operation.js';

export interface PageEvidence {
  /** Each section's probability for this page alone. */
  probabilities: number[];
  /** The best section's description is met by a passage of the page (or its words). */
  supported: boolean;
  /** The first line of the passage that matched the best section, '' if none. */
  passage: string;
  /** Mean of the page's passage vectors, normalized; null without the encoder or text. */
  vector: Float32Array | null;
  /** Each section's evidence on this page alone (segments.ts reads documents from it). */
  sections: CategoryEvidence[];
  /**
   * Deep Split's reading of both (bothReadings): the fuller reading's own probabilities, before
   * they are pooled with the default reading's (lendFullerVotes reads them).
   */
  fullerProbabilities?: number[];
}

/** Passages read per page: Deep Split reads more of each page. */
const PAGE_CHUNKS = { fast: 8, deep: 16 } as const;
/** Single lines read per page as passages of their own (a page's title, a field). */
const PAGE_LINES = { fast: 0, deep: 8 } as const;
/**
 * Softmax temperature of a page's section probabilities (a page alone: its confidence and
 * whether its evidence names a section; segments.ts reads whole documents).
 */
const PAGE_TEMPERATURE = 0.03;

function meanVector(vectors: readonly Float32Array[]): Float32Array | null {
  if (vectors.length === 0) return null;
  const mean = new Float32Array(EMBEDDING_SIZE);
  for (const vector of vectors) for (let i = 0; i < EMBEDDING_SIZE; i++) mean[i] += vector[i];
  const norm = Math.sqrt(mean.reduce((sum, value) => sum + value * value, 0)) || 1;
  return mean.map((value) => value / norm);
}

/** Statements of a description read as criteria of their own, at most. */
const MAX_STATEMENTS = 12;

/**
 * A section's description as the criteria it states: one per sentence, clause after a
 * semicolon or line, so each is matched on its own as a classification criterion is (one
 * vector for a long description blurs what each statement says).
 */
export function statementsOf(description: string): string[] {
  const statements = description
    .split(/[;\n]+|(?<=[.!?])\s+/u)
    .map((text) => text.trim())
    .filter((text) => /\p{L}/u.test(text));
  return statements.length > 0 ? statements.slice(0, MAX_STATEMENTS) : [description];
}

/**
 * How much each statement of each section tells it from the other sections: 1 - its highest
 * cosine with a statement of another section (0 when another section says the same). The
 * classifier's second pass over near neighbours weighs criteria the same way
 * (near-neighbours.ts); null without the encoder.
 */
export function distinctStatementWeights(sections: readonly SplitSection[]): number[][] | null {
  const encoder = sentenceEncoder();
  if (!encoder) return null;
  const vectors = sections.map((section) => encoder.embed(statementsOf(section.description)));
  return vectors.map((own, index) => {
    const others = vectors.filter((_, other) => other !== index).flat();
    return own.map((vector) =>
      Math.max(0, 1 - Math.max(0, ...others.map((other) => cosine(vector, other)))),
    );
  });
}

function strongest(criteria: readonly CriterionEvidence[]): CriterionEvidence | undefined {
  let best: CriterionEvidence | undefined;
  for (const criterion of criteria) {
    if (!best || strength(criterion) > strength(best)) best = criterion;
  }
  return best;
}

export function readPageEvidence(
  pages: readonly string[],
  sections: readonly SplitSection[],
  deep: boolean,
): PageEvidence[] {
  const schema = sections.map((section) => ({
    category: section.name,
    criteria: statementsOf(section.description),
  }));
  const encoder = sentenceEncoder();
  return pages.map((text) => {
    const reading = readDocument(
      [text],
      undefined,
      PAGE_CHUNKS[deep ? 'deep' : 'fast'],
      PAGE_LINES[deep ? 'deep' : 'fast'],
    );
    const evidence = gatherEvidence(schema, reading);
    const scores = evidence.map((category) => categoryScore(category));
    const best = scores.indexOf(Math.max(...scores));
    const criterion = strongest(evidence[best]?.criteria ?? []) ?? evidence[best]?.label;
    const passage =
      criterion && criterion.passage >= 0 ? reading.passages[criterion.passage] : undefined;
    return {
      probabilities: probabilities(scores, PAGE_TEMPERATURE),
      supported: criterion !== undefined && isHigh(strength(criterion)),
      passage: passage?.text.split('\n')[0].trim() ?? '',
      vector:
        encoder && reading.passages.length > 0
          ? meanVector(encoder.embed(reading.passages.map((p) => p.text)))
          : null,
      sections: evidence,
    };
  });
}
