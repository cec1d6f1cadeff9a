/**
 * How well a label printed in a document ("Factuurnummer", "Rechnungsnr.", "Total TTC")
 * names a schema field (its name, title and description). Behind an interface so that a
 * multilingual sentence encoder can score labels when one is loaded; until then the
 * lexical scorer below bridges languages with the project's document lexicons and the
 * languages' stemmers (general resources: nothing here is written for a field).
 */
import { lexiconLines, LEXICONS, type ForeignLanguage } from './lexicon/index.js';
import { stemmerFor } from '../classify/stemmers.js';
import { humanize, normalize, stem } from './text-match.js';

export interface FieldText {
  name: string;
  title?: string;
  description?: string;
}

/** Scores document labels against a field: 0 (unrelated) .. 1 (names it). */
export interface LabelSimilarity {
  score(label: string, field: FieldText): number;
}

/** Function words never counted as evidence (English: field names are English). */
const FUNCTION_WORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with which who what when where your our their its'.split(
    ' ',
  ),
);

function fold(text: string): string {
  return normalize(text.normalize('NFD').replace(/\p{M}/gu, ''));
}

interface Bridge {
  /** Folded foreign form (one or more words) -> the English words it stands for. */
  forms: Map<string, string[]>;
  /** Stemmed single-word foreign form -> English words, per language. */
  stems: Map<ForeignLanguage, Map<string, string[]>>;
  longestForm: number;
}

let bridge: Bridge | undefined;

function addTo<K>(map: Map<K, string[]>, key: K, words: string[]): void {
  const known = map.get(key);
  if (known) {
    for (const w of words) if (!known.includes(w)) known.push(w);
  } else map.set(key, [...words]);
}

/** The lexicons turned around: foreign forms to English words, built once. */
function bridgeOf(): Bridge {
  if (bridge) return bridge;
  const forms = new Map<string, string[]>();
  const stems = new Map<ForeignLanguage, Map<string, string[]>>();
  let longestForm = 1;
  for (const language of Object.keys(LEXICONS) as ForeignLanguage[]) {
    const stemmer = stemmerFor(language);
    const byStem = new Map<string, string[]>();
    for (const line of lexiconLines(language)) {
      const english = normalize(line.english).split(' ').filter(Boolean);
      for (const form of line.forms) {
        const folded = fold(form.replace(/°/g, ' number '));
        if (folded === '') continue;
        addTo(forms, folded, english);
        const words = folded.split(' ');
        longestForm = Math.max(longestForm, words.length);
        if (words.length === 1 && folded.length >= 4) addTo(byStem, stemmer(folded), english);
      }
    }
    stems.set(language, byStem);
  }
  bridge = { forms, stems, longestForm };
  return bridge;
}

/** English word stems a text stands for: its own words, stemmed, and its translations. */
export function conceptsOf(text: string): Set<string> {
  const { forms, stems, longestForm } = bridgeOf();
  const words = fold(text.replace(/°|º/g, ' number ')).split(' ').filter(Boolean);
  const concepts = new Set<string>();
  const addEnglish = (english: string[]) => {
    for (const w of english) if (!FUNCTION_WORDS.has(w)) concepts.add(stem(w));
  };
  const covered = new Array<boolean>(words.length).fill(false);
  // Longest lexicon phrases first ("te betalen", "numer faktury").
  for (let n = Math.min(longestForm, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      if (covered.slice(i, i + n).some(Boolean) && n > 1) continue;
      const phrase = words.slice(i, i + n).join(' ');
      const english = forms.get(phrase);
      if (!english || (n === 1 && phrase.length < 2)) continue;
      addEnglish(english);
      // An English form ("total") stays a word of its own as well.
      for (let k = i; k < i + n; k++) covered[k] = true;
      if (n === 1 && english.includes(phrase)) concepts.add(stem(phrase));
    }
  }
  for (const [i, word] of words.entries()) {
    if (covered[i]) continue;
    let translated = false;
    if (word.length >= 5) {
      for (const [language, byStem] of stems) {
        const english = byStem.get(stemmerFor(language)(word));
        if (english) {
          addEnglish(english);
          translated = true;
        }
      }
      for (const english of compoundParts(word, forms)) {
        addEnglish(english);
        translated = true;
      }
    }
    if (!translated && !FUNCTION_WORDS.has(word) && !/^\d+$/.test(word)) concepts.add(stem(word));
  }
  return concepts;
}

/**
 * A closed compound ("Leistungsdatum", "factuurbedrag") as two lexicon forms, with the
 * linking "s"/"e"/"n" German and Dutch put between them.
 */
function compoundParts(word: string, forms: Map<string, string[]>): string[][] {
  if (word.length < 7) return [];
  for (let cut = word.length - 3; cut >= 3; cut--) {
    const right = forms.get(word.slice(cut));
    if (!right) continue;
    const head = word.slice(0, cut);
    const left = forms.get(head) ?? forms.get(head.replace(/(s|e|en|n)$/, ''));
    if (left) return [left, right];
    if (word.slice(cut).length >= 4) return [right];
  }
  return [];
}

