import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import type { AppConfig } from '../../config/app-config.js';
import type { DuckDbService, Transaction } from '../../database/duckdb.service.js';
import type { ProcessingMetrics } from '../processing.metrics.js';
import type { SafeFetcher } from '../inputs/safe-fetcher.js';
import type { JobRecord } from '../core/job.types.js';
import { InlineQueueDriver } from '../queue/inline-queue.driver.js';
import type { QueuedWork } from '../queue/queue-port.js';
import type { LegacyWorkers } from '../queue/db/legacy-workers.service.js';
import type { WebhookDelivery, WebhooksRepository } from './webhooks.repository.js';
import type { WebhookEndpoint } from '../../usage/webhook-endpoints.contract.js';
import { WebhooksService } from './webhooks.service.js';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const ORG_SECRET = `whsec_${Buffer.from('org-secret-of-24-bytes!!').toString('base64')}`;
const config = {
  processing: {
    webhookTimeoutMs: 5000,
    webhookMaxAttempts: 3,
    webhookRetryBaseMs: 1000,
    webhookRetryMaxMs: 60_000,
    webhookSigningKey: null,
  },
  usage: { store: { kind: 'duckdb' } },
} as unknown as AppConfig;
const tx = {} as Transaction;

function endpoint(id: string, channels: string[]): WebhookEndpoint {
  return {
    endpointId: id,
    orgId: 'org_1',
    url: `https://hooks.example.com/${id}`,
    channels,
    secret: ORG_SECRET,
    description: null,
  } as WebhookEndpoint;
}

function job(webhook: unknown, isAsync = true): JobRecord {
  return {
    jobId: 'job_1',
    orgId: 'org_1',
    isAsync,
    metadata: { team: 'risk' },
    request: { async: { webhook } },
  } as unknown as JobRecord;
}

function pendingDelivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    deliveryId: 'dlv_1',
    orgId: 'org_1',
    jobId: 'job_1',
    mode: 'direct',
    endpointId: null,
    url: 'https://hooks.example.com/direct',
    messageId: 'msg_job_1',
    payload: '{"status":"Completed","job_id":"job_1","metadata":null}',
    status: 'pending',
    attempts: 0,
    ...overrides,
  } as WebhookDelivery;
}

function work(): QueuedWork<{ deliveryId: string }> {
  return {
    id: 't1',
    kind: 'webhook.deliver',
    payload: { deliveryId: 'dlv_1' },
    queue: 'io',
    lane: 'standard',
    attempts: 1,
    maxAttempts: 3,
    enqueuedAt: NOW,
  };
}

function setUp() {
  const endpoints: WebhookEndpoint[] = [];
  const repository = {
    listEndpoints: jest.fn(async () => endpoints),
    findEndpoint: jest.fn(async (id: string) => endpoints.find((e) => e.endpointId === id)),
    insertDelivery: jest.fn(async (..._args: unknown[]) => undefined),
    findDelivery: jest.fn(async (..._args: unknown[]): Promise<WebhookDelivery | null> =>
      pendingDelivery(),
    ),
    orgSecret: jest.fn(async () => ORG_SECRET),
    recordAttempt: jest.fn(async (..._args: unknown[]) => undefined),
  };
  const queue = new InlineQueueDriver();
  const add = jest.spyOn(queue, 'add');
  const workers = { onStartup: jest.fn() };
  const fetcher = {
    post: jest.fn(async (..._args: unknown[]): Promise<{ statusCode: number }> => ({
      statusCode: 204,
    })),
  };
  const db = {
    transaction: jest.fn(async (work: (t: Transaction) => Promise<unknown>) => work(tx)),
  };
  const sut = new WebhooksService(
    config,
    repository as unknown as WebhooksRepository,
    db as unknown as DuckDbService,
    queue,
    workers as unknown as LegacyWorkers,
    fetcher as unknown as SafeFetcher,
    { deliveryAttempted: jest.fn() } as unknown as ProcessingMetrics,
  );
  sut.onModuleInit();
  return { sut, endpoints, repository, queue, add, fetcher };
}

