import { collectEvidence } from '../extract/document-evidence.js';
import { labelVariants, normalize, similarity, stems } from '../extract/text-match.js';
import { scoreDefault } from '../classify/default.classifier.js';
import { compileSchema } from '../classify/schema.compiler.js';
import {
  pageText,
  type LayoutDocument,
  type LayoutLine,
  type LayoutPage,
} from '../parse/layout.types.js';
import type { DeepSplitEngine } from '../versions/engines.js';

/** A `split_description` entry (reductoai SplitCategory). */
export interface SplitSection {
  name: string;
  description: string;
  partition_key?: string | null;
}

export interface SplitOptions {
  /** Set when `settings.deep_split` is true: the pinned or default deep split engine. */
  deepEngine?: DeepSplitEngine;
}

type Confidence = 'high' | 'low';

export interface SplitResult {
  section_mapping: Record<string, number[]> | null;
  splits: {
    name: string;
    pages: number[];
    conf: Confidence;
    partitions: { name: string; pages: number[]; conf: Confidence }[] | null;
  }[];
}

export interface DeepSplitPage {
  page_number: number;
  evidence: string;
  confidence: 'high' | 'medium' | 'low';
}

export interface DeepSplitResult {
  splits: {
    name: string;
    pages: DeepSplitPage[];
    partitions: { name: string; pages: DeepSplitPage[] }[] | null;
  }[];
}

/** Below this share of a section's weighted terms a page is no evidence for it. */
const MIN_SCORE = 0.12;
/** Lines near the top of a page or in a larger font say what the page is. */
const HEADING_WEIGHT = 3;

interface SectionTerms {
  section: SplitSection;
  terms: Map<string, number>;
  /** Normalized names (with synonyms) looked for as phrases in headings. */
  phrases: string[];
}

interface PageScore {
  page: LayoutPage;
  scores: number[];
  best: number;
  /** The line that best shows the page belongs to the best section. */
  evidence: string;
  headingMatch: boolean;
}

function isHeading(line: LayoutLine, index: number, bodySize: number): boolean {
  return index < 2 || line.size >= 1.15 * bodySize;
}

function medianSize(page: LayoutPage): number {
  const sizes = page.lines.map((l) => l.size).sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)] ?? 0;
}

function sectionTerms(sections: readonly SplitSection[]): SectionTerms[] {
  const lists = sections.map((s) => [...new Set(stems(`${s.name} ${s.name} ${s.description}`))]);
  // Terms shared by several sections tell them apart less.
  const df = new Map<string, number>();
  for (const list of lists) for (const t of list) df.set(t, (df.get(t) ?? 0) + 1);
  return sections.map((section, i) => {
    const nameStems = new Set(stems(section.name));
    const terms = new Map<string, number>();
    for (const t of lists[i]) {
      const idf = Math.log(1 + sections.length / (df.get(t) ?? 1));
      terms.set(t, idf * (nameStems.has(t) ? 2 : 1));
    }
    return { section, terms, phrases: labelVariants(section.name, 16) };
  });
}

/**
 * Scores from the classify library's default model, run on one page with each section as
 * a category whose criterion is its description: split is a classification per page.
 */
function classifierScorer(sections: readonly SplitSection[]): (page: LayoutPage) => number[] {
  const compiled = compileSchema(
    sections.map((s) => ({ category: s.name, criteria: [s.description] })),
    false,
  );
  return (page) => scoreDefault(compiled, [pageText(page)], undefined).map((s) => s.score);
}

function scorePage(
  page: LayoutPage,
  sections: SectionTerms[],
  scorer?: (page: LayoutPage) => number[],
): PageScore {
  const body = medianSize(page);
  const tf = new Map<string, number>();
  const lineStems = page.lines.map((line, index) => {
    const weight = isHeading(line, index, body) ? HEADING_WEIGHT : 1;
    const lineTerms = stems(line.text);
    for (const t of lineTerms) tf.set(t, (tf.get(t) ?? 0) + weight);
    return new Set(lineTerms);
  });
  const scores =
    scorer?.(page) ??
    sections.map(({ terms }) => {
      let total = 0;
      let found = 0;
      for (const [term, weight] of terms) {
        total += weight;
        const count = tf.get(term) ?? 0;
        if (count > 0) found += weight * Math.min(1, Math.log2(1 + count) / 2);
      }
      return total === 0 ? 0 : found / total;
    });
  const best = scores.indexOf(Math.max(...scores));
  // Evidence: a heading naming the section, else the line sharing most of its terms.
  const headingLine = page.lines.find((line, index) => {
    if (!isHeading(line, index, body)) return false;
    const text = normalize(line.text);
    return sections[best]?.phrases.some(
      (p) => ` ${text} `.includes(` ${p} `) || similarity(text, p) >= 0.85,
    );
  });
  let evidence = headingLine?.text ?? '';
  if (!headingLine && sections[best]) {
    let bestOverlap = 0;
    lineStems.forEach((set, i) => {
      let overlap = 0;
      for (const t of set) overlap += sections[best].terms.get(t) ?? 0;
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        evidence = page.lines[i].text;
      }
    });
  }
  return { page, scores, best, evidence: evidence.trim(), headingMatch: headingLine !== undefined };
}

