import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import type { AppConfig } from '../../config/app-config.js';
import type { DuckDbService, Transaction } from '../../database/duckdb.service.js';
import type { ProcessingMetrics } from '../processing.metrics.js';
import type { SafeFetcher } from '../inputs/safe-fetcher.js';
import type { JobRecord } from '../jobs/job.types.js';
import type { QueueDriver, QueueTask } from '../queue/queue-driver.js';
import type { QueueWorkers } from '../queue/queue-workers.service.js';
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhooksRepository,
} from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const ORG_SECRET = `whsec_${Buffer.from('org-secret-of-24-bytes!!').toString('base64')}`;
const config = {
  processing: {
    webhookTimeoutMs: 5000,
    webhookMaxAttempts: 3,
    webhookRetryBaseMs: 1000,
    webhookRetryMaxMs: 60_000,
  },
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

function task(): QueueTask<{ deliveryId: string }> {
  return { taskId: 't1', payload: { deliveryId: 'dlv_1' } } as QueueTask<{ deliveryId: string }>;
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
  const queue = {
    enqueue: jest.fn(async (..._args: unknown[]) => 'task'),
    complete: jest.fn(async (..._args: unknown[]) => undefined),
    fail: jest.fn(async (..._args: unknown[]) => undefined),
  };
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
    queue as unknown as QueueDriver,
    { register: jest.fn() } as unknown as QueueWorkers,
    fetcher as unknown as SafeFetcher,
    { deliveryAttempted: jest.fn() } as unknown as ProcessingMetrics,
  );
  return { sut, endpoints, repository, queue, fetcher };
}

describe(WebhooksService.name, () => {
  let t: ReturnType<typeof setUp>;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate'] });
    t = setUp();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  describe('scheduleForJob', () => {
    it('schedules one io task for a direct webhook, with the spec body', async () => {
      const count = await t.sut.scheduleForJob(
        tx,
        job({ mode: 'direct', url: 'https://hooks.example.com/direct' }),
        'Completed',
      );
      expect(count).toBe(1);
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
      expect(t.queue.enqueue).toHaveBeenCalledWith(
        'io',
        'webhook.deliver',
        expect.any(Object),
        expect.objectContaining({ lane: 'standard' }),
        tx,
      );
    });

    it('delivers a hosted webhook to endpoints subscribed to a requested channel, or to all channels', async () => {
      t.endpoints.push(
        endpoint('ep_risk', ['risk']),
        endpoint('ep_ops', ['ops']),
        endpoint('ep_all', []),
      );
      const count = await t.sut.scheduleForJob(
        tx,
        job({ mode: 'hosted', channels: ['risk'] }),
        'Failed',
      );
      expect(count).toBe(2);
      const targets = t.repository.insertDelivery.mock.calls.map(
        (call) => (call as unknown as [Transaction, { endpointId: string }])[1].endpointId,
      );
      expect(targets.sort()).toEqual(['ep_all', 'ep_risk']);
    });

    it('records a skipped delivery when no endpoint is subscribed, instead of dropping it', async () => {
      t.endpoints.push(endpoint('ep_ops', ['ops']));
      expect(
        await t.sut.scheduleForJob(tx, job({ mode: 'hosted', channels: ['risk'] }), 'Completed'),
      ).toBe(0);
      expect(t.repository.insertDelivery).toHaveBeenCalledWith(
        tx,
        expect.objectContaining({
          status: 'skipped',
          lastError: expect.stringMatching(/No webhook endpoint/),
        }),
      );
      expect(t.queue.enqueue).not.toHaveBeenCalled();
    });

    it('schedules nothing for a sync job or an async job without a webhook', async () => {
      expect(
        await t.sut.scheduleForJob(
          tx,
          job({ mode: 'direct', url: 'https://x.test/' }, false),
          'Completed',
        ),
      ).toBe(0);
      expect(await t.sut.scheduleForJob(tx, job(null), 'Completed')).toBe(0);
      expect(t.repository.insertDelivery).not.toHaveBeenCalled();
    });
  });

  describe('handle (one delivery attempt)', () => {
    it('posts a body signed with Standard Webhooks headers and records it delivered', async () => {
      await t.sut.handle(task());
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
      expect(t.queue.complete).toHaveBeenCalled();
    });

    it('retries a failed attempt with exponential back-off', async () => {
      t.fetcher.post.mockResolvedValue({ statusCode: 500 });
      t.repository.findDelivery.mockResolvedValue(pendingDelivery({ attempts: 1 }));
      await t.sut.handle(task());
      const retryAt = new Date(NOW.getTime() + 2 * config.processing.webhookRetryBaseMs);
      expect(t.repository.recordAttempt).toHaveBeenCalledWith(
        tx,
        'dlv_1',
        expect.objectContaining({ attempt: 2, statusCode: 500, error: 'HTTP 500' }),
        'pending',
        retryAt,
      );
      expect(t.queue.fail).toHaveBeenCalledWith(expect.anything(), 'HTTP 500', retryAt, tx);
    });

    it('marks the delivery failed after its last attempt', async () => {
      t.fetcher.post.mockRejectedValue(new Error('connect ECONNREFUSED'));
      t.repository.findDelivery.mockResolvedValue(pendingDelivery({ attempts: 2 }));
      await t.sut.handle(task());
      expect(t.repository.recordAttempt).toHaveBeenCalledWith(
        tx,
        'dlv_1',
        expect.objectContaining({ attempt: 3, error: 'connect ECONNREFUSED' }),
        'failed',
        null,
      );
      expect(t.queue.fail).not.toHaveBeenCalled();
    });

    it('fails at once, without a request, when the hosted endpoint was deleted', async () => {
      t.repository.findDelivery.mockResolvedValue(
        pendingDelivery({ mode: 'hosted', endpointId: 'ep_gone' } as Partial<WebhookDelivery>),
      );
      await t.sut.handle(task());
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
      await t.sut.handle(task());
      expect(t.fetcher.post).not.toHaveBeenCalled();
      expect(t.queue.complete).toHaveBeenCalled();
    });
  });
});
