/**
 * The words of a text in any script. Most scripts separate words with spaces; Chinese,
 * Japanese, Thai, Lao, Khmer and Burmese do not, so a whole sentence or line of them is one
 * whitespace token. Counted that way a dense page of Japanese has a few dozen "words" and
 * reads as a page of short lines, and a chunk of "24 words" is a page the encoder cuts off
 * after its first sentences. A run of such a script is cut into its words by the platform's
 * word segmenter (ICU's dictionaries, through `Intl.Segmenter`): a general language
 * resource, the same for every document and request.
 */

/** A word as written, and whether it is written against the word before it (no space). */
export interface Word {
  text: string;
  joined: boolean;
}

const SPACELESS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const LETTER = /\p{L}/u;

let segmenter: Intl.Segmenter | undefined;

function wordSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  return segmenter;
}

/**
 * A whitespace token of a script without spaces cut into its words; punctuation stays with
 * the word before it ("します。"), as it does in a token of a spaced script ("word,").
 */
function segmentToken(token: string): string[] {
  const words: string[] = [];
  for (const { segment, isWordLike } of wordSegmenter().segment(token)) {
    if (isWordLike || words.length === 0) words.push(segment);
    else words[words.length - 1] += segment;
  }
  return words;
}

/** Whether a text holds a script written without spaces between words. */
export function hasSpacelessScript(text: string): boolean {
  return SPACELESS.test(text);
}

/** The words of `text` in reading order (see the top of the file). */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const token of text.split(/\s+/)) {
    if (token === '') continue;
    if (!SPACELESS.test(token)) {
      words.push({ text: token, joined: false });
      continue;
    }
    segmentToken(token).forEach((text, i) => words.push({ text, joined: i > 0 }));
  }
  return words;
}

/** Words back into text: a space between them, none where a word is `joined`. */
export function joinWords(words: readonly Word[]): string {
  let text = '';
  words.forEach((word, i) => {
    text += i === 0 || word.joined ? word.text : ` ${word.text}`;
  });
  return text;
}

/** Whether a word holds a letter (not a number, code or separator alone). */
export function hasLetter(word: Word): boolean {
  return LETTER.test(word.text);
}
