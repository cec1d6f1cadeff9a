// `npm run bench:robustness` (not part of the tests): a fresh embedded server (dist/) as a
// child process, a normal classify p50 measured before and during hostile traffic (bombs
// generated here, never stored in the repository; a 100,000-character criterion; malformed
// bodies), then a 500-connection burst without and with an admission cap of 10. Prints
// statuses, latencies, the server's peak and settled RSS (its process tree), and the queue
// depth against the cap. Figures are recorded in docs/benchmarks.md.
/* global fetch, AbortSignal */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import zlib from 'node:zlib';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
const emit = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb) => `${Math.round(kb / 1024)} MB`;

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---- documents, generated here -------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffers) {
  let crc = 0xffffffff;
  for (const buffer of buffers)
    for (let i = 0; i < buffer.length; i++) crc = CRC_TABLE[(crc ^ buffer[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32([head.subarray(4), data]));
  return Buffer.concat([head, data, crc]);
}

/** A one-colour 8-bit grey PNG of side x side pixels (400 megapixels at 20,000). */
function pngBomb(side) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const deflate = zlib.createDeflate({ level: 9 });
  const parts = [];
  deflate.on('data', (chunk) => parts.push(chunk));
  const row = Buffer.alloc(side + 1); // filter byte 0, then zero pixels
  const rowsPerWrite = 64;
  const block = Buffer.concat(Array.from({ length: rowsPerWrite }, () => row));
  for (let y = 0; y < side; y += rowsPerWrite) deflate.write(block);
  return new Promise((resolve) => {
    deflate.end(() => {
      const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
      resolve(
        Buffer.concat([
          signature,
          pngChunk('IHDR', ihdr),
          pngChunk('IDAT', Buffer.concat(parts)),
          pngChunk('IEND', Buffer.alloc(0)),
        ]),
      );
    });
  });
}

/** Raw deflate of `pieces` streamed (the bench never holds the inflated bomb whole). */
function deflateRaw(pieces) {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const parts = [];
  deflate.on('data', (chunk) => parts.push(chunk));
  for (const piece of pieces) deflate.write(piece);
  return new Promise((resolve) => deflate.end(() => resolve(Buffer.concat(parts))));
}

/** A .docx whose word/document.xml inflates to `bytes` bytes. */
async function docxBomb(bytes) {
  const open = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>',
  );
  const close = Buffer.from('</w:t></w:r></w:p></w:body></w:document>');
  const filler = Buffer.alloc(1024 * 1024, 'A');
  const fillers = Math.ceil((bytes - open.length - close.length) / filler.length);
  const pieces = [open, ...Array.from({ length: fillers }, () => filler), close];
  const entries = [
    [
      '[Content_Types].xml',
      [
        Buffer.from(
          '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        ),
      ],
    ],
    ['word/document.xml', pieces],
  ];
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const size = content.reduce((n, b) => n + b.length, 0);
    const data = await deflateRaw(content);
    const nameBytes = Buffer.from(name);
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralBytes = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}

function fileServer(files) {
  const server = http.createServer((req, res) => {
    const file = files.get(req.url);
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length });
    res.end(file.bytes);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

// ---- the server under test ------------------------------------------------------------------

/** RSS (KB) of a process and all its descendants, from /proc. */
function treeRssKb(pid) {
  const children = new Map();
  const rss = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

async function startServer(extraEnv) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-robustness-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      LOG_LEVEL: 'error',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited at start: ${stderr}`);
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600) throw new Error('server did not start');
    await sleep(100);
  }
  const admin = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin.json'), 'utf8'));
  const command = async (name, body) => {
    const res = await fetch(`${base}/admin/v1/commands/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  const org = await command('org.create', { name: 'bench' });
  const created = await command('processing-key.create', { orgId: org.orgId, name: 'bench' });
  const key = created.key ?? created.token ?? created.secret ?? created.apiKey;
  let peakKb = 0;
  const sampler = setInterval(() => {
    if (child.exitCode === null) peakKb = Math.max(peakKb, treeRssKb(child.pid));
  }, 100);
  return {
    base,
    key,
    child,
    rssKb: () => treeRssKb(child.pid),
    peakKb: () => peakKb,
    resetPeak: () => (peakKb = treeRssKb(child.pid)),
    alive: () => child.exitCode === null && child.signalCode === null,
    exit: () => `${child.exitCode ?? child.signalCode}`,
    async stop() {
      clearInterval(sampler);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---- measurements ---------------------------------------------------------------------------

const schema = [
  { category: 'invoice', criteria: ['invoice number', 'amount due', 'bill to'] },
  { category: 'resume', criteria: ['work experience', 'education', 'skills'] },
];

async function post(server, pathName, body, timeoutMs = 60_000) {
  const started = performance.now();
  try {
    const res = await fetch(`${server.base}${pathName}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    return {
      status: res.status,
      bytes: Buffer.byteLength(text),
      ms: performance.now() - started,
      text,
    };
  } catch (error) {
    return { status: `error (${error.name})`, bytes: 0, ms: performance.now() - started, text: '' };
  }
}

async function normalP50(server, docUrl, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const res = await post(server, '/classify', { input: docUrl, classification_schema: schema });
    if (res.status === 200) times.push(res.ms);
  }
  return { p50: percentile(times, 50), ok: times.length, n };
}

async function burst(server, docUrl, label, cap) {
  let peakDepth = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const m = await fetch(`${server.base}/queue_metrics`).then(
        (r) => r.json(),
        () => null,
      );
      if (m) peakDepth = Math.max(peakDepth, m.queue_cpu_active_queue_length ?? 0);
      await sleep(100);
    }
  })();
  server.resetPeak();
  const statuses = {};
  const result = await autocannon({
    url: `${server.base}/classify`,
    method: 'POST',
    connections: 500,
    amount: 2000,
    timeout: 60,
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ input: docUrl, classification_schema: schema }),
    setupClient: (client) =>
      client.on('response', (status) => (statuses[status] = (statuses[status] ?? 0) + 1)),
  });
  sampling = false;
  await sampler;
  emit(
    `burst ${label}: 500 connections, ${result.requests.sent} sent, answered ${Object.values(statuses).reduce((a, b) => a + b, 0)} ` +
      `(statuses ${JSON.stringify(statuses)}, errors/timeouts ${result.errors}/${result.timeouts}), ` +
      `latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms, peak cpu queue depth ${peakDepth}` +
      `${cap ? ` against cap ${cap}` : ' (no cap)'}, peak RSS ${mb(server.peakKb())}`,
  );
}

async function main() {
  emit(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}`,
  );
  const burstOnly = process.env.BENCH_ONLY === 'burst';
  const files = new Map([
    [
      '/normal.txt',
      {
        type: 'text/plain',
        bytes: Buffer.from('INVOICE\nInvoice number 7\nBill to ACME\nAmount due 100 EUR\n'),
      },
    ],
  ]);
  if (!burstOnly) {
    emit('generating documents (PNG 20,000 x 20,000; docx inflating to 1.2 GB)...');
    const png = await pngBomb(20_000);
    const docx = await docxBomb(1200 * 1024 * 1024);
    files.set('/bomb.png', { type: 'image/png', bytes: png });
    files.set('/bomb.docx', {
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: docx,
    });
    emit(
      `PNG bomb ${Math.round(png.length / 1024)} KB, docx bomb ${Math.round(docx.length / 1024)} KB`,
    );
  }
  const { server: fileSrv, base: filesBase } = await fileServer(files);
  const normal = `${filesBase}/normal.txt`;

  // BENCH_ONLY=burst: the bursts alone (a quick re-run).
  if (burstOnly) {
    await bursts(normal);
    fileSrv.close();
    return;
  }
  let server = await startServer({});
  await normalP50(server, normal, 5); // warm-up
  const before = await normalP50(server, normal, 20);
  emit(
    `normal classify before the attack: p50 ${before.p50.toFixed(0)} ms (${before.ok}/${before.n} ok), RSS ${mb(server.rssKb())}`,
  );

  const nested = '['.repeat(5120) + ']'.repeat(5120);
  const hostile = [
    ['PNG pixel bomb /parse', () => post(server, '/parse', { input: `${filesBase}/bomb.png` })],
    ['docx zip bomb /parse', () => post(server, '/parse', { input: `${filesBase}/bomb.docx` })],
    [
      '100,000-char criterion /classify',
      () =>
        post(server, '/classify', {
          input: normal,
          classification_schema: [{ category: 'x', criteria: ['a'.repeat(100_000)] }],
        }),
    ],
    ['10 KB nested [ /classify', () => post(server, '/classify', nested)],
    [
      'lone surrogate /classify_async',
      () => post(server, '/classify_async', `{"input":"${normal}","document_metadata":"\\ud800"}`),
    ],
    [
      '150,000 integers /classify',
      () =>
        post(server, '/classify', {
          input: normal,
          classification_schema: Array.from({ length: 150_000 }, (_, i) => i),
        }),
    ],
    [
      '240 KB of wrong fields /classify',
      () =>
        post(server, '/classify', {
          input: normal,
          classification_schema: Array.from({ length: 4000 }, (_, i) => ({
            category: i,
            criteria: [i, { x: 'y'.repeat(20) }],
          })),
        }),
    ],
  ];
  server.resetPeak();
  const during = [];
  let attacking = true;
  const measuring = (async () => {
    while (attacking) {
      const res = await post(
        server,
        '/classify',
        { input: normal, classification_schema: schema },
        30_000,
      );
      if (res.status === 200) during.push(res.ms);
      await sleep(50);
    }
  })();
  for (const [name, run] of hostile) {
    const res = await run();
    emit(
      `hostile ${name}: ${res.status}, ${res.ms.toFixed(0)} ms, answer ${res.bytes} bytes${server.alive() ? '' : `, SERVER DIED (${server.exit()})`}`,
    );
    if (!server.alive()) {
      attacking = false;
      await measuring;
      await server.stop();
      server = await startServer({});
      await normalP50(server, normal, 3);
      attacking = true;
    }
  }
  attacking = false;
  await measuring;
  const duringP50 = percentile(during, 50);
  emit(
    `normal classify during the attack: p50 ${duringP50.toFixed(0)} ms over ${during.length} requests; ratio ${(duringP50 / before.p50).toFixed(2)}x (goal <= 2x)`,
  );
  emit(`RSS: peak ${mb(server.peakKb())} during the hostile cases`);
  const settleStart = Date.now();
  while (Date.now() - settleStart < 60_000 && server.rssKb() > 800 * 1024) await sleep(1000);
  emit(
    `RSS settled: ${mb(server.rssKb())} after ${Math.round((Date.now() - settleStart) / 1000)} s; /health ${await fetch(
      `${server.base}/health`,
    ).then(
      (r) => r.status,
      () => 'down',
    )}`,
  );
  const after = await post(server, '/classify', { input: normal, classification_schema: schema });
  emit(
    `normal classify afterwards: ${after.status} ${JSON.parse(after.text || '{}').result?.category ?? ''}`,
  );
  await server.stop();

  await bursts(normal);
  fileSrv.close();
  emit(
    `load at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

async function bursts(normal) {
  for (const cap of [null, 10]) {
    const s = await startServer(cap ? { CPU_MAX_QUEUE_DEPTH: String(cap) } : {});
    await normalP50(s, normal, 3);
    await burst(s, normal, cap ? `with cap ${cap}` : 'without a cap', cap);
    const failed = await fetch(`${s.base}/metrics`).then((r) => r.text());
    const readFailed = failed
      .split('\n')
      .filter((l) => l.startsWith('service_admission_depth_read_failed_total{'))
      .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    emit(`  depth reads failed: ${readFailed}; RSS settled ${mb(s.rssKb())}`);
    await s.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
