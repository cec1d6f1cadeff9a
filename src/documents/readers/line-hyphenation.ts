/**
 * Words broken at the end of a line, read whole. Typeset text (PDF text layers, OCR of
 * printed pages, text wrapped by hand) breaks a long word at a line's end with a hyphen:
 * read line by line, "docu-" and "ment" are two words no criterion or label has. A soft
 * hyphen (U+00AD) marks where a word may break and is never a character of the word.
 *
 * A hyphen at a line's end is also the hyphen of a compound written across lines
 * ("self-" "employed", "Ost-" "West", "COVID-" "19"). The rule is general, with no word or
 * language list, for a hyphen between two letters:
 * - a soft hyphen at a line's end joins the word and is dropped; anywhere else it is dropped;
 * - how the document writes the word elsewhere decides first: only with its hyphen
 *   ("self-employed") it is a compound, kept whole with its hyphen; only without it, the
 *   word joined;
 * - a suspended hyphen ("Ein-" "und Ausfuhr", "pre-" "and post-processing": a short
 *   lower-case word, then a hyphenated compound or a capital as the broken part has) keeps
 *   its hyphen and the space after it (record 0545);
 * - otherwise, the next line starting with a lower-case letter of the same script is a
 *   hyphenation: the word is joined without its hyphen;
 * - any other line end (a capital or a digit after the hyphen, another script) stays as
 *   written: a capital or a digit after a hyphen marks a compound or a range in every
 *   language that hyphenates.
 * Measured on the development sets' texts in ten languages, wrapped at 60 characters with
 * their words broken: 10,227 words misread before, 338 with the case rule, 217 with the
 * document's own writing deciding first (record 0539).
 */

const SOFT_HYPHEN = '\u00ad';
/** Hyphen-minus and the Unicode hyphen: the marks a typesetter breaks words with. */
const HYPHENS = '-\u2010';
/** A word's characters: letters, their marks, digits, and hyphens inside it. */
const WORD = /[\p{L}\p{M}\p{N}]+(?:[-\u2010][\p{L}\p{M}\p{N}]+)*/gu;
/** The word a line ends with (with the hyphens inside it), before its final hyphen. */
const BROKEN_END = new RegExp(
  `((?:[\\p{L}\\p{M}\\p{N}]+[${HYPHENS}])*[\\p{L}\\p{M}\\p{N}]+)([${HYPHENS}${SOFT_HYPHEN}])$`,
  'u',
);
/**
 * The token a line starts with (after its indentation; its punctuation goes with it, as
 * "ment," completes "docu-" as "document,"), and the rest of the line.
 */
const CONTINUED_START = /^(\s*)(\S+)(.*)$/su;
/** The word a token starts with. */
const LEADING_WORD = /^[\p{L}\p{M}\p{N}]+(?:[-\u2010][\p{L}\p{M}\p{N}]+)*/u;
/**
 * Scripts that write lower-case letters (the test needs one): a line break inside a word is
 * only told from one between words by the case of the next line's first letter.
 */
const CASED_SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Coptic',
  'Glagolitic',
  'Cherokee',
  'Adlam',
  'Osage',
  'Deseret',
].map((script) => new RegExp(`^\\p{Script=${script}}$`, 'u'));

function sameCasedScript(a: string, b: string): boolean {
  return CASED_SCRIPTS.some((script) => script.test(a) && script.test(b));
}

/** The words a document writes, lower-cased, hyphenated forms whole (`writtenWords`). */
export type WrittenWords = ReadonlySet<string>;

/**
 * Words of a text, lower-cased, as the document writes them; a word written after another on
 * a line is also kept marked as such, for `writesInside`.
 */
export function writtenWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const line of text.split('\n')) {
    // A line's last word may be a fragment broken there: it is no evidence of a form.
    const trimmed = line.trimEnd();
    const broken = BROKEN_END.test(trimmed);
    const found = trimmed.replaceAll(SOFT_HYPHEN, '').match(WORD) ?? [];
    const whole = broken ? found.slice(0, -1) : found;
    for (const word of whole) words.add(normalized(word));
    // A line's first word may be the rest of a word broken on the line before.
    for (const word of whole.slice(1)) words.add(INSIDE + normalized(word));
  }
  return words;
}

/** Marks a word the document writes inside a line (`writtenWords`): never a broken word's rest. */
const INSIDE = '\u0000';

/** How a line ending and the next line's start are joined: undefined when they are not. */
export type LineJoin = { joined: string; hyphenated: boolean };

/** The longest word read as the short word of a suspended hyphen ("und", "and", "oder", "et"). */
const SHORT_WORD = 4;
/** The word that follows the next line's first token. */
const FOLLOWING_WORD = /^\s+([\p{L}\p{M}\p{N}]+(?:[-\u2010][\p{L}\p{M}\p{N}]+)*)/u;

/**
 * Whether a hyphen at a line's end is a suspended one, a compound's first part standing for
 * the whole before a short word and the compound that shares its head: "Ein-" "und Ausfuhr",
 * "pre-" "and post-processing". The next line opens with a short lower-case word the
 * document writes inside its lines too (the rest of a broken word stands at a line's start
 * only), and the word after it is a compound written with a hyphen, or opens with a capital
 * as the broken part does (a noun written in capitals).
 */
