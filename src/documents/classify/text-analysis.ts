import winkNLP, { type ItsFunction, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** One content token of analysed text. */
export interface Term {
  lemma: string;
  /** Porter stem, for matching other forms of a word (diagnosed ~ diagnose). */
  stem: string;
  /** Inside a negation scope ("this is not an invoice"). */
  negated: boolean;
  /** Index of the sentence the token is in (phrases never span sentences). */
  sentence: number;
  /**
   * A content word the model's stop-word list holds ("amount", "due", "name", "first"):
   * documents count it, criteria use it only when they have no other word (see WEAK_POS).
   */
  weak: boolean;
}

/**
 * wink-nlp pipelines, built once per process (the model takes ~250 ms to load). `fast` only
 * tags parts of speech (needed for lemmas); `deep` adds sentence boundaries and negation.
 */
let fastNlp: WinkMethods | undefined;
let deepNlp: WinkMethods | undefined;

function nlpFor(deep: boolean): WinkMethods {
  if (deep) return (deepNlp ??= winkNLP(model, ['sbd', 'negation', 'pos']));
  return (fastNlp ??= winkNLP(model, ['pos']));
}

/** Loads the language model now rather than on the first request (worker warm-up). */
export function warmUpTextAnalysis(): void {
  analyze('warm up the model.', false);
  analyze('this is not a warm up.', true);
}

/**
 * Words that carry no evidence in criteria phrased as descriptions ("documents that contain
 * an invoice number"); the model's stop words cover the rest.
 */
const EXTRA_STOP = new Set([
  'document',
  'contain',
  'include',
  'mention',
  'show',
  'such',
  'etc',
  'e.g.',
  'i.e.',
  'page',
  'text',
  'file',
]);

/**
 * Parts of speech of stop-listed words kept as weak terms. wink's stop-word list (like
 * spaCy's and scikit-learn's) holds nouns and adjectives such as "amount", "due", "name",
 * "first" and "last": dropping them left a criterion like "amount due" with no evidence to
 * look for, rated low on the very invoice that says "Amount due". Function words (articles,
 * pronouns, prepositions, auxiliaries) and generic verbs ("get", "make") stay dropped.
 */
const WEAK_POS = new Set(['NOUN', 'PROPN', 'ADJ']);

/**
 * Lower-cased lemmas of the words and numbers of `text`, without stop words and
 * punctuation; stop-listed nouns and adjectives come back marked `weak`. Lower-casing first
 * keeps lemmas stable for headings in capitals.
 */
export function analyze(text: string, deep: boolean): Term[] {
  const nlp = nlpFor(deep);
  const its = nlp.its;
  const doc = nlp.readDoc(text.toLowerCase());
  // The model has no lemma (or stem) for some tokens ("iam" in "AWS IAM, S3"): those keep
  // their normalised form, so no token of any text leaves a hole in the arrays.
  const normals = doc.tokens().out(its.normal) as (string | undefined)[];
  const lemmas = doc.tokens().out(its.lemma as ItsFunction<string>) as (string | undefined)[];
  const stems = deep
    ? (doc.tokens().out(its.stem as ItsFunction<string>) as (string | undefined)[])
    : [];
  const types = doc.tokens().out(its.type) as string[];
  const stops = doc.tokens().out(its.stopWordFlag) as boolean[];
  const tags = doc.tokens().out(its.pos) as string[];
  const negations = deep ? (doc.tokens().out(its.negationFlag) as boolean[]) : [];
  const sentenceOf: number[] = new Array(lemmas.length).fill(0);
  if (deep) {
    let index = 0;
    doc.sentences().each((sentence, sentenceIndex) => {
      const size = sentence.tokens().length();
      for (let i = 0; i < size; i++) sentenceOf[index++] = sentenceIndex;
    });
  }
  const terms: Term[] = [];
  for (let i = 0; i < lemmas.length; i++) {
    const type = types[i];
    if (type !== 'word' && type !== 'number') continue;
    const lemma = lemmas[i] || normals[i] || '';
    if (lemma === '' || EXTRA_STOP.has(lemma)) continue;
    const weak = stops[i];
    if (weak && !WEAK_POS.has(tags[i])) continue;
    if (lemma.length < 2 && type === 'word') continue;
    terms.push({
      lemma,
      stem: stems[i] ?? lemma,
      negated: negations[i] === true,
      sentence: sentenceOf[i],
      weak,
    });
  }
  return terms;
}
