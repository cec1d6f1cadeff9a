/**
 * Split evaluation on bundles of real documents of both evaluation sets (business categories
 * and categories no model was written for): each bundle is four documents of different
 * categories one after the other, the request's `split_description` names each category as a
 * section with the set's criteria as its description. Reports the share of pages assigned to
 * their own section by the default split, by each deep split engine and by a naive per-page
 * word-overlap baseline, and each engine's milliseconds per bundle (Deep Split read first, so
 * that no passage of the bundle is remembered for it, as for a request). Documents come from
 * `node scripts/fetch-classify-eval.mjs`.
 *
 * Members are PDF pages: a PDF's first pages (`--max-pages`, default 12), a Markdown or text
 * document printed onto A4 pages; documents in scripts the font cannot print are left out.
 *
 * Run: npm run bench:split-eval                  dev parts of both sets
 *      npm run bench:split-eval -- --holdout     holdout parts (only for a final change)
 *      npm run bench:split-eval -- --set unseen --bundles 10 --size 4 --max-pages 12
 *      npm run bench:split-eval -- --pages       each dev page's section, truth and engines
 *      npm run bench:split-eval -- --kinds       why pages go wrong, counted by kind (split-kinds.ts)
 *      npm run bench:split-eval -- --generated   many bundles generated from the dev documents
 *                                                (split-generated.ts; `--sweep` chooses the cut's
 *                                                weights by cross-validation over them;
 *                                                `--readings FILE` keeps the page readings;
 *                                                `--fit-boundaries` fits the boundary model;
 *                                                `--pool` chooses Deep Split's share of the
 *                                                fuller reading and its margin; `--lend` the
 *                                                weight of the fuller vote it lends;
 *                                                `--boundary-share` the share of its boundaries
 *                                                read with the fuller reading's vectors;
 *                                                `--lent-start` where a lent page may start
 *                                                a document; `--whole` the classifier's share
 *                                                when Deep Split reads a run's sides whole)
 */
import os from 'node:os';
import { loadLayoutDocuments } from '../src/documents/parse/layout.loader.js';
import { terminateOcr } from '../src/documents/readers/ocr.engine.js';
import { pageText, type LayoutDocument } from '../src/documents/parse/layout.types.js';
import { deepSplitDocument, splitDocument } from '../src/documents/split/split.operation.js';
import { DEEP_SPLIT_ENGINES } from '../src/documents/versions/engines.js';
import {
  readCriteria,
  REAL_EVAL_SETS,
  type RealEvalSetName,
} from '../test/support/classify-eval-real.js';
import {
  assignedPages,
  concatenatePdfs,
  expectedSections,
  pagesRight,
  planBundles,
  sectionsFor,
  wordOverlapSplit,
} from '../test/support/split-eval.js';
import { runGenerated } from './split-generated.js';
import { readMembers, type Member } from './split-members.js';
import { countWrongPages, formatKinds, type WrongPageKinds } from './split-kinds.js';

