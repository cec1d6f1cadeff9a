import { describe, expect, it, jest } from '@jest/globals';
import { exportQuery } from '../../../test/support/usage-export-query.js';
import type { AccountsService } from '../../accounts/accounts.service.js';
import type { AccountPrincipal } from '../../accounts/principal.js';
import type { AppConfig } from '../../config/app-config.js';
import type { MetadataKeyService } from '../metadata/metadata-key.service.js';
import { UsageWatermarks } from '../usage-watermarks.js';
import { UsageExportCache } from './usage-export.cache.js';
import type { UsageExportQuery } from './usage-export.query.js';
import type { UsageExportReader } from '../core/usage-store.ports.js';
import { UsageExportService } from './usage-export.service.js';

const principal: AccountPrincipal = {
  kind: 'account',
  keyId: 'ak_1',
  userId: 'usr_1',
  defaultOrgId: 'org_a',
};

function setup(cacheMb = 1) {
  let calls = 0;
  const jsonData = jest.fn(
    async (_query: UsageExportQuery, _orgId: string): Promise<string> => `{"n":${++calls}}`,
  );
  const assertUsable = jest.fn(async () => undefined);
  const watermarks = new UsageWatermarks();
  const service = new UsageExportService(
    {
      isMember: async () => true,
      requireMember: async () => undefined,
      orgsOfUser: async () => [],
    } as unknown as AccountsService,
    { assertUsable } as unknown as MetadataKeyService,
    { jsonData } as unknown as UsageExportReader,
    new UsageExportCache({ usage: { exportCacheBytes: cacheMb * 2 ** 20 } } as AppConfig),
    watermarks,
  );
  const encoded = async (q: UsageExportQuery) =>
    service.jsonBody(await service.resolve(principal, q));
  const body = async (q: UsageExportQuery) => (await encoded(q)).toString('utf8');
  return { service, jsonData, assertUsable, watermarks, body, encoded };
}

describe('UsageExportService result cache', () => {
  it('answers a repeated query from the cache, byte for byte, without running it again', async () => {
    const { jsonData, body } = setup();
    const first = await body(exportQuery());
    expect(first).toBe(
      '{"orgId":"org_a","startDate":"2026-11-01","endDate":"2026-11-30","groupBy":"product","data":[{"n":1}]}',
    );
    expect(await body(exportQuery())).toBe(first);
    expect(jsonData).toHaveBeenCalledTimes(1);
  });

  it('keeps the body encoded once: a repeated answer is the same bytes, not a new copy', async () => {
    const { encoded } = setup();
    const first = await encoded(exportQuery({ orgId: 'org_ü' }));
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(first.toString('utf8')).toContain('"orgId":"org_ü"');
    expect(await encoded(exportQuery({ orgId: 'org_ü' }))).toBe(first);
  });

  it('brings a cached body with multi-byte text up to date by its changed days', async () => {
    const { jsonData, body, watermarks } = setup();
    jsonData.mockImplementationOnce(async () => '{"date":"2026-11-01","group":"é"}');
    const q = exportQuery({ orgId: 'org_ü', endDate: '2026-11-02' });
    expect(await body(q)).toContain('"data":[{"date":"2026-11-01","group":"é"}]');
    jsonData.mockImplementationOnce(async () => '{"date":"2026-11-02","group":"ß"}');
    watermarks.advance(['org_ü'], [{ orgId: 'org_ü', day: '2026-11-02' }]);
    expect(JSON.parse(await body(q)).data).toEqual([
      { date: '2026-11-01', group: 'é' },
      { date: '2026-11-02', group: 'ß' },
    ]);
    expect(jsonData).toHaveBeenLastCalledWith(
      expect.objectContaining({ startDate: '2026-11-02', endDate: '2026-11-02' }),
      'org_ü',
    );
  });

  it("runs the query again once the org's ingestion watermark moved, and only for that org", async () => {
    const { jsonData, body, watermarks } = setup();
    await body(exportQuery());
    await body(exportQuery({ orgId: 'org_b' }));
    watermarks.advance(['org_b']);
    await body(exportQuery());
    expect(jsonData).toHaveBeenCalledTimes(2);
    expect(await body(exportQuery({ orgId: 'org_b' }))).toContain('{"n":3}');
    watermarks.advanceAll();
    expect(await body(exportQuery())).toContain('{"n":4}');
  });

  it('keys on every parameter, with filter lists as sets', async () => {
    const { jsonData, body } = setup();
    await body(exportQuery({ products: ['parse', 'split'] }));
    await body(exportQuery({ products: ['split', 'parse'] }));
    expect(jsonData).toHaveBeenCalledTimes(1);
    await body(exportQuery({ products: ['parse'] }));
    await body(exportQuery({ groupBy: 'feature', products: ['parse'] }));
    await body(exportQuery({ endDate: '2026-11-29', products: ['parse'] }));
    expect(jsonData).toHaveBeenCalledTimes(4);
  });

  it('checks the metadata key on every request, cached answer or not', async () => {
    const { assertUsable, jsonData, body } = setup();
    const q = exportQuery({ groupBy: 'metadata', metadataKey: 'team' });
    await body(q);
    assertUsable.mockRejectedValueOnce(new Error('METADATA_KEY_NOT_ENABLED'));
    await expect(body(q)).rejects.toThrow('METADATA_KEY_NOT_ENABLED');
    expect(assertUsable).toHaveBeenCalledTimes(2);
    expect(jsonData).toHaveBeenCalledTimes(1);
  });

  it('with a zero budget caches nothing', async () => {
    const { jsonData, body } = setup(0);
    await body(exportQuery());
    await body(exportQuery());
    expect(jsonData).toHaveBeenCalledTimes(2);
  });

  it('runs identical concurrent misses once, and a commit in between starts a new statement', async () => {
    const { service, jsonData, body, watermarks } = setup(0);
    const together = await Promise.all([
      body(exportQuery()),
      body(exportQuery()),
      body(exportQuery()),
    ]);
    expect(new Set(together)).toEqual(new Set([together[0]]));
    expect(jsonData).toHaveBeenCalledTimes(1);
    const resolved = await service.resolve(principal, exportQuery());
    const before = service.jsonBody(resolved);
    watermarks.advance(['org_a']);
    const after = service.jsonBody(resolved);
    expect((await before).toString('utf8')).toContain('{"n":2}');
    expect((await after).toString('utf8')).toContain('{"n":3}');
  });

  it('does not keep a failed miss: the next request runs the statement again', async () => {
    const { jsonData, body } = setup();
    jsonData.mockRejectedValueOnce(new Error('connection lost'));
    await expect(body(exportQuery())).rejects.toThrow('connection lost');
    expect(await body(exportQuery())).toContain('"data":[{"n":1}]');
    expect(jsonData).toHaveBeenCalledTimes(2);
  });
});
