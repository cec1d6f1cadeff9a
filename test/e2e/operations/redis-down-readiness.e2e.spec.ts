import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type PrivateRedis, startPrivateRedis, until } from '../../support/operations.js';
import { client, keyOf, type Json } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

jest.setTimeout(120_000);

/**
 * The new queue's Redis stopped while the API runs with legacy workers (the migration's
 * usual state): `/ready` names it (state `down`, the error, the fallback) while the
 * instance keeps taking work through the database queue, and says `up` again once Redis
 * is back.
 */
describe('the new queue Redis stopped and back', () => {
  let redis: PrivateRedis;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp({
      REDIS_URL: redis.url,
      ROLLOUT_RATIO_CLASSIFY: '1',
      REDIS_ENQUEUE_TIMEOUT_MS: '500',
    });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  const newQueue = async (): Promise<{ status: number; check: Json }> => {
    const ready = await client(t.baseUrl, null).get('/ready');
    const checks = ready.status === 200 ? ready.body.checks : ready.body.error.checks;
    return { status: ready.status, check: checks.new_queue };
  };

  it('shows down with the error while work falls back to the database queue, then up', async () => {
    await until(async () => (await newQueue()).check?.detail.state === 'up', 'Redis up');
    const key = await keyOf(t, 'org-redis-down');
    const form = new FormData();
    form.append('file', new Blob(['Invoice number 42, amount due 10 EUR']), 'invoice.txt');
    const uploaded = await fetch(`${t.baseUrl}/upload?extension=txt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    const fileId = ((await uploaded.json()) as { file_id: string }).file_id;

    const restart = await redis.restart();
    await until(async () => (await newQueue()).check.detail.state === 'down', 'Redis down');
    const down = await newQueue();
    expect(down.status).toBe(200);
    expect(down.check).toEqual({
      ready: true,
      detail: {
        state: 'down',
        since: expect.any(String),
        lastError: expect.stringMatching(/ECONNREFUSED|connection closed/),
        fallback: 'database queue',
      },
    });

    const api = client(t.baseUrl, key);
    const answer = await api.post('/classify', {
      input: fileId,
      classification_schema: [
        { category: 'invoice', criteria: ['invoice number'] },
        { category: 'letter', criteria: ['dear sir'] },
      ],
    });
    expect(answer.status).toBe(200);

    await restart.back();
    await until(async () => (await newQueue()).check.detail.state === 'up', 'Redis back', 60_000);
    expect((await newQueue()).check.detail).not.toHaveProperty('lastError');
  });
});
