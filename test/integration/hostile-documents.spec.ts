import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeDeepHtml, makeDocxBomb, makePngBomb } from '../support/bombs.js';
import { buildDist, ChildApp } from '../support/child-app.js';
import { makePdf } from '../support/documents.js';
import { makeMultiPageTiff } from '../support/images.js';
import { waitFor } from '../support/usage-kafka.js';

// The black-box robustness checks on the real server (`npm start`, embedded mode): hostile
// documents end in a 4xx (or a Failed job) while the same process keeps answering.

let app: ChildApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-hostile-'));
  const buildDir = await buildDist('hostile');
  app = new ChildApp(buildDir, {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    AUTH_DISABLED: 'true',
    AUTH_DEFAULT_ORG_ID: 'org_hostile',
    // Lower than the default (64 MiB) so that HTML of a few MB already makes a result too
    // large to return: the spec stays fast, the path is the same.
    MAX_RESULT_BYTES: String(16 * 1024 * 1024),
    // Executors end on purpose too: past EXECUTOR_RECYCLE_RSS_MB after a task (one holding
    // the sentence encoder and an OCR engine can pass it) and after EXECUTOR_IDLE_MS unused.
    // Here an executor that ends must have ended on a document, so neither applies.
    EXECUTOR_RECYCLE_RSS_MB: '8192',
    EXECUTOR_IDLE_MS: String(3_600_000),
    // Lower than the default (500) so that a 4-page PDF is past it; the other cases parse
    // PDFs of one page.
    MAX_PARSE_PAGES: '3',
  });
  await app.start();
}, 600_000);

