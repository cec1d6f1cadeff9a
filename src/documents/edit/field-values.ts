/**
 * An instruction's value in the form its field takes: a tick for a checkbox, the option of a
 * choice, a date in the layout the field shows, a number with the field's decimals.
 */
import { findDates, type DateOrder } from '../extract/dates.js';
import { parseNumber } from '../extract/amounts.js';
import type { FieldFormat, FieldOption, FormField, InstructionItem } from './edit.types.js';
import { fold, lexicalScore, type FieldScorer } from './field-matching.js';

const YES = new Set(
  'yes y true x ✓ ✔ ☑ ☒ tick ticked check checked on 1 oui ja jawohl si sí sim tak da vero wahr waar selected'.split(
    ' ',
  ),
);
const NO = new Set(
  'no n false off 0 non nein nee não nao nie falso falsch onwaar unchecked untick unticked none ☐'.split(
    ' ',
  ),
);

/** true/false for a yes/no word, undefined for anything else. */
export function truthOf(value: string): boolean | undefined {
  const word = value
    .trim()
    .toLowerCase()
    .replace(/[.!]+$/u, '');
  if (YES.has(word)) return true;
  if (NO.has(word)) return false;
  return undefined;
}

/** What a checkbox gets: ticked, unticked, or undefined when the value says neither. */
export function checkboxValue(item: InstructionItem, field: FormField): boolean | undefined {
  if (item.action === 'check') return true;
  if (item.action === 'uncheck') return false;
  if (item.value === null) return true;
  const truth = truthOf(item.value);
  if (truth !== undefined) return truth;
  // "status: married" for a checkbox captioned "Married".
  return field.labels.some((label) => lexicalScore(item.value ?? '', label) >= 0.8)
    ? true
    : undefined;
}

function numbersIn(text: string): string {
  return (text.match(/\d+/gu) ?? []).map(Number).join(' ');
}

/** The option a value or a tick names, with how sure it is. */
export function optionFor(
  item: InstructionItem,
  options: readonly FieldOption[],
  scorer: FieldScorer,
): { option: FieldOption; confidence: number } | undefined {
  const wanted = item.value ?? item.label;
  // An option written as asked is the one meant, however alike its neighbours score
  // ("combo Line 2" among "combo Line 1..3", whose words differ only by a number).
  const exact = options.find((option) =>
    [...option.labels, option.value].some((text) => fold(text) === fold(wanted)),
  );
  if (exact) return { option: exact, confidence: 1 };
  const wantedNumbers = numbersIn(wanted);
  let best: { option: FieldOption; confidence: number } | undefined;
  for (const option of options) {
    let confidence = scorer.score(wanted, [...option.labels, option.value]);
    // Words score numbers weakly; an option naming other numbers than asked is another one.
    const texts = [...option.labels, option.value];
    if (wantedNumbers !== '' && !texts.some((text) => numbersIn(text) === wantedNumbers))
      confidence *= 0.8;
    if (!best || confidence > best.confidence) best = { option, confidence };
  }
  return best && best.confidence >= 0.5 ? best : undefined;
}

const DATE_HINT =
  /\b(dd|tt|jj|gg)([./-])(mm)\2(yyyy|yy|jjjj|aaaa|rrrr)\b|\b(mm)([./-])(dd|jj|tt|gg)\6(yyyy|yy|jjjj|aaaa|rrrr)\b|\b(yyyy|jjjj|aaaa|rrrr)([./-])(mm)\10(dd|tt|jj|gg)\b/iu;

/** A date layout written in a field's labels ("Date (MM/DD/YYYY)", "TT.MM.JJJJ"). */
export function dateLayoutIn(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    const match = DATE_HINT.exec(text);
    if (!match) continue;
    return match[0]
      .toLowerCase()
      .replace(/tt|jj|gg/u, 'dd')
      .replace(/jjjj|aaaa|rrrr/u, 'yyyy');
  }
  return undefined;
}

function orderOf(layout: string): DateOrder {
  return layout.indexOf('m') < layout.indexOf('d') && !layout.startsWith('yy') ? 'mdy' : 'dmy';
}

/** `iso` (yyyy-mm-dd) written in `layout` (dd, mm, yyyy or yy tokens). */
export function formatDate(iso: string, layout: string): string {
  const [year, month, day] = iso.split('-');
  return layout
    .replace(/yyyy/u, year)
    .replace(/yy/u, year.slice(2))
    .replace(/mm/u, month)
    .replace(/dd/u, day);
}

/**
 * A text field's value: a date rewritten in the field's layout, a number with its
 * decimals, anything else as written (trimmed to the field's maximum length by the caller).
 */
export function textValue(value: string, format: FieldFormat | undefined): string {
  if (format?.date) {
    const found = findDates(value, orderOf(format.date))[0];
    if (found) return formatDate(found.iso, format.date);
  }
  if (format?.decimals !== undefined) {
    const number = parseNumber(value);
    if (number !== null && number !== undefined && Number.isFinite(number))
      return number.toFixed(format.decimals);
  }
  return value;
}

/**
 * A value longer than a field's maximum length: a number written with separators
 * ("123-45-6789" into 9 boxes) loses them; anything else is cut.
 */
export function fitLength(value: string, maxLength: number | undefined): string {
  if (maxLength === undefined || value.length <= maxLength) return value;
  const compact = value.replace(/[\s./-]+/gu, '');
  return compact.length <= maxLength ? compact : value.slice(0, maxLength);
}
