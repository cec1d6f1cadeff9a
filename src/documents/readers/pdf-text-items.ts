/**
 * pdf.js's text items of a page, mended where the way a PDF draws its glyphs shows in the
 * text although nothing of it is visible on the page. Both page readers (the text of
 * classification and the positioned lines of parse, extract and split) read them through
 * here, so both read the same words.
 */

import { hasRightToLeftLetter } from './glyph-text.js';

/** A text item as pdf.js gives it; `transform` and `width` in the page's user space. */
export interface PdfTextItem {
  str: string;
  transform?: number[];
  width?: number;
  /** The run's extent across its writing direction, or along it for vertical writing. */
  height?: number;
  hasEOL?: boolean;
  fontName?: string;
}

/**
 * Accents drawn as glyphs of their own (TeX's `\'e`, Type 1 fonts' accent glyphs), with the
 * combining mark each stands for over or under a letter.
 */
const COMBINING: Record<string, string> = {
  '\u00b4': '\u0301', // acute
  '\u0060': '\u0300', // grave
  '\u00a8': '\u0308', // diaeresis
  '\u02c6': '\u0302', // circumflex
  '\u005e': '\u0302',
  '\u02c7': '\u030c', // caron
  '\u02d8': '\u0306', // breve
  '\u02d9': '\u0307', // dot above
  '\u02da': '\u030a', // ring above
  '\u02dc': '\u0303', // tilde
  '\u007e': '\u0303',
  '\u00b8': '\u0327', // cedilla
  '\u02db': '\u0328', // ogonek
  '\u02dd': '\u030b', // double acute
  '\u00af': '\u0304', // macron
};
/** Dotless i and j: the letters an accent is put on in TeX's fonts ("´ı" is "í"). */
const DOTLESS: Record<string, string> = { '\u0131': 'i', '\u0237': 'j' };

interface Placed {
  item: PdfTextItem;
  x: number;
  y: number;
  end: number;
  size: number;
}

/** Where a horizontal item stands; undefined for an item without geometry or turned text. */
function placed(item: PdfTextItem): Placed | undefined {
  const [a, b, c, d, x, y] = item.transform ?? [];
  if (x === undefined || y === undefined || item.width === undefined) return undefined;
  if (Math.abs(b) > 1e-6 || Math.abs(c) > 1e-6 || a <= 0) return undefined;
  const size = Math.abs(d) || a;
  return { item, x, y, end: x + item.width, size };
}

/** The combining mark of an accent glyph or of a combining mark standing alone. */
function markOf(character: string | undefined): string | undefined {
  if (character === undefined) return undefined;
  return COMBINING[character] ?? (/^\p{M}$/u.test(character) ? character : undefined);
}

/** `base` with `mark` as one precomposed letter, when Unicode has one. */
function composed(base: string, mark: string): string | undefined {
  const letter = DOTLESS[base] ?? base;
  if (!/^\p{L}$/u.test(letter)) return undefined;
  const joined = (letter + mark).normalize('NFC');
  return [...joined].length === 1 ? joined : undefined;
}

/** Whether `next` is drawn back over the end of `previous` on its baseline. */
function drawnOver(previous: Placed, next: Placed): boolean {
  const tolerance = 0.1 * Math.min(previous.size, next.size);
  return (
    Math.abs(previous.y - next.y) < 0.3 * previous.size &&
    next.x > previous.x &&
    next.x < previous.end - tolerance
  );
}

/**
 * An item drawn again at nearly the same place (a "bold" made by overprinting the text with
 * a slight offset, a shadow): the same text once on the page, so once in the text.
 */
function overprints(previous: Placed, next: Placed): boolean {
  const near = 0.15 * previous.size;
  return (
    previous.item.str === next.item.str &&
    Math.abs(previous.x - next.x) < near &&
    Math.abs(previous.y - next.y) < near &&
    Math.abs(previous.end - next.end) < near
  );
}

/**
 * An accent that ends `previous` and that `next` is drawn back over, or that begins `next`
 * drawn back over `previous`'s last letter, composed with that letter: one item of both,
 * so "Medici´" + "on" reads "Medición", not "Medici´ on".
 */
