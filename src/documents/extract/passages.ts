/**
 * Running text read as sentences: a document's lines joined into paragraphs (a short line,
 * a wider gap or a new page ends one), and each paragraph split into sentences and clauses.
 * Values of contracts and letters sit inside sentences ("governed by the laws of the State
 * of New York"), and a document's title is a line that stands alone above its first
 * paragraph; neither has a label to find it by.
 */
import { wordsOf } from '../classify/words.js';
import type { LayoutLine } from '../parse/layout.types.js';

export interface Sentence {
  text: string;
  /** Index (in the document's lines) of the line the sentence starts on, and of its last. */
  lineIndex: number;
  lastLine: number;
  /** Position among the document's sentences (0: the first). */
  order: number;
}

export interface Paragraph {
  text: string;
  /** Indexes of its lines in the document's lines. */
  lines: number[];
  /** A line standing alone that is no sentence: a heading. */
  heading: boolean;
}

/** A line ending this far short of its page's text column ends its paragraph. */
const SHORT_LINE = 0.75;
/** A gap this many times the page's usual line spacing ends a paragraph. */
const WIDE_GAP = 1.8;
/** Words of a heading, at most. */
const HEADING_WORDS = 12;
/** Clauses longer than this are cut (the encoder reads a sentence's first pieces only). */
const MAX_SENTENCE_CHARS = 320;
/** Sentences read per document: a long contract's later pages repeat its vocabulary. */
const MAX_SENTENCES = 3_000;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

interface PageShape {
  left: number;
  right: number;
  spacing: number;
}

/** Where a page's text column starts and ends, and its usual distance between lines. */
function pageShapes(lines: readonly LayoutLine[]): Map<number, PageShape> {
  const byPage = new Map<number, LayoutLine[]>();
  for (const line of lines) {
    const page = byPage.get(line.bbox.page) ?? [];
    page.push(line);
    byPage.set(line.bbox.page, page);
  }
  const shapes = new Map<number, PageShape>();
  for (const [page, pageLines] of byPage) {
    const rights = pageLines.map((l) => l.bbox.left + l.bbox.width).sort((a, b) => a - b);
    const lefts = pageLines.map((l) => l.bbox.left).sort((a, b) => a - b);
    const steps: number[] = [];
    for (let i = 1; i < pageLines.length; i++) {
      const step = pageLines[i].bbox.top - pageLines[i - 1].bbox.top;
      if (step > 0) steps.push(step);
    }
    shapes.set(page, {
      left: lefts[Math.floor(lefts.length * 0.1)] ?? 0,
      right: rights[Math.floor(rights.length * 0.9)] ?? 1,
      spacing: median(steps),
    });
  }
  return shapes;
}

/** Words of a line, cut where their script ends them (classify/words.ts). */
function wordCount(text: string): number {
  return wordsOf(text).length;
}

