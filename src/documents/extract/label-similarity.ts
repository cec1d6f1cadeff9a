/**
 * How well a label printed in a document ("Factuurnummer", "Rechnungsnr.", "Total TTC")
 * names a schema field (its name, title and description). Two general measures, the
 * better of which counts: the multilingual sentence encoder's similarity between the label
 * and the field's words (any language the encoder reads), and the string similarity of the
 * label's words to the field's own words (abbreviations such as "Qty", "Nr" included).
 * Nothing here is written for a field or a kind of document.
 */
import { cosine, type SentenceEncoder } from '../encoder/sentence-encoder.js';
import { currencyOf } from './currency-table.js';
import { initialismsOf } from './label-initialisms.js';
import {
  descriptionHead,
  FUNCTION_WORDS,
  humanize,
  keepsLettersInOrder,
  normalize,
  stem,
} from './text-match.js';

export interface FieldText {
  name: string;
  title?: string;
  description?: string;
}

/** Scores document labels against a field: 0 (unrelated) .. 1 (names it). */
export interface LabelSimilarity {
  /**
   * Called once per document, before any `score`, with every label the search may score:
   * an encoder embeds them in one batch. Labels not given here are scored lexically.
   */
  prepare?(labels: Iterable<string>, fields: readonly FieldText[]): void;
  score(label: string, field: FieldText): number;
}

function fold(text: string): string {
  return normalize(text.normalize('NFD').replace(/\p{M}/gu, ''));
}

/**
 * The numero sign and the letters Unicode decomposes it to ("№" is "No" in NFKC), as a
 * label writes them after a word or with their point: "Order No", "ORDER NO", "No.",
 * "order no.". "Yes/No" or a lone "No" is the word no.
 */
const NUMERO_LETTERS = '\u2116'.normalize('NFKC');
const NUMERO = new RegExp(
  [
    '\u2116',
    `(?<=^|\\s)(?:${NUMERO_LETTERS}|${NUMERO_LETTERS.toUpperCase()}|${NUMERO_LETTERS.toLowerCase()})\\.`,
    `(?<=\\p{L}\\s+)(?:${NUMERO_LETTERS}|${NUMERO_LETTERS.toUpperCase()})(?=\\s*(?:[:#]|$))`,
  ].join('|'),
  'gu',
);

/** Word stems a text is made of ("No.", "№" and "n°" read as "number"). */
export function conceptsOf(text: string): Set<string> {
  const words = fold(text.replace(/(?<!\p{L})[Nn]?[°º]/gu, ' number ').replace(NUMERO, ' number '))
    .split(' ')
    .filter(Boolean);
  return new Set(words.filter((w) => !FUNCTION_WORDS.has(w) && !/^\d+$/.test(w)).map(stem));
}

/**
 * Whether `short` abbreviates `word`: same first letter, its letters in order in the word,
 * and clearly shorter ("qty" of "quantity", "nr" of "number", "desc" of "description").
 */
function abbreviates(short: string, word: string): boolean {
  if (short.length < 2 || short.length > 5 || word.length < short.length + 2) return false;
  return !FUNCTION_WORDS.has(short) && keepsLettersInOrder(short, word);
}

/** The shortest word an ending is told from (shorter ones differ by more than an ending). */
const INFLECTED_STEM = 5;

/**
 * Whether `word` is `stem` with one letter more at its end: an inflection in a language
 * the field's words are not in ("totalt", "totale" of "total").
 */
function inflects(word: string, stem: string): boolean {
  return (
    stem.length >= INFLECTED_STEM &&
    word.length === stem.length + 1 &&
    word.startsWith(stem) &&
    /\p{L}$/u.test(word)
  );
}

/**
 * The run of `words` (in order) whose first letters an initialism spells ("po" of
 * "purchase order"), or none.
 */
function spelledOut(initialism: string, words: readonly string[]): string[] {
  for (let at = 0; at + initialism.length <= words.length; at++) {
    const run = words.slice(at, at + initialism.length);
    if (run.map((w) => w[0]).join('') === initialism) return run;
  }
  return [];
}

/** Weight of a description's words after its head phrase. */
const TAIL_WEIGHT = 0.3;

const unitlessCache = new Map<string, string>();

/**
 * A label less the currency its amounts are in ("TOTAL RM", "Amount (EUR)", "Betrag €"):
 * the unit says how the value is written, not what it is. A currency is taken off at the
 * label's end or in brackets, written in capitals or as a sign; a label that is only a
 * currency stays whole.
 */
export function withoutCurrency(label: string): string {
  const known = unitlessCache.get(label);
  if (known !== undefined) return known;
  const isCurrency = (token: string) =>
    (token === token.toUpperCase() || /\p{Sc}/u.test(token)) && currencyOf(token) !== undefined;
  let text = label.replace(/\s*[([]\s*([^()[\]]{1,12}?)\s*[)\]]/gu, (whole, inside: string) =>
    isCurrency(inside) ? '' : whole,
  );
  const last = /\s+(\S+)\s*$/u.exec(text);
  if (last && isCurrency(last[1])) text = text.slice(0, last.index);
  const unitless = /\p{L}{2}/u.test(text) ? text.trim() : label;
  return remember(unitlessCache, label, unitless, 10_000);
}

function fieldKey(field: FieldText): string {
  return `${field.name}\u0000${field.title ?? ''}\u0000${field.description ?? ''}`;
}

/** Bounded memo: caches that live as long as the process must not grow with its traffic. */
function remember<V>(map: Map<string, V>, key: string, value: V, limit: number): V {
  if (map.size >= limit) map.clear();
  map.set(key, value);
  return value;
}