function withAccentComposed(previous: Placed, next: Placed): PdfTextItem | undefined {
  if (!drawnOver(previous, next)) return undefined;
  const before = [...previous.item.str];
  const after = [...next.item.str];
  let text: string | undefined;
  const trailing = markOf(before.at(-1));
  if (trailing && after.length > 0) {
    const letter = composed(after[0], trailing);
    if (letter) text = [...before.slice(0, -1), letter, ...after.slice(1)].join('');
  }
  const leading = markOf(after[0]);
  if (text === undefined && leading && before.length > 0) {
    const letter = composed(before[before.length - 1], leading);
    if (letter) text = [...before.slice(0, -1), letter, ...after.slice(1)].join('');
  }
  if (text === undefined) return undefined;
  return {
    ...previous.item,
    str: text,
    width: Math.max(previous.end, next.end) - previous.x,
    hasEOL: next.item.hasEOL,
  };
}

/** The items of a page with overprinted duplicates dropped and split accents composed. */
export function mendTextItems<T>(items: readonly T[]): (T | PdfTextItem)[] {
  const out: (T | PdfTextItem)[] = [];
  /** The last item kept that holds text, and the blank items kept after it. */
  let last: { at: number; placed: Placed } | undefined;
  for (const item of items) {
    const text = item as unknown as PdfTextItem;
    const here = typeof text?.str === 'string' ? placed(text) : undefined;
    if (!here || text.str.trim() === '') {
      out.push(item);
      continue;
    }
    if (last && overprints(last.placed, here)) {
      if (text.hasEOL) out[last.at] = { ...(out[last.at] as PdfTextItem), hasEOL: true };
      continue;
    }
    const merged = last ? withAccentComposed(last.placed, here) : undefined;
    if (last && merged) {
      // Blank items between the two stood between the accent and its letter.
      out.length = last.at;
      out.push(merged);
      last = { at: last.at, placed: placed(merged) ?? last.placed };
      continue;
    }
    out.push(item);
    last = { at: out.length - 1, placed: here };
  }
  return out;
}

/** Letters or digits at the end of one item and the start of the next: parts of one word. */
const WORD_END = /[\p{L}\p{N}]$/u;
const WORD_START = /^[\p{L}\p{N}]/u;
/**
 * The widest gap, in ems of the smaller of two runs, that still reads as no space: pdf.js
 * itself reads a gap of about a tenth of an em inside a run as a space, and a space is a
 * quarter to a third of an em.
 */
const NO_SPACE_GAP = 0.1;

/** Sizes this far apart are two sizes (small capitals: 11 of 14 pt; a superscript: 7 of 10). */
const SMALLER = 0.9;
/** How far from its base's baseline a superscript or subscript stands, in its base's ems. */
const MOST_SHIFT = 0.6;

/** Whether `next` starts touching the end of `previous`: less than a space between them. */
function touches(previous: Placed, next: Placed): boolean {
  const smaller = Math.min(previous.size, next.size);
  const gap = next.x - previous.end;
  return gap < NO_SPACE_GAP * smaller && gap > -2 * NO_SPACE_GAP * smaller;
}

/** Whether `previous` ends and `next` starts a word: letters or digits of one direction. */
function meetInWord(previous: Placed, next: Placed): boolean {
  if (!WORD_END.test(previous.item.str) || !WORD_START.test(next.item.str)) return false;
  // Runs of both directions meet without a gap where the direction changes: two words.
  return hasRightToLeftLetter(previous.item.str) === hasRightToLeftLetter(next.item.str);
}

/**
 * Whether `next` continues `previous`'s word on its baseline with no space between them.
 * Across a change of size only letters join letters and digits digits: small capitals are
 * letters throughout, while a label beside a number set smaller ("July" "08" under a
 * chart's axis, "12" "kg") is two words however close.
 */
function continuesWord(previous: Placed, next: Placed): boolean {
  if (previous.item.hasEOL || !meetInWord(previous, next)) return false;
  const smaller = Math.min(previous.size, next.size);
  if (smaller < SMALLER * Math.max(previous.size, next.size)) {
    const digitEnd = /\p{N}$/u.test(previous.item.str);
    if (digitEnd !== /^\p{N}/u.test(next.item.str)) return false;
  }
  return Math.abs(previous.y - next.y) < NO_SPACE_GAP * smaller && touches(previous, next);
}

/**
 * Whether `shifted` is a superscript or subscript of `base`: smaller, starting where `base`
 * ends, its baseline off `base`'s but within `base`'s height.
 */
