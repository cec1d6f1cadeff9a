/** Turning text found next to a label into a value of the schema's type. */
import {
  endsOnNumberSign,
  findAmounts,
  findCurrencies,
  parsePercentage,
  type CurrencyReader,
} from './amounts.js';
import { currencyOf } from './currency-table.js';
import { findDates, type DateOrder } from './dates.js';
import { typeOf, type JsonSchema } from './extract-schema.js';
import { numberInWords } from './number-words.js';
import { normalize } from './text-match.js';

/** What the document says about how it writes values. */
export interface ValueContext {
  dateOrder: DateOrder;
  /** The calendar the document numbers its dates in, when not the Gregorian one. */
  calendar?: string;
  decimalComma: boolean;
  /** The currency the document's amounts are in, when one dominates. */
  currency?: string;
  /** The document's language (ISO 639-1), for values written out in words. */
  language?: string;
  /** Reads a symbol several currencies share by the document's evidence. */
  readCurrency?: CurrencyReader;
}

/** What a field holds, beyond its JSON type: from its format and its name's words. */
export type ValueKind =
  | 'date'
  | 'money'
  | 'number'
  | 'integer'
  | 'percentage'
  | 'currency'
  | 'boolean'
  | 'enum'
  | 'identifier'
  | 'text';

interface ReadValue {
  value: unknown;
  /** The date read both day-first and month-first and the document did not decide it. */
  ambiguous?: boolean;
  /** How much of the text the value is (1: all of it); a long line holding a date is less. */
  coverage: number;
  /** Where in the text the value ends (numbers), to place it on the line. */
  end?: number;
}

export function parseBoolean(text: string, lenient: boolean): boolean | null {
  const t = text.trim().toLowerCase();
  if (['yes', 'true'].includes(t)) return true;
  if (['no', 'false'].includes(t)) return false;
  if (lenient) {
    if (['y', 'x', '[x]', '☑', '☒', '✓', '✔', 'checked', 'on'].includes(t)) return true;
    if (['n', '[ ]', '☐', 'unchecked', 'off', 'none'].includes(t)) return false;
  }
  return null;
}

/** JSON Schema's words for an identifier's value ("number", "id", "code"), as kindOf reads them. */
export const IDENTIFIER_WORDS: ReadonlySet<string> = new Set([
  'number',
  'no',
  'id',
  'code',
  'ref',
  'reference',
  'nr',
  'num',
]);

/**
 * Whether a label announces an identifier: it ends on a number sign or an identifier's word
 * ("Facture n°", "Invoice #", "Счёт №", "Order No.", "Kunden-Nr."). Its value names a thing;
 * it is no amount or count ("Facture n° 2024" is no total of 2024).
 */
export function announcesIdentifier(label: string): boolean {
  if (endsOnNumberSign(label)) return true;
  const words = normalize(label).split(' ');
  return IDENTIFIER_WORDS.has(words[words.length - 1]);
}

/**
 * The kind of value a field holds. The words looked at are JSON Schema's own vocabulary
 * for value shapes (a date, a number, a code), not names of document fields.
 */
export function kindOf(name: string, schema: JsonSchema): ValueKind {
  const type = typeOf(schema);
  const words = new Set(
    normalize(
      `${name.replace(/([a-z0-9])([A-Z])/g, '$1 $2')} ${schema.title ?? ''}`.replace(/_/g, ' '),
    )
      .split(' ')
      .filter(Boolean),
  );
  if (schema.enum && schema.enum.length > 0) return 'enum';
  if (type === 'boolean') return 'boolean';
  if (schema.format === 'date' || schema.format === 'date-time') return 'date';
  if (type === 'integer') return 'integer';
  if (words.has('percent') || words.has('percentage') || (words.has('rate') && type === 'number'))
    return type === 'number' ? 'percentage' : 'text';
  if (type === 'number') return 'money';
  if (words.has('currency')) return 'currency';
  if (words.has('date') || words.has('dated')) return 'date';
  if ([...IDENTIFIER_WORDS].some((w) => words.has(w))) return 'identifier';
  return 'text';
}

function share(part: string, whole: string): number {
  const w = whole.replace(/\s+/g, '').length;
  return w === 0 ? 0 : Math.min(1, part.replace(/\s+/g, '').length / w);
}

