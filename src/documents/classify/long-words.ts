/** Longest word the language model is given; real words (even German compounds) are shorter. */
export const MAX_WORD_CHARS = 64;

const LONG_WORD = new RegExp(`\\S{${MAX_WORD_CHARS + 1},}`, 'g');

/**
 * Cuts every run of non-space characters to MAX_WORD_CHARS. The tokenizer's cost grows
 * with the square of one word's length (a 16,000-character "word" took 6 s), so a base64
 * blob in a page or a criterion without spaces would hold an executor for minutes; cut,
 * the text is analysed in linear time and no real word changes.
 */
export function clipLongWords(text: string): string {
  return text.replace(LONG_WORD, (word) => word.slice(0, MAX_WORD_CHARS));
}