function shiftedFrom(base: Placed, shifted: Placed): boolean {
  if (shifted.size >= SMALLER * base.size) return false;
  const shift = Math.abs(shifted.y - base.y);
  return (
    shift >= NO_SPACE_GAP * shifted.size && shift < MOST_SHIFT * base.size && touches(base, shifted)
  );
}

/**
 * A superscript or subscript after its base, on its base's baseline: one word with it (a
 * subscript: "H" "2" "O", "x" "ij"; an ordinal: "2" "nd") or any other raised run a word
 * of its own after it ("$5,000" "1", "TAX" "TM"), as a reader reads it.
 */
function withShiftedRun(base: Placed, shifted: Placed): PdfTextItem[] {
  const [a, b, c, d, x] = shifted.item.transform ?? [];
  const onBaseline = { ...shifted.item, transform: [a, b, c, d, x, base.y] };
  // Raised, only small letters after a number are part of it (an ordinal: "2nd", "1er");
  // raised digits are a footnote's mark or an exponent, raised capitals a mark ("TM") and
  // raised letters after a word a mark or a power.
  const ordinal = /\p{N}$/u.test(base.item.str) && /^\p{Ll}/u.test(shifted.item.str);
  const hasEOL = Boolean(base.item.hasEOL || shifted.item.hasEOL);
  if (!meetInWord(base, shifted) || (shifted.y > base.y && !ordinal)) {
    return [
      { ...base.item, hasEOL: false },
      { ...onBaseline, hasEOL },
    ];
  }
  const str = base.item.str + shifted.item.str;
  return [{ ...base.item, str, width: shifted.end - base.x, hasEOL }];
}

/** How many items back a superscript or subscript drawn before its base is looked for. */
const DRAWN_BEFORE = 16;

/** Where among the last items of `out` a superscript or subscript of `base` is, or -1. */
function drawnBefore(out: readonly unknown[], base: Placed): number {
  for (let at = out.length - 1; at >= Math.max(0, out.length - DRAWN_BEFORE); at--) {
    const earlier = placedItem(out[at]);
    if (earlier && earlier.item.str.trim() !== '' && shiftedFrom(base, earlier)) return at;
  }
  return -1;
}

/** Where an item that may be a text item stands; undefined for anything else. */
function placedItem(item: unknown): Placed | undefined {
  const text = item as PdfTextItem | undefined;
  return typeof text?.str === 'string' ? placed(text) : undefined;
}

/**
 * The items of a page with the parts of one word drawn as runs of their own joined: pdf.js
 * starts a run at each change of font or size, and small capitals (a larger capital, then
 * smaller ones: "E" "ARLY") or a word changing font inside it would be read with a space in
 * it ("E ARLY"). Parts on one baseline with less than a space between them are one run, as
 * they are one word on the page; a blank item between two runs is a space pdf.js saw. A
 * superscript or subscript touching the end of its base is read after it on its baseline,
 * wherever the PDF drew it (pdf.js gives runs in drawing order), so it is neither a line of
 * its own for parse nor read before its base.
 */
export function joinedWordParts<T>(items: readonly T[]): (T | PdfTextItem)[] {
  const out: (T | PdfTextItem)[] = [];
  let last: Placed | undefined;
  for (const item of items) {
    const text = item as unknown as PdfTextItem;
    const here = placedItem(item);
    // A superscript or subscript drawn before its base (a line's marks drawn first) waits for it.
    const early = here ? drawnBefore(out, here) : -1;
    const waiting = early >= 0 ? placedItem(out.splice(early, 1)[0]) : undefined;
    if (waiting) last = placedItem(out.at(-1));
    if (last && here && !last.item.hasEOL && shiftedFrom(last, here)) {
      out.splice(out.length - 1, 1, ...withShiftedRun(last, here));
      last = placedItem(out.at(-1));
    } else if (last && here && continuesWord(last, here)) {
      const joined: PdfTextItem = {
        ...last.item,
        str: last.item.str + text.str,
        width: here.end - last.x,
        hasEOL: text.hasEOL,
      };
      out[out.length - 1] = joined;
      last = placed(joined);
    } else {
      out.push(item);
      last = here;
    }
    if (waiting && last) {
      out.splice(out.length - 1, 1, ...withShiftedRun(last, waiting));
      last = placedItem(out.at(-1));
    }
  }
  return out;
}