/** An identifier: the first token with a digit ("INV-2026-0042", "TD01167104"). */
export function identifierOf(text: string): string | null {
  const tokens = text
    .trim()
    .split(/\s+/)
    .map((t) => t.replace(/^[#:№.,;]+|[.,;:]+$/g, ''));
  const withDigit = tokens.find((t) => /\d/.test(t) && /^[\p{L}\p{N}][\p{L}\p{N}\-/._]*$/u.test(t));
  return withDigit ?? null;
}

/** Reads `text` as a value of `kind`; null when it is not one. */
export function readValue(
  text: string,
  kind: ValueKind,
  schema: JsonSchema,
  context: ValueContext,
  lenientBooleans = true,
): ReadValue | null {
  const t = text.trim();
  if (t === '') return null;
  switch (kind) {
    case 'date': {
      const date = findDates(t, context.dateOrder, context.calendar)[0];
      if (!date) return null;
      const value = schema.format === 'date' || typeOf(schema) === 'string' ? date.iso : date.iso;
      return {
        value,
        ambiguous: date.ambiguous,
        coverage: share(t.slice(date.index, date.index + date.length), t),
      };
    }
    case 'money':
    case 'number':
    case 'integer': {
      const language = context.language ?? '';
      const amounts = findAmounts(t, context.decimalComma).filter(
        (a) => kind !== 'integer' || Number.isInteger(a.value),
      );
      const amount = amounts[0];
      if (!amount) {
        const spelled = numberInWords(t, language);
        if (!spelled || (kind === 'integer' && !Number.isInteger(spelled.value))) return null;
        return { value: spelled.value, coverage: spelled.coverage };
      }
      // "twelve (12)", "thirty (30) days": the figure restates the words, it is no negative.
      const spelled = amount.value < 0 ? numberInWords(t.slice(0, amount.index), language) : null;
      const value = spelled?.value === -amount.value ? spelled.value : amount.value;
      const rest = t.slice(0, amount.index) + t.slice(amount.index + amount.length);
      // A value with letters around it ("12 items") is less a number than "12.00".
      let coverage = /\p{L}{3}/u.test(rest) ? 0.5 : 1;
      // Money is written with cents; a bare "2" beside "Total" is more likely a count.
      if (kind === 'money' && !amount.decimals && amounts.some((a) => a.decimals)) coverage *= 0.5;
      else if (kind === 'money' && !amount.decimals) coverage *= 0.7;
      // A zero total is printed for what did not apply (no discount, no rounding).
      if (kind === 'money' && amount.value === 0) coverage *= 0.25;
      return {
        value: kind === 'integer' ? Math.round(value) : value,
        coverage,
        end: amount.index + amount.length,
      };
    }
    case 'percentage': {
      const value = parsePercentage(t, context.decimalComma);
      return value === null ? null : { value, coverage: 1 };
    }
    case 'currency': {
      // Beside an amount, or the value itself ("EUR", "Euro", "zł").
      const read = context.readCurrency ?? currencyOf;
      const found =
        findCurrencies(t, read)[0] ??
        t
          .split(/[\s,;:()]+/)
          .map((token) => (token.length <= 12 ? read(token) : undefined))
          .find(Boolean);
      return found ? { value: found, coverage: 1 } : null;
    }
    case 'boolean': {
      const value = parseBoolean(t, lenientBooleans);
      return value === null ? null : { value, coverage: 1 };
    }
    case 'enum': {
      const options = (schema.enum ?? []).filter((o) => o !== null);
      const folded = normalize(t);
      const exact = options.find((o) => normalize(String(o)) === folded);
      const inside = options.find((o) => ` ${folded} `.includes(` ${normalize(String(o))} `));
      const found = exact ?? inside;
      return found === undefined ? null : { value: found, coverage: exact !== undefined ? 1 : 0.6 };
    }
    case 'identifier': {
      const id = identifierOf(t);
      return id ? { value: id, coverage: share(id, t) } : null;
    }
    case 'text': {
      if (!/[\p{L}\p{N}]/u.test(t)) return null;
      return { value: t.length > 500 ? t.slice(0, 500) : t, coverage: 1 };
    }
  }
}