/** String similarity of a label's words to the field's name and description words. */
export class LexicalLabelSimilarity implements LabelSimilarity {
  private readonly labelCache = new Map<string, Set<string>>();
  private readonly fieldCache = new Map<
    string,
    { name: Set<string>; text: Set<string>; head: Set<string> }
  >();

  private labelConcepts(label: string): Set<string> {
    return (
      this.labelCache.get(label) ?? remember(this.labelCache, label, conceptsOf(label), 10_000)
    );
  }

  private fieldConcepts(field: FieldText): {
    name: Set<string>;
    text: Set<string>;
    head: Set<string>;
  } {
    const key = fieldKey(field);
    const known = this.fieldCache.get(key);
    if (known) return known;
    return remember(
      this.fieldCache,
      key,
      {
        name: conceptsOf(`${humanize(field.name)} ${field.title ?? ''}`),
        text: conceptsOf(field.description ?? ''),
        head: conceptsOf(descriptionHead(field.description ?? '')),
      },
      1_000,
    );
  }

  score(printed: string, field: FieldText): number {
    const label = withoutCurrency(printed);
    const printedConcepts = this.labelConcepts(label);
    if (printedConcepts.size === 0) return 0;
    const { name, text, head } = this.fieldConcepts(field);
    if (normalize(label) === humanize(field.name)) return 1;
    const fieldWords = [...name, ...text];
    // "Totalt", "totale": a field word with a letter of another language's ending is it.
    const labelConcepts = new Set(
      [...printedConcepts].map((c) => fieldWords.find((w) => inflects(c, w)) ?? c),
    );
    // "Qty", "Amt", "Desc", "Nr": a label word that abbreviates a field word stands for it.
    const known = new Set(labelConcepts);
    for (const c of labelConcepts) {
      const full = fieldWords.find((w) => !labelConcepts.has(w) && abbreviates(c, w));
      if (full) known.add(full);
    }
    // "PO No.", "P.O. #": an initialism stands for the field's words it spells out.
    const spelled = new Set<string>();
    for (const initialism of initialismsOf(label)) {
      const run = spelledOut(initialism, [...name]);
      if (run.length === 0) continue;
      // Written "PO" it is one word of the label, written "P.O." one word a letter.
      for (const word of [initialism, ...initialism]) spelled.add(stem(word));
      for (const word of run) known.add(word);
    }
    const inName = [...name].filter((c) => known.has(c)).length;
    const inText = [...labelConcepts].filter(
      (c) =>
        text.has(c) || name.has(c) || spelled.has(c) || fieldWords.some((w) => abbreviates(c, w)),
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
 * Cosines of the encoder between a label and a field's words mapped to 0..1: at or below
 * UNRELATED the label says nothing about the field, at NAMES it names it.
 */
const UNRELATED = 0.3;
const NAMES = 0.8;
/** Labels longer than this are sentences, not labels: scored lexically only. */
const MAX_LABEL_LENGTH = 48;

/** The encoder's similarity, with the lexical one as a floor. */
export class EncoderLabelSimilarity implements LabelSimilarity {
  private readonly fieldVectors = new Map<string, Float32Array[]>();
  private labelVectors = new Map<string, Float32Array>();

  constructor(
    private readonly encoder: SentenceEncoder,
    private readonly lexical: LabelSimilarity = new LexicalLabelSimilarity(),
  ) {}

  /**
   * What a label is compared with: the head of the field's description ("The total
   * amount"), and its name when the name says more than one word ("invoice number"). A
   * one-word name alone ("issuer", "amount") is too vague for the encoder: its nearest
   * labels are merely related words ("Rechnung" for "issuer").
   */
  private static fieldTexts(field: FieldText): string[] {
    const name = [humanize(field.name), field.title ?? ''].join(' ').trim();
    const head = descriptionHead(field.description?.trim() ?? '');
    if (head === '') return [name];
    return name.split(' ').length >= 2 ? [head, name] : [head];
  }

  prepare(labels: Iterable<string>, fields: readonly FieldText[]): void {
    const distinct = new Set<string>();
    for (const label of labels) {
      const text = withoutCurrency(label.trim());
      if (text.length >= 2 && text.length <= MAX_LABEL_LENGTH && /\p{L}/u.test(text))
        distinct.add(text);
    }
    const newFields = fields.filter((f) => !this.fieldVectors.has(fieldKey(f)));
    const fieldTexts = newFields.map(EncoderLabelSimilarity.fieldTexts);
    const labelList = [...distinct];
    // One batch: the network's cost is per call as much as per text.
    const vectors = this.encoder.embed([...fieldTexts.flat(), ...labelList]);
    let at = 0;
    newFields.forEach((field, i) => {
      const count = fieldTexts[i].length;
      remember(this.fieldVectors, fieldKey(field), vectors.slice(at, at + count), 1_000);
      at += count;
    });
    this.labelVectors = new Map(labelList.map((label, i) => [label, vectors[at + i]]));
  }

  score(label: string, field: FieldText): number {
    const lexical = this.lexical.score(label, field);
    const vector = this.labelVectors.get(withoutCurrency(label.trim()));
    const fieldVectors = this.fieldVectors.get(fieldKey(field));
    if (!vector || !fieldVectors) return lexical;
    const similarity = Math.max(...fieldVectors.map((f) => cosine(vector, f)));
    const encoded = Math.min(1, Math.max(0, (similarity - UNRELATED) / (NAMES - UNRELATED)));
    return Math.max(lexical, encoded);
  }
}
