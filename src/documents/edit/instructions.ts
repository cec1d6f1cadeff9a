/**
 * Plain-language edit instructions as (label, value) items: "name: Ada Lovelace, start date
 * 1 March 2027, tick 'married'" -> (name, Ada Lovelace), (start date, 1 March 2027),
 * tick (married). Separators are general punctuation and a short list of fill/tick verbs in
 * the languages the rest of docproc reads; whether a comma starts a new item or belongs to a
 * value ("12 Main St, Springfield") is decided by whether the text after it names a field.
 */
import type { InstructionItem } from './edit.types.js';

/** Verbs that tick (or untick) what follows, in the languages docproc's readers cover. */
const CHECK_VERBS = [
  'tick',
  'check',
  'mark',
  'select',
  'choose',
  'cross',
  'cocher',
  'cochez',
  'coche',
  'sélectionner',
  'ankreuzen',
  'kreuze',
  'markieren',
  'auswählen',
  'marcar',
  'marque',
  'seleccionar',
  'seleccione',
  'spuntare',
  'spunta',
  'selezionare',
  'aanvinken',
  'vink',
  'selecteer',
  'zaznacz',
  'zaznaczyć',
  'wybierz',
];
const UNCHECK_VERBS = [
  'untick',
  'uncheck',
  'unmark',
  'clear',
  'décocher',
  'décochez',
  'abwählen',
  'desmarcar',
  'deselezionare',
  'uitvinken',
  'odznacz',
];
/** "set X to Y", "fill X with Y", "X should be Y" and their kin. */
const SET_PATTERNS: RegExp[] = [
  /^(?:please\s+)?(?:set|change|fill(?:\s+in)?|enter|put|write|update)\s+(?:the\s+)?(.+?)\s+(?:to|with|as|=)\s+(.+)$/iu,
  /^(.+?)\s*(?::|=|→|->|=>)\s*(.+)$/u,
  /^(?:the\s+)?(.+?)\s+(?:should be|must be|is|are)\s+(.+)$/iu,
];

