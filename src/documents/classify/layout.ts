/**
 * The form of a document in general words: how many pages, their size and orientation, how much text per page, how
 * long its lines are, whether it has bullets, tables, fields to fill in, headings, amounts,
 * dates and times, pages without text. Each notable trait becomes a short sentence that is
 * embedded and matched to each criterion like a passage of the document, so a criterion
 * about form ("a few short bulleted lines per page", "a table of amounts") can match it.
 * The traits are measured the same way for every request; none is tied to a category.
 */
import { hasLetter, wordsOf } from './words.js';

/** A page's size as its reader knows it (PDF points, image pixels); see DocumentPage. */
export interface PageDimensions {
  width: number;
  height: number;
  unit: 'pt' | 'px';
}

export interface LayoutProfile {
  pages: number;
  /** Shares of the pages whose size is known: wider than tall; larger than A3; smaller than A5. */
  landscape: number;
  portrait: number;
  large: number;
  small: number;
  /** Pages with (almost) no text: scans, photos, drawings. */
  emptyPages: number;
  wordsPerPage: number;
  wordsPerLine: number;
  /** Shares of non-empty lines. */
  shortLines: number;
  longLines: number;
  bullets: number;
  tableRows: number;
  fields: number;
  blanks: number;
  headings: number;
  /** Shares of tokens. */
  numbers: number;
  amounts: number;
  dates: number;
  times: number;
  contacts: number;
}

