#!/usr/bin/env node
// The export under concurrency alone, on a data set `npm run bench:export` already built:
//   node bench/usage-export/concurrency.mjs --events 2000000 --connections 4,100 --seconds 10
// Starts dist/src/main.js on the cached store (with --cpu-prof DIR: under `node --cpu-prof`),
// then runs autocannon against the largest org's 30-day export by product, GET /health
// (the server's floor), and optionally --query PATH instead of the export. Prints JSON lines.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL, URLSearchParams } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { fetch } from 'undici';
import { startServerOnFreePort } from './free-port-start.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '2000000' },
    seed: { type: 'string', default: '42' },
    connections: { type: 'string', default: '4,100' },
    seconds: { type: 'string', default: '10' },
    'cpu-prof': { type: 'string' },
    query: { type: 'string' },
    health: { type: 'boolean', default: false },
  },
});
const cacheRoot = path.join(process.env.DOCPROC_CACHE || os.tmpdir(), 'docproc-bench-export');
const caseDir = path.join(cacheRoot, `events-${args.events}-seed-${args.seed}`);
const dataset = JSON.parse(fs.readFileSync(path.join(caseDir, 'dataset.json'), 'utf8'));
const largest = Object.entries(dataset.orgSizes).sort((a, b) => b[1] - a[1])[0][0];
const start = new Date(Date.parse(dataset.endDay) - 29 * 86_400_000).toISOString().slice(0, 10);
const exportPath =
  args.query ??
  `/api/v1/usage/export?${new URLSearchParams({ orgId: largest, startDate: start, endDate: dataset.endDay, groupBy: 'product' })}`;

const nodeArgs = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
const { child, port } = await startServerOnFreePort(
  'the docproc server',
  (port) =>
    spawn(process.execPath, [...nodeArgs, path.join(root, 'dist/src/main.js')], {
      env: {
        ...process.env,
        DATA_DIR: path.join(caseDir, 'docproc'),
        DATABASE_FILE: dataset.databaseFile,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
        USAGE_ROLLUP_CLUSTER_INTERVAL_MIN: '0',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  900_000,
);
const baseUrl = `http://127.0.0.1:${port}`;
try {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`docproc exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  const headers = { authorization: `Bearer ${dataset.accountKey}` };
  const first = await fetch(`${baseUrl}${exportPath}`, { headers });
  if (first.status !== 200) throw new Error(`export ${first.status}: ${await first.text()}`);
  const targets = [['export', exportPath]];
  if (args.health) targets.push(['health', '/health']);
  for (const [name, target] of targets) {
    for (const connections of args.connections.split(',').map(Number)) {
      const r = await autocannon({
        url: `${baseUrl}${target}`,
        headers,
        connections,
        duration: Number(args.seconds),
      });
      const line = {
        target: name,
        connections,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        max: r.latency.max,
        non2xx: r.non2xx,
        errors: r.errors,
        load: os.loadavg().map((n) => n.toFixed(2)),
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}
