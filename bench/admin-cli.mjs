// Latency of docproc-admin on both transports: direct (no server, the CLI opens the DuckDB
// file) and HTTP (a server owns DATA_DIR). Runs `org list`, `org create` and
// `processing-key create` RUNS times each, prints p50/p95 of wall and CPU (user + sys, from
// /usr/bin/time) and the ratio to `node -e 0`, the floor of any Node command.
// Usage: npm run bench:admin-cli   (RUNS=20 by default; needs `npm run build` first)
/* global setTimeout */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess } from '../test/support/server-process.mjs';

const RUNS = Number(process.env.RUNS ?? 20);
const cli = path.resolve('dist/src/cli.js');
const main = path.resolve('dist/src/main.js');

function timed(args, env) {
  const run = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S', process.execPath, ...args], {
    env,
    encoding: 'utf8',
  });
  const line = run.stderr.trim().split('\n').pop();
  const [, wall, user, sys] = line.split(' ');
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr}`);
  return { wall: Number(wall), cpu: Number(user) + Number(sys), stdout: run.stdout };
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function measure(label, args, env) {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < RUNS; i++) {
    const r = timed(typeof args === 'function' ? args(i) : args, env);
    wall.push(r.wall);
    cpu.push(r.cpu);
  }
  return {
    label,
    wall50: quantile(wall, 0.5),
    wall95: quantile(wall, 0.95),
    cpu50: quantile(cpu, 0.5),
    cpu95: quantile(cpu, 0.95),
  };
}

function commands(env) {
  const org = JSON.parse(timed([cli, 'org', 'create', '--name', 'bench'], env).stdout).orgId;
  return [
    ['org list', [cli, 'org', 'list']],
    ['org create', (i) => [cli, 'org', 'create', '--name', `bench ${i}`]],
    ['key create', [cli, 'processing-key', 'create', '--org', org]],
  ];
}

const results = [];
const floor = measure('node -e 0', ['-e', '0'], process.env);
results.push({ transport: '-', ...floor });

const directDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-bench-cli-'));
const directEnv = { PATH: process.env.PATH, DATA_DIR: directDir };
for (const [label, args] of commands(directEnv))
  results.push({ transport: 'direct', ...measure(label, args, directEnv) });

const httpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-bench-cli-'));
// The server's own log level (info) kept, as in `npm start`.
const server = await startServerProcess(main, httpDir, { LOG_LEVEL: 'info' });
try {
  await server.healthy(60_000);
  const httpEnv = {
    PATH: process.env.PATH,
    DATA_DIR: httpDir,
    PORT: String(server.port),
    HOST: '127.0.0.1',
  };
  // The CLI finds the server by its admin.json, written once it listens.
  const adminFile = path.join(httpDir, 'admin.json');
  for (const deadline = Date.now() + 10_000; !fs.existsSync(adminFile);) {
    if (Date.now() > deadline) throw new Error(`the server wrote no ${adminFile}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const [label, args] of commands(httpEnv))
    results.push({ transport: 'http', ...measure(label, args, httpEnv) });
} finally {
  await server.stop();
}

const fmt = (s) => s.toFixed(2);
console.log(`runs per command: ${RUNS}; load: ${os.loadavg().map(fmt).join(' ')}`);
console.log('transport | command | wall p50 | wall p95 | cpu p50 | cpu p95 | cpu p50 / node -e 0');
for (const r of results) {
  console.log(
    [
      r.transport,
      r.label,
      fmt(r.wall50),
      fmt(r.wall95),
      fmt(r.cpu50),
      fmt(r.cpu95),
      fmt(r.cpu50 / Math.max(floor.cpu50, 0.01)),
    ].join(' | '),
  );
}
for (const dir of [directDir, httpDir]) fs.rmSync(dir, { recursive: true, force: true });
