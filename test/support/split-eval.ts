/**
 * Split evaluation on bundles of real documents: several documents of different categories
 * put one after the other, each category a `split_description` section; a page is right when
 * the split assigns it to its own document's section and to no other.
 *
 * Bundles are planned from a manifest (documents in hash order, each bundle `size` documents of
 * distinct categories) and built as one PDF: pdf-lib copies the pages of PDF members, as a
 * merge tool makes a bundle; Markdown and text members are first printed onto A4 pages
 * (`printTextPdf`), since a text file is one page to the loader and a bundle is pages.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont } from 'pdf-lib';
import type { ClassificationCategory } from '../../src/documents/classify/classify.types.js';
import type { LayoutDocument } from '../../src/documents/parse/layout.types.js';
import type {
  DeepSplitResult,
  SplitResult,
  SplitSection,
} from '../../src/documents/split/split.operation.js';

export interface BundleMember {
  id: string;
  category: string;
  /** Pages this member contributes, read alone by the same loader. */
  pages: number;
}

export interface BundlePlan<T extends { id: string; category: string }> {
  id: string;
  members: T[];
}

/**
 * Groups `entries` into bundles of `size` documents of distinct categories, in the order of
 * SHA-256(`seed`:id) so the choice is fixed and owes nothing to how the manifest is sorted.
 * A bundle that cannot be completed is dropped; at most `count` bundles.
 */
export function planBundles<T extends { id: string; category: string }>(
  entries: readonly T[],
  size: number,
  count: number,
  seed: string,
): BundlePlan<T>[] {
  const hash = (id: string) => crypto.createHash('sha256').update(`${seed}:${id}`).digest('hex');
  const queue = [...entries].sort((a, b) => hash(a.id).localeCompare(hash(b.id)));
  const bundles: BundlePlan<T>[] = [];
  while (bundles.length < count) {
    const members: T[] = [];
    for (const entry of queue) {
      if (members.length === size) break;
      if (!members.some((member) => member.category === entry.category)) members.push(entry);
    }
    if (members.length < size) break;
    for (const member of members) queue.splice(queue.indexOf(member), 1);
    bundles.push({ id: `${seed}-${bundles.length + 1}`, members });
  }
  return bundles;
}

/** The section of each page of a bundle, 1-based page numbers, in member order. */
export function expectedSections(members: readonly BundleMember[]): Map<number, string> {
  const truth = new Map<number, string>();
  let page = 1;
  for (const member of members) {
    for (let i = 0; i < member.pages; i++) truth.set(page++, member.category);
  }
  return truth;
}

/** A section per category: its name as a user writes it, its criteria as the description. */
export function sectionsFor(
  categories: readonly string[],
  schema: readonly ClassificationCategory[],
): SplitSection[] {
  return categories.map((category) => {
    const entry = schema.find((c) => c.category === category);
    return {
      name: category.replace(/_/g, ' '),
      description: entry ? entry.criteria.join('; ') : category.replace(/_/g, ' '),
    };
  });
}

/** Section name -> pages, from either result shape. */
export function assignedPages(result: SplitResult | DeepSplitResult): Map<string, number[]> {
  const assigned = new Map<string, number[]>();
  for (const split of result.splits) {
    const pages = split.pages.map((page) => (typeof page === 'number' ? page : page.page_number));
    assigned.set(split.name, [...(assigned.get(split.name) ?? []), ...pages]);
  }
  return assigned;
}

/**
 * Pages assigned to their own section and to no other, of all pages of the bundle. Section
 * names in `truth` are categories; in the result they are the names `sectionsFor` gave.
 */
export function pagesRight(
  truth: ReadonlyMap<number, string>,
  assigned: ReadonlyMap<string, number[]>,
): { right: number; total: number } {
  const sectionsOfPage = new Map<number, string[]>();
  for (const [name, pages] of assigned) {
    for (const page of pages) sectionsOfPage.set(page, [...(sectionsOfPage.get(page) ?? []), name]);
  }
  let right = 0;
  for (const [page, category] of truth) {
    const got = sectionsOfPage.get(page) ?? [];
    if (got.length === 1 && got[0] === category.replace(/_/g, ' ')) right++;
  }
  return { right, total: truth.size };
}

const require = createRequire(import.meta.url);
const LINES_PER_PAGE = 52;
const CHARS_PER_LINE = 95;

/** Splits text into lines of at most `width` characters at word boundaries. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines;
}

/** Whether every character of `text` has a glyph in `font` (else the PDF would lie). */
export function printable(text: string, font: PDFFont): boolean {
  const supported = new Set(font.getCharacterSet());
  for (const char of text.replace(/\s/g, '')) {
    if (!supported.has(char.codePointAt(0) ?? 0)) return false;
  }
  return true;
}

/**
 * `text` printed onto A4 pages in DejaVu Sans (an npm font, so output does not depend on the
 * machine), 52 lines of 95 characters a page, at most `maxPages` pages; undefined when the
 * font has no glyph for some character (such a document is left out of bundles).
 */
