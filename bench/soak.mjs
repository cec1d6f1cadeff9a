// `npm run bench:soak [-- --minutes 3]` (not part of the tests): the built server with its
// defaults under mixed traffic from several organizations for `--minutes` (default 20):
// large text and PDF parses, classifies (sync and async), uploads, parses of TIFF scans,
// async parses of slow URLs (a local server answering after `--slow-seconds`), job
// listings, and the robustness suite's hostile files (a 400-megapixel PNG, a DOCX inflating
// to 1.2 GB, deeply nested HTML, truncated and random bytes). The server is restarted on
// its DATA_DIR at half time. Prints statuses and p50/p99 per kind, the RSS of the API
// process and of its executors over time, the store's size, restarts, and whether every
// async job ended. Figures are recorded in docs/benchmarks.md.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import { parseArgs } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { docxBomb, pngBomb } from './lib/hostile-documents.mjs';
import { apiCall, fileForm, percentile, startServer, treeRssKb } from './lib/server-under-test.mjs';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    orgs: { type: 'string', default: '4' },
    clients: { type: 'string', default: '2' },
    'slow-seconds': { type: 'string', default: '20' },
    'sample-seconds': { type: 'string', default: '30' },
  },
});
const MINUTES = Number(args.minutes);
const ORGS = Number(args.orgs);
const CLIENTS_PER_ORG = Number(args.clients);
const SLOW_MS = Number(args['slow-seconds']) * 1000;
const SAMPLE_MS = Number(args['sample-seconds']) * 1000;

const emit = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb) => Math.round(kb / 1024);

// ---- documents, generated here --------------------------------------------------------------

const WORDS =
  'invoice amount due total payment terms delivery note customer order quantity price tax account statement balance period report summary section'.split(
    ' ',
  );
function sentences(count, seed) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from(
      { length: 12 },
      (_, j) => WORDS[(i * 7 + j * 3 + seed) % WORDS.length],
    );
    out.push(`${words.join(' ')} ${i}.`);
  }
  return out.join(' ');
}

async function pdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([612, 792]);
    const text = sentences(40, p);
    for (let line = 0; line < 45; line++) {
      page.drawText(text.slice(line * 80, line * 80 + 80), {
        x: 40,
        y: 750 - line * 16,
        size: 10,
        font,
      });
    }
  }
  return Buffer.from(await doc.save());
}

function scan(text) {
  const canvas = createCanvas(1275, 400);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 1275, 400);
  context.fillStyle = '#000000';
  context.font = '32px sans-serif';
  context.fillText(text, 60, 120);
  return sharp(canvas.toBuffer('image/png')).tiff({ compression: 'lzw' }).toBuffer();
}

async function documents() {
  const invoice = Buffer.from('Invoice number 4711. Bill to ACME. Total amount due: 120.00 EUR.');
  const largeText = Buffer.from(sentences(9_000, 1)); // ~1.1 MB
  const report = await pdf(20);
  const deepHtml = Buffer.from(`<html><body>${'<div>'.repeat(100_000)}deep</body></html>`);
  return {
    files: new Map([
      ['/invoice.txt', { bytes: invoice, type: 'text/plain' }],
      ['/large.txt', { bytes: largeText, type: 'text/plain' }],
      ['/report.pdf', { bytes: report, type: 'application/pdf' }],
      ['/scan.tiff', { bytes: await scan('Delivery note 5521 signed'), type: 'image/tiff' }],
    ]),
    invoice,
    hostile: [
      ['png-bomb.png', await pngBomb(20_000)],
      ['docx-bomb.docx', await docxBomb(1200 * 1024 * 1024)],
      ['deep.html', deepHtml],
      ['truncated.pdf', report.subarray(0, Math.floor(report.length / 3))],
      ['random.bin', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))],
    ],
  };
}

/** Documents for `input` URLs; `/slow/...` answers after SLOW_MS. */
function serveFiles(files) {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/slow/')) {
      const timer = setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`slow document ${url}`),
        SLOW_MS,
      );
      res.on('close', () => clearTimeout(timer));
      return;
    }
    const file = files.get(url);
    if (!file) return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length })
      .end(file.bytes);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

// ---- traffic --------------------------------------------------------------------------------

const schema = [
  { category: 'invoice', criteria: ['invoice number', 'amount due', 'bill to'] },
  { category: 'report', criteria: ['summary', 'section', 'period'] },
];

const results = new Map(); // kind -> { statuses: {}, ms: [] }
const asyncJobs = []; // { key, jobId, kind }
let serverRef;
let restarting = null;

function record(kind, status, ms) {
  const entry = results.get(kind) ?? { statuses: {}, ms: [] };
  entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
  entry.ms.push(ms);
  results.set(kind, entry);
}

/** Requests the server has not answered yet: what a shutdown that does not end waits for. */
const inFlight = new Map();
let nextRequest = 0;

