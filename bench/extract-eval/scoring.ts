/**
 * The extract evaluation set as loaded from .cache/extract-eval, the schema each set is
 * asked with, and how a predicted value is compared with the published one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseDate } from '../../src/documents/extract/dates.js';
import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';

export interface EvalDocument {
  id: string;
  set: 'invoices' | 'receipts' | 'contracts';
  split: 'dev' | 'holdout';
  file: string;
  /** Field -> the published value (fields the publisher gives no value for are absent). */
  truth: Record<string, unknown>;
}

/** What a customer would send: field names and plain descriptions, nothing document-specific. */
export const SCHEMAS: Record<EvalDocument['set'], JsonSchema> = {
  invoices: {
    type: 'object',
    properties: {
      invoice_number: { type: 'string', description: 'The invoice number' },
      date: { type: 'string', format: 'date', description: 'The invoice date' },
      amount: { type: 'number', description: 'The total amount of the invoice, including taxes' },
      currency: { type: 'string', description: 'The currency of the amounts, as an ISO 4217 code' },
      issuer: { type: 'string', description: 'The company that issued the invoice' },
    },
  },
  receipts: {
    type: 'object',
    properties: {
      company: {
        type: 'string',
        description: 'The name of the shop or company that issued the receipt',
      },
      date: { type: 'string', format: 'date', description: 'The date of the receipt' },
      address: { type: 'string', description: 'The address of the shop or company' },
      total: { type: 'number', description: 'The total amount paid' },
    },
  },
  contracts: {
    type: 'object',
    properties: {
      title: { type: 'string', description: 'The title of the agreement' },
      agreement_date: {
        type: 'string',
        format: 'date',
        description: 'The date of the agreement',
      },
      governing_law: {
        type: 'string',
        description: 'The state or country whose law governs the agreement',
      },
    },
  },
};

interface ManifestEntry {
  id: string;
  set: EvalDocument['set'];
  split: EvalDocument['split'];
  transform?: string;
  document: string;
}

export function loadEvalSet(
  root: string,
  split: EvalDocument['split'],
): { documents: EvalDocument[]; missing: string[] } {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(root, 'bench', 'extract-eval', 'manifest.json'), 'utf8'),
  ) as { documents: ManifestEntry[] };
  const documents: EvalDocument[] = [];
  const missing: string[] = [];
  for (const entry of manifest.documents.filter((e) => e.split === split)) {
    const dir = path.join(root, '.cache', 'extract-eval', entry.id);
    const ext = entry.transform === 'sroie-box-pdf' ? '.pdf' : path.extname(entry.document);
    const file = path.join(dir, `document${ext}`);
    if (!fs.existsSync(file)) {
      missing.push(entry.id);
      continue;
    }
    const raw = JSON.parse(fs.readFileSync(path.join(dir, 'truth.json'), 'utf8')) as unknown;
    const record = (Array.isArray(raw) ? raw[0] : raw) as Record<string, unknown>;
    const fields = Object.keys(SCHEMAS[entry.set].properties ?? {});
    const truth = Object.fromEntries(
      fields.filter((f) => record[f] !== undefined && record[f] !== '').map((f) => [f, record[f]]),
    );
    documents.push({ id: entry.id, set: entry.set, split: entry.split, file, truth });
  }
  return { documents, missing };
}

function loose(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function levenshteinRatio(a: string, b: string): number {
  if (a === b) return 1;
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j];
      previous[j] = Math.min(
        previous[j] + 1,
        previous[j - 1] + 1,
        diagonal + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diagonal = above;
    }
  }
  return 1 - previous[b.length] / Math.max(a.length, b.length, 1);
}

/**
 * Whether a prediction is right. Dates compare as ISO days (SROIE writes them day-first);
 * numbers to the cent; currencies as codes; identifiers exactly (case and punctuation
 * aside); names and addresses at 90 % character similarity, case, spaces and punctuation
 * aside (the receipts' own text has OCR slips the published values corrected).
 */
export function isRight(
  field: string,
  predicted: unknown,
  truth: unknown,
  set: EvalDocument['set'],
): boolean {
  if (predicted === null || predicted === undefined) return false;
  const schema = SCHEMAS[set].properties?.[field];
  if (schema?.format === 'date') {
    const expected =
      typeof truth === 'string'
        ? /^\d{4}-\d{2}-\d{2}/.test(truth)
          ? truth.slice(0, 10)
          : parseDate(truth, 'dmy')
        : null;
    return expected !== null && String(predicted).slice(0, 10) === expected;
  }
  if (schema?.type === 'number') {
    const expected =
      typeof truth === 'number' ? truth : Number(String(truth).replace(/[^\d.-]/g, ''));
    return typeof predicted === 'number' && Math.abs(predicted - expected) < 0.011;
  }
  if (field === 'currency') return String(predicted).toUpperCase() === String(truth).toUpperCase();
  if (field === 'invoice_number') return loose(String(predicted)) === loose(String(truth));
  return levenshteinRatio(loose(String(predicted)), loose(String(truth))) >= 0.9;
}