afterAll(async () => {
  await app?.stop('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** CPU time (user + system) a process has used, seconds. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU time of the server and of its executors, seconds. */
function processesCpuSeconds(): number {
  return [app.pid!, ...executorPids()].reduce((sum, pid) => sum + cpuSecondsIfRunning(pid), 0);
}

function cpuSecondsIfRunning(pid: number): number {
  try {
    return cpuSeconds(pid);
  } catch {
    return 0; // ended between the listing and the read
  }
}

function executorPids(): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(app.pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

/** A JSON answer, read loosely: the assertions check its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies of several shapes
type Answer = Record<string, any>;

async function upload(bytes: Buffer, extension: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), `doc.${extension}`);
  const res = await fetch(`${app.baseUrl}/upload?extension=${extension}`, {
    method: 'POST',
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { file_id: string }).file_id;
}

async function post(route: string, body: unknown): Promise<{ status: number; body: Answer }> {
  const res = await fetch(`${app.baseUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

async function expectHealthySameProcess(pid: number): Promise<void> {
  expect(app.pid).toBe(pid);
  expect((await fetch(`${app.baseUrl}/health`)).status).toBe(200);
  expect(rssMb(pid)).toBeLessThan(1_500);
}

describe('hostile documents on the real server', () => {
  // First, on the fresh server: what the other documents leave in its heap until the next
  // collection would blur the server's own share.
  it('parses large HTML only in executors: /health keeps answering, the server stays small', async () => {
    const pid = app.pid!;
    // ~2 MB of HTML, 200,000 paragraphs: ~35 MB of parse result, past MAX_RESULT_BYTES here.
    const html = Buffer.from(
      `<html><body>${Array.from({ length: 200_000 }, (_, i) => `<p>Line ${i}</p>`).join('')}</body></html>`,
    );
    const fileId = await upload(html, 'html');
    // Alone, on a fresh executor, the parse meets the result size limit (its result never
    // reaches the server, so the server's baseline below is unchanged by it).
    const alone = await post('/parse', { input: fileId });
    expect(`${alone.status} ${alone.body.error.code}`).toBe('413 DOCUMENT_LIMIT_EXCEEDED');
    expect(alone.body.error.message).toContain('MAX_RESULT_BYTES');
    const baseline = rssMb(pid);
    const cpuBefore = cpuSeconds(pid);
    let peak = baseline;
    let slowestHealthMs = 0;
    let parsing = true;
    const watch = (async () => {
      while (parsing) {
        const started = Date.now();
        expect((await fetch(`${app.baseUrl}/health`)).status).toBe(200);
        slowestHealthMs = Math.max(slowestHealthMs, Date.now() - started);
        peak = Math.max(peak, rssMb(pid));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => post('/parse', { input: fileId })),
    );
    parsing = false;
    await watch;
    const serverCpu = cpuSeconds(pid) - cpuBefore;
    // Each is refused in its executor, never by the server: the result past MAX_RESULT_BYTES,
    // or the executor's own limit when V8 runs out of heap building it first. On a loaded CI
    // machine one run in two also answered one of the three with a 422 from the executor
    // pool (an executor ending twice, or the task's time limit: still a clear refusal). Which
    // of three concurrent parses meets which limit first is a race, so any clear refusal is
    // accepted here; the size refusal is asserted on the same parse alone, above.
    const refusals = answers.map(({ status, body }) => `${status} ${body.error.code}`);
    for (const refusal of refusals) {
      expect([
        '413 DOCUMENT_LIMIT_EXCEEDED',
        '413 EXECUTOR_MEMORY_LIMIT',
        '422 EXECUTOR_CRASHED',
        '422 TASK_TIME_LIMIT',
      ]).toContain(refusal);
    }
    process.stdout.write(
      `large HTML x3: API RSS ${baseline.toFixed(0)} -> peak ${peak.toFixed(0)} MB, ` +
        `API CPU ${serverCpu.toFixed(2)} s, slowest /health ${slowestHealthMs} ms ` +
        `(answers ${refusals.join(', ')})\n`,
    );
    // The server process did none of the work (the executors took ~30 s of CPU), and held
    // none of its result: measured in CPU time, which load does not inflate. /health (every
    // probe answered 200 above) is bounded only against a server that stops answering: on a
    // loaded machine a probe waits seconds for a core like anything else.
    expect(serverCpu).toBeLessThan(5);
    expect(peak - baseline).toBeLessThan(250);
    expect(slowestHealthMs).toBeLessThan(15_000);
    await expectHealthySameProcess(pid);
  }, 420_000);

  it('refuses a 60,000 x 60,000 PNG (sync 413, async Failed) and keeps answering', async () => {
    const pid = app.pid!;
    const fileId = await upload(await makePngBomb(60_000, 60_000), 'png');
    const sync = await post('/parse', { input: fileId });
    expect(sync.status).toBe(413);
    expect(sync.body.error.code).toBe('DOCUMENT_LIMIT_EXCEEDED');
    expect(sync.body.error.message).toContain('MAX_IMAGE_PIXELS');
    const { body } = await post('/parse_async', { input: fileId });
    let job: Answer = {};
    await waitFor('the bomb job to fail', async () => {
      job = (await (await fetch(`${app.baseUrl}/job/${body.job_id}`)).json()) as Answer;
      return job.status !== 'Pending';
    });
    expect(job.status).toBe('Failed');
    expect(job.reason).toContain('MAX_IMAGE_PIXELS');
    await expectHealthySameProcess(pid);
  }, 120_000);

  it('parses TIFF scans, several at once, without losing an executor', async () => {
    const pid = app.pid!;
    const fileId = await upload(
      await makeMultiPageTiff(['Delivery note 5521', 'Signed by the receiver']),
      'tiff',
    );
    const executorsBefore = executorPids();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post('/parse', { input: fileId })),
    );
    for (const { status, body } of answers) {
      expect(status).toBe(200);
      expect(body.usage.num_pages).toBe(2);
      const text = (body.result.chunks as Answer[]).map((chunk) => chunk.content).join('\n');
      expect(text).toMatch(/Delivery note 5521/);
      expect(text).toMatch(/Signed by the receiver/);
    }
    // The executors that were running still are: none ended on a TIFF.
    for (const executor of executorsBefore) expect(executorPids()).toContain(executor);
    await expectHealthySameProcess(pid);
  }, 120_000);

  it('refuses a DOCX inflating to 1.2 GB before inflating it', async () => {
    const pid = app.pid!;
    // Executors that read earlier cases' images keep what they grew to; inflating the bomb
    // would add more than 1 GB to one of them, so each is held to its own size before.
    const before = new Map(executorPids().map((executor) => [executor, rssMb(executor)]));
    const fileId = await upload(await makeDocxBomb(1_200 * 1024 * 1024), 'docx');
    const res = await post('/parse', { input: fileId });
    expect(res.status).toBe(413);
    expect(res.body.error.message).toContain('MAX_ZIP_UNCOMPRESSED_BYTES');
    await expectHealthySameProcess(pid);
    for (const executor of executorPids()) {
      expect(rssMb(executor)).toBeLessThan((before.get(executor) ?? 500) + 300);
    }
  }, 120_000);

  it('answers a PDF past MAX_PARSE_PAGES with a 422 naming the setting, and reads what page_range selects', async () => {
    const fileId = await upload(await makePdf(['one', 'two', 'three', 'four']), 'pdf');
    const whole = await post('/parse', { input: fileId });
    expect(whole.status).toBe(422);
    expect(whole.body.error.code).toBe('PAGE_RANGE_INVALID');
    expect(whole.body.error.message).toContain('MAX_PARSE_PAGES=3');
    expect(whole.body.error.message).toContain('page_range');
    const selected = await post('/parse', {
      input: fileId,
      settings: { page_range: { start: 2, end: 4 } },
    });
    expect(selected.status).toBe(200);
    expect(selected.body.usage.num_pages).toBe(3);
  }, 60_000);

  it('answers deeply nested HTML with a 422 naming MAX_MARKUP_DEPTH', async () => {
    const fileId = await upload(makeDeepHtml(100_000), 'html');
    const res = await post('/parse', { input: fileId });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('MAX_MARKUP_DEPTH');
  }, 60_000);

  it('answers a 100,000-character criterion with a 422 at once while a normal classify completes', async () => {
    const invoice = await upload(
      await makePdf(['Invoice number 77. Total amount due: 120.00']),
      'pdf',
    );
    const schema = [
      { category: 'invoice', criteria: ['invoice number', 'total amount due'] },
      { category: 'letter', criteria: ['dear sir'] },
    ];
    // The executor starts on first use (1-2 s of model loading): measured on a running one.
    expect(
      (await post('/classify', { input: invoice, classification_schema: schema })).status,
    ).toBe(200);
    const longRequest = () =>
      post('/classify', {
        input: invoice,
        classification_schema: [{ category: 'x', criteria: ['a'.repeat(100_000)] }],
      });
    // Refused before any work: alone, it costs the server and its executors next to no CPU
    // time (which load does not inflate; the tokenizer would take minutes of it), and its
    // answer comes well inside those minutes even on a loaded machine.
    const cpuBefore = processesCpuSeconds();
    const started = Date.now();
    const alone = await longRequest();
    const aloneMs = Date.now() - started;
    const aloneCpu = processesCpuSeconds() - cpuBefore;
    process.stdout.write(
      `100,000-character criterion: ${aloneMs} ms, ${aloneCpu.toFixed(2)} s CPU\n`,
    );
    expect(alone.status).toBe(422);
    expect(JSON.stringify(alone.body)).toContain('MAX_CRITERION_CHARS');
    expect(aloneCpu).toBeLessThan(2);
    expect(aloneMs).toBeLessThan(30_000);
    // And it holds up no one: a normal classify sent with it completes.
    const [long, normal] = await Promise.all([
      longRequest(),
      post('/classify', { input: invoice, classification_schema: schema }),
    ]);
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body)).toContain('MAX_CRITERION_CHARS');
    expect(normal.status).toBe(200);
    expect(normal.body.result.category).toBe('invoice');
  }, 120_000);

  it('returns to its idle memory after heavy documents', async () => {
    await waitFor('the server below 800 MB', async () => rssMb(app.pid!) < 800, 60_000, 1_000);
  }, 90_000);
});
