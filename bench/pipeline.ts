/**
 * A pipeline's overhead over its steps run one by one, and jobid:// reuse against the
 * original input, through the real HTTP API and the reductoai SDK (one app, a fresh
 * DATA_DIR, the operations' executor processes):
 * - parse then extract as one `/pipeline` run, against `/parse` then `/extract` (each reading
 *   the document), and against `/parse` then `/extract` on `jobid://` of that parse;
 * - `/extract`, `/split` and `/classify` on `jobid://<parse job>` against the same request on
 *   the uploaded document.
 * Rounds are interleaved (load from other processes hits every path alike); the first round
 * warms up and is not counted; figures are medians.
 * Run: npm run bench:pipeline (BENCH_PAGES, BENCH_ROUNDS)
 */
import fs from 'node:fs';
import Reducto, { toFile } from 'reductoai';
import { seedAccount } from '../test/support/accounts.js';
import { invoiceWithTerms, makeLayoutPdf } from '../test/support/layout-documents.js';
import { startTestApp } from '../test/support/test-app.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 24);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

const schema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    total_due: { type: 'number' },
  },
};
const extract = { instructions: { schema }, settings: { citations: { enabled: true } } };
const split = {
  split_description: [
    { name: 'invoice', description: 'The invoice with its line items' },
    { name: 'terms', description: 'Terms and conditions of sale' },
  ],
};
const classificationSchema = [
  { category: 'invoice', criteria: ['an invoice with an amount due', 'invoice number'] },
  { category: 'contract', criteria: ['an agreement signed by two parties'] },
];

const app = await startTestApp({ LOG_LEVEL: 'error' });
try {
  const account = await seedAccount(app.app, 'Bench Co');
  const sdk = new Reducto({ apiKey: account.processingKey, baseURL: app.baseUrl, maxRetries: 0 });
  type Body = Record<string, unknown>;
  const post = (path: string, body: Body) => sdk.post<Body, Body>(path, { body });
  const { bytes } = await makeLayoutPdf(invoiceWithTerms(PAGES));
  const fileId = (await sdk.upload({ file: await toFile(bytes, 'invoice.pdf'), extension: 'pdf' }))
    .file_id;
  const pipeline = (await post('/pipelines', { name: 'bench', steps: [{ extract }] })) as {
    pipeline_id: string;
  };
  const parseJob = (await sdk.parse.run({ input: fileId })).job_id;
  const reused = `jobid://${parseJob}`;

  const paths: Record<string, () => Promise<unknown>> = {
    'pipeline run: parse then extract': () =>
      sdk.pipeline.run({ input: fileId, pipeline_id: pipeline.pipeline_id }),
    'steps one by one: /parse, then /extract': async () => {
      await post('/parse', { input: fileId });
      await post('/extract', { ...extract, input: fileId });
    },
    'steps one by one: /parse, then /extract on its jobid://': async () => {
      const { job_id } = await post('/parse', { input: fileId });
      await post('/extract', { ...extract, input: `jobid://${job_id as string}` });
    },
    '/extract, uploaded document': () => post('/extract', { ...extract, input: fileId }),
    '/extract, jobid://': () => post('/extract', { ...extract, input: reused }),
    '/split, uploaded document': () => post('/split', { ...split, input: fileId }),
    '/split, jobid://': () => post('/split', { ...split, input: reused }),
    '/classify, uploaded document': () =>
      sdk.classify.run({ input: fileId, classification_schema: classificationSchema }),
    '/classify, jobid://': () =>
      sdk.classify.run({ input: reused, classification_schema: classificationSchema }),
  };
  const times = new Map<string, number[]>(Object.keys(paths).map((name) => [name, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, run] of Object.entries(paths)) {
      const started = performance.now();
      await run();
      if (round > 0) times.get(name)!.push(performance.now() - started);
    }
  }
  const median = (name: string) => {
    const sorted = [...times.get(name)!].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
  };

  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(
    `pipeline benchmark: ${PAGES}-page text-layer PDF, ${ROUNDS} rounds (+1 warm-up), load ${load}`,
  );
  console.log('| path | p50 ms | ratio to baseline |');
  console.log('|---|---:|---:|');
  const row = (name: string, baseline: string) =>
    console.log(
      `| ${name} | ${median(name).toFixed(0)} | ${(median(name) / median(baseline)).toFixed(2)} (vs ${baseline}) |`,
    );
  const oneByOne = 'steps one by one: /parse, then /extract';
  row('pipeline run: parse then extract', oneByOne);
  row(
    'pipeline run: parse then extract',
    'steps one by one: /parse, then /extract on its jobid://',
  );
  row(oneByOne, oneByOne);
  for (const operation of ['/extract', '/split', '/classify']) {
    row(`${operation}, jobid://`, `${operation}, uploaded document`);
  }
} finally {
  await app.close();
}
