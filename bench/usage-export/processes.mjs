// The two HTTP servers the benchmark compares, each in its own process: docproc
// (`scripts/server.sh`, as `npm start` runs it, on the cached store) and the PostgreSQL
// wrapper of pg-http.mjs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, fetch } from 'undici';
import { UNCACHED, dataDir, root } from './options.mjs';
import { startServerOnFreePort } from './free-port-start.mjs';

function stopper(child) {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
}

export async function startServer(databaseFile) {
  // The first start on a store built before a migration applies it (021 backfills) before
  // it listens.
  const startTimeoutMs = 900_000;
  const { child, port } = await startServerOnFreePort(
    'the docproc server',
    (port) =>
      // As `npm start` runs it: `scripts/server.sh` execs `node dist/src/main.js` with the
      // launcher's V8 and allocator settings (4 MB semi-spaces: a young-generation collection
      // four times as often as under V8's default), one process whose pid is the server's.
      spawn('sh', [path.join(root, 'scripts/server.sh')], {
        cwd: root,
        env: {
          ...process.env,
          // The launcher runs `node` from PATH: this one.
          PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
          DATA_DIR: dataDir,
          DATABASE_FILE: databaseFile,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          // The store was just clustered; no pass during the measurement.
          USAGE_ROLLUP_CLUSTER_INTERVAL_MIN: '0',
          ...(UNCACHED ? { USAGE_EXPORT_CACHE_MB: '0' } : {}),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
    startTimeoutMs,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`docproc exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('docproc did not become healthy');
    await sleep(200);
  }
  return {
    child,
    baseUrl,
    rss() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { rssMiB: Math.round(kb('VmRSS') / 1024), peakMiB: Math.round(kb('VmHWM') / 1024) };
    },
    stop: stopper(child),
  };
}

/** The PostgreSQL wrapper of pg-http.mjs, in its own process like the docproc server. */
export async function startPgHttp(connection) {
  const child = spawn(
    process.execPath,
    [path.join(root, 'bench/usage-export/pg-http.mjs'), JSON.stringify(connection)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    child.once('exit', (code) => reject(new Error(`pg-http exited with ${code}`)));
  });
  return {
    http: new Pool(`http://127.0.0.1:${port}`, { connections: 8, pipelining: 1 }),
    stop: stopper(child),
  };
}