async function call(key, method, pathName, body, timeoutMs = 400_000) {
  if (restarting) await restarting;
  const id = nextRequest++;
  inFlight.set(id, {
    route: `${method} ${pathName.split('?')[0]}`,
    started: performance.now(),
    body,
  });
  try {
    const res = await apiCall(serverRef.base, key, method, pathName, body, timeoutMs);
    // A connection refused during the planned restart is not the service's answer.
    if (restarting && typeof res.status === 'string') return { ...res, status: 'restart' };
    return res;
  } finally {
    inFlight.delete(id);
  }
}

function upload(key, bytes, name) {
  const extension = path.extname(name).slice(1);
  return call(key, 'POST', `/upload?extension=${extension}`, fileForm(bytes, name));
}

function kinds(docs, files) {
  return [
    [
      'classify',
      30,
      (key) =>
        call(key, 'POST', '/classify', {
          input: `${files}/invoice.txt`,
          classification_schema: schema,
        }),
    ],
    ['parse_large_text', 8, (key) => call(key, 'POST', '/parse', { input: `${files}/large.txt` })],
    ['parse_pdf', 12, (key) => call(key, 'POST', '/parse', { input: `${files}/report.pdf` })],
    ['parse_tiff', 5, (key) => call(key, 'POST', '/parse', { input: `${files}/scan.tiff` })],
    [
      'upload_parse',
      10,
      async (key) => {
        const up = await upload(key, docs.invoice, 'invoice.txt');
        if (up.status !== 200) return up;
        const parsed = await call(key, 'POST', '/parse', { input: up.json.file_id });
        return { ...parsed, ms: parsed.ms + up.ms };
      },
    ],
    [
      'classify_async',
      10,
      async (key) => {
        const res = await call(key, 'POST', '/classify_async', {
          input: `${files}/invoice.txt`,
          classification_schema: schema,
        });
        if (res.status === 200)
          asyncJobs.push({ key, jobId: res.json.job_id, kind: 'classify_async' });
        return res;
      },
    ],
    [
      'slow_urls_async',
      5,
      async (key) => {
        const input = Array.from({ length: 4 }, (_, i) => `${files}/slow/${Date.now()}-${i}.txt`);
        const res = await call(key, 'POST', '/parse_async', { input });
        if (res.status === 200)
          asyncJobs.push({ key, jobId: res.json.job_id, kind: 'slow_urls_async' });
        return res;
      },
    ],
    [
      'hostile',
      10,
      async (key) => {
        const [name, bytes] = docs.hostile[Math.floor(Math.random() * docs.hostile.length)];
        const up = await upload(key, bytes, name);
        if (up.status !== 200) return up;
        const parsed = await call(key, 'POST', '/parse', { input: up.json.file_id });
        return { ...parsed, ms: parsed.ms + up.ms };
      },
    ],
    ['list_jobs', 10, (key) => call(key, 'GET', '/jobs?limit=5')],
  ];
}

function pick(table) {
  const total = table.reduce((n, [, weight]) => n + weight, 0);
  let r = Math.random() * total;
  for (const entry of table) {
    r -= entry[1];
    if (r <= 0) return entry;
  }
  return table[table.length - 1];
}

async function client(key, table, until) {
  while (Date.now() < until) {
    const [kind, , run] = pick(table);
    const res = await run(key);
    // A 5xx is listed with its code: the planned restart's SHUTTING_DOWN apart from faults.
    const code = typeof res.status === 'number' && res.status >= 500 ? res.json?.error?.code : null;
    record(kind, code ? `${res.status} ${code}` : res.status, res.ms);
    await sleep(200 + Math.random() * 600);
  }
}

// ---- observation ----------------------------------------------------------------------------

function dirBytes(dir) {
  let total = 0;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop();
    let entries;
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else {
        try {
          total += fs.statSync(full).size;
        } catch {
          // removed meanwhile
        }
      }
    }
  }
  return total;
}

function processRssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  } catch {
    return 0;
  }
}

const samples = [];
const executorPids = new Set();
function sample(startedAt) {
  const pid = serverRef.child.pid;
  const api = processRssKb(pid);
  const tree = treeRssKb(pid);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) === pid) executorPids.add(Number(entry));
    } catch {
      // gone
    }
  }
  const row = {
    minute: ((Date.now() - startedAt) / 60_000).toFixed(1),
    apiMb: mb(api),
    executorsMb: mb(tree - api),
    storeMb: (dirBytes(serverRef.dataDir) / 1048576).toFixed(1),
    requests: [...results.values()].reduce((n, r) => n + r.ms.length, 0),
  };
  samples.push(row);
  emit(
    `  t=${row.minute} min  API ${row.apiMb} MB  executors ${row.executorsMb} MB  store ${row.storeMb} MB  requests ${row.requests}`,
  );
}

// ---- run ------------------------------------------------------------------------------------

