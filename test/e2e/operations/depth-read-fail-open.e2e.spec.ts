import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { QueueDepthService } from '../../../src/processing/queue/queue-depth.service.js';
import {
  type PrivateRedis,
  recordLogs,
  startPrivateRedis,
  trackTimers,
  until,
} from '../../support/operations.js';
import { client, keyOf, type Json } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';
import { metricSum } from '../../support/metrics.js';

jest.setTimeout(120_000);

const STALE_MS = 8_000;
/**
 * Far longer than a request takes on any machine: a request that read a depth from the hung
 * Redis would wait this long, one that reads the in-memory depth does not, however loaded
 * the machine (timing a request against a baseline of one sample was noise under load).
 */
const DEPTH_READ_TIMEOUT_MS = 20_000;

/**
 * The cap reads an in-memory depth reconciled with both stores in the background. With the
 * new queue's Redis hung (SIGSTOP, so the TCP connection stays up and nothing answers) a
 * capped request is still answered in normal time and the cap still holds; the Redis
 * reads that time out are counted as reconcile failures. Once no Redis read has succeeded
 * for QUEUE_DEPTH_STALE_MS the depth is unknown: the cap fails open (spec) and counts it
 * in service.admission.depth_read_failed.
 */
describe('queue depth read time-out', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  let closed = false;
  let files: FileServer;
  const logs = recordLogs();
  const timers = trackTimers();

  beforeAll(async () => {
    redis = await startPrivateRedis();
    files = await startFileServer();
    t = await startTestApp({
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      REDIS_URL: redis.url,
      CPU_MAX_QUEUE_DEPTH: '5',
      QUEUE_POLL_INTERVAL_MS: '50',
      QUEUE_DEPTH_RECONCILE_MS: '200',
      QUEUE_DEPTH_READ_TIMEOUT_MS: String(DEPTH_READ_TIMEOUT_MS),
      QUEUE_DEPTH_STALE_MS: String(STALE_MS),
    });
  });
  afterAll(async () => {
    redis.resume();
    if (!closed) await t?.close();
    await redis.stop();
    await files.close();
    logs.restore();
    timers.stop();
  });

  it('reads both queue systems while Redis answers', async () => {
    const res = await fetch(`${t.baseUrl}/queue_metrics`);
    const body = (await res.json()) as Json;
    expect(body.queues.cpu.new_queue).toMatchObject({ queue: 'cpu', active: 0 });
    expect(body.queue_cpu_active_queue_length).toBe(0);
  });

  it('answers a capped request in normal time while Redis hangs, and counts the failed reconciles', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-failopen'));
    const doc = files.put('/doc.txt', 'invoice number 42');
    const warm = await api.post('/classify', { input: doc, classification_schema: schema });
    expect(warm.status).toBe(200);
    redis.pause();
    const started = Date.now();
    const res = await api.post('/classify', { input: doc, classification_schema: schema });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.result.category).toBe('invoice');
    // No Redis wait (the old depth read waited out its time-out on the request's path).
    expect(elapsed).toBeLessThan(DEPTH_READ_TIMEOUT_MS);
    await until(
      async () =>
        (await metricSum(t.baseUrl, 'service_admission_depth_reconcile_failed_total')) > 0,
      'a timed-out Redis depth read counted',
      DEPTH_READ_TIMEOUT_MS + 30_000,
    );
    expect(logs.entries.some((e) => e.msg === 'queue_depth.reconcile_failed')).toBe(true);
    expect(await metricSum(t.baseUrl, 'service_admission_depth_read_failed_total')).toBe(0);
    redis.resume();
  });

  it('fails open, counting it, once Redis has not answered for the staleness bound', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-failopen'));
    const doc = files.put('/doc2.txt', 'invoice number 43');
    await redis.stop();
    const depths = t.app.get(QueueDepthService);
    await until(
      async () => depths.live('cpu', STALE_MS) === null,
      'the live depth to go stale',
      STALE_MS + 30_000,
    );
    const started = Date.now();
    const res = await api.post('/classify', { input: doc, classification_schema: schema });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(DEPTH_READ_TIMEOUT_MS);
    expect(await metricSum(t.baseUrl, 'service_admission_depth_read_failed_total')).toBe(1);
    const failed = logs.entries.filter((e) => e.msg === 'queue_depth_cap.read_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      event: 'queue_depth_cap.read_failed',
      signal: 'service.admission.depth_read_failed',
      queue: 'cpu',
    });
  });

  it('closes with Redis gone without leaving Redis client timers running', async () => {
    // Redis was stopped by the previous test. BullMQ's graceful close never finishes then,
    // and its lock-extender (re-armed every 7.5 s) and stalled-check timers would keep jest
    // from exiting. Short fallbacks (ioredis's 2 s socket destroy, BullMQ's blocking-wait
    // watchdog, at most 6 s) may remain a moment; nothing may outlive them.
    closed = true;
    await t.close();
    const fromRedisClients = /node_modules[/\\](bullmq|ioredis)[/\\]/;
    await until(
      () => {
        expect(timers.keepingAlive(fromRedisClients)).toEqual([]);
        return true;
      },
      'no timer of the Redis clients keeping the process alive',
      30_000,
    );
  });
});
