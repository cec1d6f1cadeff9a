import { describe, expect, it, jest } from '@jest/globals';
import { ApiError } from '../../common/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import type { DuckDbService, Transaction } from '../../database/duckdb.service.js';
import type { DatabaseQueue } from './db/database-queue.js';
import { InlineQueueDriver } from './inline-queue.driver.js';
import type { QueueDepthService } from './queue-depth.service.js';
import type { RedisDispatchRepository } from './redis/redis-dispatch.repository.js';
import { BullQueueDriver, type BullQueues } from './redis/bull-queue.driver.js';
import { RolloutRoutingStrategy } from './rollout-routing.strategy.js';
import type { RolloutService } from './rollout.service.js';

const tx = {} as Transaction;
const command = { kind: 'classify', payload: { jobId: 'j1', operation: 'classify' } };
const options = { queue: 'cpu' as const, lane: 'standard' as const, maxAttempts: 3 };

function setUp({ toRedis = true, legacy = true, addFails = false } = {}) {
  const config = {
    operations: {
      legacyWorkers: { enabled: legacy, priorityCount: 0, gpuEnabled: false },
      admission: { retryAfterSeconds: 30 },
    },
  } as unknown as AppConfig;
  const database = new InlineQueueDriver();
  const databaseAdd = jest.spyOn(database, 'add');
  const bullAdd = jest.fn(async (..._args: unknown[]) =>
    addFails ? Promise.reject(new Error('Redis down')) : Promise.resolve({}),
  );
  const revoke = jest.fn(async (..._args: unknown[]) => 'OK');
  const redis = {
    config: { prefix: 'docproc', enqueueTimeoutMs: 500 },
    connection: { set: revoke, del: jest.fn(async (..._args: unknown[]) => 1) },
    get: () => ({ add: bullAdd }),
  };
  const dispatches = {
    insert: jest.fn(async (..._args: unknown[]) => undefined),
    remove: jest.fn(async (..._args: unknown[]) => undefined),
  };
  const jobs = {
    find: jest.fn(async () => ({
      orgId: 'org_1',
      operation: 'classify' as const,
      request: { input: 'https://a.test/x.pdf', classification_schema: [] },
      versions: null,
      sources: async () => [{ url: 'https://a.test/x.pdf' }],
    })),
  };
  const depths = { noteDispatched: jest.fn() };
  const sut = new RolloutRoutingStrategy(
    config,
    {
      transaction: async (work: (t: Transaction) => Promise<unknown>) => work(tx),
    } as unknown as DuckDbService,
    depths as unknown as QueueDepthService,
    database as unknown as DatabaseQueue,
    { routeToRedis: () => toRedis } as unknown as RolloutService,
    new BullQueueDriver(redis as unknown as BullQueues),
    dispatches as unknown as RedisDispatchRepository,
    jobs,
  );
  return { sut, databaseAdd, bullAdd, revoke, dispatches, depths };
}

describe(RolloutRoutingStrategy.name, () => {
  it('sends a job the rollout ratio keeps on the database queue there', async () => {
    const t = setUp({ toRedis: false });
    await t.sut.add(command, options);
    expect(t.databaseAdd).toHaveBeenCalledWith(command, options);
    expect(t.bullAdd).not.toHaveBeenCalled();
  });

  it('records the dispatch, then adds the self-contained task to BullMQ', async () => {
    const t = setUp();
    await t.sut.add(command, options);
    expect(t.dispatches.insert).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({ jobId: 'j1', bullJobId: 'classify-j1', lane: 'standard' }),
    );
    expect(t.bullAdd).toHaveBeenCalledWith(
      'classify',
      expect.objectContaining({ jobId: 'j1', inputs: [{ url: 'https://a.test/x.pdf' }] }),
      expect.objectContaining({ jobId: 'classify-j1', attempts: 3 }),
    );
    expect(t.depths.noteDispatched).toHaveBeenCalledWith('cpu', 'standard');
    expect(t.databaseAdd).not.toHaveBeenCalled();
  });

  it('falls back to the database queue, revoking the add, while legacy workers run', async () => {
    const t = setUp({ addFails: true });
    await t.sut.add(command, options);
    expect(t.revoke).toHaveBeenCalledWith(
      'docproc:revoked:classify-j1',
      '1',
      'EX',
      expect.any(Number),
    );
    expect(t.dispatches.remove).toHaveBeenCalledWith(tx, 'j1');
    expect(t.databaseAdd).toHaveBeenCalledWith(command, options);
  });

  it('refuses with 503 QUEUE_UNAVAILABLE when Redis fails and no legacy worker runs', async () => {
    const t = setUp({ addFails: true, legacy: false });
    const error = await t.sut.add(command, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).getStatus()).toBe(503);
    expect(t.databaseAdd).not.toHaveBeenCalled();
  });

  it('sends io work (webhook deliveries) to the database queue whatever the ratio', async () => {
    const t = setUp();
    const deliver = { kind: 'webhook.deliver', payload: { deliveryId: 'd1' } };
    await t.sut.add(deliver, { queue: 'io', lane: 'standard' });
    expect(t.databaseAdd).toHaveBeenCalled();
    expect(t.bullAdd).not.toHaveBeenCalled();
  });
});
