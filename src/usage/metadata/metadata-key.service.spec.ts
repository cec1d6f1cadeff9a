import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ApiError } from '../../common/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import type { MetadataKeyRepository, MetadataKeyStatus } from './metadata-key.repository.js';
import { MetadataKeyService } from './metadata-key.service.js';

const ORG = 'org_1';
const config = {
  usage: {
    cardinality: {
      maxDistinctValues: 1000,
      minEventsForRatio: 200,
      maxDistinctRatio: 0.5,
      maxKeysPerOrg: 100,
    },
  },
} as unknown as AppConfig;

/** An in-memory repository: observed statistics per key, and the enabled set. */
function fakeRepository() {
  const stats = new Map<string, Omit<MetadataKeyStatus, 'key' | 'enabled' | 'enabledAt'>>();
  const enabled = new Set<string>();
  const status = jest.fn(async (_org: string, key: string): Promise<MetadataKeyStatus | null> => {
    const observed = stats.get(key);
    if (!observed && !enabled.has(key)) return null;
    return {
      key,
      enabled: enabled.has(key),
      enabledAt: enabled.has(key) ? '2026-11-01 00:00:00' : null,
      eventCount: observed?.eventCount ?? 0,
      distinctValues: observed?.distinctValues ?? 0,
      rejectedAt: observed?.rejectedAt ?? null,
      rejectedReason: observed?.rejectedReason ?? null,
      trackingDeletedAt: null,
    };
  });
  const repo = {
    status,
    list: jest.fn(async (): Promise<MetadataKeyStatus[]> => []),
    enableWithinCap: jest.fn(async (_org: string, key: string) => {
      enabled.add(key);
      return true;
    }),
    disable: jest.fn(async (_org: string, key: string) => enabled.delete(key)),
    heldKeys: jest.fn(async (_org: string, recorded: { held: string[] } = { held: [] }) => {
      return new Set([...stats.keys(), ...enabled, ...recorded.held]).size;
    }),
  };
  const observe = (key: string, eventCount: number, distinctValues: number, rejected?: string) =>
    stats.set(key, {
      eventCount,
      distinctValues,
      rejectedAt: rejected ? '2026-11-02 00:00:00' : null,
      rejectedReason: rejected ?? null,
      trackingDeletedAt: null,
    });
  return { repo, observe, status };
}

