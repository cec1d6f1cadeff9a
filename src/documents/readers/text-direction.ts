import bidiModule from 'bidi-js';

// bidi-js is CommonJS: its module.exports is the factory its types call the default export.
const bidiFactory = bidiModule as unknown as typeof bidiModule.default;
const bidi = bidiFactory();

/** The strong right-to-left (R, AL) and left-to-right (L) characters of `text`. */
export function strongCounts(text: string): { rtl: number; ltr: number } {
  let rtl = 0;
  let ltr = 0;
  for (const char of text) {
    const type = bidi.getBidiCharTypeName(char);
    if (type === 'R' || type === 'AL') rtl++;
    else if (type === 'L') ltr++;
  }
  return { rtl, ltr };
}

/**
 * The blocks holding every character of bidi class R or AL (checked over all code points
 * against bidi-js): the right-to-left mark, Hebrew to Arabic Extended-A, their
 * presentation forms, and the right-to-left ranges beyond the Basic Multilingual Plane.
 * Text with none of them cannot read right to left, told without a look-up per character.
 */
const RIGHT_TO_LEFT_BLOCKS =
  /[\u0590-\u08ff\u200f\ufb1d-\ufdff\ufe70-\ufeff\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * Whether text runs right to left as a whole: more of its strong characters are
 * right-to-left ones than left-to-right ones (the paragraph direction, taken by majority
 * since a line's logical first character is not known before its order is).
 */
export function isRightToLeft(text: string): boolean {
  if (!RIGHT_TO_LEFT_BLOCKS.test(text)) return false;
  const { rtl, ltr } = strongCounts(text);
  return rtl > ltr;
}
