/**
 * A PDF page's printed text as phrases with positions (PDF user space, origin bottom-left),
 * read with pdf.js, and the phrases that caption a box: the one above it or inside its top,
 * the one before it on its line, and (for a tick box) the one after it.
 */
import { openPdfDocument } from '../readers/pdf.reader.js';

export interface Phrase {
  text: string;
  x: number;
  y: number;
  right: number;
  height: number;
  /** A run of leader dots (". . . . ."), which joins a row's caption to a box far across. */
  leader?: boolean;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

/** Leader dots this far apart belong to one run; a run this long joins a row to its box. */
const LEADER_GAP = 15;
const MIN_LEADER_RUN = 12;

/** Items on one baseline, a small gap apart, make one phrase. */
function phrasesOf(items: readonly TextItem[]): Phrase[] {
  const pieces = items
    .filter((item) => item.str.trim() !== '')
    .map((item) => ({
      text: item.str,
      x: item.transform[4],
      y: item.transform[5],
      right: item.transform[4] + item.width,
      height: Math.max(1, item.height || Math.abs(item.transform[3])),
    }))
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const phrases: Phrase[] = [];
  for (const piece of pieces) {
    const last = phrases[phrases.length - 1];
    const gap = last ? piece.x - last.right : Infinity;
    if (
      last &&
      Math.abs(last.y - piece.y) < 1.5 &&
      gap > -1 &&
      gap < Math.max(3, piece.height * 0.6)
    ) {
      last.text = `${last.text}${gap > piece.height * 0.15 ? ' ' : ''}${piece.text}`.replace(
        /\s+/gu,
        ' ',
      );
      last.right = piece.right;
      last.height = Math.max(last.height, piece.height);
    } else phrases.push({ ...piece, text: piece.text.replace(/\s+/gu, ' ').trim() });
  }
  const kept: Phrase[] = [];
  for (const p of phrases) {
    if (/[\p{L}\p{N}]/u.test(p.text)) kept.push(p);
    else if (/^[.·…\s]+$/u.test(p.text)) {
      // Leader dots, often set one by one a few points apart, join into one run.
      const run = kept.findLast((q) => q.leader && Math.abs(q.y - p.y) < 1.5);
      if (run && p.x - run.right < LEADER_GAP && p.x >= run.x) run.right = p.right;
      else kept.push({ ...p, leader: true });
    }
  }
  return kept.filter((p) => !p.leader || p.right - p.x >= MIN_LEADER_RUN);
}

/** Phrases of every page (index 0 = page 1); at most `maxPages` pages are read. */
export async function readPagePhrases(bytes: Uint8Array, maxPages: number): Promise<Phrase[][]> {
  const pdf = await openPdfDocument(bytes);
  try {
    const pages: Phrase[][] = [];
    for (let n = 1; n <= Math.min(pdf.numPages, maxPages); n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      pages.push(phrasesOf(content.items as TextItem[]));
      page.cleanup();
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

const MAX_CAPTION_DISTANCE = 220;
/** A row's caption may sit across most of the page from its box (a column of amounts). */
const MAX_ROW_CAPTION_DISTANCE = 360;

/**
 * A line reference printed in a number column before an amount box ("8", "9a", "16b", "(3)"):
 * it numbers the row, and the row's caption is the text before it.
 */
const LINE_REFERENCE = /^\(?\d{1,2}[a-z]?\)?$/u;

/** A phrase that may caption a box, and how far from the box it is printed (points). */
interface Candidate {
  phrase: Phrase;
  distance: number;
}

/** Candidates of a box, nearest kind first: after it (tick boxes), above or inside it, before it. */
function candidatesOf(rect: Rect, phrases: readonly Phrase[], tickBox: boolean): Candidate[] {
  const top = rect.y + rect.height;
  const right = rect.x + rect.width;
  const middle = rect.y + rect.height / 2;
  const sameLine = (p: Phrase) =>
    Math.abs(p.y + p.height / 3 - middle) <= Math.max(rect.height / 2, p.height) + 1;
  // Leader dots and line references on the box's line bridge the way from a row's caption,
  // printed at the row's start, to a box in a column far across ("Wages . . . . 8 [box]").
  const bridges = phrases.filter(
    (p) => sameLine(p) && p.right <= rect.x + 4 && (p.leader || LINE_REFERENCE.test(p.text)),
  );
  const bareGap = (from: number) => {
    let gap = Math.max(0, rect.x - from);
    for (const b of bridges) gap -= Math.max(0, Math.min(rect.x, b.right) - Math.max(from, b.x));
    return Math.max(0, gap);
  };
  let after: Candidate | undefined;
  let before: Candidate | undefined;
  let row: Candidate | undefined;
  let above: Candidate | undefined;
  for (const p of phrases) {
    if (p.leader) continue;
    if (sameLine(p) && p.x >= right - 2 && p.x - right < 40) {
      if (!after || p.x < after.phrase.x) after = { phrase: p, distance: Math.max(0, p.x - right) };
    }
    if (sameLine(p) && p.right <= rect.x + 4) {
      if (rect.x - p.right < MAX_CAPTION_DISTANCE && (!before || p.right > before.phrase.right))
        before = { phrase: p, distance: Math.max(0, rect.x - p.right) };
      const distance = bareGap(p.right);
      // Far from its box, a caption must sit squarely on the box's row, not the next one.
      const onRow = p.y + p.height / 3 >= rect.y - 1 && p.y + p.height / 3 <= top + 1;
      if (
        !LINE_REFERENCE.test(p.text) &&
        onRow &&
        distance < MAX_ROW_CAPTION_DISTANCE &&
        (!row || p.right > row.phrase.right)
      )
        row = { phrase: p, distance };
    }
    const overlaps = p.x >= rect.x - 8 && p.x < rect.x + Math.max(rect.width * 0.7, 20);
    if (overlaps && p.y >= rect.y + rect.height * 0.3 && p.y <= top + 14) {
      if (!above || Math.abs(p.y - top) < Math.abs(above.phrase.y - top))
        above = {
          phrase: p,
          distance: Math.hypot(Math.max(0, p.y - top), Math.max(0, p.x - rect.x)),
        };
    }
  }
  // The row's caption stands in for a nearer phrase that only numbers the row, and reaches a
  // box across leader dots.
  const sideways =
    row && (!before || LINE_REFERENCE.test(before.phrase.text)) ? [before, row] : [before];
  const ordered = tickBox ? [after, ...sideways, above] : [above, ...sideways, after];
  return ordered.filter((c): c is Candidate => c !== undefined);
}

const distinct = (candidates: readonly Candidate[]) => [
  ...new Set(candidates.map((c) => c.phrase.text)),
];

/** Captions of one box, nearest kind first (see candidatesOf). */
export function captionsOf(rect: Rect, phrases: readonly Phrase[], tickBox: boolean): string[] {
  return distinct(candidatesOf(rect, phrases, tickBox));
}

/** A box of a page whose captions are read; tick boxes also take the phrase after them. */
export interface CaptionedBox {
  rect: Rect;
  tickBox: boolean;
}

/** Farther than the nearest box by more than this, a phrase is another box's caption. */
const CAPTION_TIE = 2;

/**
 * Captions of every box of one page. A printed phrase captions the box it is nearest to:
 * on a line "Apt./Unit Number [box] City [box]", "City" is after the first box and before
 * the second, and names only the second.
 */
export function pageCaptions(
  boxes: readonly CaptionedBox[],
  phrases: readonly Phrase[],
): string[][] {
  const candidates = boxes.map((box) => candidatesOf(box.rect, phrases, box.tickBox));
  const nearest = new Map<Phrase, number>();
  for (const list of candidates)
    for (const { phrase, distance } of list)
      nearest.set(phrase, Math.min(distance, nearest.get(phrase) ?? Infinity));
  return candidates.map((list) =>
    distinct(list.filter((c) => c.distance <= (nearest.get(c.phrase) ?? 0) + CAPTION_TIE)),
  );
}