export async function printTextPdf(
  text: string,
  maxPages: number,
): Promise<Uint8Array | undefined> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(
    fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    { subset: true },
  );
  const lines = wrap(text, CHARS_PER_LINE);
  if (!printable(lines.join(''), font)) return undefined;
  for (let start = 0; start < lines.length && start / LINES_PER_PAGE < maxPages;) {
    const page = pdf.addPage([595, 842]);
    for (let y = 800; y > 40 && start < lines.length; y -= 14.5, start++) {
      page.drawText(lines[start], { x: 40, y, size: 9.5, font });
    }
  }
  return pdf.save();
}

/** One PDF holding every page of `pdfs`, in order. */
export async function concatenatePdfs(pdfs: readonly Uint8Array[]): Promise<Uint8Array> {
  const bundle = await PDFDocument.create();
  for (const bytes of pdfs) {
    const part = await PDFDocument.load(bytes, { ignoreEncryption: true });
    const pages = await bundle.copyPages(part, part.getPageIndices());
    for (const page of pages) bundle.addPage(page);
  }
  return bundle.save();
}

/**
 * The naive baseline: each page goes to the section whose name and description share the
 * most distinct words with it; a page sharing none continues the section before it.
 */
export function wordOverlapSplit(
  pageTexts: readonly string[],
  sections: readonly SplitSection[],
): Map<string, number[]> {
  const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}{3,}/gu) ?? []);
  const vocabularies = sections.map((s) => ({
    name: s.name,
    words: words(`${s.name} ${s.description}`),
  }));
  const assigned = new Map<string, number[]>();
  let previous = sections[0]?.name;
  pageTexts.forEach((text, index) => {
    const present = words(text);
    let best: string | undefined;
    let bestOverlap = 0;
    for (const { name, words: vocabulary } of vocabularies) {
      let overlap = 0;
      for (const word of vocabulary) if (present.has(word)) overlap++;
      if (overlap > bestOverlap) {
        best = name;
        bestOverlap = overlap;
      }
    }
    const chosen = best ?? previous;
    if (chosen !== undefined) {
      assigned.set(chosen, [...(assigned.get(chosen) ?? []), index + 1]);
      previous = chosen;
    }
  });
  return assigned;
}

/** A generator of numbers in [0, 1) fixed by `seed` (mulberry32 over the seed's SHA-256). */
export function seededRandom(seed: string): () => number {
  let state = crypto.createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedBundleOptions {
  /** Fewest and most documents in a bundle. */
  minSize: number;
  maxSize: number;
  /** Chance that the next document has the same category as the one before it. */
  sameCategory: number;
}

/**
 * `count` bundles drawn from `entries` in an order fixed by `seed`: each of `minSize` to
 * `maxSize` documents (never the same document twice in a bundle), in random order; the
 * next document has the category of the one before it with chance `sameCategory` (two
 * invoices in a row: one section, two documents), else any other category (a category may
 * come back later in the bundle). A bundle stops early when no document fits.
 */
export function generateBundles<T extends { id: string; category: string }>(
  entries: readonly T[],
  count: number,
  seed: string,
  options: GeneratedBundleOptions,
): BundlePlan<T>[] {
  const random = seededRandom(seed);
  const pick = <U>(items: readonly U[]): U => items[Math.floor(random() * items.length)];
  const bundles: BundlePlan<T>[] = [];
  for (let b = 0; b < count && entries.length > 0; b++) {
    const size = options.minSize + Math.floor(random() * (options.maxSize - options.minSize + 1));
    const members: T[] = [pick(entries)];
    while (members.length < size) {
      const last = members[members.length - 1];
      const unused = entries.filter((e) => !members.includes(e));
      const same = unused.filter((e) => e.category === last.category);
      const other = unused.filter((e) => e.category !== last.category);
      const choices = random() < options.sameCategory && same.length > 0 ? same : other;
      if (choices.length === 0) break;
      members.push(pick(choices));
    }
    bundles.push({ id: `${seed}-${b + 1}`, members });
  }
  return bundles;
}

/** The bundle of `parts` read as one document: their pages one after the other. */
export function joinLayouts(parts: readonly LayoutDocument[]): LayoutDocument {
  let offset = 0;
  const pages = parts.flatMap((part) => {
    const renumbered = part.pages.map((page) => ({
      ...page,
      pageNumber: page.pageNumber + offset,
      lines: page.lines.map((line) => ({
        ...line,
        bbox: { ...line.bbox, page: line.bbox.page + offset },
        words: line.words.map((word) => ({
          ...word,
          bbox: { ...word.bbox, page: word.bbox.page + offset },
        })),
      })),
    }));
    offset += part.pages.length;
    return renumbered;
  });
  return { fileType: parts[0]?.fileType ?? 'pdf', totalPages: pages.length, pages };
}
