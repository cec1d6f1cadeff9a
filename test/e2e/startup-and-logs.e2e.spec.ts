import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { startOnFreePort } from '../support/free-port.js';
import { exited, spawnSource, type ChildRun } from '../support/operations.js';
import { waitFor } from '../support/usage-kafka.js';

/** The server as `npm start` runs it (from source here): how it starts and what it logs. */
jest.setTimeout(180_000);

describe('server start-up and logs', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-logs-'));
  let server: ChildRun | null = null;

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

  it('logs requests without authorization headers, cookies or URL signatures', async () => {
    const { launched, port } = await startOnFreePort(
      'the server',
      (port) =>
        spawnSource('src/main.ts', [], {
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
        }),
      120_000,
    );
    server = launched;
    const base = `http://127.0.0.1:${port}`;
    await waitFor('the server', async () => (await fetch(`${base}/health`)).ok, 120_000, 250);

    await fetch(`${base}/jobs`, {
      headers: { authorization: 'Bearer dpk_leakedsecret0001', cookie: 'docproc_session=leak2' },
    });
    await fetch(`${base}/upload/f_1.pdf?expires=9999999999&signature=leakedsignature3`, {
      method: 'PUT',
      body: 'x',
    });
    await waitFor(
      'both request lines in the log',
      async () => (server!.output().match(/"url":"\/(jobs|upload)/g) ?? []).length >= 2,
      30_000,
    );
    const log = server.output();
    expect(log).not.toMatch(/leakedsecret|leak2|leakedsignature/);
    expect(log).toContain('"url":"/upload/f_1.pdf?expires=9999999999&signature=[REDACTED]"');
  });
});
