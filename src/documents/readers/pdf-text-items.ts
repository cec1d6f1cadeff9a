/**
 * pdf.js's text items of a page, mended where the way a PDF draws its glyphs shows in the
 * text although nothing of it is visible on the page. Both page readers (the text of
 * classification and the positioned lines of parse, extract and split) read them through
 * here, so both read the same words.
 */

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
