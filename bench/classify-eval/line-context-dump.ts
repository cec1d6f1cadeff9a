/**
 * Writes, for every dev document of both evaluation sets as Deep Classify reads it (the
 * passages deep-dump.ts dumps, in the same order), where each single line read apart sits:
 * the index of the read chunk that holds it, -1 when no read chunk does or the passage is a
 * chunk. The input of line-context-trial.ts (record 0537): a line judged with its context.
 * No encoder is run; the loader's cached pages are read.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/line-context-dump.js <file>
 */
import fs from 'node:fs';
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import { readDocument } from '../../src/documents/classify/classify.js';
import { allChunks, allLines } from '../../src/documents/classify/chunks.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';

const file = process.argv[2];
if (!file) process.exit(2);
const out: Record<string, number[]> = {};
for (const set of REAL_EVAL_SETS) {
  const loaded = await loadRealEvalSet(['dev'], undefined, ocrEffortOf('accurate'), set);
  for (const document of loaded.documents) {
    const pages = pagesOf(document);
    const texts = pages.map((page) => (typeof page === 'string' ? page : page.text));
    const sizes = pages.map((page) => (typeof page === 'string' ? undefined : page.size));
    const { passages } = readDocument(texts, undefined, 160, 24, sizes);
    const lineTexts = new Set(allLines(texts).map((line) => line.text));
    const chunkTexts = new Set(allChunks(texts).map((chunk) => chunk.text));
    const chunkLines = passages.map((p) =>
      chunkTexts.has(p.text) ? new Set(p.text.split(' \n ')) : new Set<string>(),
    );
    out[`${set}/${document.file}`] = passages.map((p) => {
      if (!lineTexts.has(p.text) || chunkTexts.has(p.text)) return -1;
      return chunkLines.findIndex((lines, k) => passages[k].page === p.page && lines.has(p.text));
    });
  }
  console.log(`${set}: ${loaded.documents.length} documents`);
}
fs.writeFileSync(file, JSON.stringify(out));