const split = process.argv.includes('--holdout') ? 'holdout' : 'dev';
function numberOption(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.log(`${name} needs a whole number of at least 1`);
    process.exit(2);
  }
  return value;
}
function stringOption(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const setAt = process.argv.indexOf('--set');
const sets = (setAt >= 0 ? [process.argv[setAt + 1]] : [...REAL_EVAL_SETS]) as RealEvalSetName[];
if (!sets.every((s) => REAL_EVAL_SETS.includes(s))) {
  console.log(`--set takes one of ${REAL_EVAL_SETS.join(', ')}`);
  process.exit(2);
}
const bundleCount = numberOption('--bundles', 8);
/** Dev only: one letter per page (its section's initial) for the truth and each engine. */
const showPages = split === 'dev' && process.argv.includes('--pages');
const bundleSize = numberOption('--size', 4);
const maxMemberPages = numberOption('--max-pages', 12);
async function bundleDocument(members: readonly Member[]): Promise<LayoutDocument> {
  const pdf = await concatenatePdfs(members.map((m) => m.pdf));
  return loadLayoutDocuments([{ bytes: pdf, name: 'bundle.pdf' }]);
}

const methods = ['default', ...DEEP_SPLIT_ENGINES.map((e) => `deep ${e}`), 'baseline'];
const showKinds = process.argv.includes('--kinds');
/** Milliseconds each method took per bundle (its reading and cut, the layout read once before). */
const millis: Record<string, number[]> = {};
function timed<T>(method: string, run: () => T): T {
  const began = performance.now();
  const result = run();
  (millis[method] ??= []).push(performance.now() - began);
  return result;
}
const kindsByMethod: Record<string, WrongPageKinds> = {};
const totals: Record<string, Record<string, { right: number; total: number }>> = {};
if (process.argv.includes('--generated')) {
  await runGenerated({
    sets,
    folds: numberOption('--folds', 5),
    perFold: numberOption('--per-fold', 40),
    maxPages: maxMemberPages,
    sweep: process.argv.includes('--sweep'),
    fitBoundaries: process.argv.includes('--fit-boundaries'),
    readings: stringOption('--readings'),
    pool: process.argv.includes('--pool'),
    lend: process.argv.includes('--lend'),
    boundaryShare: process.argv.includes('--boundary-share'),
    lentStart: process.argv.includes('--lent-start'),
    whole: process.argv.includes('--whole'),
  });
  process.exit(0);
}
const started = performance.now();
for (const set of sets) {
  const schema = readCriteria(set);
  const members = await readMembers(set, split, maxMemberPages);
  const bundles = planBundles(members, bundleSize, bundleCount, `${set}-${split}`);
  console.log(
    `\n${set} set, ${split} part: ${members.length} documents (first ${maxMemberPages} pages ` +
      `at most), ${bundles.length} bundles of ${bundleSize}`,
  );
  if (bundles.length === 0) continue;
  console.log(
    `${'bundle'.padEnd(22)}${'pages'.padStart(6)}  ${methods.map((m) => m.padStart(32)).join('')}`,
  );
  const setTotals = (totals[set] = Object.fromEntries(
    methods.map((m) => [m, { right: 0, total: 0 }]),
  ));
  for (const bundle of bundles) {
    const document = await bundleDocument(bundle.members);
    const truth = expectedSections(bundle.members);
    if (document.pages.length !== truth.size) {
      console.log(
        `${bundle.id}: read ${document.pages.length} pages, members add up to ${truth.size}; skipped`,
      );
      continue;
    }
    const categories = schema
      .map((c) => c.category)
      .filter((c) => bundle.members.some((m) => m.category === c));
    const sections = sectionsFor(categories, schema);
    // Deep Split (the last engine) first: it reads each page both ways, and no passage of the
    // bundle is remembered yet, as for a request.
    const deep = [...DEEP_SPLIT_ENGINES]
      .reverse()
      .map((engine) =>
        timed(`deep ${engine}`, () => assignedPages(deepSplitDocument(document, sections, engine))),
      )
      .reverse();
    const assignments = [
      timed('default', () => assignedPages(splitDocument(document, sections))),
      ...deep,
      timed('baseline', () => wordOverlapSplit(document.pages.map(pageText), sections)),
    ];
    const outcomes = assignments.map((assigned) => pagesRight(truth, assigned));
    if (showPages) {
      const letter = (name: string | undefined) =>
        name === undefined
          ? '.'
          : String.fromCharCode(97 + categories.indexOf(name.replace(/ /g, '_')));
      const row = (sectionOf: (page: number) => string | undefined) =>
        [...truth.keys()].map((page) => letter(sectionOf(page))).join('');
      console.log(`  ${'truth'.padEnd(34)}${row((page) => truth.get(page))}`);
      assignments.forEach((assigned, i) => {
        const byPage = new Map(
          [...assigned].flatMap(([name, pages]) => pages.map((p) => [p, name])),
        );
        console.log(`  ${methods[i].padEnd(34)}${row((page) => byPage.get(page))}`);
      });
      console.log(`  sections: ${categories.map((c) => `${letter(c)} ${c}`).join(', ')}`);
    }
    if (showKinds) {
      assignments.forEach((assigned, i) => {
        const byPage = new Map<number, string[]>();
        for (const [name, pages] of assigned)
          for (const p of pages) byPage.set(p, [...(byPage.get(p) ?? []), name]);
        countWrongPages(
          (kindsByMethod[`${set} ${methods[i]}`] ??= {}),
          bundle.members.map((m) => ({ ...m, category: m.category.replace(/_/g, ' ') })),
          (page) => (byPage.get(page)?.length === 1 ? byPage.get(page)?.[0] : undefined),
          (page) => pageText(document.pages[page - 1]),
        );
      });
    }
    outcomes.forEach((outcome, i) => {
      setTotals[methods[i]].right += outcome.right;
      setTotals[methods[i]].total += outcome.total;
    });
    console.log(
      `${bundle.id.padEnd(22)}${String(truth.size).padStart(6)}  ` +
        outcomes.map((o) => `${o.right}/${o.total}`.padStart(32)).join(''),
    );
    console.log(
      `  ${bundle.members.map((m) => `${m.category} (${m.language}, ${m.pages} p)`).join(' + ')}`,
    );
  }
}

const pct = ({ right, total }: { right: number; total: number }) =>
  total === 0 ? '-' : `${((right / total) * 100).toFixed(1)} % (${right}/${total})`;
console.log(`\npages assigned to their own section, ${split} part`);
console.log(`${'set'.padEnd(10)}${methods.map((m) => m.padStart(32)).join('')}`);
for (const [set, byMethod] of Object.entries(totals)) {
  console.log(`${set.padEnd(10)}${methods.map((m) => pct(byMethod[m]).padStart(32)).join('')}`);
}
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(`\nms per bundle (median / total), ${split} part, every set`);
for (const method of methods) {
  const values = millis[method] ?? [];
  const total = values.reduce((sum, value) => sum + value, 0);
  console.log(`${method.padEnd(32)}${median(values).toFixed(0).padStart(8)} / ${total.toFixed(0)}`);
}
for (const [method, kinds] of Object.entries(kindsByMethod)) {
  console.log(`\nwrong pages, ${method}:\n${formatKinds(kinds)}`);
}
console.log(
  `\n${((performance.now() - started) / 1000).toFixed(1)} s; load average ` +
    `${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.availableParallelism()} cores`,
);
// Image pages started OCR workers; they would keep the process alive after the report.
await terminateOcr();