/** A line that reads as the end of a sentence or a clause, in any script ("。", "؟", "।"). */
function endsSentence(text: string): boolean {
  return /(?:\p{Sentence_Terminal}|[;:；：؛)）"”’」』])\s*$/u.test(text.trim());
}

/**
 * A line that begins a sentence: a capital, a figure, an opening quote or bracket, or a
 * letter of a script without case (Chinese, Arabic, Hindi), which begins one as a capital does.
 */
const BEGINS_SENTENCE = /^\s*[\p{Lu}\p{Lt}\p{Lo}\d"“(（「]/u;

/** The document's lines grouped into paragraphs and headings, in reading order. */
export function paragraphsOf(lines: readonly LayoutLine[]): Paragraph[] {
  const shapes = pageShapes(lines);
  const paragraphs: Paragraph[] = [];
  let current: number[] = [];
  const close = () => {
    if (current.length === 0) return;
    const text = current
      .map((i) => lines[i].text.trim())
      .join(' ')
      // A word broken at a line end ("conver- sion").
      .replace(/(\p{Ll})- (\p{Ll})/gu, '$1$2');
    const heading =
      current.length === 1 && wordCount(text) <= HEADING_WORDS && /\p{L}{2}/u.test(text);
    paragraphs.push({ text, lines: current, heading });
    current = [];
  };
  lines.forEach((line, index) => {
    const previous = lines[index - 1];
    if (previous && current.length > 0) {
      const shape = shapes.get(previous.bbox.page);
      const newPage = previous.bbox.page !== line.bbox.page;
      const gap = line.bbox.top - previous.bbox.top;
      const wide = shape !== undefined && shape.spacing > 0 && gap > WIDE_GAP * shape.spacing;
      const previousRight = previous.bbox.left + previous.bbox.width;
      const short =
        shape !== undefined &&
        previousRight - shape.left < SHORT_LINE * (shape.right - shape.left) &&
        endsSentence(previous.text);
      // A short line that ends no sentence ("CO-BRANDING AGREEMENT") stands alone when the
      // next line begins one.
      const alone =
        shape !== undefined &&
        previous.bbox.width < SHORT_LINE * (shape.right - shape.left) &&
        wordCount(previous.text) <= HEADING_WORDS &&
        BEGINS_SENTENCE.test(line.text);
      if (newPage || wide || short || alone) close();
    }
    current.push(index);
  });
  close();
  return paragraphs;
}

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(language: string): Intl.Segmenter {
  let found = segmenters.get(language);
  if (!found) {
    try {
      found = new Intl.Segmenter(language, { granularity: 'sentence' });
    } catch {
      found = new Intl.Segmenter('en', { granularity: 'sentence' });
    }
    segmenters.set(language, found);
  }
  return found;
}

/** A long sentence cut at its semicolons, each piece at most MAX_SENTENCE_CHARS long. */
function clausesOf(sentence: string): { text: string; offset: number }[] {
  const clauses: { text: string; offset: number }[] = [];
  let offset = 0;
  for (const part of sentence.split(/(?<=;)\s+/u)) {
    const at = sentence.indexOf(part, offset);
    offset = at + part.length;
    for (let start = 0; start < part.length; start += MAX_SENTENCE_CHARS) {
      const text = part.slice(start, start + MAX_SENTENCE_CHARS).trim();
      if (/\p{L}{2}/u.test(text)) clauses.push({ text, offset: at + start });
    }
  }
  return clauses;
}

/** The sentences (and clauses of long ones) of the paragraphs, each placed on its lines. */
export function sentencesOf(
  paragraphs: readonly Paragraph[],
  lines: readonly LayoutLine[],
  language: string,
): Sentence[] {
  const sentences: Sentence[] = [];
  for (const paragraph of paragraphs) {
    // Where each line begins in the paragraph's text, to place a sentence on its lines.
    const starts: number[] = [];
    let at = 0;
    for (const index of paragraph.lines) {
      starts.push(at);
      at += lines[index].text.trim().length + 1;
    }
    const lineAt = (offset: number) => {
      let k = 0;
      while (k + 1 < starts.length && starts[k + 1] <= offset) k++;
      return paragraph.lines[k];
    };
    for (const segment of segmenter(language).segment(paragraph.text)) {
      for (const clause of clausesOf(segment.segment)) {
        const start = segment.index + clause.offset;
        sentences.push({
          text: clause.text,
          lineIndex: lineAt(start),
          lastLine: lineAt(start + clause.text.length - 1),
          order: sentences.length,
        });
        if (sentences.length >= MAX_SENTENCES) return sentences;
      }
    }
  }
  return sentences;
}

/**
 * A text as the encoder reads it best: text set in capitals in sentence case (the encoder
 * was trained on ordinary prose; "CO-BRANDING AGREEMENT" reads as noise to it).
 */
export function readable(text: string): string {
  const letters = text.match(/\p{L}/gu) ?? [];
  const upper = letters.filter((l) => l === l.toUpperCase() && l !== l.toLowerCase()).length;
  if (letters.length < 4 || upper / letters.length < 0.8) return text;
  const lower = text.toLowerCase();
  return lower.replace(
    /^(\P{L}*)(\p{L})/u,
    (_, lead: string, first: string) => lead + first.toUpperCase(),
  );
}
