/**
 * Checks of values against each other and the document's arithmetic:
 * amounts that add up (subtotal + tax = total) are kept and trusted more; between two
 * near-equal labels for one amount, the one the document reaches by adding another of its
 * amounts (the total due after tax, not the net total) is taken; an amount that heads a
 * totals block (net, then tax, then their sum) gives way to the sum under it; an amount the
 * line items of the document's tables add up to (alone, or with another of its amounts:
 * the tax) is preferred to one they do not reach.
 */
import type { LayoutLine } from '../parse/layout.types.js';
import { findAmounts } from './amounts.js';
import { lineCitation } from './citation.js';
import type { DocumentContext } from './document-context.js';
import type { Leaf, ScalarField, Scored } from './field-search.js';

const CENT = 0.005;
/** Alternatives within this share of a field's best score are open to the checks. */
const NEAR = 0.85;
/** Deep extract looks further down its ranking. */
const NEAR_DEEP = 0.6;
const MAX_FIELDS = 8;
const ALTERNATIVES = 3;

const close = (a: number, b: number) => Math.abs(a - b) < CENT + 1e-9 * Math.abs(b);

function leafOf(pick: Scored, confidence: number): Leaf {
  return {
    kind: 'leaf',
    value: pick.value,
    citations: [pick.candidate.citation],
    confidence: Math.min(1, confidence),
  };
}

/** Near-tied amounts for one field: prefer the one another amount leads up to. */
function preferBuiltUpTotal(
  field: ScalarField,
  ranked: readonly Scored[],
  assigned: Map<string, Leaf>,
  amounts: readonly number[],
  near: number,
): void {
  const current = assigned.get(field.key);
  if (!current || typeof current.value !== 'number' || ranked.length < 2) return;
  const best = ranked[0].score;
  const value = current.value;
  for (const alternative of ranked) {
    if (alternative.score < best * near) break;
    const other = alternative.value;
    if (typeof other !== 'number' || other <= value) continue;
    const difference = other - value;
    if (amounts.some((a) => a > 0 && close(a, difference))) {
      assigned.set(field.key, leafOf(alternative, Math.max(alternative.score, current.confidence)));
      return;
    }
  }
}

/** Lines of a totals block looked at under an amount. */
const TOTALS_DEPTH = 5;
/** A pick this sure was named by its label outright ("Subtotal" for a subtotal): kept. */
const NAMED = 0.9;

/**
 * The sum line of a totals block headed by the amount `value` on line `from`: the first
 * line below, past at least one addition, whose amount equals `value` plus the amounts
 * between (every line of the block carries an amount).
 */
function sumBelow(
  lines: readonly LayoutLine[],
  from: number,
  value: number,
  decimalComma: boolean,
): { line: LayoutLine; value: number } | undefined {
  let running = value;
  const page = lines[from]?.bbox.page;
  for (let k = from + 1; k < Math.min(lines.length, from + 1 + TOTALS_DEPTH); k++) {
    if (lines[k].bbox.page !== page) return undefined;
    const last = findAmounts(lines[k].text, decimalComma)
      .filter((a) => a.decimals)
      .at(-1);
    if (!last) return undefined;
    if (k > from + 1 && last.value > value && close(last.value, running))
      return { line: lines[k], value: last.value };
    running += last.value;
  }
  return undefined;
}

/** An amount read from the head of a totals block, when its label is no exact name: the sum. */
function preferBlockSum(
  field: ScalarField,
  ranked: readonly Scored[],
  assigned: Map<string, Leaf>,
  lines: readonly LayoutLine[],
  context: DocumentContext,
): void {
  const current = assigned.get(field.key);
  if (!current || typeof current.value !== 'number' || current.value <= 0) return;
  const pick = ranked.find(
    (s) => s.value === current.value && s.candidate.citation === current.citations[0],
  );
  if (!pick || pick.score >= NAMED) return;
  const sum = sumBelow(lines, pick.candidate.lineIndex, current.value, context.decimalComma);
  if (!sum) return;
  assigned.set(field.key, {
    kind: 'leaf',
    value: sum.value,
    citations: [lineCitation(sum.line, 'Key Value')],
    confidence: current.confidence,
  });
}