async function main() {
  emit(
    `soak: ${MINUTES} min, ${ORGS} organizations x ${CLIENTS_PER_ORG} clients, slow URLs answer after ${SLOW_MS / 1000} s`,
  );
  emit(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${mb(os.totalmem() / 1024)} MB RAM, node ${process.version}`,
  );
  const docs = await documents();
  const files = await serveFiles(docs.files);
  serverRef = await startServer({ LOG_LEVEL: 'warn' });
  const keys = [];
  for (let i = 0; i < ORGS; i++) keys.push(await serverRef.newOrgKey(`soak-${i}`));
  const table = kinds(docs, files.base);
  const startedAt = Date.now();
  const until = startedAt + MINUTES * 60_000;
  let crashes = 0;
  let restarts = 0;
  let forcedStops = 0;
  const sampler = setInterval(() => {
    if (!restarting && serverRef.alive()) sample(startedAt);
    else if (!restarting && !serverRef.alive()) crashes++;
  }, SAMPLE_MS);
  sample(startedAt);
  // The planned restart: SIGTERM at half time, then a start on the same DATA_DIR.
  const restart = (async () => {
    await sleep((until - Date.now()) / 2);
    let done;
    restarting = new Promise((resolve) => (done = resolve));
    const dataDir = serverRef.dataDir;
    const stoppedAt = performance.now();
    const waiting = [...inFlight.values()].map(
      (r) => `${r.route} (${Math.round((performance.now() - r.started) / 1000)} s)`,
    );
    const killed = await serverRef.stop({ keepData: true, graceMs: 90_000 });
    if (killed) {
      emit(
        `  SIGTERM did not end the server within 90 s; killed. In flight at SIGTERM: ${waiting.join(', ')}`,
      );
      forcedStops++;
    }
    serverRef = await startServer({ LOG_LEVEL: 'warn' }, { dataDir });
    restarts++;
    emit(
      `  restart on the same DATA_DIR: serving again after ${((performance.now() - stoppedAt) / 1000).toFixed(1)} s`,
    );
    restarting = null;
    done();
  })();
  const clients = keys.flatMap((key) =>
    Array.from({ length: CLIENTS_PER_ORG }, () => client(key, table, until)),
  );
  await Promise.all([...clients, restart]);
  sample(startedAt);

  // Every async job accounted for: each ends Completed or Failed.
  const states = {};
  const deadline = Date.now() + Math.max(10 * 60_000, 3 * SLOW_MS);
  for (const job of asyncJobs) {
    let status;
    for (;;) {
      const res = await call(job.key, 'GET', `/job/${job.jobId}`);
      status = res.status === 200 ? res.json.status : `HTTP ${res.status}`;
      if (!['Pending', 'Idle', 'InProgress'].includes(status) || Date.now() > deadline) break;
      await sleep(1000);
    }
    states[`${job.kind}: ${status}`] = (states[`${job.kind}: ${status}`] ?? 0) + 1;
  }
  clearInterval(sampler);
  sample(startedAt);

  emit('\nper kind: requests, statuses, p50 / p99 ms');
  let fiveHundreds = 0;
  for (const [kind, entry] of [...results.entries()].sort()) {
    const statuses = Object.entries(entry.statuses)
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    for (const [s, n] of Object.entries(entry.statuses)) {
      if (Number(s.split(' ')[0]) >= 500) fiveHundreds += n;
    }
    emit(
      `  ${kind.padEnd(18)} ${String(entry.ms.length).padStart(5)}  ${statuses.padEnd(40)} ${Math.round(percentile(entry.ms, 50))} / ${Math.round(percentile(entry.ms, 99))}`,
    );
  }
  emit(`5xx answers: ${fiveHundreds}`);
  emit(
    `async jobs (${asyncJobs.length}): ${Object.entries(states)
      .sort()
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
  );
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const avg = (rows, field) =>
    Math.round(rows.reduce((n, r) => n + Number(r[field]), 0) / rows.length);
  const first = samples.slice(1, 1 + quarter);
  const last = samples.slice(-quarter);
  emit(
    `API RSS: min ${Math.min(...samples.map((s) => s.apiMb))}, max ${Math.max(...samples.map((s) => s.apiMb))} MB; mean of the first quarter ${avg(first, 'apiMb')}, of the last ${avg(last, 'apiMb')} MB`,
  );
  emit(
    `executors RSS: max ${Math.max(...samples.map((s) => s.executorsMb))} MB; mean of the first quarter ${avg(first, 'executorsMb')}, of the last ${avg(last, 'executorsMb')} MB; executor processes seen: ${executorPids.size}`,
  );
  emit(
    `store: ${samples[0].storeMb} MB at start, ${samples[samples.length - 1].storeMb} MB at the end`,
  );
  emit(
    `restarts: ${restarts} planned (${forcedStops} needed SIGKILL), ${crashes} unplanned (server exits seen by the sampler)`,
  );
  await serverRef.stop();
  files.server.close();
}

await main();