function suspendedHyphen(
  left: string,
  next: string,
  start: string,
  after: string,
  words: WrittenWords,
): boolean {
  if (next !== start || [...next].length > SHORT_WORD || !/^\p{Ll}+$/u.test(next)) return false;
  if (!words.has(INSIDE + normalized(next))) return false;
  const following = FOLLOWING_WORD.exec(after)?.[1];
  if (following === undefined) return false;
  if (/\p{L}[-\u2010]\p{L}/u.test(following)) return true;
  return /^\p{Lu}/u.test(left) && /^\p{Lu}/u.test(following);
}

/**
 * `end` (a line's last word with its hyphen) and `start` (the next line's first token) as one
 * word, by the rule at the top of the file; undefined when they stay two lines. `words` are
 * the document's written words (`writtenWords`), for telling a compound from a hyphenation;
 * `after` is the rest of the next line, for telling a suspended hyphen ("Ein-" "und
 * Ausfuhr"), which keeps its hyphen and the space after it.
 */
export function joinAcrossLines(
  end: string,
  start: string,
  words: WrittenWords = new Set(),
  after = '',
): LineJoin | undefined {
  const broken = BROKEN_END.exec(end);
  const next = LEADING_WORD.exec(start)?.[0];
  if (!broken || next === undefined) return undefined;
  const [, left, hyphen] = broken;
  if (hyphen === SOFT_HYPHEN) return { joined: left + start, hyphenated: false };
  const last = [...left].at(-1) ?? '';
  const first = [...next][0];
  if (!/\p{L}/u.test(last) || !/\p{L}/u.test(first)) return undefined;
  const writesWord = words.has(normalized(left + next));
  const writesCompound = words.has(normalized(`${left}-${next}`));
  const kept = { joined: `${left}${hyphen}${start}`, hyphenated: true };
  const dropped = { joined: left + start, hyphenated: false };
  // How the document writes the word elsewhere decides first, whatever the case.
  if (writesCompound !== writesWord) return writesCompound ? kept : dropped;
  if (!writesWord && suspendedHyphen(left, next, start, after, words)) {
    return { joined: `${left}${hyphen} ${start}`, hyphenated: true };
  }
  if (!/^\p{Ll}$/u.test(first) || !sameCasedScript(last, first)) return undefined;
  return dropped;
}

/** A word as the evidence keeps it: lower case, either hyphen the same. */
function normalized(word: string): string {
  return word.toLowerCase().replaceAll('\u2010', '-');
}

/**
 * Which line-end hyphens `joinHyphenatedLines` reads: every one by the rule at the top of the
 * file, or only soft hyphens (what classification's page text joins: record 0539).
 */
export type LineBreaks = 'all' | 'soft';

/**
 * The text with every word broken at a line's end read whole (the rule at the top of the
 * file; with `breaks` 'soft', only words broken at a soft hyphen): the word is completed on
 * its first line and the rest of the next line stays a line of its own (a line left empty is
 * dropped), so lines keep their order. Soft hyphens elsewhere are dropped. `words` are the
 * document's written words (`writtenWords`), the page's own when not given.
 */
export function joinHyphenatedLines(
  text: string,
  words: WrittenWords = writtenWords(text),
  breaks: LineBreaks = 'all',
): string {
  if (!text.includes('\n')) return text.replaceAll(SOFT_HYPHEN, '');
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    while (i + 1 < lines.length) {
      const trimmed = line.trimEnd();
      const start = CONTINUED_START.exec(lines[i + 1]);
      const end = BROKEN_END.exec(trimmed);
      if (!start || !end || (breaks === 'soft' && end[2] !== SOFT_HYPHEN)) break;
      const join = joinAcrossLines(end[0], start[2], words, start[3]);
      if (!join) break;
      line = trimmed.slice(0, trimmed.length - end[0].length) + join.joined;
      const rest = start[3].trim();
      if (rest !== '') {
        lines[i + 1] = start[1] + rest;
        break;
      }
      // The next line was the fragment alone: the line after it may continue this one.
      i++;
    }
    out.push(line.replaceAll(SOFT_HYPHEN, ''));
  }
  return out.join('\n');
}

/**
 * Lines of one paragraph as one text (parse's block content): a space between lines, none
 * where a word broken at a line's end is joined (its hyphen dropped, or kept for a
 * compound), none after a hyphen that stays ("Ost-West", "COVID-19"). `words` are the
 * document's written words (`writtenWords`).
 */
export function joinParagraphLines(
  lines: readonly string[],
  words: WrittenWords = new Set(),
): string {
  let text = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (text === '') {
      text = line;
      continue;
    }
    const end = BROKEN_END.exec(text);
    const start = CONTINUED_START.exec(line);
    const join = end && start ? joinAcrossLines(end[0], start[2], words, start[3]) : undefined;
    if (join) {
      text = text.slice(0, text.length - end![0].length) + join.joined + start![3];
    } else if (end && end[2] !== SOFT_HYPHEN && LEADING_WORD.test(line)) {
      // A hyphen that stays joins what it links: no space after it.
      text += line;
    } else {
      text += ` ${line}`;
    }
  }
  return text.replaceAll(SOFT_HYPHEN, '');
}

/**
 * A page's text as classification reads it: words broken at a soft hyphen joined, soft hyphens
 * dropped, every other hyphen as written (record 0539). The parsed pages of a `jobid://` input
 * are read the same way.
 */
export function classificationText(text: string): string {
  return text.includes(SOFT_HYPHEN) ? joinHyphenatedLines(text, new Set(), 'soft') : text;
}