interface Assignment {
  page: number;
  section: number | undefined;
  confidence: 'high' | 'medium' | 'low';
  evidence: string;
}

function assign(
  scored: PageScore[],
  continuity: boolean,
  requireHeadingOrScore: boolean,
): Assignment[] {
  const result: Assignment[] = [];
  let previous: Assignment | undefined;
  for (const s of scored) {
    const top = s.scores[s.best] ?? 0;
    const second = Math.max(0, ...s.scores.filter((_, i) => i !== s.best));
    const hasEvidence = s.headingMatch || top >= MIN_SCORE;
    let a: Assignment;
    if (hasEvidence && (!requireHeadingOrScore || s.evidence !== '')) {
      const confidence = s.headingMatch ? 'high' : top >= 2 * second ? 'medium' : 'low';
      a = { page: s.page.pageNumber, section: s.best, confidence, evidence: s.evidence };
    } else if (continuity && previous?.section !== undefined) {
      a = {
        page: s.page.pageNumber,
        section: previous.section,
        confidence: 'low',
        evidence: `No evidence of its own; continues the section of page ${previous.page}`,
      };
    } else {
      a = { page: s.page.pageNumber, section: undefined, confidence: 'low', evidence: '' };
    }
    result.push(a);
    previous = a;
  }
  return result;
}

/** The partition value of each page: the value of the `partition_key` label on it. */
function partitionValues(document: LayoutDocument, key: string): Map<number, string> {
  const labels = labelVariants(key);
  const values = new Map<number, string>();
  for (const page of document.pages) {
    const evidence = collectEvidence({ ...document, pages: [page] });
    const kv = evidence.keyValues.find((pair) =>
      labels.some(
        (label) =>
          pair.normalizedLabel === label || similarity(pair.normalizedLabel, label) >= 0.85,
      ),
    );
    if (kv && kv.value.trim() !== '') values.set(page.pageNumber, kv.value.trim());
  }
  return values;
}

/** Consecutive pages with the same value (pages without one continue the last). */
function partitionPages(
  pages: number[],
  values: Map<number, string>,
): { name: string; pages: number[] }[] {
  const partitions: { name: string; pages: number[] }[] = [];
  for (const page of pages) {
    const value = values.get(page);
    const last = partitions.at(-1);
    if (last && (value === undefined || value === last.name)) last.pages.push(page);
    else partitions.push({ name: value ?? 'unknown', pages: [page] });
  }
  return partitions;
}

function check(sections: readonly SplitSection[]): void {
  if (sections.length === 0) throw new Error('split_description must not be empty');
}

/** Split: each page to the section it shows evidence for; pages without continue the last. */
export function splitDocument(
  document: LayoutDocument,
  sections: readonly SplitSection[],
): SplitResult {
  check(sections);
  const terms = sectionTerms(sections);
  const scorer = classifierScorer(sections);
  const assignments = assign(
    document.pages.map((p) => scorePage(p, terms, scorer)),
    true,
    false,
  );
  const splits = sections.map((section, index) => {
    const mine = assignments.filter((a) => a.section === index);
    const pages = mine.map((a) => a.page);
    const conf: Confidence =
      mine.length > 0 && mine.every((a) => a.confidence !== 'low') ? 'high' : 'low';
    const partitions = section.partition_key
      ? partitionPages(pages, partitionValues(document, section.partition_key)).map((p) => ({
          ...p,
          conf,
        }))
      : null;
    return { name: section.name, pages, conf, partitions };
  });
  return {
    section_mapping: Object.fromEntries(splits.map((s) => [s.name, s.pages])),
    splits,
  };
}

/**
 * Deep split: per-page evidence (headings naming the section, synonyms, term overlap),
 * reported for every page. `page-evidence` judges each page alone; pages without evidence
 * are left out. `page-evidence-continuity` lets them continue the section before them.
 */
export function deepSplitDocument(
  document: LayoutDocument,
  sections: readonly SplitSection[],
  engine: DeepSplitEngine,
): DeepSplitResult {
  check(sections);
  const terms = sectionTerms(sections);
  const assignments = assign(
    document.pages.map((p) => scorePage(p, terms)),
    engine === 'page-evidence-continuity',
    true,
  );
  const toPage = (a: Assignment): DeepSplitPage => ({
    page_number: a.page,
    evidence: a.evidence,
    confidence: a.confidence,
  });
  return {
    splits: sections.map((section, index) => {
      const mine = assignments.filter((a) => a.section === index);
      let partitions: DeepSplitResult['splits'][number]['partitions'] = null;
      if (section.partition_key) {
        const byPage = new Map(mine.map((a) => [a.page, a]));
        partitions = partitionPages(
          mine.map((a) => a.page),
          partitionValues(document, section.partition_key),
        ).map((p) => ({
          name: p.name,
          pages: p.pages.map((n) => toPage(byPage.get(n) as Assignment)),
        }));
      }
      return { name: section.name, pages: mine.map(toPage), partitions };
    }),
  };
}
