// `npm run bench:black-box` (not part of the tests): the storage and
// fairness checks a tester runs against a fresh built server with its defaults, one after
// the other, printing what each saw: 25 large parses beside another organization's
// classifies (no 5xx, `/jobs` answering), nothing under DATA_DIR readable by other users, no
// bytes left by a refused oversize upload, a TIFF parsed, another organization's sync parse
// while slow URL inputs download, and a restart on the same DATA_DIR serving earlier results.
// Exits non-zero when a check fails. Figures are recorded in docs/benchmarks.md.
/* global fetch, ReadableStream */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { parseArgs } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { apiCall, fileForm, percentile, startServer } from './lib/server-under-test.mjs';

const { values: args } = parseArgs({
  options: {
    parses: { type: 'string', default: '25' },
    'slow-seconds': { type: 'string', default: '20' },
  },
});
const PARSES = Number(args.parses);
const SLOW_MS = Number(args['slow-seconds']) * 1000;

const emit = (line) => process.stdout.write(`${line}\n`);
const failures = [];
function check(name, ok, detail) {
  emit(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
  if (!ok) failures.push(name);
}

let server;

function call(key, method, pathName, body, timeoutMs = 300_000) {
  return apiCall(server.base, key, method, pathName, body, timeoutMs);
}

function upload(key, bytes, name) {
  return call(key, 'POST', '/upload', fileForm(bytes, name));
}

function sentences(count) {
  const words = 'invoice amount due total payment terms delivery note customer order'.split(' ');
  const parts = [];
  for (let i = 0; i < count; i++) {
    const sentence = Array.from({ length: 16 }, (_, w) => words[(i * 7 + w) % words.length]);
    parts.push(`${sentence.join(' ')} ${i}.`);
  }
  return parts.join('\n');
}

function scanTiff(text) {
  const canvas = createCanvas(1275, 400);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 1275, 400);
  context.fillStyle = '#000000';
  context.font = '40px sans-serif';
  context.fillText(text, 60, 140);
  return sharp(canvas.toBuffer('image/png')).tiff({ compression: 'lzw' }).toBuffer();
}

/** Documents for `input` URLs: `/invoice.txt`, and `/slow/...` answering after SLOW_MS. */
function serveFiles() {
  const invoice = 'Invoice number 4711. Bill to ACME. Total amount due: 120.00 EUR.';
  const httpServer = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/slow/')) {
      const timer = setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`slow document ${url}`),
        SLOW_MS,
      );
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (url === '/invoice.txt')
      return res.writeHead(200, { 'content-type': 'text/plain' }).end(invoice);
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    httpServer.listen(0, '127.0.0.1', () =>
      resolve({ httpServer, base: `http://127.0.0.1:${httpServer.address().port}` }),
    ),
  );
}

