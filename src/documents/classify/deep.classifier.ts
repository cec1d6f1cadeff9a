import type { CategoryScore } from './classify.types.js';
import { bagOfTerms, METADATA_WEIGHT, scoreBag } from './default.classifier.js';
import { addTerms, emptyEvidence, matchStrength, type Evidence } from './evidence.js';
import type { CompiledCategory, CompiledSchema } from './schema.compiler.js';
import { headingLines } from './headings.js';
import { separateNeighbours } from './near-neighbours.js';
import { signalTerms } from './signals.js';
import { analyzeText, documentLanguage } from './analysis.js';
import type { Term } from './text-analysis.js';

/** Leading heading lines of the first page that count as its title. */
const TITLE_LINES = 3;
/** Extra credit for a criterion whose words are headings or field names. */
const HEADING_BONUS = 0.5;
/** Blend of whole-document evidence and the best single page. */
const DOCUMENT_SHARE = 0.6;
/** Bonus when the title names the category, penalty when the text denies it. */
const TITLE_BONUS = 0.25;
const NEGATION_PENALTY = 0.3;
/**
 * Weight of the share of criteria met outright. Several half-matched criteria mean the
 * document shares a topic (a paper about taxes); fully met ones mean it has the form.
 */
const MET_SHARE_WEIGHT = 0.3;
const MET = 0.5;

const OPTIONS = { phrases: true, stems: true, negation: true } as const;
/** Sentence numbers of signal terms: far below the (negative) ones of extra senses. */
const SIGNAL_SENTENCES = -1_000_000;

function categoryScore(category: CompiledCategory, evidence: Evidence, length: number): number {
  const criteria = category.criteria.map((criterion) =>
    matchStrength(criterion.keys, evidence, length),
  );
  const label = matchStrength(category.label, evidence, length);
  return (criteria.reduce((sum, value) => sum + value, 0) + label) / (criteria.length + 1);
}

/**
 * How much the document denies the category's label, 0..1: per label word, the share of its
 * occurrences that are denied. "This is not an invoice" on a receipt denies it; one "not a
 * VAT invoice" footnote on an invoice that says "invoice" eight times barely does.
 */
function negatedShare(category: CompiledCategory, document: Evidence): number {
  const words = category.label.filter((key) => !key.key.includes(' '));
  if (words.length === 0) return 0;
  let share = 0;
  for (const { key } of words) {
    const denied = document.negated.get(key) ?? 0;
    if (denied > 0) share += denied / (denied + (document.counts.get(key) ?? 0));
  }
  return share / words.length;
}

/**
 * The `accurate` model ("Deep Classify"): sentence-aware lemmas with negation scopes (a
 * denied word is not evidence, and a denied category label counts against it), phrase
 * matching for multi-word criteria, WordNet synonyms at reduced credit, per-page evidence
 * (the best page is blended with the whole document, so an appendix cannot drown the
 * main page) and the document's title.
 */
export function scoreDeep(
  schema: CompiledSchema,
  fast: CompiledSchema,
  pages: readonly string[],
  metadata: string | undefined,
): CategoryScore[] {
  const language = documentLanguage(pages, metadata);
  const analyze = (text: string) => analyzeText(text, true, language);
  // Layout signals join each page's words, in sentences of their own (no phrases with text).
  const pageTerms: Term[][] = pages.map((page) => [
    ...analyze(page),
    ...signalTerms(page, SIGNAL_SENTENCES, true),
  ]);
  const pageEvidence = pageTerms.map((terms) => addTerms(emptyEvidence(), terms, OPTIONS));
  const document = emptyEvidence();
  for (const terms of pageTerms) addTerms(document, terms, OPTIONS);
  const metadataTerms = metadata ? analyze(metadata) : undefined;
  const base = scoreBag(fast, bagOfTerms(pageTerms.flat(), metadataTerms));
  if (metadataTerms) {
    const terms = metadataTerms;
    addTerms(document, terms, { ...OPTIONS, weight: METADATA_WEIGHT });
    pageEvidence.push(addTerms(emptyEvidence(), terms, OPTIONS));
  }
  // Saturation by the average page length: a long document is not penalised for its length.
  const pageLength = Math.max(1, document.length / Math.max(1, pageEvidence.length));
  const pageHeadings = pages.map(headingLines);
  const headings = addTerms(emptyEvidence(), analyze(pageHeadings.flat().join('.\n')), OPTIONS);
  const firstHeadings = pageHeadings.find((lines) => lines.length > 0) ?? [];
  const title = addTerms(
    emptyEvidence(),
    analyze(firstHeadings.slice(0, TITLE_LINES).join('.\n')),
    OPTIONS,
  );

  const scores = schema.categories.map((category) => {
    const criteria = category.criteria.map((criterion) =>
      Math.min(
        1,
        matchStrength(criterion.keys, document, pageLength) +
          HEADING_BONUS * matchStrength(criterion.keys, headings, 1),
      ),
    );
    const whole =
      (criteria.reduce((sum, value) => sum + value, 0) +
        matchStrength(category.label, document, pageLength)) /
      (criteria.length + 1);
    const bestPage = Math.max(
      0,
      ...pageEvidence.map((evidence) => categoryScore(category, evidence, evidence.length)),
    );
    const score =
      DOCUMENT_SHARE * whole +
      (1 - DOCUMENT_SHARE) * bestPage +
      (MET_SHARE_WEIGHT * criteria.filter((value) => value >= MET).length) /
        Math.max(1, criteria.length) +
      TITLE_BONUS * matchStrength(category.label, title, 1) -
      NEGATION_PENALTY * negatedShare(category, document);
    return { score, criteria };
  });
  return withBase(separateNeighbours(schema, scores, document, pageLength), base);
}

/** Weight of the default model's score in Deep Classify's. */
const BASE_WEIGHT = 1;
/**
 * Head start of the default model's choice, as a share of the best combined score, at a
 * full (100 %) lead of the default model: its choice is overridden only by a deep reading
 * that leads clearly, the more clearly the surer the default model was.
 */
const BASE_CHOICE_LEAD = 0.1;

/**
 * Deep Classify adds evidence to the default model's, never replaces it: each criterion is
 * as strong as the stronger of the two readings, and the default model's score is added to
 * the deep one. The default model's choice (every category tied at its best: never the
 * first listed) starts ahead by BASE_CHOICE_LEAD x its relative lead over its runner-up.
 */
function withBase(deep: CategoryScore[], base: CategoryScore[]): CategoryScore[] {
  const combined = deep.map((score, index) => ({
    score: score.score + BASE_WEIGHT * base[index].score,
    criteria: score.criteria.map((value, i) => Math.max(value, base[index].criteria[i])),
  }));
  const [baseBest = 0, runnerUp = 0] = base.map((score) => score.score).sort((a, b) => b - a);
  if (!(baseBest > 0)) return combined;
  const headStart =
    BASE_CHOICE_LEAD *
    ((baseBest - runnerUp) / baseBest) *
    Math.max(...combined.map((s) => s.score));
  return combined.map((score, index) =>
    base[index].score === baseBest ? { ...score, score: score.score + headStart } : score,
  );
}
