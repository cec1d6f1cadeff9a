/**
 * `npm run bench:classify`: the classify API over real HTTP on the compiled app (worker-thread
 * pool active). Prints sync latency p50/p99 for 1- and 5-page PDFs, pages/s for both models,
 * async submit-to-Completed latency when idle and under a backlog of 1,000 standard jobs
 * (priority jobs must overtake them), and each figure's ratio to its target.
 */
import { performance } from 'node:perf_hooks';
import { seedAccount } from '../test/support/accounts.js';
import { makePdf } from '../test/support/documents.js';
import { startFileServer } from '../test/support/file-server.js';
import { startTestApp } from '../test/support/test-app.js';

type Json = Record<string, unknown>;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main(): Promise<void> {
  const files = await startFileServer();
  const t = await startTestApp({
    FETCH_ALLOW_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'error',
    QUEUE_POLL_INTERVAL_MS: '200',
  });
  const key = (await seedAccount(t.app, 'Bench')).processingKey;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const post = async (path: string, body: Json): Promise<Json> => {
    const res = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Json;
    if (res.status !== 200)
      throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const schema = [
    { category: 'invoice', criteria: ['invoice number', 'amount due', 'bill to'] },
    { category: 'resume', criteria: ['work experience', 'education', 'skills'] },
    { category: 'contract', criteria: ['agreement between parties', 'term and termination'] },
  ];
  const page =
    'INVOICE\nInvoice number INV-1\nBill to ACME\nAmount due 100 EUR\n' +
    'Line item description. '.repeat(40);
  const onePage = files.put('/one.pdf', await makePdf([page]), 'application/pdf');
  const fivePages = files.put(
    '/five.pdf',
    await makePdf([page, page, page, page, page]),
    'application/pdf',
  );

  const sync = async (input: string, model: string, n: number) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++)
      await post('/classify', { input, model, classification_schema: schema });
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await post('/classify', { input, model, classification_schema: schema });
      times.push(performance.now() - t0);
    }
    return { times, elapsed: performance.now() - started };
  };

  // Each figure is printed as soon as it is measured, so a cut-short run still reports.
  const emit = (line: string) => process.stdout.write(`${line}\n`);
  const one = await sync(onePage, 'default', 60);
  emit(
    `sync 1-page PDF, default:  p50 ${fmt(percentile(one.times, 50))}  p99 ${fmt(percentile(one.times, 99))}`,
  );
  const five = await sync(fivePages, 'default', 60);
  const p50five = percentile(five.times, 50);
  emit(
    `sync 5-page PDF, default:  p50 ${fmt(p50five)}  p99 ${fmt(percentile(five.times, 99))}  (target p50 < 100 ms: ${(p50five / 100).toFixed(2)}x of target)`,
  );
  emit(
    `pages/s (sequential sync, 5-page PDF), default:  ${((5 * five.times.length) / (five.elapsed / 1000)).toFixed(1)}`,
  );
  const deep = await sync(fivePages, 'accurate', 30);
  emit(
    `pages/s (sequential sync, 5-page PDF), accurate: ${((5 * deep.times.length) / (deep.elapsed / 1000)).toFixed(1)}`,
  );
  emit(
    `sync 5-page PDF, accurate: p50 ${fmt(percentile(deep.times, 50))}  p99 ${fmt(percentile(deep.times, 99))}`,
  );

  const waitCompleted = async (jobId: string): Promise<void> => {
    for (;;) {
      const res = await fetch(`${t.baseUrl}/job/${jobId}`, { headers });
      const job = (await res.json()) as Json;
      if (job.status === 'Completed') return;
      if (job.status === 'Failed') throw new Error(`job failed: ${String(job.reason)}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const idle: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    const { job_id } = (await post('/classify_async', {
      input: onePage,
      classification_schema: schema,
    })) as { job_id: string };
    await waitCompleted(job_id);
    idle.push(performance.now() - t0);
  }
  const idleP50 = percentile(idle, 50);
  emit(
    `async submit-to-Completed, idle (1-page): p50 ${fmt(idleP50)}  p99 ${fmt(percentile(idle, 99))}  (target p50 < 200 ms: ${(idleP50 / 200).toFixed(2)}x of target)`,
  );

  const backlog: string[] = [];
  for (let i = 0; i < 1000; i++) {
    backlog.push(
      (
        (await post('/classify_async', { input: onePage, classification_schema: schema })) as {
          job_id: string;
        }
      ).job_id,
    );
  }
  const priority: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const { job_id } = (await post('/classify_async', {
      input: onePage,
      classification_schema: schema,
      async: { priority: true },
    })) as { job_id: string };
    await waitCompleted(job_id);
    priority.push(performance.now() - t0);
  }
  const drainStart = performance.now();
  await waitCompleted(backlog[backlog.length - 1]);
  const lastStandard = performance.now() - drainStart;
  emit(
    `async priority submit-to-Completed under a 1,000-job standard backlog: p50 ${fmt(percentile(priority, 50))}  p99 ${fmt(percentile(priority, 99))}; the backlog's last job completed ${fmt(lastStandard)} after the priority jobs`,
  );

  await t.close();
  await files.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
