/**
 * What a page shows of the document it belongs to apart from what it says: the language of
 * its running text, the number printed on it and the count of pages it gives ("3 / 12",
 * "Seite 3 von 12") and its size and orientation.
 * Pages of one document share them; a new document often changes them (segments.ts).
 */
import { detectLanguage } from '../classify/language.js';
import { pageText, type LayoutPage } from '../parse/layout.types.js';

export interface PageCues {
  /** The page's language, when it has enough running text to tell (pageLanguage). */
  language: string | undefined;
  /** The number printed on the page (a line of its own at its top or bottom), if any. */
  printedNumber: number | undefined;
  /** The count of pages printed beside that number ("3 of 12"), if any. */
  printedTotal: number | undefined;
  /** Width and height in points (PDF pages), else undefined. */
  dimensions: { width: number; height: number } | undefined;
  /**
   * The type size of the page's running text (its median line height, as a fraction of the
   * page height); undefined for a page of few lines or without geometry. Pages of one
   * document share it; another document is often set in another type.
   */
  bodySize?: number;
}

/** Letters a page needs before its language is told (a page of names and figures says little). */
const LANGUAGE_LETTERS = 400;
const LETTER = /\p{L}/gu;

/** The language of a page of running text; undefined for a page with little text. */
export function pageLanguage(text: string): string | undefined {
  return (text.match(LETTER)?.length ?? 0) >= LANGUAGE_LETTERS ? detectLanguage(text) : undefined;
}

const PAGE_NUMBER =
  /^(?:[-–—|]\s*)?(?:\p{L}{1,8}\.?\s+)?(\d{1,4})(?:\s*(?:\/|\p{L}{1,4}\.?)\s*(\d{1,4}))?(?:\s*[-–—|])?$/u;

/**
 * A page number printed on a line of its own among the first two or last two lines, and
 * the count of pages printed with it.
 */
export function printedNumbering(text: string): { number?: number; total?: number } {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const candidates = [...lines.slice(-2).reverse(), ...lines.slice(0, 2)];
  for (const line of candidates) {
    const match = PAGE_NUMBER.exec(line);
    if (!match) continue;
    const number = Number(match[1]);
    const total = match[2] === undefined ? undefined : Number(match[2]);
    // "3 / 12" counts pages; "2024 / 25" or "12 / 3" does not.
    return total !== undefined && total >= number && total > 1 ? { number, total } : { number };
  }
  return {};
}

/** Lines a page needs before its body type is read (a title page or a short end page says little). */
const BODY_LINES = 8;

/** The median line height of a page of running text; undefined for few lines or no geometry. */
export function pageBodySize(page: LayoutPage): number | undefined {
  if (page.synthetic || page.lines.length < BODY_LINES) return undefined;
  const sizes = page.lines.map((line) => line.size).sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)];
}

export function readPageCues(page: LayoutPage): PageCues {
  const text = pageText(page);
  const { number, total } = printedNumbering(text);
  return {
    language: pageLanguage(text),
    printedNumber: number,
    printedTotal: total,
    dimensions: page.dimensions,
    bodySize: pageBodySize(page),
  };
}

/** Body type sizes differing by more than this share are another type (not rounding). */
const SAME_BODY_SIZE = 0.03;

/**
 * Page `i`'s running text is set in a type size that neither of the two pages before it has
 * (a table or a list on one page changes the median for that page alone; a new document's
 * type holds). False when page `i` or the page before it has too few lines to tell.
 */
export function typeSizeChanges(pages: readonly PageCues[], i: number): boolean {
  const current = pages[i]?.bodySize;
  const before = pages[i - 1]?.bodySize;
  if (current === undefined || before === undefined) return false;
  const differs = (other: number | undefined) =>
    other === undefined || Math.abs(other - current) > SAME_BODY_SIZE * Math.max(other, current);
  return differs(before) && differs(pages[i - 2]?.bodySize);
}

/** Sizes closer than this share (a few points of rounding or cropping) are the same format. */
const SAME_FORMAT = 0.03;

/**
 * The two pages have different formats: another orientation, or a width or height that
 * differs by more than a few percent (A4 after Letter, a slide after a report page).
 */
export function formatChanges(a: PageCues, b: PageCues): boolean {
  if (!a.dimensions || !b.dimensions) return false;
  const differs = (x: number, y: number) => Math.abs(x - y) > SAME_FORMAT * Math.max(x, y);
  return (
    differs(a.dimensions.width, b.dimensions.width) ||
    differs(a.dimensions.height, b.dimensions.height)
  );
}
