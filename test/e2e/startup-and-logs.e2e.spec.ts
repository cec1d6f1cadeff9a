import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { startServerProcess, type ServerProcess } from '../support/server-process.mjs';
import { exited, spawnSource } from '../support/operations.js';
import { waitFor } from '../support/usage-kafka.js';

/** The server as `npm start` runs it (from source here): how it starts and what it logs. */
jest.setTimeout(180_000);

describe('server start-up and logs', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-logs-'));
  let server: ServerProcess | null = null;

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to start on a bad setting, naming the variable, with exit status 78', async () => {
    const run = spawnSource('src/main.ts', [], {
      DATA_DIR: dataDir,
      PORT: 'eighty',
      KAFKA_BROKERS: 'no-port',
    });
    expect(await exited(run.child)).toBe(78);
    expect(run.output()).toMatch(
      /docproc: Invalid environment variables: PORT: must be an integer 0 to 65535, got "eighty"; KAFKA_BROKERS: each broker must be host:port/,
    );
  });

  it('refuses a data dir it cannot write with one line naming DATA_DIR, not a stack', async () => {
    const notADirectory = path.join(dataDir, 'not-a-directory');
    fs.writeFileSync(notADirectory, '');
    const run = spawnSource('src/main.ts', [], { DATA_DIR: notADirectory, PORT: '0' });
    expect(await exited(run.child)).toBe(71);
    expect(run.output()).toContain(`docproc: DATA_DIR ${notADirectory} is not usable: EEXIST`);
    expect(run.output()).not.toMatch(/^\s+at /m);
  });

  it('refuses an address in use with one line naming HOST and PORT, not a stack', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const run = spawnSource('src/main.ts', [], {
        DATA_DIR: path.join(dataDir, 'address-in-use'),
        HOST: '127.0.0.1',
        PORT: String(port),
      });
      expect(await exited(run.child)).toBe(71);
      expect(run.output()).toContain(
        `docproc: cannot listen on 127.0.0.1:${port} (HOST, PORT): listen EADDRINUSE`,
      );
      expect(run.output()).not.toMatch(/^\s+at /m);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('refuses an export replica with no snapshot to serve in one line naming what to provide', async () => {
    const snapshotDir = path.join(dataDir, 'no-snapshots-yet');
    const run = spawnSource('src/main.ts', [], {
      DATA_DIR: path.join(dataDir, 'replica-without-snapshot'),
      PORT: '0',
      DOCPROC_MODE: 'export-replica',
      USAGE_SNAPSHOT_DIR: snapshotDir,
      USAGE_REPLICA_FIRST_SNAPSHOT_WAIT_SEC: '2',
    });
    expect(await exited(run.child)).toBe(71);
    expect(run.output()).toContain(
      `docproc: no usage snapshot in USAGE_SNAPSHOT_DIR ${snapshotDir} after 2 s (USAGE_REPLICA_FIRST_SNAPSHOT_WAIT_SEC): an export replica serves the snapshots its writer publishes; start the writer with USAGE_SNAPSHOT_INTERVAL_SEC above 0 and the same USAGE_SNAPSHOT_DIR\n`,
    );
    expect(run.output()).not.toMatch(/^\s+at /m);
  });

  it('refuses an export replica whose snapshot directory cannot hold one at once, not after the wait', async () => {
    const notADirectory = path.join(dataDir, 'snapshots-not-a-directory');
    fs.writeFileSync(notADirectory, '');
    const started = Date.now();
    // The default wait (120 s) is left in place: a file cannot turn into the directory.
    const run = spawnSource('src/main.ts', [], {
      DATA_DIR: path.join(dataDir, 'replica-snapshot-file'),
      PORT: '0',
      DOCPROC_MODE: 'export-replica',
      USAGE_SNAPSHOT_DIR: notADirectory,
    });
    expect(await exited(run.child)).toBe(71);
    expect(Date.now() - started).toBeLessThan(100_000);
    expect(run.output()).toContain(
      `docproc: USAGE_SNAPSHOT_DIR ${notADirectory} cannot hold usage snapshots (ENOTDIR): give the export replica the directory its writer publishes to\n`,
    );
    expect(run.output()).not.toMatch(/^\s+at /m);
  });

  it('refuses to start when a service it needs is unreachable, naming the settings, not a stack', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const run = spawnSource('src/main.ts', [], {
      DATA_DIR: path.join(dataDir, 'clickhouse-unreachable'),
      PORT: '0',
      USAGE_STORE: 'clickhouse',
      CLICKHOUSE_URL: `http://127.0.0.1:${port}`,
    });
    expect(await exited(run.child)).toBe(71);
    expect(run.output()).toContain(
      `docproc: failed to start: a service it needs is unreachable (KAFKA_BROKERS, REDIS_URL, CLICKHOUSE_URL): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(run.output()).not.toMatch(/^\s+at /m);
  });

  it('logs requests without authorization headers, cookies or URL signatures', async () => {
    server = await startServerProcess('src/main.ts', dataDir, { LOG_LEVEL: 'info' }, 120_000);
    await server.healthy(120_000);
    const base = server.baseUrl;

    await fetch(`${base}/jobs`, {
      headers: { authorization: 'Bearer dpk_leakedsecret0001', cookie: 'docproc_session=leak2' },
    });
    await fetch(`${base}/upload/f_1.pdf?expires=9999999999&signature=leakedsignature3`, {
      method: 'PUT',
      body: 'x',
    });
    await waitFor(
      'both request lines in the log',
      async () => (server!.log().match(/"url":"\/(jobs|upload)/g) ?? []).length >= 2,
      30_000,
    );
    const log = server.log();
    expect(log + server.stderr()).not.toMatch(/leakedsecret|leak2|leakedsignature/);
    expect(log).toContain('"url":"/upload/f_1.pdf?expires=9999999999&signature=[REDACTED]"');
  });
});
