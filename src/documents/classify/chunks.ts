/**
 * The passages of a document the sentence encoder reads: its lines grouped into chunks of
 * a few lines, each tagged with its page. A document longer than the budget is read from
 * its beginning (titles and first pages say most about what a document is) and from
 * passages spread evenly over the rest.
 */
import { hasLetter, joinWords, wordsOf, type Word } from './words.js';

export interface Chunk {
  text: string;
  /** 0-based index of the page the chunk comes from. */
  page: number;
}

/** Words per chunk (words.ts, in any script): about one sentence or three short lines of a form. */
const CHUNK_WORDS = 24;
/** A longer line is cut at this many words (a paragraph without line breaks). */
const MAX_LINE_WORDS = 48;
/** Characters of a page read for chunks (a page of a million characters is not read whole). */
const PAGE_CHARS = 20_000;

/** The lines of a page as their words with a letter, a long line cut every MAX_LINE_WORDS. */
function linesOf(page: string): Word[][] {
  const out: Word[][] = [];
  for (const raw of page.slice(0, PAGE_CHARS).split('\n')) {
    // Words only: numbers, amounts, codes, bullets and separators say nothing a criterion's
    // words can be compared with, and pull a passage's vector toward every other line of
    // figures (the layout evidence reads the document's form: layout.ts).
    const words = wordsOf(raw).filter(hasLetter);
    for (let i = 0; i < words.length; i += MAX_LINE_WORDS) {
      out.push(words.slice(i, i + MAX_LINE_WORDS));
    }
  }
  return out;
}

/** Every chunk of every page, in reading order. */
export function allChunks(pages: readonly string[]): Chunk[] {
  const chunks: Chunk[] = [];
  pages.forEach((page, index) => {
    let current: string[] = [];
    let words = 0;
    const flush = () => {
      if (current.length > 0) chunks.push({ text: current.join(' \n '), page: index });
      current = [];
      words = 0;
    };
    for (const line of linesOf(page)) {
      if (words > 0 && words + line.length > CHUNK_WORDS) flush();
      current.push(joinWords(line));
      words += line.length;
    }
    flush();
  });
  return chunks;
}

/** Every line of every page as a passage of its own (a form's field, a table's row). */
export function allLines(pages: readonly string[]): Chunk[] {
  return pages.flatMap((page, index) =>
    linesOf(page).map((line) => ({ text: joinWords(line), page: index })),
  );
}

/**
 * At most `budget` of `chunks`: the first half of the budget from the beginning of the
 * document, the rest spread evenly over what follows, in reading order.
 */
export function selectChunks(chunks: readonly Chunk[], budget: number): Chunk[] {
  if (budget <= 0) return [];
  if (chunks.length <= budget) return [...chunks];
  const head = Math.ceil(budget / 2);
  const rest = chunks.slice(head);
  const spread = budget - head;
  const picked = Array.from(
    { length: spread },
    (_, i) => rest[Math.floor(((i + 0.5) * rest.length) / spread)],
  );
  return [...chunks.slice(0, head), ...picked];
}

/** At most `budget` chunks of the document (selectChunks). */
export function documentChunks(pages: readonly string[], budget: number): Chunk[] {
  return selectChunks(allChunks(pages), budget);
}
