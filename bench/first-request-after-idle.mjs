// `node bench/first-request-after-idle.mjs` (after `npm run build`; not part of the tests):
// how long the first sync `/classify` waits after the server has been quiet for IDLE_SEC,
// on builds compared side by side. Each build in IDLE_BUILDS (a JSON list of repository
// roots with a built dist/, default: this one) runs as its own server with its default
// settings (real executor processes). Per round: two sync classifies at once on every server
// (a burst that starts a second executor), a few more, then IDLE_SEC (70) quiet for all of
// them together, then one sync classify on each server in turn (the order alternates by
// round), timed from request to answer, with the executor processes each server had just
// before it. Printed per round, then p50/p95 per build. ROUNDS (6).
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { apiCall, fileServer, percentile, startServer } from './lib/server-under-test.mjs';

const IDLE_SEC = Number(process.env.IDLE_SEC ?? 70);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const BUILDS = process.env.IDLE_BUILDS ? JSON.parse(process.env.IDLE_BUILDS) : [process.cwd()];
const emit = (line) => process.stdout.write(`${line}\n`);

const SCHEMA = [
  { category: 'minutes', criteria: ['records what a meeting discussed and decided'] },
  { category: 'invoice', criteria: ['has an invoice number', 'lists amounts due'] },
  { category: 'letter', criteria: ['addressed to a person, signed by the sender'] },
];

async function onePagePdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  const text = 'the committee reviewed the quarterly figures and agreed on the next meeting';
  for (let line = 0; line < 30; line++) {
    page.drawText(`${line + 1}. ${text}`, { x: 40, y: 750 - line * 16, size: 10, font });
  }
  return Buffer.from(await doc.save());
}

/** Child processes of `pid` (the server's executors). */
function childProcesses(pid) {
  let n = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) === pid) n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

const files = new Map([['/doc.pdf', { bytes: await onePagePdf(), type: 'application/pdf' }]]);
const { server: httpFiles, base: filesBase } = await fileServer(files);

async function classify(server) {
  const res = await apiCall(
    server.base,
    server.key,
    'POST',
    '/classify',
    { input: `${filesBase}/doc.pdf`, classification_schema: SCHEMA },
    120_000,
  );
  if (res.status !== 200) throw new Error(`sync /classify: HTTP ${res.status}`);
  return res.ms;
}

const servers = [];
for (const root of BUILDS) {
  const server = await startServer({}, { entry: path.join(root, 'dist/src/main.js') });
  servers.push({ root, server, samples: [] });
}
emit(`builds: ${BUILDS.join(', ')}; idle ${IDLE_SEC} s; rounds ${ROUNDS}`);
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const { server } of servers) {
      await Promise.all([classify(server), classify(server)]);
      for (let i = 0; i < 3; i++) await classify(server);
    }
    await sleep(IDLE_SEC * 1000);
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const entry of order) {
      const executors = childProcesses(entry.server.child.pid);
      const ms = await classify(entry.server);
      entry.samples.push(ms);
      emit(
        `round ${round + 1} ${entry.root}: ${Math.round(ms)} ms (executors before: ${executors})`,
      );
    }
  }
  for (const { root, samples } of servers) {
    const r = (p) => Math.round(percentile(samples, p));
    emit(`${root}: p50 ${r(50)} ms, p95 ${r(95)} ms (n=${samples.length})`);
  }
} finally {
  for (const { server } of servers) await server.stop();
  httpFiles.close();
}
