import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { FileServer, startFileServer, HELD_DOWNLOAD_ENV } from '../../support/file-server.js';
import {
  type ChildRun,
  recordLogs,
  runLivenessProbe,
  startWorkerProcess,
  until,
} from '../../support/operations.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { testRedisUrl } from '../../support/redis.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';

jest.setTimeout(90_000);

/** The watchdog file and the exec probe, with seconds-scale thresholds. */
describe('worker liveness', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-liveness-'));
  const stateFile = path.join(dir, 'worker-state');
  // The watchdog writes every 200 ms; a write older than 5 s is stale. A process starved of
  // a core for a second or two on a loaded machine is not what the stale limit is about.
  const probeEnv = {
    WORKER_STATE_FILE: stateFile,
    WORKER_LIVENESS_WATCHDOG_STALE_SEC: '5',
    WORKER_LIVENESS_STUCK_THRESHOLD_SEC: '2',
  };
  let t: TestApp;
  let files: FileServer;
  const logs = recordLogs();

  let startedAtSeconds = 0;

  beforeAll(async () => {
    startedAtSeconds = Math.floor(Date.now() / 1000);
    files = await startFileServer();
    t = await startTestApp({
      ...probeEnv,
      ...HELD_DOWNLOAD_ENV,
      CPU_WORKER_CONCURRENCY: '1',
      WORKER_WATCHDOG_INTERVAL_MS: '200',
      WORKER_SHUTDOWN_GRACE_MS: '100',
    });
  });
  afterAll(async () => {
    await t?.close();
    await files.close();
    logs.restore();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes "<timestamp> -1" while idle, and the probe passes', async () => {
    await until(() => fs.existsSync(stateFile), 'the state file');
    const [stamp, age] = fs.readFileSync(stateFile, 'utf8').trim().split(' ');
    // A Unix time in seconds, written since the app started.
    expect(Number(stamp)).toBeGreaterThanOrEqual(startedAtSeconds);
    expect(Number(stamp)).toBeLessThanOrEqual(Date.now() / 1000 + 1);
    expect(age).toBe('-1');
    const probe = await runLivenessProbe(probeEnv);
    expect(probe.code).toBe(0);
    expect(probe.stdout).toMatch(/idle/);
  });

  it('fails the probe, naming it, on a threshold that is not a number of seconds', async () => {
    await until(() => fs.existsSync(stateFile), 'the state file');
    for (const name of [
      'WORKER_LIVENESS_WATCHDOG_STALE_SEC',
      'WORKER_LIVENESS_STUCK_THRESHOLD_SEC',
    ]) {
      const probe = await runLivenessProbe({ ...probeEnv, [name]: '5s' });
      expect([name, probe.code]).toEqual([name, 1]);
      expect(probe.stderr).toContain(`${name} must be a whole number of seconds, got "5s"`);
    }
    const spaced = await runLivenessProbe({
      ...probeEnv,
      WORKER_LIVENESS_PROBE_ENABLED: ' false ',
    });
    expect(spaced.stdout).toMatch(/probe disabled/);
  });

  it('warns at 80% of the stuck threshold and fails the probe past it (unless disabled)', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-liveness'));
    const slow = files.hold('/stuck.txt', 'invoice number 1');
    const job = await api.post('/classify_async', {
      input: slow.url,
      classification_schema: schema,
    });
    await until(
      () => logs.entries.some((e) => e.event === 'worker_watchdog.task_near_stuck_threshold'),
      'the watchdog warning',
    );
    const warning = logs.entries.find(
      (e) => e.event === 'worker_watchdog.task_near_stuck_threshold',
    )!;
    expect(warning).toMatchObject({
      level: 'warn',
      stuckThresholdSeconds: 2,
      role: 'database-queue-worker',
    });
    expect(Number(warning.oldestTaskAgeSeconds)).toBeGreaterThanOrEqual(1);
    await until(
      () => Number(fs.readFileSync(stateFile, 'utf8').trim().split(' ')[1]) > 2,
      'the task age to pass the threshold',
    );
    const probe = await runLivenessProbe(probeEnv);
    expect(probe.code).toBe(1);
    expect(probe.stderr).toMatch(/stuck/);
    const disabled = await runLivenessProbe({
      ...probeEnv,
      WORKER_LIVENESS_PROBE_ENABLED: 'false',
    });
    expect(disabled.code).toBe(0);

    slow.release();
    expect((await waitForJob(api, job.body.job_id)).status).toBe('Completed');
    await until(() => fs.readFileSync(stateFile, 'utf8').trim().endsWith(' -1'), 'idle again');
    expect((await runLivenessProbe(probeEnv)).code).toBe(0);
  });

  it('a blocked worker event loop leaves the file stale: the probe fails while /health answers 200', async () => {
    const workerState = path.join(dir, 'redis-worker-state');
    const env = { ...probeEnv, WORKER_STATE_FILE: workerState };
    const worker: ChildRun = await startWorkerProcess({
      REDIS_URL: testRedisUrl(),
      REDIS_QUEUE_PREFIX: `docproc-test-${randomUUID()}`,
      WORKER_STATE_FILE: workerState,
      WORKER_WATCHDOG_INTERVAL_MS: '200',
    });
    try {
      await until(() => fs.existsSync(workerState), 'the worker state file');
      expect((await runLivenessProbe(env)).code).toBe(0);
      // SIGSTOP freezes the worker's event loop exactly like a long synchronous task.
      worker.child.kill('SIGSTOP');
      // The probe fails once the last write is older than the 5 s stale limit.
      let probe = await runLivenessProbe(env);
      await until(
        async () => (probe = await runLivenessProbe(env)).code !== 0,
        'the probe to fail on the stale file',
        30_000,
      );
      expect(probe.code).toBe(1);
      expect(probe.stderr).toMatch(/event loop blocked/);
      expect((await fetch(`${t.baseUrl}/health`)).status).toBe(200);
      worker.child.kill('SIGCONT');
      await until(async () => (await runLivenessProbe(env)).code === 0, 'the probe to pass again');
    } finally {
      await worker.stop();
    }
  });
});
