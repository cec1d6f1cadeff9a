/**
 * From instructions and a document's fields to what each field receives, independent of the
 * format: the items are read, matched to fields, and their values typed for the field.
 */
import type { FieldOption, FormField, InstructionItem } from './edit.types.js';
import {
  assignInstructions,
  type FieldScorer,
  MATCH_THRESHOLD,
  type Uptake,
} from './field-matching.js';
import {
  checkboxValue,
  dateLayoutIn,
  fitLength,
  optionFor,
  textValue,
  truthOf,
} from './field-values.js';
import { readItem, splitInstructions } from './instructions.js';

type FieldWrite =
  | { kind: 'text'; text: string }
  | { kind: 'check'; on: boolean }
  | { kind: 'option'; option: FieldOption };

export interface Decision<F extends FormField = FormField> {
  field: F;
  item: InstructionItem | null;
  confidence: number;
  write: FieldWrite;
}

export interface EditPlan<F extends FormField = FormField> {
  decisions: Decision<F>[];
  unmatched: InstructionItem[];
  unfilled: F[];
}

function presetWrite(field: FormField, preset: string): FieldWrite | undefined {
  if (field.kind === 'text') return { kind: 'text', text: preset };
  if (field.kind === 'checkbox')
    return { kind: 'check', on: truthOf(preset) ?? preset.trim() !== '' };
  const option = field.options?.find((o) => o.value === preset || o.labels.includes(preset));
  return option ? { kind: 'option', option } : undefined;
}

function writeFor(
  item: InstructionItem,
  field: FormField,
  scorer: FieldScorer,
): { write: FieldWrite; confidence: number } | undefined {
  if (field.kind === 'text') {
    if (item.value === null) return undefined;
    return {
      write: {
        kind: 'text',
        text: fitLength(textValue(item.value, field.format), field.maxLength),
      },
      confidence: 1,
    };
  }
  if (field.kind === 'checkbox') {
    const on = checkboxValue(item, field);
    return on === undefined ? undefined : { write: { kind: 'check', on }, confidence: 1 };
  }
  const chosen = optionFor(item, field.options ?? [], scorer);
  return chosen
    ? { write: { kind: 'option', option: chosen.option }, confidence: chosen.confidence }
    : undefined;
}

/** How `field` takes `item`'s value (see Uptake). */
function uptakeOf(item: InstructionItem, field: FormField, scorer: FieldScorer): Uptake {
  if (!writeFor(item, field, scorer)) return 'refuses';
  if (field.kind !== 'text' || field.maxLength === undefined || item.value === null) return 'fits';
  const compact = textValue(item.value, field.format).replace(/[\s./-]+/gu, '');
  if (compact.length === field.maxLength) return 'exact';
  return compact.length < field.maxLength ? 'fits' : 'cuts';
}

function round(confidence: number): number {
  return Math.round(confidence * 1000) / 1000;
}

/**
 * A number longer than its field, written across the boxes that follow it ("123-45-6789"
 * into boxes of 3, 2 and 4 characters): the field and the next unfilled text fields of its
 * page in reading order, when their lengths add up to the value's characters exactly.
 */
function spreadOverBoxes<F extends FormField>(
  item: InstructionItem,
  field: FormField,
  fields: readonly F[],
  taken: ReadonlySet<string>,
): [F, string][] | undefined {
  if (field.kind !== 'text' || field.maxLength === undefined || item.value === null)
    return undefined;
  const compact = textValue(item.value, field.format).replace(/[\s./-]+/gu, '');
  if (compact.length <= field.maxLength) return undefined;
  const following = fields
    .filter((f) => f.order > field.order && f.page === field.page)
    .sort((a, b) => a.order - b.order);
  const boxes = [field as F];
  let length = field.maxLength;
  for (const next of following) {
    if (length >= compact.length) break;
    if (next.kind !== 'text' || !next.fill || next.maxLength === undefined || taken.has(next.id)) {
      return undefined;
    }
    boxes.push(next);
    length += next.maxLength;
  }
  if (length !== compact.length) return undefined;
  let offset = 0;
  return boxes.map((box) => {
    const part = compact.slice(offset, offset + (box.maxLength ?? 0));
    offset += box.maxLength ?? 0;
    return [box, part];
  });
}