async function errorOf(
  promise: Promise<unknown>,
): Promise<{ status: number; code: string; message?: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) {
      const body = error.getResponse() as { error: { code: string; message: string } };
      return { status: error.getStatus(), code: body.error.code, message: body.error.message };
    }
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe(MetadataKeyService.name, () => {
  let fake: ReturnType<typeof fakeRepository>;
  let sut: MetadataKeyService;

  beforeEach(() => {
    fake = fakeRepository();
    sut = new MetadataKeyService(config, fake.repo as unknown as MetadataKeyRepository);
  });

  it('enables a key never seen before, and a low-cardinality one', async () => {
    await expect(sut.enable(ORG, 'team')).resolves.toMatchObject({ key: 'team', enabled: true });
    fake.observe('region', 500, 4);
    await expect(sut.enable(ORG, 'region')).resolves.toMatchObject({ enabled: true });
  });

  it('refuses an empty or over-long key with 400 INVALID_METADATA_KEY', async () => {
    expect(await errorOf(sut.enable(ORG, ''))).toMatchObject({
      status: 400,
      code: 'INVALID_METADATA_KEY',
    });
    expect(await errorOf(sut.enable(ORG, 'k'.repeat(1000)))).toMatchObject({ status: 400 });
  });

  it('refuses a key of no visible character with 400 INVALID_METADATA_KEY naming it', async () => {
    for (const key of [' ', '   ', '\u200b', '\t\u00a0']) {
      expect(await errorOf(sut.enable(ORG, key))).toMatchObject({
        status: 400,
        code: 'INVALID_METADATA_KEY',
        message: `metadata key ${JSON.stringify(key)} holds no visible character`,
      });
    }
    expect(fake.repo.enableWithinCap).not.toHaveBeenCalled();
    await expect(sut.enable(ORG, ' team ')).resolves.toMatchObject({ enabled: true });
  });

  it("judges a key by ingestion's rule: the ratio only from METADATA_KEY_MIN_EVENTS on", async () => {
    fake.observe('new_key', 199, 199);
    await expect(sut.enable(ORG, 'new_key')).resolves.toMatchObject({ enabled: true });
    fake.observe('request_id', 200, 101);
    expect(await errorOf(sut.enable(ORG, 'request_id'))).toMatchObject({
      status: 400,
      code: 'METADATA_KEY_REJECTED',
      message: expect.stringMatching(/it has 101 distinct values in 200 events/),
    });
    expect(fake.repo.enableWithinCap).toHaveBeenCalledTimes(1);
  });

  it('lists each key with the answer enabling it would get', async () => {
    for (let i = 0; i < 97; i++) fake.observe(`k${i}`, 10, 2);
    fake.observe('small', 199, 199);
    fake.observe('request_id', 200, 101);
    fake.observe('trace', 5000, 1200, 'has 1200 distinct values (limit 1000)');
    const keys = ['small', 'request_id', 'trace', 'k0'];
    fake.repo.list.mockImplementation(async () =>
      Promise.all(keys.map(async (k) => (await fake.status(ORG, k)) as MetadataKeyStatus)),
    );
    const listing = await sut.listWithCap(ORG);
    expect(listing).toMatchObject({ keysHeld: 100, maxKeys: 100 });
    const answers = listing.data.map((k) => [k.key, k.canEnable, k.enableRefusal?.code ?? null]);
    expect(answers).toEqual([
      ['small', true, null],
      ['request_id', false, 'METADATA_KEY_REJECTED'],
      ['trace', false, 'METADATA_KEY_REJECTED'],
      ['k0', true, null],
    ]);
    for (const k of listing.data) {
      const refused = await errorOf(sut.enable(ORG, k.key)).catch(() => null);
      expect(refused ? { code: refused.code, message: refused.message } : null).toEqual(
        k.enableRefusal,
      );
    }
  });

  it('counts the places the store records itself (ClickHouse) when enabling', async () => {
    const places = {
      recorded: jest.fn(async () => ({
        held: Array.from({ length: 100 }, (_, i) => `t${i}`),
        deleted: [{ key: 'gone', deletedAt: '2026-11-03T00:00:00.000Z' }],
      })),
      claim: jest.fn(async () => undefined),
      deleteTracking: jest.fn(async () => undefined),
    };
    sut = new MetadataKeyService(config, fake.repo as unknown as MetadataKeyRepository, places);
    expect(await errorOf(sut.enable(ORG, 'team'))).toMatchObject({ code: 'METADATA_KEY_LIMIT' });
    await expect(sut.enable(ORG, 't5')).resolves.toMatchObject({ enabled: true });
    expect(places.claim.mock.calls).toEqual([[ORG, 't5']]);
    expect(await errorOf(sut.enable(ORG, 'gone'))).toMatchObject({
      code: 'METADATA_KEY_REJECTED',
      message: expect.stringMatching(/tracking was deleted/),
    });
  });

  it('lists a key whose tracking the store records as deleted (through another process) as deleted', async () => {
    const deletedAt = '2026-11-03T00:00:00.000Z';
    const places = {
      recorded: jest.fn(async () => ({
        held: ['gone', 'kept'],
        deleted: [{ key: 'gone', deletedAt }],
      })),
      claim: jest.fn(async () => undefined),
      deleteTracking: jest.fn(async () => undefined),
    };
    sut = new MetadataKeyService(config, fake.repo as unknown as MetadataKeyRepository, places);
    // This process's file has the key enabled, with the statistics it wrote; no deletion.
    fake.observe('gone', 50, 2);
    fake.observe('kept', 50, 2);
    await fake.repo.enableWithinCap(ORG, 'gone');
    fake.repo.list.mockImplementation(async () =>
      Promise.all(
        ['gone', 'kept'].map(async (k) => (await fake.status(ORG, k)) as MetadataKeyStatus),
      ),
    );
    const deleted = {
      key: 'gone',
      enabled: false,
      enabledAt: null,
      eventCount: 50,
      rejectedAt: deletedAt,
      rejectedReason: 'had its usage tracking deleted',
      trackingDeletedAt: deletedAt,
    };
    const listing = await sut.listWithCap(ORG);
    expect(listing.data[0]).toMatchObject({
      ...deleted,
      canEnable: false,
      enableRefusal: { code: 'METADATA_KEY_REJECTED' },
    });
    expect(listing.data[1]).toMatchObject({
      key: 'kept',
      trackingDeletedAt: null,
      canEnable: true,
    });
    expect(await sut.list(ORG)).toEqual([
      expect.objectContaining(deleted),
      expect.objectContaining({ key: 'kept', trackingDeletedAt: null }),
    ]);
  });

  it('answers METADATA_KEY_LIMIT when a write took the last place before the insert', async () => {
    fake.repo.enableWithinCap.mockImplementationOnce(async () => false);
    expect(await errorOf(sut.enable(ORG, 'team'))).toMatchObject({
      status: 400,
      code: 'METADATA_KEY_LIMIT',
    });
  });

  it('refuses a key ingestion already marked rejected, naming its reason', async () => {
    fake.observe('trace', 5000, 1200, 'has 1200 distinct values (limit 1000)');
    expect(await errorOf(sut.enable(ORG, 'trace'))).toMatchObject({
      status: 400,
      code: 'METADATA_KEY_REJECTED',
      message: expect.stringMatching(/it has 1200 distinct values \(limit 1000\)/),
    });
  });

  it('refuses enabling a new key with 400 METADATA_KEY_LIMIT once the org holds the cap', async () => {
    for (let i = 0; i < 99; i++) fake.observe(`k${i}`, 10, 2);
    await expect(sut.enable(ORG, 'team')).resolves.toMatchObject({ enabled: true });
    expect(await errorOf(sut.enable(ORG, 'region'))).toMatchObject({
      status: 400,
      code: 'METADATA_KEY_LIMIT',
      message: expect.stringMatching(/"region" .* 100 metadata keys, the limit \(100\)/),
    });
    expect(fake.repo.enableWithinCap).toHaveBeenCalledTimes(1);
    // A key the org holds already stays enablable at the cap.
    await expect(sut.enable(ORG, 'k7')).resolves.toMatchObject({ enabled: true });
  });

  it('assertUsable: 400 when not enabled, 400 when rejected, and caches a usable key', async () => {
    expect(await errorOf(sut.assertUsable(ORG, 'team'))).toMatchObject({
      status: 400,
      code: 'METADATA_KEY_NOT_ENABLED',
    });
    await sut.enable(ORG, 'team');
    await sut.assertUsable(ORG, 'team');
    await sut.assertUsable(ORG, 'team');
    const reads = fake.status.mock.calls.filter(([, key]) => key === 'team').length;
    await sut.assertUsable(ORG, 'team');
    expect(fake.status.mock.calls.filter(([, key]) => key === 'team').length).toBe(reads);

    fake.observe('team', 5000, 1500, 'has 1500 distinct values (limit 1000)');
    sut.forgetUsable(ORG, 'team');
    expect(await errorOf(sut.assertUsable(ORG, 'team'))).toMatchObject({
      status: 400,
      code: 'METADATA_KEY_REJECTED',
    });
  });

  it('disable: 404 for a key that is not enabled; evicts the cached usable state', async () => {
    expect(await errorOf(sut.disable(ORG, 'team'))).toMatchObject({
      status: 404,
      code: 'METADATA_KEY_NOT_ENABLED',
    });
    await sut.enable(ORG, 'team');
    await sut.assertUsable(ORG, 'team');
    await sut.disable(ORG, 'team');
    expect(await errorOf(sut.assertUsable(ORG, 'team'))).toMatchObject({ status: 400 });
  });
});
