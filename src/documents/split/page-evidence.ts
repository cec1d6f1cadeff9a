/**
 * Split rides on the classifier's evidence: each page is classified alone against the
 * request's sections (each section a category whose criterion is its description), and
 * consecutive pages are compared to find where one document ends and the next begins.
 */
import { readDocument } from '../classify/classify.js';
import { isHigh } from '../classify/confidence.js';
import { gatherEvidence } from '../classify/evidence.js';
import { categoryScore, probabilities, strength } from '../classify/fusion.js';
import { cosine, EMBEDDING_SIZE, sentenceEncoder } from '../encoder/sentence-encoder.js';
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
}

/** Passages read per page: Deep Split reads more of each page. */
const PAGE_CHUNKS = { fast: 8, deep: 16 } as const;
/** Log-probability cost of changing section between two pages that look alike. */
const SWITCH_COST = 4;
/**
 * Softmax temperature of a page's section probabilities: the one SWITCH_COST was measured
 * with (the classifier's own temperature is fitted to whole documents, fusion.ts).
 */
const PAGE_TEMPERATURE = 0.03;

function meanVector(vectors: readonly Float32Array[]): Float32Array | null {
  if (vectors.length === 0) return null;
  const mean = new Float32Array(EMBEDDING_SIZE);
  for (const vector of vectors) for (let i = 0; i < EMBEDDING_SIZE; i++) mean[i] += vector[i];
  const norm = Math.sqrt(mean.reduce((sum, value) => sum + value * value, 0)) || 1;
  return mean.map((value) => value / norm);
}

export function readPageEvidence(
  pages: readonly string[],
  sections: readonly SplitSection[],
  deep: boolean,
): PageEvidence[] {
  const schema = sections.map((section) => ({
    category: section.name,
    criteria: [section.description],
  }));
  const encoder = sentenceEncoder();
  return pages.map((text) => {
    const reading = readDocument([text], undefined, PAGE_CHUNKS[deep ? 'deep' : 'fast']);
    const evidence = gatherEvidence(schema, reading);
    const scores = evidence.map((category) => categoryScore(category));
    const best = scores.indexOf(Math.max(...scores));
    const criterion = evidence[best]?.criteria[0] ?? evidence[best]?.label;
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
    };
  });
}

/**
 * How much page `i` looks like the start of another document, 0..1: how unlike the page
 * before it its text is (1 - cosine of their mean passage vectors).
 */
function boundary(evidence: readonly PageEvidence[], i: number): number {
  const previous = evidence[i - 1]?.vector;
  const current = evidence[i]?.vector;
  if (!previous || !current) return 0.5;
  return Math.min(1, Math.max(0, 1 - cosine(previous, current)));
}

/**
 * The most likely section of every page (Viterbi): each page's log-probabilities, and a
 * change of section between pages costing SWITCH_COST x (1 - boundary). `fixed[i]` (a
 * heading naming a section) holds page i to that section.
 */
export function mostLikelySections(
  evidence: readonly PageEvidence[],
  fixed: readonly (number | undefined)[],
): number[] {
  if (evidence.length === 0) return [];
  const count = evidence[0].probabilities.length;
  const emission = (i: number, s: number) => {
    if (fixed[i] !== undefined) return fixed[i] === s ? 0 : -1e9;
    return evidence[i].supported ? Math.log(evidence[i].probabilities[s] + 1e-9) : -Math.log(count);
  };
  let score = Array.from({ length: count }, (_, s) => emission(0, s));
  const back: number[][] = [];
  for (let i = 1; i < evidence.length; i++) {
    const cost = SWITCH_COST * (1 - boundary(evidence, i));
    const from = score.map((_, s) => {
      let best = s;
      for (let r = 0; r < count; r++) if (score[r] - cost > score[best]) best = r;
      return best;
    });
    back.push(from);
    score = from.map((r, s) => score[r] - (r === s ? 0 : cost) + emission(i, s));
  }
  const path = [score.indexOf(Math.max(...score))];
  for (let i = back.length - 1; i >= 0; i--) path.unshift(back[i][path[0]]);
  return path;
}
