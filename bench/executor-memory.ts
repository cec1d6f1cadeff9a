/**
 * Peak resident size of one executor per operation, on real and generated documents, with
 * recycling at its default (EXECUTOR_RECYCLE_RSS_MB) and the pool's memory report on: the
 * figure that says how near ordinary documents take an executor to its bounds. One compiled
 * executor (build first: `npm run build`) runs, in turn: Deep Classify, parse and extract of
 * the largest dev images (receipt photos in German, scans in several languages), the largest
 * dev PDFs (slide decks, posters), the dev DOCX files, and generated documents (a 500-page
 * text PDF, a 20-page scanned PDF, a 2,000-row workbook, a 60-slide deck). Prints one JSON
 * line per task (document, operation, peak and after-task resident size in MB, recycled or
 * not, ms) and a summary per operation; every task must complete.
 *
 * Run: npm run build && node --import ./test/support/ts-register.mjs bench/executor-memory.ts [per-type]
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config/app-config.js';
import { OperationPool } from '../src/documents/executors/operation.pool.js';
import type { OperationTask } from '../src/documents/executors/operation.task.js';
import {
  poolOptionsFrom,
  type ExecutorMemoryReport,
} from '../src/documents/executors/task.pool.js';
import { makePdf, makeScannedPdf } from '../test/support/documents.js';
import { makePptx, makeXlsx } from '../test/support/office-documents.js';
import { DEFAULT_LAYOUT } from '../test/support/operation-executors.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PER_TYPE = Number(process.argv[2] ?? 6);
const DOCS = path.join(ROOT, '.cache/classify-eval/docs');
const ENTRY = path.join(ROOT, 'dist/src/documents/executors/operation.worker.js');
if (!fs.existsSync(ENTRY)) throw new Error('build first (npm run build): no compiled executor');

function largest(extensions: string[], count: number): { name: string; bytes: Buffer }[] {
  return fs
    .readdirSync(DOCS)
    .filter((name) => extensions.some((ext) => name.endsWith(ext)))
    .map((name) => ({ name, size: fs.statSync(path.join(DOCS, name)).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, count)
    .map(({ name }) => ({ name, bytes: fs.readFileSync(path.join(DOCS, name)) }));
}

const line = (n: number) =>
  `${n}. The committee reviewed the quarterly figures and agreed on the schedule for item ${n}.`;

async function generated(): Promise<{ name: string; bytes: Buffer }[]> {
  const textPages = Array.from({ length: 500 }, (_, p) =>
    Array.from({ length: 40 }, (_, l) => line(p * 40 + l)).join('\n'),
  );
  const scanPages = Array.from({ length: 20 }, (_, p) =>
    Array.from({ length: 12 }, (_, l) => line(p * 12 + l)).join('\n'),
  );
  const rows = Array.from({ length: 2000 }, (_, r) => [`item ${r}`, r * 3.5, `note ${line(r)}`]);
  const slides = Array.from({ length: 60 }, (_, s) => ({
    shapes: [{ title: `Slide ${s + 1}` }, { body: [line(s), line(s + 1), line(s + 2)] }],
  }));
  return [
    { name: 'generated-500-page-text.pdf', bytes: await makePdf(textPages) },
    { name: 'generated-20-page-scan.pdf', bytes: await makeScannedPdf(scanPages) },
    { name: 'generated-2000-rows.xlsx', bytes: await makeXlsx([{ name: 'Data', rows }]) },
    { name: 'generated-60-slides.pptx', bytes: await makePptx(slides) },
  ];
}

const SCHEMA = [
  { category: 'receipt', criteria: ['lists items bought and a total paid'] },
  { category: 'invoice', criteria: ['has an invoice number', 'lists amounts due'] },
  { category: 'slides', criteria: ['a presentation of several slides'] },
];
const EXTRACT_SCHEMA = {
  type: 'object',
  properties: { total: { type: 'number' }, date: { type: 'string' }, title: { type: 'string' } },
};

function tasks(document: { name: string; bytes: Buffer }): [string, OperationTask][] {
  const documents = [{ bytes: document.bytes, name: document.name }];
  return [
    [
      'classify_accurate',
      { kind: 'classify', documents, classificationSchema: SCHEMA, model: 'accurate' },
    ],
    ['parse', { kind: 'parse', documents, request: {}, versions: { layout: DEFAULT_LAYOUT } }],
    [
      'extract',
      {
        kind: 'extract',
        documents,
        request: { instructions: { schema: EXTRACT_SCHEMA } },
        versions: {
          extract: {
            ...DEFAULT_LAYOUT,
            family: 'extract_model',
            version: 'extract-v1',
            engine: 'label-typed',
          },
        },
      },
    ],
  ];
}

const reports: ExecutorMemoryReport[] = [];
const processing = { ...loadConfig({}).processing, cpuWorkerWarmThreads: 1 };
const pool = new OperationPool({
  ...poolOptionsFrom(processing, 1),
  inline: false,
  entry: ENTRY,
  onTaskMemory: (report) => reports.push(report),
});
const byOperation = new Map<string, number[]>();
let failed = 0;
try {
  const documents = [
    ...largest(['.jpg', '.png'], PER_TYPE),
    ...largest(['.pdf'], PER_TYPE),
    ...largest(['.docx'], Math.min(PER_TYPE, 3)),
    ...(await generated()),
  ];
  for (const document of documents) {
    for (const [operation, task] of tasks(document)) {
      const at = Date.now();
      const before = reports.length;
      let error: string | undefined;
      try {
        await pool.run(task);
      } catch (e) {
        error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      }
      // An executor above the recycle size reports once it has let go of OCR's workers,
      // after the answer: a moment later.
      const reportBy = Date.now() + 5_000;
      while (reports.length === before && Date.now() < reportBy) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const report = reports.length > before ? reports[reports.length - 1] : undefined;
      if (report)
        byOperation.set(operation, [...(byOperation.get(operation) ?? []), report.peakMb]);
      // A document error (a format the operation refuses) is an answer; a lost task is not.
      if (!report) failed++;
      console.log(
        JSON.stringify({
          document: document.name,
          operation,
          peakMb: report?.peakMb,
          rssMb: report?.rssMb,
          restedMb: report?.restedMb,
          recycled: report?.recycled,
          ms: Date.now() - at,
          ...(error ? { error: error.slice(0, 120) } : {}),
        }),
      );
    }
  }
  for (const [operation, peaks] of byOperation) {
    const sorted = [...peaks].sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        operation,
        tasks: peaks.length,
        peakMbMedian: sorted[Math.floor(sorted.length / 2)],
        peakMbMax: sorted[sorted.length - 1],
      }),
    );
  }
  console.log(
    JSON.stringify({
      tasks: reports.length,
      recycled: reports.filter((r) => r.recycled).length,
      released: reports.filter((r) => r.restedMb < r.rssMb).length,
      withoutAnswer: failed,
      recycleRssMb: processing.executors.recycleRssMb,
      rssLimitMb: processing.executors.rssLimitMb,
    }),
  );
} finally {
  await pool.close();
}
