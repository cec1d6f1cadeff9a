/**
 * The words of a heading and of a section's name as split compares them. Words are cut where
 * their script ends them (classify/words.ts: "增值税专用发票" is 增值|税|专用|发票, so a heading
 * names the section "发票"), and a word of a script one Snowball stemmer serves is read as
 * its stem, which drops what the script's languages join to a word ("الفاتورة" is the
 * article and "فاتورة", so it names the section "فاتورة").
 */
import { createRequire } from 'node:module';
import { wordsOf } from '../classify/words.js';
import { labelVariants, normalize, similarity } from '../extract/text-match.js';
import type { LayoutLine, LayoutPage } from '../parse/layout.types.js';

const require = createRequire(import.meta.url);

/** Scripts whose words one stemmer of `snowball-stemmers` reads, by that stemmer's name. */
const STEMMER_OF_SCRIPT: [RegExp, string][] = [
  [/\p{Script=Arabic}/u, 'arabic'],
  [/\p{Script=Armenian}/u, 'armenian'],
  [/\p{Script=Tamil}/u, 'tamil'],
];

const stemmers = new Map<string, (word: string) => string>();

function stemmer(name: string): (word: string) => string {
  let stem = stemmers.get(name);
  if (!stem) {
    const snowball = require('snowball-stemmers') as {
      newStemmer(name: string): { stem(word: string): string };
    };
    const inner = snowball.newStemmer(name);
    // A stemmer that throws on odd input (it never should) must not fail a request.
    stem = (word) => {
      try {
        return inner.stem(word) || word;
      } catch {
        return word;
      }
    };
    stemmers.set(name, stem);
  }
  return stem;
}

function stemOf(word: string): string {
  const script = STEMMER_OF_SCRIPT.find(([letters]) => letters.test(word));
  return script ? stemmer(script[1])(word) : word;
}

/** The words of `text`, normalized, cut where its script ends them, each script's stem. */
export function headingWords(text: string): string[] {
  return wordsOf(normalize(text)).map((word) => stemOf(word.text));
}

/** Whether `words` holds `phrase` as consecutive words. */
export function holdsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, i) => words[start + i] === word)) return true;
  }
  return false;
}

/** Lines near the top of a page or in a larger font say what the page is. */
function isHeading(line: LayoutLine, index: number, bodySize: number): boolean {
  return index < 2 || line.size >= 1.15 * bodySize;
}

function medianSize(page: LayoutPage): number {
  const sizes = page.lines.map((l) => l.size).sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)] ?? 0;
}

/** A heading line of the page naming one of the sections (with its label variants). */
export function namingHeading(page: LayoutPage, sections: readonly { name: string }[]) {
  const body = medianSize(page);
  const phrases = sections.map((section) =>
    labelVariants(section.name, 16).map((variant) => ({ variant, words: headingWords(variant) })),
  );
  for (const [index, line] of page.lines.entries()) {
    if (!isHeading(line, index, body)) continue;
    const text = normalize(line.text);
    const words = headingWords(line.text);
    const section = phrases.findIndex((variants) =>
      variants.some((p) => holdsPhrase(words, p.words) || similarity(text, p.variant) >= 0.85),
    );
    if (section >= 0) return { section, line: line.text.trim() };
  }
  return undefined;
}
