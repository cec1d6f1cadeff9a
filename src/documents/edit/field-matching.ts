/**
 * How well an instruction's label names a field, and which field each instruction fills.
 * Two kinds of evidence, both general: the words (folded, stemmed, compared both ways so
 * "first name" prefers "Your first name" over "Spouse's first name and initial"), and the
 * multilingual sentence encoder (USE multilingual v3, the classifier's), which scores
 * "Geburtsdatum" against "Date of birth". The encoder is optional: without it (not
 * installed, or the lexical engine version) the words decide alone.
 */
import { cosine, type SentenceEncoder } from '../encoder/sentence-encoder.js';
import { similarity } from '../extract/text-match.js';
import type { FormField, InstructionItem } from './edit.types.js';

/** Cosines of unrelated short phrases sit near 0.2, paraphrases and translations above 0.6. */
const COSINE_FLOOR = 0.3;
const COSINE_SPAN = 0.5;
/** Below this an instruction names no field (it is reported unmatched). */
export const MATCH_THRESHOLD = 0.5;
/** Scores this close name a field equally well (see assignInstructions). */
const NEAR_TIE = 0.1;

const FUNCTION_WORDS = new Set(
  'a an and are as at be by de der die das des du el en et for from if in is it la le les of on or the to your you y o da do di del della van von het een'.split(
    ' ',
  ),
);

/** Lower case, accents and punctuation dropped: the text two spellings of one name share. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function wordsOf(text: string): string[] {
  return fold(text)
    .split(' ')
    .filter((w) => w !== '' && !FUNCTION_WORDS.has(w) && !/^\d{1,2}[a-z]?$/u.test(w));
}

/** Two words agree when equal, when one is a stem-length prefix of the other, or nearly equal. */
function wordsAgree(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = a.length <= b.length ? a : b;
  const longer = a.length <= b.length ? b : a;
  if (shorter.length >= 4 && longer.startsWith(shorter)) return true;
  return shorter.length >= 5 && similarity(a, b) >= 0.8;
}

/** Share of `a`'s words found in `b`. */
function coverage(a: string[], b: string[]): number {
  if (a.length === 0) return 0;
  return a.filter((w) => b.some((v) => wordsAgree(w, v))).length / a.length;
}

/** Word evidence: how much of the label the text holds, and how much of the text the label. */
export function lexicalScore(label: string, text: string): number {
  const a = wordsOf(label);
  const b = wordsOf(text);
  if (a.length === 0 || b.length === 0) return 0;
  if (a.join(' ') === b.join(' ')) return 1;
  const held = coverage(a, b);
  const covered = coverage(b, a);
  const whole = similarity(a.join(' '), b.join(' '));
  return Math.max(0.7 * held + 0.3 * covered, whole);
}

/**
 * The text the encoder reads: a caption set in capitals ("COMPENSATION", "DATE OF BIRTH"),
 * as government forms print them, in lower case. The encoder was trained on ordinary
 * writing and reads capitals as rare tokens: "Entschädigung" is 0.74 from "compensation"
 * but 0.33 from "COMPENSATION". Mixed text keeps its case (its acronyms carry meaning).
 */
function encoderText(text: string): string {
  const trimmed = text.trim();
  const upper = (trimmed.match(/\p{Lu}/gu) ?? []).length;
  const lower = (trimmed.match(/\p{Ll}/gu) ?? []).length;
  return upper > lower ? trimmed.toLowerCase() : trimmed;
}

export class FieldScorer {
  constructor(private readonly encoder: SentenceEncoder | null) {}

  /** Embeds every text once, in one batch (the encoder is the costly part). */
  prepare(texts: readonly string[]): void {
    if (!this.encoder) return;
    const unique = [...new Set(texts.map(encoderText).filter((t) => t !== ''))];
    if (unique.length > 0) this.encoder.embed(unique);
  }

  private semantic(label: string, text: string): number {
    if (!this.encoder || label.trim() === '' || text.trim() === '') return 0;
    const [a, b] = this.encoder.embed([encoderText(label), encoderText(text)]);
    return Math.min(1, Math.max(0, (cosine(a, b) - COSINE_FLOOR) / COSINE_SPAN));
  }

  /** 0..1: how well `label` names one of `texts` (best text wins; earlier texts weigh more). */
  score(label: string, texts: readonly string[]): number {
    let best = 0;
    texts.forEach((text, i) => {
      const lexical = lexicalScore(label, text);
      const semantic = this.semantic(label, text);
      // Agreement of both kinds of evidence counts more than either alone.
      const combined = Math.max(lexical, 0.95 * semantic) + 0.1 * Math.min(lexical, semantic);
      best = Math.max(best, Math.min(1, combined) * (1 - 0.02 * Math.min(i, 5)));
    });
    return best;
  }

