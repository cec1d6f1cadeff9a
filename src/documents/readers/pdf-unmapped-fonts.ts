/**
 * Text of PDF fonts without a Unicode map. A font embedded without a ToUnicode map (and
 * whose encoding names no glyphs) gives pdf.js only its character codes: often the glyph
 * numbers, which read as control characters (the space is glyph 3 in most fonts) among
 * letters shifted from the ones drawn ("7KH\u0003TXDUWHUO\\" for "The quarterly"). None of
 * it is the page's text: it is dropped, and a page most of whose text is of such fonts,
 * private-use characters or U+FFFD is a page whose text layer is not read (the readers then
 * read its image, as a scan's).
 */

/**
 * Characters no font maps real text to: C0 and C1 controls other than white space. A glyph
 * number read as a character is one (the space is glyph 3 in most fonts), so they are the tell
 * of a font read by its codes. U+FFFD (a glyph pdf.js could not map, often a ligature) says
 * only that glyph is unread, not the font.
 */
function isUnmapped(code: number): boolean {
  if (code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return false;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

function unmappedCount(text: string): number {
  let found = 0;
  for (let i = 0; i < text.length; i++) if (isUnmapped(text.charCodeAt(i))) found++;
  return found;
}
/**
 * Private-use characters (icons and bullets of symbol fonts, or letters no reader knows) and
 * U+FFFD: characters of a mapped font that read as no letter.
 */
const UNREAD_CHARACTERS = /[\p{Co}\ufffd]/gu;
/**
 * The share of a font's characters that are unmapped past which none of its text is read:
 * one control character a word (glyph numbers with the space among them) is far past it; a
 * stray one in a mapped font is not.
 */
const UNMAPPED_SHARE = 0.05;

interface TextItemLike {
  str: string;
  fontName?: string;
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
/** Characters that are not white space (an unmapped code counts, whatever it reads as). */
const visible = (text: string) => {
  let found = 0;
  for (const character of text)
    if (isUnmapped(character.charCodeAt(0)) || /\S/u.test(character)) found++;
  return found;
};

function textItem(item: unknown): TextItemLike | undefined {
  return typeof item === 'object' && item !== null && typeof (item as TextItemLike).str === 'string'
    ? (item as TextItemLike)
    : undefined;
}

/** Fonts of a page whose text is their codes, not characters (see the top of the file). */
function unmappedFonts(items: readonly unknown[]): Set<string | undefined> {
  const seen = new Map<string | undefined, { unmapped: number; all: number }>();
  for (const item of items) {
    const text = textItem(item);
    if (!text) continue;
    const tally = seen.get(text.fontName) ?? { unmapped: 0, all: 0 };
    tally.unmapped += unmappedCount(text.str);
    tally.all += visible(text.str);
    seen.set(text.fontName, tally);
  }
  const fonts = new Set<string | undefined>();
  for (const [font, tally] of seen) {
    if (tally.unmapped > 0 && tally.unmapped >= UNMAPPED_SHARE * tally.all) fonts.add(font);
  }
  return fonts;
}

/**
 * A page's text items without those of fonts without a Unicode map, and whether the page's
 * text layer is unread: more of its characters are such fonts' or private-use than not.
 */
export function readableItems<T>(items: readonly T[]): { items: T[]; unread: boolean } {
  const fonts = unmappedFonts(items);
  let unreadable = 0;
  let readable = 0;
  const kept: T[] = [];
  for (const item of items) {
    const text = textItem(item);
    if (text && fonts.has(text.fontName)) {
      unreadable += visible(text.str);
      continue;
    }
    kept.push(item);
    if (!text) continue;
    const unreadCharacters = count(text.str, UNREAD_CHARACTERS);
    unreadable += unreadCharacters;
    readable += visible(text.str) - unreadCharacters;
  }
  return { items: kept, unread: unreadable > readable };
}