/** An amount with two decimals: its whole part and its cents ("52,300.00", "1.234,56"). */
const AMOUNT = /^([+-]?\d[\d\s.,'’]*?)[.,](\d{2})$/u;

/**
 * An amount written into a whole-units box with a box of its own for the cents right after
 * it on its row, as tax forms print dollars and cents: the whole part in the field, the
 * cents in that box (a short text field, at most 3 characters, a few points to the right).
 */
function splitCents<F extends FormField>(
  item: InstructionItem,
  field: FormField,
  fields: readonly F[],
  taken: ReadonlySet<string>,
): [F, string][] | undefined {
  const amount = AMOUNT.exec(item.value?.trim() ?? '');
  const rect = field.rect;
  if (field.kind !== 'text' || !amount || !rect) return undefined;
  const cents = fields.find(
    (f) =>
      f.kind === 'text' &&
      f.fill &&
      f.page === field.page &&
      !taken.has(f.id) &&
      f.maxLength !== undefined &&
      f.maxLength >= 2 &&
      f.maxLength <= 3 &&
      f.rect !== undefined &&
      Math.abs(f.rect.y - rect.y) < 2 &&
      f.rect.x >= rect.x + rect.width - 1 &&
      f.rect.x - (rect.x + rect.width) < 12,
  );
  return cents
    ? [
        [field as F, amount[1].trim()],
        [cents, amount[2]],
      ]
    : undefined;
}

export function planEdits<F extends FormField>(
  instructions: string,
  fields: readonly F[],
  scorer: FieldScorer,
): EditPlan<F> {
  for (const field of fields) {
    // A layout written in a text field's caption ("Date (MM/DD/YYYY)") is its format.
    if (field.kind !== 'text' || field.format) continue;
    const date = dateLayoutIn(field.labels);
    if (date) field.format = { date };
  }
  scorer.prepare(
    fields.flatMap((f) => [...f.labels, ...(f.options ?? []).flatMap((o) => o.labels)]),
  );
  const open = fields.filter((f) => f.fill && f.preset === undefined);
  const bestScore = (label: string, toTick: boolean) =>
    open.reduce(
      (best, f) =>
        toTick && f.kind === 'text' ? best : Math.max(best, scorer.fieldScore(label, f, toTick)),
      0,
    );
  const namesField = (piece: string) => {
    const words = piece.trim().split(/\s+/u);
    for (let k = 1; k <= Math.min(words.length, 5); k++) {
      if (bestScore(words.slice(0, k).join(' '), false) >= MATCH_THRESHOLD + 0.15) return true;
    }
    return false;
  };
  const pieces = splitInstructions(instructions, namesField, (label) => bestScore(label, false));
  const items = pieces.map((text, index) =>
    readItem(text, index, (label) => bestScore(label, false)),
  );
  const { assigned, unmatched } = assignInstructions(items, fields, scorer, (item, field) =>
    uptakeOf(item, field, scorer),
  );
  const decisions: Decision<F>[] = [];
  const rejected: InstructionItem[] = [];
  const taken = new Set(assigned.map((a) => a.field.id));
  for (const { item, field, confidence } of assigned) {
    const spread =
      spreadOverBoxes(item, field, fields, taken) ?? splitCents(item, field, fields, taken);
    if (spread) {
      for (const [box, text] of spread) {
        taken.add(box.id);
        decisions.push({
          field: box,
          item,
          confidence: round(confidence),
          write: { kind: 'text', text },
        });
      }
      continue;
    }
    const typed = writeFor(item, field, scorer);
    if (!typed) rejected.push(item);
    else
      decisions.push({
        field: field as F,
        item,
        confidence: round(confidence * typed.confidence),
        write: typed.write,
      });
  }
  for (const field of fields) {
    if (!field.fill || field.preset === undefined) continue;
    const write = presetWrite(field, field.preset);
    if (write) decisions.push({ field, item: null, confidence: 1, write });
  }
  const decided = new Set(decisions.map((d) => d.field.id));
  return {
    decisions,
    unmatched: [...unmatched, ...rejected].sort((a, b) => a.index - b.index),
    unfilled: fields.filter((f) => f.fill && !decided.has(f.id)),
  };
}
