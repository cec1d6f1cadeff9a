// `node bench/slow-inputs.mjs` after `npm run build` (not part of the tests): the case of
// slow URL inputs, with downloads in the cpu worker (INPUT_DOWNLOADS=in_worker, the old
// place) and before the queue (the default). One organization sends three `parse_async`
// requests of four URLs that answer after 20 s; meanwhile another organization's small sync
// `/parse` is timed. Figures are recorded in docs/benchmarks.md.
/* global fetch */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { startServer } from './lib/server-under-test.mjs';

const SLOW_MS = 20_000;
const emit = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const files = http.createServer((req, res) => {
  const answer = () =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Invoice number 77');
  if (!req.url.startsWith('/slow/')) return answer();
  const timer = setTimeout(answer, SLOW_MS);
  res.on('close', () => clearTimeout(timer));
});
await new Promise((resolve) => files.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${files.address().port}`;

async function post(server, key, route, body) {
  const started = performance.now();
  const res = await fetch(`${server.base}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.text();
  return { status: res.status, ms: performance.now() - started };
}

for (const mode of ['in_worker', 'before_queue']) {
  const server = await startServer({ INPUT_DOWNLOADS: mode });
  const slowOrg = await server.newOrgKey('slow');
  const otherOrg = await server.newOrgKey('other');
  // Warm the executors first: the figure is the wait, not the first start.
  await post(server, otherOrg, '/parse', { input: `${base}/warm.txt` });
  const quiet = await post(server, otherOrg, '/parse', { input: `${base}/quiet.txt` });
  for (let job = 0; job < 3; job++) {
    const input = Array.from({ length: 4 }, (_, i) => `${base}/slow/${mode}-${job}-${i}.txt`);
    await post(server, slowOrg, '/parse_async', { input });
  }
  await sleep(1_000);
  const loaded = await post(server, otherOrg, '/parse', { input: `${base}/other.txt` });
  emit(
    `INPUT_DOWNLOADS=${mode}: other organization's sync /parse ${Math.round(quiet.ms)} ms alone, ` +
      `${Math.round(loaded.ms)} ms beside 12 slow URLs (HTTP ${loaded.status}); ratio ${(loaded.ms / quiet.ms).toFixed(1)}`,
  );
  await server.stop();
}
files.close();
