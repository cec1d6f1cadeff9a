/**
 * The members of split bundles: documents of an evaluation set as PDF pages (a PDF's first
 * `maxPages` pages, a Markdown or text document printed onto A4 pages; documents in scripts
 * the font cannot print are left out). Documents come from `node scripts/fetch-classify-eval.mjs`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { loadLayoutDocuments } from '../src/documents/parse/layout.loader.js';
import { pageText, type LayoutDocument } from '../src/documents/parse/layout.types.js';
import {
  readManifest,
  repositoryRoot,
  type ManifestEntry,
  type RealEvalSetName,
} from '../test/support/classify-eval-real.js';
import { printTextPdf } from '../test/support/split-eval.js';

/** Images need OCR, which a split request also gets, but it makes the bench slow. */
const TEXT_TYPES = new Set(['.pdf', '.md', '.txt', '.html', '.htm', '.docx']);

export interface Member extends ManifestEntry {
  /** The member as PDF pages: a PDF's first pages, or a text document printed. */
  pdf: Uint8Array;
  pages: number;
}

/** The first `maxPages` pages of a PDF. */
async function firstPages(bytes: Uint8Array, maxPages: number): Promise<Uint8Array> {
  const source = await PDFDocument.load(bytes, { ignoreEncryption: true });
  if (source.getPageCount() <= maxPages) return bytes;
  const copy = await PDFDocument.create();
  const indices = source.getPageIndices().slice(0, maxPages);
  for (const page of await copy.copyPages(source, indices)) copy.addPage(page);
  return copy.save();
}

async function readMember(
  docsDir: string,
  entry: ManifestEntry,
  maxPages: number,
): Promise<Member | undefined> {
  const file = path.join(docsDir, entry.file);
  if (!fs.existsSync(file)) return undefined;
  const bytes = new Uint8Array(fs.readFileSync(file));
  try {
    let pdf: Uint8Array | undefined;
    if (entry.file.toLowerCase().endsWith('.pdf')) pdf = await firstPages(bytes, maxPages);
    else {
      const read = await loadLayoutDocuments([{ bytes, name: entry.file }]);
      pdf = await printTextPdf(read.pages.map(pageText).join('\n\n'), maxPages);
    }
    if (!pdf) return undefined;
    const pages = (await PDFDocument.load(pdf, { ignoreEncryption: true })).getPageCount();
    return pages > 0 ? { ...entry, pdf, pages } : undefined;
  } catch {
    return undefined;
  }
}

/** The documents of one part (`dev` or `holdout`) of a set that can be bundle members. */
export async function readMembers(
  set: RealEvalSetName,
  part: 'dev' | 'holdout',
  maxPages: number,
): Promise<Member[]> {
  const root = repositoryRoot();
  const docsDir = path.join(root, '.cache', 'classify-eval', 'docs');
  const candidates = readManifest(root, set).filter(
    (e) => e.split === part && TEXT_TYPES.has(path.extname(e.file).toLowerCase()),
  );
  const members: Member[] = [];
  for (const entry of candidates) {
    const member = await readMember(docsDir, entry, maxPages);
    if (member) members.push(member);
  }
  return members;
}

/** A member read alone by the same loader as a request's document. */
export async function memberLayout(member: Member): Promise<LayoutDocument> {
  return loadLayoutDocuments([{ bytes: member.pdf, name: `${member.id}.pdf` }]);
}
