import { describe, expect, it, jest } from '@jest/globals';
import type { AppConfig } from '../../config/app-config.js';
import type { MetadataKeyService } from '../metadata/metadata-key.service.js';
import { UsageWatermarks } from '../usage-watermarks.js';
import type { UsageEventColumns } from '../core/usage-event-columns.types.js';
import type { OrgDirectoryRepository } from './org-directory.repository.js';
import type { UsageIngestMetrics } from './usage-ingest.metrics.js';
import { UsageIngestService } from './usage-ingest.service.js';
import type { UsageAlertService } from '../alerts/usage-alert.service.js';
import type { UsageExportMarks } from '../export/usage-export-marks.service.js';
import { UsageNormalizer } from './usage-normalizer.js';
import type { BatchWriteResult, UsageEventWriter } from '../core/usage-store.ports.js';

const NOW = new Date('2026-11-21T12:00:00Z');

function event(id: string, orgId: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    specversion: '1.0',
    id,
    source: 'docproc/processing',
    type: 'docproc.usage.v1',
    time: '2026-11-21T10:00:00Z',
    data: {
      orgId,
      apiKeyId: 'pk_1',
      product: 'parse',
      feature: 'parse',
      fileType: 'pdf',
      pages: 1,
      credits: '1',
      async: false,
      ...extra,
    },
  });
}

const counter = () => ({ inc: jest.fn() });

function setup(write: (groups: UsageEventColumns[]) => BatchWriteResult) {
  const watermarks = new UsageWatermarks();
  const forgetUsable = jest.fn();
  const writeBatch = jest.fn(async (groups: UsageEventColumns[]) => write(groups));
  const metrics = {
    ingested: counter(),
    duplicates: counter(),
    rejected: counter(),
    batchWrite: { startTimer: () => () => 0 },
  };
  const config = {
    usage: {
      normalizer: {
        maxFutureSkewMs: 300_000,
        maxAgeMs: 730 * 86_400_000,
        lateWindowMs: 35 * 86_400_000,
      },
      cardinality: {
        maxDistinctValues: 1000,
        minEventsForRatio: 200,
        maxDistinctRatio: 0.5,
        maxKeysPerOrg: 100,
      },
    },
  } as AppConfig;
  const service = new UsageIngestService(
    config,
    {
      existing: async (ids: Set<string>) => new Set([...ids].filter((id) => id !== 'org_gone')),
    } as unknown as OrgDirectoryRepository,
    { writeBatch, maxEventsPerWrite: 30_000 } as unknown as UsageEventWriter,
    metrics as unknown as UsageIngestMetrics,
    { forgetUsable } as unknown as MetadataKeyService,
    watermarks,
    new UsageNormalizer(config),
    { afterWrite: async () => undefined } as unknown as UsageAlertService,
    { recordChanges: async () => undefined } as unknown as UsageExportMarks,
  );
  return { service, watermarks, writeBatch, forgetUsable, metrics };
}

describe('UsageIngestService', () => {
  it('writes the valid events of known orgs and returns the others with their reasons, in input order', async () => {
    const { service, writeBatch } = setup((groups) => ({
      groups: groups.map((g) => ({ inserted: g.length - 1, duplicates: 1 })),
      newlyRejectedKeys: [],
      orgs: ['org_a'],
      changedDays: [],
    }));
    const outcome = await service.ingest(
      [event('e1', 'org_a'), 'not json', event('e2', 'org_gone'), event('e3', 'org_a')],
      NOW,
    );
    expect(writeBatch).toHaveBeenCalledTimes(1);
    expect(writeBatch.mock.calls[0][0][0].eventId).toEqual(['e1', 'e3']);
    expect(outcome.accepted).toBe(1);
    expect(outcome.duplicates).toBe(1);
    expect(outcome.rejected.map((r) => [r.index, r.rejection.reason])).toEqual([
      [1, 'malformed_json'],
      [2, 'unknown_org'],
    ]);
  });

  it('advances the watermark of exactly the orgs the store says got new events, after the write', async () => {
    const { service, watermarks } = setup((groups) => ({
      groups: groups.map(() => ({ inserted: 0, duplicates: 2 })),
      newlyRejectedKeys: [],
      orgs: ['org_b'],
      changedDays: [],
    }));
    const before = { a: watermarks.of('org_a'), b: watermarks.of('org_b') };
    await service.ingest([event('e1', 'org_a'), event('e2', 'org_b')], NOW);
    expect(watermarks.of('org_a')).toBe(before.a);
    expect(watermarks.of('org_b')).not.toBe(before.b);
  });

  it('does not touch the store or any watermark when nothing is valid', async () => {
    const { service, writeBatch, watermarks } = setup(() => {
      throw new Error('not called');
    });
    const before = watermarks.of('org_a');
    const outcome = await service.ingest(['{}', event('e1', 'org_gone')], NOW);
    expect(writeBatch).not.toHaveBeenCalled();
    expect(outcome).toMatchObject({ accepted: 0, duplicates: 0 });
    expect(watermarks.of('org_a')).toBe(before);
  });

  it('forgets metadata keys the write turned identifier-like', async () => {
    const { service, forgetUsable } = setup((groups) => ({
      groups: groups.map((g) => ({ inserted: g.length, duplicates: 0 })),
      newlyRejectedKeys: [{ orgId: 'org_a', key: 'documentId' }],
      orgs: ['org_a'],
      changedDays: [],
    }));
    await service.ingest([event('e1', 'org_a')], NOW);
    expect(forgetUsable).toHaveBeenCalledWith('org_a', 'documentId');
  });

  it('fails the call when the store fails, so the caller (the consumer) retries', async () => {
    const { service, watermarks } = setup(() => {
      throw new Error('disk full');
    });
    const before = watermarks.of('org_a');
    await expect(service.ingest([event('e1', 'org_a')], NOW)).rejects.toThrow('disk full');
    expect(watermarks.of('org_a')).toBe(before);
  });
});
