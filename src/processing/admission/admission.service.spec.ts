import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../common/api-error.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { loadConfig } from '../../config/app-config.js';
import type { QueueDepthService } from '../queue/queue-depth.service.js';
import { AdmissionService } from './admission.service.js';

function depthOf(priority: number, batch = 0) {
  return {
    queue: 'cpu' as const,
    active: priority + batch,
    lanes: {
      priority: { queued: priority, running: 0 },
      standard: { queued: 0, running: 0 },
      batch: { queued: batch, running: 0 },
    },
  };
}

/** `live`: the in-memory depth QueueDepthService would give (null: not read recently). */
function sut(
  env: Record<string, string>,
  live: () => unknown,
  reconcile: () => Promise<unknown> = async () => [],
) {
  const config = loadConfig({ DATA_DIR: '/tmp/unused', ...env });
  const depths = { live, reconcile } as unknown as QueueDepthService;
  const metrics = new MetricsService();
  return { service: new AdmissionService(config, depths, metrics), metrics };
}

describe(AdmissionService.name, () => {
  it('accepts everything when no cap is set, without reading the depth', async () => {
    let reads = 0;
    const { service } = sut({}, () => {
      reads++;
      return depthOf(1000);
    });
    await service.admit({ queue: 'cpu', lane: 'priority', sync: true });
    expect(reads).toBe(0);
  });

  it('refuses at depth >= cap with QUEUE_FULL and Retry-After 30', async () => {
    const { service } = sut({ CPU_MAX_QUEUE_DEPTH: '2' }, () => depthOf(2));
    const refusal = await service
      .admit({ queue: 'cpu', lane: 'standard', sync: true })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).getStatus()).toBe(503);
    expect((refusal as ApiError).code).toBe('QUEUE_FULL');
    expect((refusal as ApiError).headers).toEqual({ 'Retry-After': '30' });
  });

  it('does not gate async standard requests, and gates batch only by its own cap', async () => {
    const { service } = sut({ CPU_MAX_QUEUE_DEPTH: '1', BATCH_MAX_QUEUE_DEPTH: '3' }, () =>
      depthOf(50, 2),
    );
    await service.admit({ queue: 'cpu', lane: 'standard', sync: false });
    const release = await service.admit({ queue: 'cpu', lane: 'batch', sync: true });
    // The reserved slot counts until released: 2 queued + 1 reserved = cap 3.
    await expect(service.admit({ queue: 'cpu', lane: 'batch', sync: false })).rejects.toThrow(
      ApiError,
    );
    release();
    await service.admit({ queue: 'cpu', lane: 'batch', sync: false });
  });

  it('holds the cap for simultaneous requests: each reads the live depth plus admitted ones', async () => {
    const { service } = sut({ CPU_MAX_QUEUE_DEPTH: '10' }, () => depthOf(3));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 500 }, () =>
        service.admit({ queue: 'cpu', lane: 'priority', sync: true }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(7);
  });

  it('fails open when the depth is unknown (no store read within the staleness bound), counting each', async () => {
    const { service, metrics } = sut({ CPU_MAX_QUEUE_DEPTH: '1' }, () => null);
    await service.admit({ queue: 'cpu', lane: 'priority', sync: true });
    await service.admit({ queue: 'cpu', lane: 'priority', sync: true });
    expect((await metrics.render()).body).toMatch(
      /service_admission_depth_read_failed_total\{queue="cpu",signal="service.admission.depth_read_failed"\} 2/,
    );
  });

  it('counts a store read that failed or timed out during a reconcile apart, and keeps the cap', async () => {
    const { service, metrics } = sut(
      { CPU_MAX_QUEUE_DEPTH: '1' },
      () => depthOf(1),
      async () => [{ part: 'redis', error: 'redis queue depth read took more than 1000 ms' }],
    );
    await service.reconcile();
    await expect(service.admit({ queue: 'cpu', lane: 'priority', sync: true })).rejects.toThrow(
      ApiError,
    );
    const rendered = (await metrics.render()).body;
    expect(rendered).toMatch(/service_admission_depth_reconcile_failed_total\{store="redis"\} 1/);
    expect(rendered).not.toMatch(/service_admission_depth_read_failed_total\{/);
  });
});