  /**
   * How well `label` names a field: its own labels, or (to tick) one of its options.
   * `closely` also reads the short phrases inside long labels ("first name" in "Your first
   * name and middle initial"), where a whole long label dilutes the encoder's evidence.
   */
  fieldScore(label: string, field: FormField, toTick: boolean, closely = false): number {
    const labels = closely ? [...field.labels, ...field.labels.flatMap(phrasesIn)] : field.labels;
    const own = this.score(label, labels);
    if (!toTick) return own;
    if (field.kind === 'checkbox') return own;
    if (field.kind === 'choice' && field.options)
      return Math.max(...field.options.map((o) => this.score(label, o.labels)));
    return own * 0.5;
  }
}

/** Short phrases of a long label: its clauses, and runs of two and three words. */
function phrasesIn(label: string): string[] {
  const out: string[] = [];
  for (const clause of label.split(/[,.;:()/]|\s(?:and|or|if|und|oder|et|ou|y|o)\s/u)) {
    const words = clause
      .trim()
      .split(/\s+/u)
      .filter((w) => w !== '');
    if (words.length === 0) continue;
    if (clause.trim() !== label.trim()) out.push(words.join(' '));
    while (words.length > 1 && FUNCTION_WORDS.has(fold(words[0]))) words.shift();
    out.push(words.join(' '));
    if (words.length < 3 || words.length > 12) continue;
    for (const size of [2, 3]) {
      for (let i = 0; i + size < words.length + (size === 2 ? 0 : 0); i++)
        out.push(words.slice(i, i + size).join(' '));
    }
  }
  return [...new Set(out)];
}

/** Fields per instruction read closely (phrase by phrase) after a first pass on whole labels. */
const CLOSE_READS = 12;

interface Assignment {
  item: InstructionItem;
  field: FormField;
  confidence: number;
}

/**
 * How a field takes an item's value: `refuses` (a choice none of whose options it names, a
 * box it cannot tick), `cuts` (text longer than the field's maximum length, even without
 * separators), `fits`, or `exact`: the field holds exactly as many characters as the value
 * has (a five-character ZIP box for "62704"), which a form sizes a box for only when it
 * asks for such a value.
 */
export type Uptake = 'refuses' | 'cuts' | 'fits' | 'exact';

const UPTAKE_RANK: Record<Uptake, number> = { refuses: 0, cuts: 1, fits: 2, exact: 3 };

/**
 * Each instruction fills the field that names it best; a field takes one instruction.
 * Greedy by score (the surest pairs first); a field that refuses the value is not a
 * candidate. Of fields named nearly as well, one the value fits best wins ("62704" goes to
 * a ZIP box of five characters, not to the box of its last four, nor to a street line whose
 * caption mentions the ZIP code), then the one earlier on the page, so two "Last name"
 * fields are filled in reading order.
 */
export function assignInstructions(
  items: readonly InstructionItem[],
  fields: readonly FormField[],
  scorer: FieldScorer,
  uptake: (item: InstructionItem, field: FormField) => Uptake = () => 'fits',
): { assigned: Assignment[]; unmatched: InstructionItem[] } {
  const fillable = fields.filter((f) => f.fill && f.preset === undefined);
  const pairs: (Assignment & { rank: number })[] = [];
  for (const item of items) {
    const toTick = item.value === null;
    const candidates = fillable
      .filter((field) => !(toTick && field.kind === 'text'))
      .map((field) => ({ field, first: scorer.fieldScore(item.label, field, toTick) }))
      .sort((a, b) => b.first - a.first)
      .slice(0, CLOSE_READS);
    scorer.prepare(candidates.flatMap((c) => c.field.labels.flatMap(phrasesIn)));
    for (const { field } of candidates) {
      const confidence = scorer.fieldScore(item.label, field, toTick, true);
      if (confidence < MATCH_THRESHOLD) continue;
      const rank = UPTAKE_RANK[uptake(item, field)];
      if (rank > 0) pairs.push({ item, field, confidence, rank });
    }
  }
  pairs.sort(
    (a, b) =>
      b.confidence - a.confidence || a.field.order - b.field.order || a.item.index - b.item.index,
  );
  const usedItems = new Set<number>();
  const usedFields = new Set<string>();
  const assigned: Assignment[] = [];
  for (const pair of pairs) {
    if (usedItems.has(pair.item.index) || usedFields.has(pair.field.id)) continue;
    // Fields named nearly as well are told apart by how the value fits, then by reading
    // order: a form asks for its main subject first ("Your first name" before a
    // dependant's "First name").
    const chosen = pairs
      .filter(
        (p) =>
          p.item === pair.item &&
          !usedFields.has(p.field.id) &&
          p.confidence >= pair.confidence - NEAR_TIE,
      )
      .reduce((a, b) =>
        b.rank > a.rank || (b.rank === a.rank && b.field.order < a.field.order) ? b : a,
      );
    usedItems.add(chosen.item.index);
    usedFields.add(chosen.field.id);
    assigned.push({ item: chosen.item, field: chosen.field, confidence: chosen.confidence });
  }
  return {
    assigned: assigned.sort((a, b) => a.item.index - b.item.index),
    unmatched: items.filter((item) => !usedItems.has(item.index)),
  };
}