/**
 * Whether `short` abbreviates `word`: same first letter, its letters in order in the word,
 * and clearly shorter ("qty" of "quantity", "nr" of "number", "desc" of "description").
 */
export function abbreviates(short: string, word: string): boolean {
  if (short.length < 2 || short.length > 5 || word.length < short.length + 2) return false;
  if (short[0] !== word[0] || FUNCTION_WORDS.has(short)) return false;
  let at = 1;
  for (const ch of short.slice(1)) {
    at = word.indexOf(ch, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/** Weight of a description's words after its head phrase. */
const TAIL_WEIGHT = 0.3;

/**
 * The head phrase of a description: its words up to the first clause or preposition
 * ("The total amount of the invoice, including taxes" -> "The total amount").
 */
export function descriptionHead(description: string): string {
  const words = description.split(/\s+/);
  const end = words.findIndex(
    (w, i) =>
      i > 0 &&
      (/^[,;:(]/.test(w) ||
        /^(of|that|which|who|whose|where|when|for|on|in|at|to|from|by|with|as|including|excluding|per)$/i.test(
          w.replace(/[,;:.]$/, ''),
        )),
  );
  const head = end < 0 ? words : words.slice(0, end);
  return head.join(' ').replace(/[,;:.]$/, '');
}

/** Lexical multilingual similarity: shared English concepts of label and field. */
export class LexicalLabelSimilarity implements LabelSimilarity {
  private readonly labelCache = new Map<string, Set<string>>();
  private readonly fieldCache = new Map<
    string,
    { name: Set<string>; text: Set<string>; head: Set<string> }
  >();

  private labelConcepts(label: string): Set<string> {
    let concepts = this.labelCache.get(label);
    if (!concepts) {
      concepts = conceptsOf(label);
      this.labelCache.set(label, concepts);
    }
    return concepts;
  }

  private fieldConcepts(field: FieldText): {
    name: Set<string>;
    text: Set<string>;
    head: Set<string>;
  } {
    const key = `${field.name}\u0000${field.title ?? ''}\u0000${field.description ?? ''}`;
    let concepts = this.fieldCache.get(key);
    if (!concepts) {
      const name = conceptsOf(`${humanize(field.name)} ${field.title ?? ''}`);
      const text = conceptsOf(field.description ?? '');
      const head = conceptsOf(descriptionHead(field.description ?? ''));
      concepts = { name, text, head };
      this.fieldCache.set(key, concepts);
    }
    return concepts;
  }

  score(label: string, field: FieldText): number {
    const labelConcepts = this.labelConcepts(label);
    if (labelConcepts.size === 0) return 0;
    const { name, text, head } = this.fieldConcepts(field);
    if (normalize(label) === humanize(field.name)) return 1;
    const fieldWords = [...name, ...text];
    // "Qty", "Amt", "Desc", "Nr": a label word that abbreviates a field word stands for it.
    const known = new Set(labelConcepts);
    for (const c of labelConcepts) {
      const full = fieldWords.find((w) => !labelConcepts.has(w) && abbreviates(c, w));
      if (full) known.add(full);
    }
    const inName = [...name].filter((c) => known.has(c)).length;
    const inText = [...labelConcepts].filter(
      (c) => text.has(c) || name.has(c) || fieldWords.some((w) => abbreviates(c, w)),
    ).length;
    const nameCover = name.size === 0 ? 0 : inName / name.size;
    const labelPrecision = inText / labelConcepts.size;
    // Named by the field's own name, less for words the label adds ("Total excl. VAT").
    const byName = nameCover * (0.5 + 0.5 * labelPrecision);
    // Or every word of a short label is in the field's description ("Total" for "the.
    // total amount due"). Words after the description's head phrase ("the date of the
    // receipt") say what the field belongs to, not what it is: they count for little.
    const weighted = [...labelConcepts].reduce(
      (sum, c) => sum + (name.has(c) || head.has(c) ? 1 : text.has(c) ? TAIL_WEIGHT : 0),
      0,
    );
    const byDescription =
      text.size === 0 ? 0 : 0.8 * (weighted / labelConcepts.size) * Math.min(1, inText / 2 + 0.5);
    return Math.min(1, Math.max(byName, byDescription));
  }
}

/**
 * True when every word of `text` is common document vocabulary (a lexicon form or the
 * English word it stands for): "TAX INVOICE", "Rechnung" are, a shop's name is not.
 */
export function isDocumentVocabulary(text: string): boolean {
  const { forms } = bridgeOf();
  englishWords ??= new Set([...forms.values()].flat());
  const words = fold(text).split(' ').filter(Boolean);
  return (
    words.length > 0 &&
    words.every((w) => forms.has(w) || englishWords?.has(w) || FUNCTION_WORDS.has(w))
  );
}

let englishWords: Set<string> | undefined;
