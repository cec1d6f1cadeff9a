/**
 * Measures the line-end hyphenation rule (src/documents/readers/line-hyphenation.ts) on the
 * true text of the dev text, Markdown and DOCX documents of both evaluation sets: each line
 * re-wrapped at 60 characters, an overflowing word of five letters or more broken by a hyphen
 * inside it, a hyphenated compound broken at its hyphen, and every suspended hyphen of the
 * text ("Ein- und Ausfuhr", "pre- and post-processing") put at a line's end; the lines are
 * read back by `joinHyphenatedLines` (the document's own words as evidence) and by
 * `joinParagraphLines` (parse's paragraphs), and compared with the true words.
 *
 * Run: node --import ./test/support/ts-register.mjs bench/classify-eval/hyphenation-trial.ts [src root]
 * (the src root, default this tree's, lets another tree's rule be measured on the same texts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadDocument } from '../../src/documents/readers/document.loader.js';
import type * as Hyphenation from '../../src/documents/readers/line-hyphenation.js';

const WIDTH = 60;
const SUSPENDED = /^[\p{L}\p{M}]+[-\u2010]$/u;
const LETTERS = /^[\p{L}\p{M}]{5,}$/u;

interface Wrapped {
  lines: string[];
  breaks: number;
  suspended: number;
}

/** One line of true text wrapped as a typesetter would (see the top of the file). */
function wrap(text: string): Wrapped {
  const words = text.split(/\s+/).filter((word) => word !== '');
  const lines: string[] = [];
  let line = '';
  let breaks = 0;
  let suspended = 0;
  const push = (word: string) => {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= WIDTH) line += ` ${word}`;
    else {
      const bare = word.replace(/[^\p{L}\p{M}-]+$/u, '');
      const hyphen = bare.search(/\p{L}-\p{L}/u);
      if (hyphen > 0) {
        lines.push(`${line} ${word.slice(0, hyphen + 2)}`);
        line = word.slice(hyphen + 2);
        breaks++;
        return;
      }
      if (LETTERS.test(bare)) {
        const at = Math.max(2, Math.floor(bare.length / 2));
        lines.push(`${line} ${word.slice(0, at)}-`);
        line = word.slice(at);
        breaks++;
        return;
      }
      lines.push(line);
      line = word;
    }
  };
  for (const [i, word] of words.entries()) {
    push(word);
    // A suspended hyphen before another word ends its line, as it may in print.
    if (SUSPENDED.test(word) && i + 1 < words.length && line.endsWith(word)) {
      lines.push(line);
      line = '';
      suspended++;
    }
  }
  if (line !== '') lines.push(line);
  return { lines, breaks, suspended };
}

/** Tokens of `truth` missing from `read` (each token counted as often as it stands). */
function misread(truth: string, read: string): number {
  const left = new Map<string, number>();
  for (const token of truth.split(/\s+/)) left.set(token, (left.get(token) ?? 0) + 1);
  for (const token of read.split(/\s+/)) {
    const count = left.get(token);
    if (count) left.set(token, count - 1);
  }
  let missing = 0;
  for (const [token, count] of left) if (token !== '') missing += count;
  return missing;
}

async function main(): Promise<void> {
  const root = path.resolve(process.argv[2] ?? '.');
  const rule = (await import(
    pathToFileURL(path.join(root, 'src/documents/readers/line-hyphenation.ts')).href
  )) as typeof Hyphenation;
  const manifests = [
    'bench/classify-eval/manifest.json',
    'bench/classify-eval/unseen/manifest.json',
  ];
  const totals = { documents: 0, breaks: 0, suspended: 0, lines: 0, paragraphs: 0, kept: 0 };
  const byLanguage = new Map<string, { lines: number; paragraphs: number }>();
  for (const manifest of manifests) {
    const { documents } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
      documents: { file: string; split: string; language: string }[];
    };
    for (const entry of documents) {
      if (entry.split !== 'dev' || !/\.(txt|md|docx|rst)$/.test(entry.file)) continue;
      const file = path.join('.cache', 'classify-eval', 'docs', entry.file);
      if (!fs.existsSync(file)) continue;
      const loaded = await loadDocument(fs.readFileSync(file), entry.file);
      const text = loaded.pages.map((page) => page.text).join('\n');
      const wrapped = text.split('\n').map(wrap);
      const typeset = wrapped.map((w) => w.lines.join('\n')).join('\n');
      const words = rule.writtenWords(typeset);
      const read = rule.joinHyphenatedLines(typeset, words);
      const paragraphs = wrapped.map((w) => rule.joinParagraphLines(w.lines, words)).join('\n');
      const lineMisses = misread(text, read);
      const paragraphMisses = misread(text, paragraphs);
      // Suspended hyphens read back with their hyphen and the space after it.
      const suspendedKept = (text.match(/[\p{L}\p{M}]+[-\u2010] [\p{L}]+/gu) ?? []).filter((form) =>
        paragraphs.includes(form),
      ).length;
      totals.documents++;
      totals.breaks += wrapped.reduce((sum, w) => sum + w.breaks, 0);
      totals.suspended += wrapped.reduce((sum, w) => sum + w.suspended, 0);
      totals.lines += lineMisses;
      totals.paragraphs += paragraphMisses;
      totals.kept += suspendedKept;
      const tally = byLanguage.get(entry.language) ?? { lines: 0, paragraphs: 0 };
      tally.lines += lineMisses;
      tally.paragraphs += paragraphMisses;
      byLanguage.set(entry.language, tally);
    }
  }
  console.log(JSON.stringify(totals));
  console.log(JSON.stringify(Object.fromEntries(byLanguage)));
}

await main();