/** Every file and folder under `root` a user other than the owner could read or enter. */
function openToOthers(root) {
  const open = [];
  const visit = (entry) => {
    const stat = fs.lstatSync(entry);
    if (stat.mode & 0o077)
      open.push(`${path.relative(root, entry) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return open;
}

function bytesUnder(folder) {
  let total = 0;
  if (!fs.existsSync(folder)) return 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    total += entry.isDirectory() ? bytesUnder(full) : fs.statSync(full).size;
  }
  return total;
}

/** `bytes` of zeros as a streamed multipart upload of one file. */
function chunkedUpload(bytes, boundary) {
  const chunk = new Uint8Array(1024 * 1024);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  let sent = -1;
  return new ReadableStream({
    pull(controller) {
      if (sent < 0) {
        controller.enqueue(new Uint8Array(head));
        sent = 0;
      } else if (sent >= bytes) {
        controller.enqueue(new Uint8Array(Buffer.from(`\r\n--${boundary}--\r\n`)));
        controller.close();
      } else {
        const size = Math.min(chunk.length, bytes - sent);
        controller.enqueue(chunk.subarray(0, size));
        sent += size;
      }
    },
  });
}

const schema = [
  { category: 'invoice', criteria: ['invoice number', 'amount due', 'bill to'] },
  { category: 'report', criteria: ['summary', 'section', 'period'] },
];

/** Each kind's request latencies as `kind p50/p90/p99/max (n)`, so a slow tail shows which kind it is. */
function latencies(byKind) {
  return Object.entries(byKind)
    .map(([kind, ms]) => {
      const at = (p) => Math.round(percentile(ms, p));
      return `${kind} ${at(50)}/${at(90)}/${at(99)}/${Math.round(Math.max(...ms))} (${ms.length})`;
    })
    .join('; ');
}

async function largeParses(keyA, keyB, files) {
  const up = await upload(keyA, Buffer.from(sentences(9_000)), 'large.txt');
  if (up.status !== 200) throw new Error(`upload answered ${up.status}`);
  const statuses = { parse: {}, classify: {}, jobs: {} };
  const count = (kind, status) => (statuses[kind][status] = (statuses[kind][status] ?? 0) + 1);
  const jobsMs = [];
  const classifyMs = [];
  const parseMs = [];
  const parseIds = [];
  let parsing = true;
  let next = 0;
  const parseClient = async () => {
    while (next < PARSES) {
      next++;
      const res = await call(keyA, 'POST', '/parse', { input: up.json.file_id });
      count('parse', res.status);
      parseMs.push(res.ms);
      if (res.json?.job_id) parseIds.push(res.json.job_id);
    }
  };
  const classifyClient = async () => {
    while (parsing) {
      const res = await call(keyB, 'POST', '/classify', {
        input: `${files}/invoice.txt`,
        classification_schema: schema,
      });
      count('classify', res.status);
      classifyMs.push(res.ms);
    }
  };
  const jobsClient = async () => {
    while (parsing) {
      const res = await call(keyA, 'GET', '/jobs?limit=1', undefined, 30_000);
      count('jobs', res.status);
      jobsMs.push(res.ms);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  const started = performance.now();
  const background = [classifyClient(), classifyClient(), jobsClient()];
  await Promise.all(Array.from({ length: 4 }, parseClient));
  parsing = false;
  await Promise.all(background);
  const all = Object.values(statuses).flatMap((byStatus) => Object.entries(byStatus));
  const fiveXx = all.filter(([status]) => /^5/.test(status)).reduce((n, [, c]) => n + c, 0);
  const errors = all.filter(([status]) => !/^\d+$/.test(status)).reduce((n, [, c]) => n + c, 0);
  check(
    `${PARSES} large parses beside another organization's classifies`,
    fiveXx === 0 && errors === 0 && statuses.parse['200'] === PARSES && !statuses.jobs['500'],
    `${((performance.now() - started) / 1000).toFixed(0)} s; statuses ${JSON.stringify(statuses)}; ` +
      `latency ms (p50/p90/p99/max, n): ${latencies({ parse: parseMs, classify: classifyMs, 'GET /jobs': jobsMs })}`,
  );
  return parseIds;
}

async function oversizeUpload(key) {
  const blobs = path.join(server.dataDir, 'blobs');
  const before = bytesUnder(blobs);
  const boundary = 'blackbox-boundary';
  let status;
  try {
    const res = await fetch(`${server.base}/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: chunkedUpload(150 * 1024 * 1024, boundary),
      duplex: 'half',
    });
    await res.text();
    status = res.status;
  } catch {
    status = 'reset';
  }
  // The refusal's clean-up may end just after the answer.
  let after = bytesUnder(blobs);
  for (let i = 0; i < 50 && after > before; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = bytesUnder(blobs);
  }
  check(
    'a 150 MB chunked upload is refused and leaves no bytes',
    (status === 413 || status === 'reset') && after <= before,
    `status ${status}; bytes under DATA_DIR/blobs ${before} before, ${after} after`,
  );
}

async function tiffParse(key) {
  const up = await upload(key, await scanTiff('Delivery note 5521 signed'), 'scan.tiff');
  const res =
    up.status === 200 ? await call(key, 'POST', '/parse', { input: up.json.file_id }) : up;
  const text = JSON.stringify(res.json?.result ?? res.json);
  check(
    'a TIFF parses',
    res.status === 200 && text.includes('5521'),
    `status ${res.status} in ${Math.round(res.ms)} ms; ${text.includes('5521') ? 'text read' : text.slice(0, 200)}`,
  );
}

async function syncBesideSlowUrls(keySlow, keyOther, files) {
  const submitted = [];
  for (let i = 0; i < 3; i++) {
    const input = Array.from({ length: 4 }, (_, n) => `${files}/slow/${i}-${n}.txt`);
    submitted.push(await call(keySlow, 'POST', '/parse_async', { input }));
  }
  // The downloads are under way.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const sync = await call(keyOther, 'POST', '/parse', { input: `${files}/invoice.txt` });
  check(
    "another organization's sync parse while slow URL inputs download",
    sync.status === 200 && sync.ms < 10_000,
    `parse_async submits ${submitted.map((s) => s.status).join(', ')}; sync /parse ${sync.status} in ${Math.round(sync.ms)} ms (slow URLs answer after ${SLOW_MS / 1000} s)`,
  );
  return submitted.map((s) => s.json?.job_id).filter(Boolean);
}

async function main() {
  emit(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}`,
  );
  const { httpServer, base: files } = await serveFiles();
  server = await startServer({ LOG_LEVEL: 'warn', FETCH_ALLOW_HOSTS: '127.0.0.1' });
  const keyA = server.key;
  const [keyB, keyC, keyD] = await Promise.all(
    ['classifies', 'slow urls', 'sync parse'].map((name) => server.newOrgKey(name)),
  );
  try {
    const parseIds = await largeParses(keyA, keyB, files);
    await oversizeUpload(keyA);
    await tiffParse(keyD);
    const slowJobs = await syncBesideSlowUrls(keyC, keyD, files);
    const open = openToOthers(server.dataDir);
    check(
      'nothing under DATA_DIR readable by other users',
      open.length === 0,
      open.length === 0 ? 'every file 0600, every folder 0700' : open.slice(0, 10).join('; '),
    );

    const dataDir = server.dataDir;
    const stopped = performance.now();
    await server.stop({ keepData: true });
    server = await startServer({ LOG_LEVEL: 'warn', FETCH_ALLOW_HOSTS: '127.0.0.1' }, { dataDir });
    const servedAfter = performance.now() - stopped;
    const ready = await fetch(`${server.base}/ready`).then((r) => r.status);
    const earlier = await call(keyA, 'GET', `/job/${parseIds[0]}`);
    const list = await call(keyA, 'GET', '/jobs?limit=5');
    const again = await call(keyD, 'POST', '/parse', { input: `${files}/invoice.txt` });
    check(
      'a restart on the same DATA_DIR serves again',
      ready === 200 &&
        earlier.status === 200 &&
        earlier.json?.status === 'Completed' &&
        list.status === 200 &&
        again.status === 200,
      `serving ${(servedAfter / 1000).toFixed(1)} s after the stop; /ready ${ready}; ` +
        `GET /job of an earlier parse ${earlier.status} ${earlier.json?.status} (${(earlier.bytes / 1048576).toFixed(2)} MB); ` +
        `GET /jobs ${list.status}; a new parse ${again.status}`,
    );
    // The slow-URL jobs, submitted before the restart, finish after it.
    const deadline = Date.now() + 4 * SLOW_MS + 120_000;
    let states = [];
    do {
      states = await Promise.all(
        slowJobs.map(async (id) => (await call(keyC, 'GET', `/job/${id}`)).json?.status),
      );
      if (states.every((s) => s === 'Completed' || s === 'Failed')) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    } while (Date.now() < deadline);
    check(
      'slow-URL jobs accepted before the restart are accounted for',
      states.every((s) => s === 'Completed'),
      states.join(', '),
    );
    emit(`data dir: ${(bytesUnder(dataDir) / 1048576).toFixed(0)} MB after the run`);
  } finally {
    await server.stop();
    httpServer.close();
  }
  emit(failures.length === 0 ? 'all checks passed' : `failed: ${failures.join('; ')}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
}

await main();
