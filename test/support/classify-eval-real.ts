/**
 * The real-document evaluation sets: public documents listed in a manifest (source, licence,
 * language, split), copied into .cache/classify-eval/docs by
 * `node scripts/fetch-classify-eval.mjs`, scored against the criteria next to the manifest.
 * `business`: bench/classify-eval (the eight business categories the models were built on);
 * `unseen`: bench/classify-eval/unseen (categories no model was written for).
 *
 * Reading a document (PDF text layer, DOCX, OCR of an image) goes through the service's own
 * loader. Its pages are kept in .cache/classify-eval/pages, keyed by the file's hash and by a
 * fingerprint of the loader's sources, so a change to the readers or OCR reads them anew.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadDocument } from '../../src/documents/readers/document.loader.js';
import { terminateOcr, type OcrEffort } from '../../src/documents/readers/ocr.engine.js';
import type { ClassificationCategory } from '../../src/documents/classify/classify.types.js';
import type { DocumentPage } from '../../src/documents/readers/document.types.js';
import type { EvalDocument, EvalSet, EvalSplit } from './classify-eval.js';

export type RealEvalSetName = 'business' | 'unseen';
export const REAL_EVAL_SETS: readonly RealEvalSetName[] = ['business', 'unseen'];

/** The directory of a set's manifest and criteria, relative to the repository root. */
export function setDirectory(set: RealEvalSetName): string {
  return set === 'business'
    ? path.join('bench', 'classify-eval')
    : path.join('bench', 'classify-eval', 'unseen');
}

export interface ManifestEntry {
  id: string;
  category: string;
  /** ISO 639-1 code of the document's main language. */
  language: string;
  split: EvalSplit;
  file: string;
  source: { repo: string; commit: string; path: string };
  licence: string;
  sha256: string;
  note?: string;
}

export interface RealEvalSet extends EvalSet {
  /** Entries listed in the manifest but absent from the cache. */
  missing: string[];
  /** Documents the loader could not read, with the reason. */
  unreadable: { id: string; reason: string }[];
}

/** The repository root: the nearest parent of the working directory with the manifest. */
export function repositoryRoot(): string {
  let dir = process.cwd();
  for (;;) {
    if (fs.existsSync(path.join(dir, 'bench', 'classify-eval', 'manifest.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('bench/classify-eval/manifest.json not found');
    dir = parent;
  }
}

export function readManifest(
  root = repositoryRoot(),
  set: RealEvalSetName = 'business',
): ManifestEntry[] {
  const file = path.join(root, setDirectory(set), 'manifest.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { documents: ManifestEntry[] }).documents;
}

/** A set's criteria file (`criteria.json` or another wording such as `criteria-alt.json`). */
export function readCriteria(
  set: RealEvalSetName,
  name = 'criteria.json',
  root = repositoryRoot(),
): ClassificationCategory[] {
  return JSON.parse(
    fs.readFileSync(path.join(root, setDirectory(set), name), 'utf8'),
  ) as ClassificationCategory[];
}

/** Hash of everything that decides which text a file yields: reader sources, OCR version. */
function loaderFingerprint(root: string): string {
  const hash = crypto.createHash('sha256');
  const readers = path.join(root, 'src', 'documents', 'readers');
  for (const name of fs.readdirSync(readers).sort()) {
    if (name.endsWith('.ts') && !name.endsWith('.spec.ts')) {
      hash.update(name).update(fs.readFileSync(path.join(readers, name)));
    }
  }
  const ocr = path.join(root, 'node_modules', 'tesseract.js', 'package.json');
  if (fs.existsSync(ocr)) hash.update(fs.readFileSync(ocr));
  return hash.digest('hex').slice(0, 16);
}

async function pagesOf(
  root: string,
  entry: ManifestEntry,
  fingerprint: string,
  ocr: OcrEffort,
): Promise<Pick<EvalDocument, 'pages' | 'pageSizes'>> {
  const effort = ocr === 'fast' ? '' : `.${ocr}`;
  const cached = path.join(
    root,
    '.cache',
    'classify-eval',
    'pages',
    `${entry.id}.${entry.sha256.slice(0, 12)}.${fingerprint}${effort}.json`,
  );
  type CachedPage = Pick<DocumentPage, 'text' | 'size'>;
  let read: CachedPage[];
  if (fs.existsSync(cached)) {
    read = JSON.parse(fs.readFileSync(cached, 'utf8')) as CachedPage[];
  } else {
    const bytes = fs.readFileSync(path.join(root, '.cache', 'classify-eval', 'docs', entry.file));
    const loaded = await loadDocument(bytes, entry.file, { ocr });
    read = loaded.pages.map(({ text, size }) => ({ text, size }));
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.writeFileSync(cached, JSON.stringify(read));
  }
  return { pages: read.map((page) => page.text), pageSizes: read.map((page) => page.size) };
}

/**
 * Loads the documents of `splits` of `set` that are in the cache, with the schema of
 * `criteriaFile` (default: the set's criteria.json; another wording of the same categories
 * checks that a change does not depend on how the criteria happen to be phrased), images read
 * with `ocr` effort (each model reads with its own: `ocrEffortOf`).
 */
export async function loadRealEvalSet(
  splits: readonly EvalSplit[],
  criteriaFile?: string,
  ocr: OcrEffort = 'fast',
  set: RealEvalSetName = 'business',
): Promise<RealEvalSet> {
  const root = repositoryRoot();
  const schema = criteriaFile
    ? (JSON.parse(fs.readFileSync(criteriaFile, 'utf8')) as ClassificationCategory[])
    : readCriteria(set, 'criteria.json', root);
  const fingerprint = loaderFingerprint(root);
  const documents: EvalDocument[] = [];
  const missing: string[] = [];
  const unreadable: RealEvalSet['unreadable'] = [];
  try {
    for (const entry of readManifest(root, set).filter((e) => splits.includes(e.split))) {
      if (!fs.existsSync(path.join(root, '.cache', 'classify-eval', 'docs', entry.file))) {
        missing.push(entry.id);
        continue;
      }
      try {
        documents.push({
          file: entry.id,
          category: entry.category,
          language: entry.language,
          split: entry.split,
          note: entry.note,
          ...(await pagesOf(root, entry, fingerprint, ocr)),
        });
      } catch (error) {
        unreadable.push({ id: entry.id, reason: (error as Error).message });
      }
    }
  } finally {
    await terminateOcr();
  }
  return { schema, documents, missing, unreadable };
}
