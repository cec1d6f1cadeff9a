/**
 * Parse throughput in pages per second on one core (this process, single-threaded, after
 * warm-up), per layout engine, against the documents library's plain text-layer read of
 * the same PDF in the same process (the baseline: no positions, no blocks); the p50 and p95
 * latency of one call of each path (the whole document), and the process's peak RSS after a
 * fixed number of calls of each text-layer path and at the end (scanned pages included).
 * Run: npm run bench:parse
 */
import { loadDocument } from '../src/documents/readers/document.loader.js';
import { terminateOcr } from '../src/documents/readers/ocr.engine.js';
import { loadLayoutDocument } from '../src/documents/parse/layout.loader.js';
import { parseDocument } from '../src/documents/parse/parse.operation.js';
import { LAYOUT_ENGINES, type LayoutEngine } from '../src/documents/versions/engines.js';
import { makeScannedPdf } from '../test/support/documents.js';
import { makeLayoutPdf, type LayoutPageSpec } from '../test/support/layout-documents.js';

/** At most 10: the baseline (classification's reader) selects no more. */
const PAGES = 10;
const MIN_MS = 3000;

const paragraph =
  'The parties agree that the services described in this schedule are delivered monthly, ' +
  'invoiced at the end of each month and paid within thirty days of the invoice date.';
const page = (n: number): LayoutPageSpec => ({
  header: 'ACME Corp Annual Report 2026',
  footer: `Page ${n}`,
  elements: [
    { heading: `Section ${n}` },
    { paragraph },
    { list: ['First item of the list', 'Second item of the list', 'Third item'] },
    {
      table: [
        ['Region', 'Q1', 'Q2', 'Q3'],
        ['North', '1,200', '1,350', '1,400'],
        ['South', '900', '1,010', '1,100'],
        ['West', '700', '805', '880'],
      ],
    },
    { paragraph },
    {
      keyValues: [
        ['Prepared by', 'Finance'],
        ['Reviewed', 'Audit committee'],
      ],
    },
  ],
});

const { bytes } = await makeLayoutPdf([
  { elements: [{ title: 'Annual Report' }, { paragraph }] },
  ...Array.from({ length: PAGES - 1 }, (_, i) => page(i + 2)),
]);

interface Path {
  name: string;
  run: () => Promise<number>;
  pages: number;
  ms: number;
  /** Each counted call's time (ms). */
  calls: number[];
}

const preloaded = await loadLayoutDocument(bytes);
const paths: Path[] = [
  {
    name: 'text layer only (documents library, baseline)',
    // The documents library reads at most 10 selected pages: all of this document.
    run: async () =>
      (await loadDocument(bytes, 'pdf', { pageRange: { start: 1, end: PAGES } })).pages.length,
  },
  {
    name: 'positioned lines (no blocks)',
    run: async () => (await loadLayoutDocument(bytes)).pages.length,
  },
  ...(LAYOUT_ENGINES as readonly LayoutEngine[]).flatMap((engine) => [
    {
      name: `parse, ${engine}`,
      run: async () => {
        const doc = await loadLayoutDocument(bytes);
        parseDocument(doc, { engine, chunkMode: 'variable' });
        return doc.pages.length;
      },
    },
    {
      name: `  block forming only, ${engine}`,
      run: async () => {
        for (let i = 0; i < 20; i++) parseDocument(preloaded, { engine });
        return 20 * preloaded.pages.length;
      },
    },
  ]),
].map((p) => ({ ...p, pages: 0, ms: 0, calls: [] as number[] }));

/** Peak resident set size of this process so far, in MB. */
const peakRssMb = () => process.resourceUsage().maxRSS / 1024;
// Peak RSS over a fixed amount of work, before the timed rounds: those run for a fixed time,
// so a faster build makes more calls there and leaves more garbage to peak on.
const RSS_CALLS = 20;
for (let call = 0; call < RSS_CALLS; call++) {
  for (const path of paths) await path.run();
}
const fixedWorkPeakRss = peakRssMb();

// Interleaved rounds, so load from other processes on this shared machine hits every path
// alike; the first round warms up pdf.js, fonts and the JIT and is not counted.
const started = performance.now();
for (let round = 0; performance.now() - started < MIN_MS * paths.length; round++) {
  for (const path of paths) {
    const t = performance.now();
    const pages = await path.run();
    if (round > 0) {
      const ms = performance.now() - t;
      path.ms += ms;
      path.pages += pages;
      path.calls.push(ms);
    }
  }
}
/** The `share` quantile of `values` (nearest rank). */
function quantile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}
const baseline = paths[0].pages / (paths[0].ms / 1000);
const rows: [string, number, number, string][] = paths.map((p) => {
  const rate = p.pages / (p.ms / 1000);
  const latency = `${quantile(p.calls, 0.5).toFixed(1)} / ${quantile(p.calls, 0.95).toFixed(1)}`;
  return [p.name, rate, rate / baseline, latency];
});

// OCR pages are another order of magnitude: a few pages, measured once after warm-up.
const scanned = await makeScannedPdf([paragraph, paragraph]);
await loadLayoutDocument(scanned);
const ocrStart = performance.now();
const ocrRounds = 2;
for (let i = 0; i < ocrRounds; i++) {
  parseDocument(await loadLayoutDocument(scanned), { engine: 'paragraph-blocks' });
}
const ocr = (2 * ocrRounds) / ((performance.now() - ocrStart) / 1000);
rows.push(['parse, scanned pages (OCR), paragraph-blocks', ocr, ocr / baseline, '']);
await terminateOcr();

console.log(`parse benchmark: ${PAGES}-page text-layer PDF, one core (single thread)`);
console.log('| path | pages/s | ratio to baseline | call p50 / p95 (ms) |');
console.log('|---|---:|---:|---:|');
for (const [name, rate, ratio, latency] of rows) {
  console.log(`| ${name} | ${rate.toFixed(1)} | ${ratio.toFixed(2)} | ${latency} |`);
}
console.log(
  `peak RSS: ${fixedWorkPeakRss.toFixed(0)} MB after ${RSS_CALLS} calls of each text-layer ` +
    `path, ${peakRssMb().toFixed(0)} MB at the end (scanned pages included)`,
);
