/**
 * The document text as extract and split read it: the same characters a reader sees, in one
 * form whatever script printed them. Digits of every decimal script (Arabic-Indic "١٢٣",
 * Extended Arabic-Indic "۱۲۳", Devanagari "१२३", full-width "１２３", ...) are the ASCII
 * digits of the same value, and bidirectional controls (U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069), invisible marks that order right-to-left text on screen, are dropped: a
 * value is read and returned the same whether a document's digits are Arabic, Devanagari
 * or Latin, and with no invisible character inside it or between a label and its colon.
 */
import type { LayoutDocument, LayoutLine } from '../parse/layout.types.js';

/** Unicode's decimal digits (general category Nd) run 0..9 in code point order. */
const DECIMAL_DIGIT = /\p{Nd}/u;
const BIDI_CONTROLS = /\p{Bidi_Control}/gu;
/**
 * A decimal or thousands separator of a script whose digits are not ASCII, between two
 * digits: the Arabic decimal and thousands separators and the full-width point and comma.
 */
const SEPARATORS: Record<string, string> = {
  '\u066b': '.',
  '\u066c': ',',
  '\uff0e': '.',
  '\uff0c': ',',
};
const SEPARATOR_BETWEEN_DIGITS = /(?<=\d)[\u066b\u066c\uff0e\uff0c](?=\d)/g;

let zeros: Map<number, number> | undefined;

/**
 * For every decimal digit of the Basic Multilingual Plane other than ASCII, the code point of
 * its zero: the digit's value is its distance from that zero. Read from the runtime's Unicode
 * data (runs of Nd code points come in whole tens), not from a list of scripts kept here.
 */
function digitZeros(): Map<number, number> {
  if (zeros) return zeros;
  zeros = new Map();
  let run = 0;
  for (let code = 0x80; code <= 0x10000; code++) {
    if (code < 0x10000 && DECIMAL_DIGIT.test(String.fromCharCode(code))) {
      run++;
      continue;
    }
    for (let i = 0; i < run - (run % 10); i++) {
      const digit = code - run + i;
      zeros.set(digit, digit - (i % 10));
    }
    run = 0;
  }
  return zeros;
}

/**
 * `text` with every decimal digit in ASCII and no bidirectional control. A digit is
 * replaced by one character, so positions in a text without controls are kept.
 */
export function readableText(text: string): string {
  if (!/[^\p{ASCII}]/u.test(text)) return text;
  const table = digitZeros();
  let folded = '';
  for (const char of text.replace(BIDI_CONTROLS, '')) {
    const code = char.charCodeAt(0);
    const zero = char.length === 1 ? table.get(code) : undefined;
    folded += zero === undefined ? char : String(code - zero);
  }
  return folded.replace(SEPARATOR_BETWEEN_DIGITS, (separator) => SEPARATORS[separator]);
}

/** A document as read, and the way back to what it printed (for citations, which quote it). */
export interface ReadableDocument {
  document: LayoutDocument;
  /** The printed text of a line, cell or word text of `document` (trimmed or not); else itself. */
  printed(text: string): string;
}

/** `document` with every line, segment and word as `readableText` reads it. */
export function readableDocument(document: LayoutDocument): ReadableDocument {
  const printedTexts = new Map<string, string>();
  const read = (text: string): string => {
    const readable = readableText(text);
    if (readable !== text) {
      printedTexts.set(readable, text);
      printedTexts.set(readable.trim(), text.trim());
    }
    return readable;
  };
  const readLine = (line: LayoutLine): LayoutLine => ({
    ...line,
    text: read(line.text),
    segments: line.segments.map((segment) => ({ ...segment, text: read(segment.text) })),
    words: line.words.map((word) => ({ ...word, text: read(word.text) })),
  });
  return {
    document: {
      ...document,
      pages: document.pages.map((page) => ({ ...page, lines: page.lines.map(readLine) })),
    },
    printed: (text) => printedTexts.get(text) ?? text,
  };
}
