import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileServer, startFileServer } from '../../support/file-server.js';
import {
  type PrivateRedis,
  recordLogs,
  startPrivateRedis,
  trackTimers,
} from '../../support/operations.js';
import { client, keyOf, type Json } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { invoiceClassificationSchema as schema } from '../../support/invoice-fixtures.js';

async function metric(baseUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/**
 * The depth read fails open: with the new queue's Redis hung (SIGSTOP, so the TCP
 * connection stays up and nothing answers) or gone, a capped request is let through after
 * the 1-second time-out and counted in service.admission.depth_read_failed.
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

  it('lets the request through within about a second when Redis hangs, and counts it', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-failopen'));
    const doc = files.put('/doc.txt', 'invoice number 42');
    redis.pause();
    const started = Date.now();
    const res = await api.post('/classify', { input: doc, classification_schema: schema });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.result.category).toBe('invoice');
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(4000);
    expect(await metric(t.baseUrl, 'service_admission_depth_read_failed_total')).toBe(1);
    const failed = logs.entries.filter((e) => e.msg === 'queue_depth_cap.read_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      event: 'queue_depth_cap.read_failed',
      signal: 'service.admission.depth_read_failed',
      queue: 'cpu',
    });
    redis.resume();
  });

  it('fails open too when Redis is stopped', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-failopen'));
    const doc = files.put('/doc2.txt', 'invoice number 43');
    await redis.stop();
    const started = Date.now();
    const res = await api.post('/classify', { input: doc, classification_schema: schema });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await metric(t.baseUrl, 'service_admission_depth_read_failed_total')).toBe(2);
  });

  it('closes with Redis gone without leaving Redis client timers running', async () => {
    // Redis was stopped by the previous test. BullMQ's graceful close never finishes then,
    // and its lock-extender (re-armed every 7.5 s) and stalled-check timers would keep jest
    // from exiting. Short fallbacks (ioredis's 2 s socket destroy, BullMQ's blocking-wait
    // watchdog, at most 6 s) may remain a moment; nothing may outlive them.
    closed = true;
    await t.close();
    const fromRedisClients = /node_modules[/\\](bullmq|ioredis)[/\\]/;
    const deadline = Date.now() + 10_000;
    let left = await timers.keepingAlive(fromRedisClients);
    while (left.length > 0 && Date.now() < deadline)
      left = await timers.keepingAlive(fromRedisClients);
    expect(left).toEqual([]);
  });
});
