/**
 * Runs the classifiers over the labeled evaluation set in test/fixtures/classify-eval.
 * Shared by the integration spec and `npm run bench:classify-eval`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { classify } from '../../src/documents/classify/classify.js';
import type {
  ClassificationCategory,
  ClassifyModel,
  PageText,
} from '../../src/documents/classify/classify.types.js';
import { loadDocument } from '../../src/documents/readers/document.loader.js';
import type { DocumentPage } from '../../src/documents/readers/document.types.js';

export interface EvalDocument {
  file: string;
  category: string;
  documentMetadata?: string;
  note?: string;
  /** ISO 639-1 code of the document's language, where known. */
  language?: string;
  /** `dev` documents were seen while the models were tuned; `holdout` ones were not. */
  split: EvalSplit;
  pages: string[];
  /** Each page's size where the reader knows it (layout evidence: orientation, paper size). */
  pageSizes?: (DocumentPage['size'] | undefined)[];
}

export type EvalSplit = 'dev' | 'holdout';

export interface EvalSet {
  schema: ClassificationCategory[];
  documents: EvalDocument[];
}

export interface EvalOutcome {
  model: ClassifyModel;
  accuracy: number;
  correct: number;
  total: number;
  misses: { file: string; expected: string; got: string | null }[];
  /** Per true category: correct / total. */
  perCategory: Record<string, { correct: number; total: number }>;
}

function findFixtures(): string {
  // Works from the repository root (jest, bench) and from compiled output under dist/.
  let dir = process.cwd();
  for (;;) {
    const candidate = path.join(dir, 'test', 'fixtures', 'classify-eval');
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('test/fixtures/classify-eval not found');
    dir = parent;
  }
}

export async function loadEvalSet(): Promise<EvalSet> {
  const dir = findFixtures();
  const schema = JSON.parse(fs.readFileSync(path.join(dir, 'schema.json'), 'utf8'));
  const labels = JSON.parse(fs.readFileSync(path.join(dir, 'labels.json'), 'utf8')) as {
    file: string;
    category: string;
    document_metadata?: string;
    note?: string;
    split?: EvalSplit;
  }[];
  const documents: EvalDocument[] = [];
  for (const label of labels) {
    const bytes = fs.readFileSync(path.join(dir, 'docs', label.file));
    const loaded = await loadDocument(bytes, label.file);
    documents.push({
      file: label.file,
      category: label.category,
      documentMetadata: label.document_metadata,
      note: label.note,
      split: label.split ?? 'dev',
      pages: loaded.pages.map((page) => page.text),
      pageSizes: loaded.pages.map((page) => page.size),
    });
  }
  return { schema, documents };
}

/** A document's pages as the classifier reads them: text, and size where it is known. */
export function pagesOf(document: EvalDocument): PageText[] {
  return document.pages.map((text, i) => ({ text, size: document.pageSizes?.[i] }));
}

/** Accuracy of `model` on the set, or on one split of it. */
export function evaluate(set: EvalSet, model: ClassifyModel, split?: EvalSplit): EvalOutcome {
  const misses: EvalOutcome['misses'] = [];
  const perCategory: EvalOutcome['perCategory'] = {};
  const documents = set.documents.filter((document) => !split || document.split === split);
  for (const document of documents) {
    const output = classify({
      pages: pagesOf(document),
      classificationSchema: set.schema,
      documentMetadata: document.documentMetadata,
      model,
    });
    const got = output.result.category;
    const entry = (perCategory[document.category] ??= { correct: 0, total: 0 });
    entry.total++;
    if (got === document.category) entry.correct++;
    else misses.push({ file: document.file, expected: document.category, got });
  }
  const total = documents.length;
  const correct = total - misses.length;
  return { model, accuracy: correct / total, correct, total, misses, perCategory };
}
