import type { CategoryScore } from './classify.types.js';
import { addTerms, emptyEvidence, matchStrength, type Evidence } from './evidence.js';
import type { CompiledSchema } from './schema.compiler.js';
import { analyzeText, documentLanguage } from './analysis.js';
import { signalTerms } from './signals.js';
import type { Term } from './text-analysis.js';

/** `document_metadata` counts this much more than the same words in the document. */
export const METADATA_WEIGHT = 1.5;

/**
 * The `default` model: one bag of lemmas for the whole document (plus metadata), each
 * criterion scored by the weighted share of its lemmas present (BM25-style saturation,
 * inverse category frequency weights). The category label counts as one more criterion.
 */
export function scoreDefault(
  schema: CompiledSchema,
  pages: readonly string[],
  metadata: string | undefined,
): CategoryScore[] {
  const language = documentLanguage(pages, metadata);
  // Layout signals (priced rows, dated transactions, an IBAN, a clock time...) hold in any
  // language and cost well under a millisecond per page, so the fast model reads them too.
  const terms = [
    ...analyzeText(pages.join('\n\n'), false, language),
    ...pages.flatMap((page) => signalTerms(page, 0)),
  ];
  return scoreBag(schema, bagOfTerms(terms, metadata && analyzeText(metadata, false, language)));
}

/** The default model's evidence: every term counted once, no phrases, no negation. */
export function bagOfTerms(terms: readonly Term[], metadata?: readonly Term[] | ''): Evidence {
  const evidence = addTerms(emptyEvidence(), terms, { phrases: false, negation: false });
  if (metadata) {
    addTerms(evidence, metadata, { phrases: false, negation: false, weight: METADATA_WEIGHT });
  }
  return evidence;
}

/**
 * Each criterion scored by the weighted share of its lemmas present in the bag; the label
 * counts as one more criterion. Deep Classify computes the same on its own terms, so it
 * never has less evidence than the default model (see deep.classifier.ts).
 */
export function scoreBag(schema: CompiledSchema, evidence: Evidence): CategoryScore[] {
  return schema.categories.map((category) => {
    const criteria = category.criteria.map((criterion) => matchStrength(criterion.keys, evidence));
    const label = matchStrength(category.label, evidence);
    const score = (criteria.reduce((sum, value) => sum + value, 0) + label) / (criteria.length + 1);
    return { score, criteria };
  });
}
