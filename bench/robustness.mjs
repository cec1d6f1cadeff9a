// `npm run bench:robustness` (not part of the tests): a fresh embedded server (dist/) as a
// child process, a normal classify p50 measured before and during hostile traffic (bombs
// generated here, never stored in the repository; a 100,000-character criterion; malformed
// bodies), then a 500-connection burst without and with an admission cap of 10. Prints
// statuses, latencies, the server's peak and settled RSS (its process tree), and the queue
// depth against the cap. Figures are recorded in docs/benchmarks.md.
/* global fetch, AbortSignal */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import autocannon from 'autocannon';
import { docxBomb, pngBomb } from './lib/hostile-documents.mjs';
import { fileServer, percentile, startServer } from './lib/server-under-test.mjs';

const emit = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb) => `${Math.round(kb / 1024)} MB`;

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
