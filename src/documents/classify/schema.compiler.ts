import type { ClassificationCategory } from './classify.types.js';
import { STEM_PREFIX } from './evidence.js';
import { analyzeText, type Language } from './analysis.js';
import { detectLanguage } from './language.js';
import { analyze, type Term } from './text-analysis.js';
import { relatedWords } from './wordnet.synonyms.js';

/**
 * A piece of evidence a criterion looks for: a lemma, or two lemmas ("due date") as a
 * phrase, with alternatives (other forms, synonyms) that count for less.
 */
export interface EvidenceKey {
  key: string;
  weight: number;
  alternatives: readonly string[];
}

export interface CompiledCriterion {
  text: string;
  keys: EvidenceKey[];
}

export interface CompiledCategory {
  name: string;
  /** Lemmas of the label itself ("bank_statement" -> bank, statement). */
  label: EvidenceKey[];
  criteria: CompiledCriterion[];
}

export interface CompiledSchema {
  categories: CompiledCategory[];
}

/** Share of a criterion's weight given to its phrases (adjacent lemma pairs). */
const PHRASE_WEIGHT = 0.6;
const MAX_CACHED = 64;
const cache = new Map<string, CompiledSchema>();

/**
 * The terms a criterion or label looks for: its content words, or, when it has none (e.g.
 * "amount due", "first name and last name"), its stop-listed nouns and adjectives.
 */
function termsOf(text: string, language: Language): Term[] {
  const terms = analyzeText(text.replace(/_/g, ' '), true, language);
  const strong = terms.filter((term) => !term.weak);
  return strong.length > 0 ? strong : terms;
}

function pairs(lemmas: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < lemmas.length; i++) out.push(`${lemmas[i]} ${lemmas[i + 1]}`);
  return out;
}

/** WordNet relatives of a word as lemma keys (one word or a two-word phrase). */
function relativesOf(lemma: string, broad: boolean): string[] {
  if (/\d/.test(lemma) || lemma.length < 3) return [];
  const out = new Set<string>();
  for (const word of relatedWords(lemma, broad)) {
    const key = analyze(word.replace(/_/g, ' '), true)
      .filter((term) => !term.weak)
      .map((term) => term.lemma)
      .join(' ');
    if (key !== '' && key !== lemma && key.split(' ').length <= 2) out.add(key);
  }
  return [...out];
}

interface RawCategory {
  name: string;
  label: Term[];
  criteria: { text: string; terms: Term[] }[];
}

/**
 * Turns the schema into weighted evidence keys. A key's weight is its inverse category
 * frequency: words every category's criteria use ("date", "name") say little about which
 * category fits. `deep` adds phrases, stems and WordNet relatives; a relative that another
 * category uses as its own word is dropped as ambiguous (invoice's synonym "account" is
 * bank-statement evidence). Cached per schema.
 */
export function compileSchema(
  schema: readonly ClassificationCategory[],
  deep: boolean,
): CompiledSchema {
  const cacheKey = `${deep ? 'deep' : 'fast'}:${JSON.stringify(schema)}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;

  // Criteria are usually English; when the schema is written in another supported
  // language, its words go through that language's lexicon bridge like a document's.
  const language = detectLanguage(
    schema.flatMap((category) => [category.category, ...category.criteria]).join('.\n'),
  );
  const raw: RawCategory[] = schema.map((category) => ({
    name: category.category,
    label: termsOf(category.category, language),
    criteria: category.criteria.map((text) => ({ text, terms: termsOf(text, language) })),
  }));
  const ownKeys = raw.map((category) => {
    const keys = new Set<string>(category.label.map((term) => term.lemma));
    for (const criterion of category.criteria) {
      const lemmas = criterion.terms.map((term) => term.lemma);
      for (const lemma of lemmas) keys.add(lemma);
      if (deep) for (const pair of pairs(lemmas)) keys.add(pair);
    }
    return keys;
  });
  const categoryFrequency = new Map<string, number>();
  for (const keys of ownKeys) {
    for (const key of keys) categoryFrequency.set(key, (categoryFrequency.get(key) ?? 0) + 1);
  }
  const count = Math.max(1, raw.length);
  const idf = (key: string) => Math.log(1 + count / (categoryFrequency.get(key) ?? 1));

  const keysOf = (terms: readonly Term[], owner: number, broad: boolean): EvidenceKey[] => {
    const lemmas = terms.map((term) => term.lemma);
    const seen = new Set<string>();
    const words: EvidenceKey[] = [];
    for (const term of terms) {
      if (seen.has(term.lemma)) continue;
      seen.add(term.lemma);
      const alternatives = deep
        ? [
            STEM_PREFIX + term.stem,
            ...relativesOf(term.lemma, broad).filter((relative) =>
              ownKeys.every((keys, index) => index === owner || !keys.has(relative)),
            ),
          ]
        : [];
      words.push({ key: term.lemma, weight: idf(term.lemma), alternatives });
    }
    if (!deep) return words;
    const phrases = [...new Set(pairs(lemmas))].map((key) => ({
      key,
      weight: (PHRASE_WEIGHT * key.split(' ').reduce((sum, part) => sum + idf(part), 0)) / 2,
      alternatives: [],
    }));
    return [...words, ...phrases];
  };

  const compiled: CompiledSchema = {
    categories: raw.map((category, index) => ({
      name: category.name,
      label: keysOf(category.label, index, true),
      criteria: category.criteria.map((criterion) => ({
        text: criterion.text,
        keys: keysOf(criterion.terms, index, false),
      })),
    })),
  };
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, compiled);
  return compiled;
}