describe(WebhooksService.name, () => {
  let t: ReturnType<typeof setUp>;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate'] });
    t = setUp();
  });
  afterEach(() => {
    t.queue.close();
    jest.useRealTimers();
  });

  describe('scheduleForJob', () => {
    it('records one delivery for a direct webhook, with the spec body, queued only after commit', async () => {
      const scheduled = await t.sut.scheduleForJob(
        tx,
        job({ mode: 'direct', url: 'https://hooks.example.com/direct' }),
        'Completed',
      );
      expect(scheduled).toHaveLength(1);
      expect(t.repository.insertDelivery).toHaveBeenCalledWith(
        tx,
        expect.objectContaining({
          mode: 'direct',
          url: 'https://hooks.example.com/direct',
          status: 'pending',
          payload: JSON.stringify({
            status: 'Completed',
            job_id: 'job_1',
            metadata: { team: 'risk' },
          }),
        }),
      );
      // Nothing is queued inside the job's transaction: the caller dispatches after commit.
      expect(t.add).not.toHaveBeenCalled();
      await t.sut.dispatch(scheduled);
      expect(t.add).toHaveBeenCalledWith(
        { kind: 'webhook.deliver', payload: { deliveryId: scheduled[0] } },
        expect.objectContaining({ queue: 'io', lane: 'standard' }),
      );
    });

    it('delivers a hosted webhook to endpoints subscribed to a requested channel, or to all channels', async () => {
      t.endpoints.push(
        endpoint('ep_risk', ['risk']),
        endpoint('ep_ops', ['ops']),
        endpoint('ep_all', []),
      );
      const scheduled = await t.sut.scheduleForJob(
        tx,
        job({ mode: 'hosted', channels: ['risk'] }),
        'Failed',
      );
      expect(scheduled).toHaveLength(2);
      const targets = t.repository.insertDelivery.mock.calls.map(
        (call) => (call as unknown as [Transaction, { endpointId: string }])[1].endpointId,
      );
      expect(targets.sort()).toEqual(['ep_all', 'ep_risk']);
    });

    it('records a skipped delivery when no endpoint is subscribed, instead of dropping it', async () => {
      t.endpoints.push(endpoint('ep_ops', ['ops']));
      expect(
        await t.sut.scheduleForJob(tx, job({ mode: 'hosted', channels: ['risk'] }), 'Completed'),
      ).toEqual([]);
      expect(t.repository.insertDelivery).toHaveBeenCalledWith(
        tx,
        expect.objectContaining({
          status: 'skipped',
          lastError: expect.stringMatching(/No webhook endpoint/),
        }),
      );
      expect(t.add).not.toHaveBeenCalled();
    });

    it('schedules nothing for a sync job or an async job without a webhook', async () => {
      expect(
        await t.sut.scheduleForJob(
          tx,
          job({ mode: 'direct', url: 'https://x.test/' }, false),
          'Completed',
        ),
      ).toEqual([]);
      expect(await t.sut.scheduleForJob(tx, job(null), 'Completed')).toEqual([]);
      expect(t.repository.insertDelivery).not.toHaveBeenCalled();
    });
  });

  describe('handle (one delivery attempt)', () => {
    it('posts a body signed with Standard Webhooks headers and records it delivered', async () => {
      await expect(t.sut.handle(work())).resolves.toBeUndefined();
      const [url, body, headers] = t.fetcher.post.mock.calls[0] as unknown as [
        string,
        string,
        Record<string, string>,
      ];
      expect(url).toBe('https://hooks.example.com/direct');
      expect(headers['webhook-timestamp']).toBe(String(NOW.getTime() / 1000));
      expect(() => new Webhook(ORG_SECRET).verify(body, headers)).not.toThrow();
      expect(t.repository.recordAttempt).toHaveBeenCalledWith(
        tx,
        'dlv_1',
        expect.objectContaining({ attempt: 1, statusCode: 204, error: null }),
        'delivered',
        null,
      );
    });

    it('retries a failed attempt with exponential back-off', async () => {
      t.fetcher.post.mockResolvedValue({ statusCode: 500 });
      t.repository.findDelivery.mockResolvedValue(pendingDelivery({ attempts: 1 }));
      const result = await t.sut.handle(work());
      const retryAt = new Date(NOW.getTime() + 2 * config.processing.webhookRetryBaseMs);
      expect(t.repository.recordAttempt).toHaveBeenCalledWith(
        tx,
        'dlv_1',
        expect.objectContaining({ attempt: 2, statusCode: 500, error: 'HTTP 500' }),
        'pending',
        retryAt,
      );
      expect(result).toEqual({ retryAt, error: 'HTTP 500' });
    });

    it('marks the delivery failed after its last attempt', async () => {
      t.fetcher.post.mockRejectedValue(new Error('connect ECONNREFUSED'));
      t.repository.findDelivery.mockResolvedValue(pendingDelivery({ attempts: 2 }));
      await expect(t.sut.handle(work())).resolves.toBeUndefined();
      expect(t.repository.recordAttempt).toHaveBeenCalledWith(
        tx,
        'dlv_1',
        expect.objectContaining({ attempt: 3, error: 'connect ECONNREFUSED' }),
        'failed',
        null,
      );
    });

    it('fails at once, without a request, when the hosted endpoint was deleted', async () => {
      t.repository.findDelivery.mockResolvedValue(
        pendingDelivery({ mode: 'hosted', endpointId: 'ep_gone' } as Partial<WebhookDelivery>),
      );
      await t.sut.handle(work());
      expect(t.fetcher.post).not.toHaveBeenCalled();
      expect(t.repository.recordAttempt).toHaveBeenCalledWith(
        tx,
        'dlv_1',
        expect.objectContaining({ error: 'The webhook endpoint was deleted' }),
        'failed',
        null,
      );
    });

    it('completes the task without posting when the delivery is no longer pending', async () => {
      t.repository.findDelivery.mockResolvedValue(pendingDelivery({ status: 'delivered' }));
      await expect(t.sut.handle(work())).resolves.toBeUndefined();
      expect(t.fetcher.post).not.toHaveBeenCalled();
    });
  });

  describe('through the queue contract (inline driver)', () => {
    it('runs a dispatched delivery, and its retry when the back-off has passed', async () => {
      t.fetcher.post.mockResolvedValueOnce({ statusCode: 503 });
      t.repository.findDelivery
        .mockResolvedValueOnce(pendingDelivery({ attempts: 0 }))
        .mockResolvedValueOnce(pendingDelivery({ attempts: 1 }));
      await t.sut.dispatch(['dlv_1']);
      await t.queue.drain();
      expect(t.queue.outcomes.map((o) => o.status)).toEqual(['retry']);
      expect(t.fetcher.post).toHaveBeenCalledTimes(1);
      // The first back-off is webhookRetryBaseMs: nothing runs before it has passed.
      await jest.advanceTimersByTimeAsync(config.processing.webhookRetryBaseMs - 1);
      expect(t.fetcher.post).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(1);
      await t.queue.drain();
      expect(t.queue.outcomes.map((o) => o.status)).toEqual(['retry', 'done']);
      expect(t.fetcher.post).toHaveBeenCalledTimes(2);
    });

    it('never hands a malformed payload to the handler', async () => {
      await t.queue.add(
        { kind: 'webhook.deliver', payload: { deliveryId: 42 } },
        { queue: 'io', lane: 'standard' },
      );
      await t.queue.drain();
      expect(t.queue.outcomes).toEqual([
        expect.objectContaining({ status: 'invalid', error: expect.stringMatching(/deliveryId/) }),
      ]);
      expect(t.repository.findDelivery).not.toHaveBeenCalled();
    });
  });
});