/** Three amount fields whose values add up (a + b = c): keep them, trust them more. */
function balanceAmounts(
  fields: readonly ScalarField[],
  ranked: ReadonlyMap<string, Scored[]>,
  assigned: Map<string, Leaf>,
): void {
  const money = fields.filter((f) => f.kind === 'money').slice(0, MAX_FIELDS);
  if (money.length < 3) return;
  const options = money.map((f) =>
    (ranked.get(f.key) ?? []).filter((s) => typeof s.value === 'number').slice(0, ALTERNATIVES),
  );
  let best: { picks: Scored[]; fields: ScalarField[]; score: number } | undefined;
  for (let c = 0; c < money.length; c++) {
    for (let a = 0; a < money.length; a++) {
      for (let b = a + 1; b < money.length; b++) {
        if (a === c || b === c) continue;
        for (const pc of options[c]) {
          for (const pa of options[a]) {
            for (const pb of options[b]) {
              if (!close((pa.value as number) + (pb.value as number), pc.value as number)) continue;
              if ((pa.value as number) === 0 && (pb.value as number) === 0) continue;
              const score = pa.score + pb.score + pc.score;
              if (!best || score > best.score)
                best = { picks: [pa, pb, pc], fields: [money[a], money[b], money[c]], score };
            }
          }
        }
      }
    }
  }
  if (!best) return;
  best.fields.forEach((field, i) => {
    const pick = best.picks[i];
    assigned.set(field.key, leafOf(pick, Math.max(0.9, pick.score)));
  });
}

/**
 * An amount the line items do not add up to (nor they and another amount of the document)
 * gives way to the best near-tied alternative they do add up to.
 */
function preferRowsSum(
  field: ScalarField,
  ranked: readonly Scored[],
  assigned: Map<string, Leaf>,
  rowSums: readonly number[],
  amounts: readonly number[],
  near: number,
): void {
  const current = assigned.get(field.key);
  if (rowSums.length === 0 || !current || typeof current.value !== 'number') return;
  const reached = (value: number) =>
    rowSums.some((sum) => close(value, sum) || amounts.some((a) => a > 0 && close(value - sum, a)));
  if (reached(current.value)) return;
  const best = ranked[0]?.score ?? 0;
  const alternative = ranked.find(
    (s) => s.score >= best * near && typeof s.value === 'number' && reached(s.value),
  );
  if (alternative)
    assigned.set(field.key, leafOf(alternative, Math.max(alternative.score, current.confidence)));
}

/** A field's answers near its best (the search's alternatives), as leaves. */
export function nearAlternatives(ranked: readonly Scored[], deep: boolean): Leaf[] {
  const best = ranked[0]?.score ?? 0;
  const near = deep ? NEAR_DEEP : NEAR;
  return ranked
    .filter((s) => s.score >= best * near)
    .slice(0, ALTERNATIVES)
    .map((s) => leafOf(s, s.score));
}

const labelKey = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * The other answers the document gives under the label `current` was read from (several
 * lines labelled "Date"), as leaves; none when `current` was not read from a label.
 */
export function sameLabelAlternatives(
  ranked: readonly Scored[],
  current: Leaf | undefined,
): Leaf[] {
  const pick = ranked.find((s) => s.candidate.citation === current?.citations[0]);
  if (!pick) return [];
  const label = labelKey(pick.candidate.label);
  return ranked
    .filter((s) => s !== pick && labelKey(s.candidate.label) === label)
    .slice(0, ALTERNATIVES)
    .map((s) => leafOf(s, s.score));
}

/**
 * @param rowSums what each money column of the document's line items adds up to (the
 *   tables the schema's arrays of objects were read from); empty when there are none.
 */
export function crossCheck(
  fields: readonly ScalarField[],
  ranked: ReadonlyMap<string, Scored[]>,
  assigned: Map<string, Leaf>,
  context: DocumentContext,
  lines: readonly LayoutLine[],
  deep: boolean,
  rowSums: readonly number[] = [],
): void {
  const amounts = findAmounts(context.text, context.decimalComma)
    .filter((a) => a.decimals)
    .map((a) => a.value);
  const near = deep ? NEAR_DEEP : NEAR;
  for (const field of fields) {
    if (field.kind === 'money') {
      const options = ranked.get(field.key) ?? [];
      preferBuiltUpTotal(field, options, assigned, amounts, near);
      preferBlockSum(field, options, assigned, lines, context);
      preferRowsSum(field, options, assigned, rowSums, amounts, near);
    }
  }
  if (deep) balanceAmounts(fields, ranked, assigned);
}