const EMPTY_PAGE_WORDS = 5;
const BULLET = /^\s*([-•*▪◦·‣●○■□➢➤►✓✔]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s+\S/u;
const TABLE_ROW = /\S(\s{3,}|\t+|\s*\|\s*)\S.*(\s{3,}|\t+|\s*\|\s*)\S/;
const FIELD = /^[^:]{2,40}:\s*\S/;
const BLANK = /_{4,}|\.{6,}|\[\s?\]|[☐☑☒□■]/;
const NUMBER = /^[-+(]?\d[\d.,:/'’-]*%?\)?$/;
const AMOUNT =
  /^[-+(]?([$€£¥₹]|CHF|USD|EUR|GBP)?\s?\d{1,3}([.,' ]\d{3})*[.,]\d{2}([$€£¥₹]|\s?(EUR|USD|GBP|CHF))?\)?$/;
const CURRENCY = /[$€£¥₹]/;
const DATE =
  /\b(\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\.?\s+\p{L}{3,}\.?\s+\d{4}|\p{L}{3,}\.?\s+\d{1,2},?\s+\d{4})\b/gu;
const TIME = /\b([01]?\d|2[0-3])[:h][0-5]\d([:][0-5]\d)?\b/g;
const CONTACT = /@[\w-]+\.\w|https?:\/\/|www\.|\+?\d[\d ()-]{8,}\d/g;

function isHeading(line: string): boolean {
  const text = line.replace(/^#+\s*/, '').trim();
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (letters.length < 3) return false;
  if (/^#+\s/.test(line)) return true;
  // Capitals mark a heading only in a script with case: a line of Chinese, Arabic or Thai
  // has no lower case, so it is not a line "in capitals".
  const capitals = letters === letters.toUpperCase() && letters !== letters.toLowerCase();
  return capitals && wordsOf(text).length <= 8;
}

/** An A4 page in square points (595 x 842). */
const A4_AREA = 595 * 842;
/** Width over height past which a page is landscape (or portrait, inverted). */
const ORIENTATION_RATIO = 1.15;

/** Shares of the pages of known size that are landscape, portrait, larger than A3, smaller than A5. */
function pageShapes(sizes: readonly (PageDimensions | null | undefined)[]) {
  const known = sizes.filter((size): size is PageDimensions =>
    Boolean(size && size.width > 0 && size.height > 0),
  );
  const share = (test: (size: PageDimensions) => boolean) =>
    known.length === 0 ? 0 : known.filter(test).length / known.length;
  const area = (size: PageDimensions) => (size.unit === 'pt' ? size.width * size.height : A4_AREA);
  return {
    landscape: share((size) => size.width > ORIENTATION_RATIO * size.height),
    portrait: share((size) => size.height > ORIENTATION_RATIO * size.width),
    // A3 is twice A4; a page past it is a large sheet (posters, plans, drawings).
    large: share((size) => area(size) > 2.2 * A4_AREA),
    // A5 is half of A4; a page under it is small (cards, tickets, booklets).
    small: share((size) => area(size) < 0.55 * A4_AREA),
  };
}

/**
 * Measures the traits of a document from the text of its pages and, where the reader knows
 * them, their sizes (`sizes[i]` for `pages[i]`).
 */
export function layoutProfile(
  pages: readonly string[],
  sizes: readonly (PageDimensions | null | undefined)[] = [],
): LayoutProfile {
  let lines = 0;
  let words = 0;
  let tokens = 0;
  const counts = {
    emptyPages: 0,
    shortLines: 0,
    longLines: 0,
    bullets: 0,
    tableRows: 0,
    fields: 0,
    blanks: 0,
    headings: 0,
    numbers: 0,
    amounts: 0,
    dates: 0,
    times: 0,
    contacts: 0,
  };
  for (const page of pages) {
    const text = page.slice(0, 40_000);
    const pageWords = wordsOf(text).filter(hasLetter).length;
    if (pageWords < EMPTY_PAGE_WORDS) counts.emptyPages++;
    counts.dates += text.match(DATE)?.length ?? 0;
    counts.times += text.match(TIME)?.length ?? 0;
    counts.contacts += text.match(CONTACT)?.length ?? 0;
    for (const raw of text.split('\n')) {
      const line = raw.trimEnd();
      const lineTokens = line.trim().split(/\s+/).filter(Boolean);
      if (lineTokens.length === 0) continue;
      // Lengths in words of any script (words.ts); figures are read from the tokens.
      const lineWords = wordsOf(line);
      lines++;
      tokens += lineWords.length;
      words += lineWords.filter(hasLetter).length;
      if (lineWords.length <= 4) counts.shortLines++;
      if (lineWords.length >= 15) counts.longLines++;
      if (BULLET.test(line)) counts.bullets++;
      if (TABLE_ROW.test(line)) counts.tableRows++;
      if (FIELD.test(line.trim())) counts.fields++;
      if (BLANK.test(line)) counts.blanks++;
      if (isHeading(line)) counts.headings++;
      for (const token of lineTokens) {
        if (NUMBER.test(token)) counts.numbers++;
        if (AMOUNT.test(token) || (CURRENCY.test(token) && /\d/.test(token))) counts.amounts++;
      }
    }
  }
  const perLine = (value: number) => (lines === 0 ? 0 : value / lines);
  const perToken = (value: number) => (tokens === 0 ? 0 : value / tokens);
  return {
    pages: pages.length,
    ...pageShapes(sizes),
    emptyPages: counts.emptyPages,
    wordsPerPage: pages.length === 0 ? 0 : words / pages.length,
    wordsPerLine: lines === 0 ? 0 : words / lines,
    shortLines: perLine(counts.shortLines),
    longLines: perLine(counts.longLines),
    bullets: perLine(counts.bullets),
    tableRows: perLine(counts.tableRows),
    fields: perLine(counts.fields),
    blanks: perLine(counts.blanks),
    headings: perLine(counts.headings),
    numbers: perToken(counts.numbers),
    amounts: perToken(counts.amounts),
    dates: perToken(counts.dates),
    times: perToken(counts.times),
    contacts: perToken(counts.contacts),
  };
}

function pagesPhrase(pages: number): string {
  if (pages <= 1) return 'A single page.';
  if (pages <= 3) return `A short document of ${pages} pages.`;
  if (pages <= 20) return `A document of ${pages} pages.`;
  return `A long document of ${pages} pages.`;
}

/** Sentences describing the notable traits of a document's form, in plain English. */
export function describeLayout(profile: LayoutProfile): string[] {
  const out = [pagesPhrase(profile.pages)];
  if (profile.landscape >= 0.5)
    out.push('Pages in landscape orientation, wider than they are tall.');
  else if (profile.portrait >= 0.5)
    out.push('Pages in portrait orientation, taller than they are wide.');
  if (profile.large >= 0.5) out.push('Very large pages, bigger than A3 paper.');
  else if (profile.small >= 0.5) out.push('Small pages, smaller than A5 paper.');
  if (profile.pages > 0 && profile.emptyPages === profile.pages) {
    out.push('Pages with no readable text, only images or scans.');
  } else if (profile.emptyPages > 0) {
    out.push('Some pages are only pictures, drawings or scans without text.');
  }
  if (profile.wordsPerPage < 60) out.push('Very few words on each page.');
  else if (profile.wordsPerPage > 450) out.push('Pages full of dense text.');
  if (profile.longLines > 0.4) out.push('Long paragraphs of running text in full sentences.');
  else if (profile.shortLines > 0.6) out.push('Mostly short lines of a few words each.');
  if (profile.bullets > 0.15) out.push('Bulleted or numbered lists of short points.');
  if (profile.tableRows > 0.15) out.push('Tables with rows and columns of values.');
  if (profile.fields > 0.2) out.push('Labelled fields with a value after each label.');
  if (profile.blanks > 0.05) out.push('Blank lines, boxes or fields to fill in by hand.');
  if (profile.headings > 0.12) out.push('Many headings and titles in capital letters.');
  if (profile.amounts > 0.04) out.push('Many amounts of money and prices.');
  else if (profile.numbers > 0.25) out.push('Many numbers and figures.');
  if (profile.dates > 0.02) out.push('Many dates.');
  if (profile.times > 0.01) out.push('Times of day, with hours and minutes.');
  if (profile.contacts > 0.01) {
    out.push('Contact details: e-mail addresses, web sites, phone numbers.');
  }
  return out;
}