const QUOTES = /^["'“”‘’«»„]+|["'“”‘’«»„]+$/gu;

function unquote(text: string): string {
  return text.trim().replace(QUOTES, '').trim();
}

/**
 * Tick verbs that end an item in languages that put the infinitive last ("Entschädigung
 * ankreuzen", "gehuwd aanvinken"), and the particle a verb first leaves at the end ("kreuze
 * verheiratet an").
 */
const TRAILING_CHECK_VERBS = ['ankreuzen', 'markieren', 'auswählen', 'aanvinken', 'selecteren'];
const TRAILING_UNCHECK_VERBS = ['abwählen', 'uitvinken'];
const TRAILING_PARTICLES: Record<string, string> = { kreuze: 'an', vink: 'aan' };

function verbAt(text: string, verbs: readonly string[]): string | undefined {
  const lower = text.toLowerCase();
  return verbs.find((verb) => lower.startsWith(`${verb} `) || lower === verb);
}

/** The label of a tick item whose verb comes first ("kreuze X an" -> "X"). */
function afterVerb(text: string, verb: string): string {
  const rest = text.slice(verb.length).trim();
  const particle = TRAILING_PARTICLES[verb];
  return particle && rest.toLowerCase().endsWith(` ${particle}`)
    ? rest.slice(0, -particle.length - 1)
    : rest;
}

/** A tick item whose verb comes last ("Entschädigung ankreuzen"): its label. */
function beforeVerb(text: string, verbs: readonly string[]): string | undefined {
  // "Remark: bitte markieren" is a label and its value, not something to tick.
  if (/[:=→]/u.test(text)) return undefined;
  const lower = text.toLowerCase();
  const verb = verbs.find((v) => lower.endsWith(` ${v}`));
  return verb ? text.slice(0, text.length - verb.length - 1) : undefined;
}

/** Whether a piece after a comma starts an item on its own (a separator or a verb). */
function startsItem(piece: string): boolean {
  const text = piece.trim();
  if (/^[^"'“«]{1,60}?\s*(?::|=|→|->|=>)/u.test(text)) return true;
  return (
    verbAt(text, CHECK_VERBS) !== undefined ||
    verbAt(text, UNCHECK_VERBS) !== undefined ||
    beforeVerb(text, [...TRAILING_CHECK_VERBS, ...TRAILING_UNCHECK_VERBS]) !== undefined ||
    /^(?:please\s+)?(?:set|change|fill|enter|put|write|update)\s/iu.test(text)
  );
}

/** What always separates items: lines, semicolons, bullets. */
const ITEM_SEPARATOR = /\r?\n|;|\u2022/u;
/** What may separate items within a segment: commas before a non-digit, "and" before a label. */
const PIECE_SEPARATOR = /,(?!\d)|\s+(?:and|und|et|y|en|oraz)\s+(?=\S+\s*:)/u;

/** How much better a label must name a field with a bare piece before it, to take it. */
const LABEL_GAIN = 0.05;

/**
 * The most items `instructions` can hold: its pieces between separators, before commas that
 * belong to a value are joined back. Cheap (no field is looked at), so a request can be
 * bounded by it before any matching work.
 */
export function instructionPieceCount(instructions: string): number {
  let count = 0;
  for (const segment of instructions.split(ITEM_SEPARATOR)) {
    for (const piece of segment.split(PIECE_SEPARATOR)) if (piece.trim() !== '') count++;
  }
  return count;
}

/** Pieces of a segment between separators outside brackets ("address (number, street): ..."). */
function piecesOf(segment: string): string[] {
  const pieces: string[] = [];
  const separator = new RegExp(PIECE_SEPARATOR.source, 'gu');
  let start = 0;
  for (const match of segment.matchAll(separator)) {
    const before = segment.slice(0, match.index);
    const open = (before.match(/[([]/gu) ?? []).length - (before.match(/[)\]]/gu) ?? []).length;
    if (open > 0) continue;
    pieces.push(segment.slice(start, match.index));
    start = match.index + match[0].length;
  }
  pieces.push(segment.slice(start));
  return pieces;
}

/** The label of a piece written "label: value", else undefined. */
function labelBefore(piece: string): string | undefined {
  return /^([^"'“«]{1,80}?)\s*(?::|=|→|->|=>)/u.exec(piece.trim())?.[1];
}

/**
 * Lines, semicolons and bullets always separate; commas are decided with `namesField`. A
 * bare piece before "label: value" is the start of that label when the two together name a
 * field better than the label alone ("City, town or post office, state, and ZIP code: ...",
 * copied from a form), by `labelScore`.
 */
export function splitInstructions(
  instructions: string,
  namesField: (piece: string) => boolean,
  labelScore: (label: string) => number = () => 0,
): string[] {
  const segments = instructions
    .split(ITEM_SEPARATOR)
    .map((s) =>
      s
        .trim()
        .replace(/^(?:[-*]\s+|\d+[.)]\s+)/u, '')
        .replace(/^(?:and|und|et|y|e|en|i|oraz)\s+/iu, ''),
    )
    .filter((s) => s.length > 0);
  const items: string[] = [];
  for (const segment of segments) {
    // Items of this segment; `bare` marks those of label words alone (no value, no verb).
    const own: { text: string; bare: boolean }[] = [];
    for (const piece of piecesOf(segment)) {
      const text = piece.trim();
      if (text === '') continue;
      const last = own[own.length - 1];
      const label = labelBefore(text);
      if (label !== undefined && last?.bare) {
        // The bare items just before "label: value" may begin that label.
        let run = 0;
        while (run < own.length && own[own.length - 1 - run].bare) run++;
        let best = { score: labelScore(label) + LABEL_GAIN, taken: 0 };
        for (let taken = 1; taken <= run; taken++) {
          const words = own.slice(own.length - taken).map((item) => item.text);
          const score = labelScore([...words, label].join(', '));
          if (score > best.score) best = { score, taken };
        }
        if (best.taken > 0) {
          const words = own.splice(own.length - best.taken).map((item) => item.text);
          own.push({ text: [...words, text].join(', '), bare: false });
          continue;
        }
      }
      if (last && !startsItem(text) && !namesField(text)) {
        last.text = `${last.text}, ${text}`;
        last.bare = last.bare && !/\d/u.test(text);
      } else own.push({ text, bare: !startsItem(text) && !/\d/u.test(text) });
    }
    items.push(...own.map((item) => item.text));
  }
  return items;
}

/**
 * The label and value of one item. An item without separator or verb ("start date 1 March
 * 2027") is split where `labelScore` finds its best-named prefix; with no prefix naming
 * anything, the whole item is something to tick ("married").
 */
export function readItem(
  text: string,
  index: number,
  labelScore: (label: string) => number,
): InstructionItem {
  const check = verbAt(text, CHECK_VERBS);
  if (check)
    return { index, text, label: unquote(afterVerb(text, check)), value: null, action: 'check' };
  const uncheck = verbAt(text, UNCHECK_VERBS);
  if (uncheck)
    return {
      index,
      text,
      label: unquote(afterVerb(text, uncheck)),
      value: null,
      action: 'uncheck',
    };
  const checkLast = beforeVerb(text, TRAILING_CHECK_VERBS);
  if (checkLast) return { index, text, label: unquote(checkLast), value: null, action: 'check' };
  const uncheckLast = beforeVerb(text, TRAILING_UNCHECK_VERBS);
  if (uncheckLast)
    return { index, text, label: unquote(uncheckLast), value: null, action: 'uncheck' };
  for (const pattern of SET_PATTERNS) {
    const match = pattern.exec(text);
    if (match && match[1].trim() !== '' && unquote(match[2]) !== '') {
      return { index, text, label: unquote(match[1]), value: unquote(match[2]) };
    }
  }
  const words = text.split(/\s+/u);
  let best = { score: 0, split: 0 };
  for (let k = 1; k < Math.min(words.length, 8); k++) {
    // A value starts at the first word with a digit ("start date 1 March 2027").
    if (/\d/u.test(words[k - 1])) break;
    const score = labelScore(words.slice(0, k).join(' '));
    if (score >= best.score && score > 0) best = { score, split: k };
  }
  if (best.split > 0 && best.score >= labelScore(text) - 0.05) {
    return {
      index,
      text,
      label: words.slice(0, best.split).join(' '),
      value: unquote(words.slice(best.split).join(' ')),
    };
  }
  return { index, text, label: unquote(text), value: null, action: 'check' };
}
