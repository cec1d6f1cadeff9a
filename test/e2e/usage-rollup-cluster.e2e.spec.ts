import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../src/database/duckdb.service.js';
import { UsageRollupClusterService } from '../../src/usage/ingestion/usage-rollup-cluster.service.js';
import { UNSORTED_RUN } from '../../src/usage/ingestion/rollup-clustering.js';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount, SeededAccount } from '../support/accounts.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { parseExportBody } from '../support/usage-reference.js';
import { ingestAll } from '../support/usage-ingest.js';

let t: TestApp;
let acme: SeededAccount;
let other: SeededAccount;

const PRODUCTS = ['classify', 'parse', 'extract'] as const;

function events(orgId: string, count: number, salt: number): UsageCloudEvent[] {
  return Array.from({ length: count }, (_, i) =>
    usageEvent(
      {
        orgId,
        product: PRODUCTS[(i + salt) % 3],
        feature: `f${i % 2}`,
        apiKeyId: `pk_${(i * 7 + salt) % 4}`,
        fileType: i % 3 === 0 ? 'png' : 'pdf',
        credits: `${(i % 5) + 1}.${salt}25`,
        async: i % 2 === 0,
        ...(i % 4 === 0 ? { metadata: { team: ['risk', 'ops'][(i + salt) % 2] } } : {}),
      },
      { daysBack: (i * 3 + salt) % 20 },
    ),
  );
}

async function exportRows(params: Record<string, string | string[]>) {
  const search = new URLSearchParams({
    startDate: daysAgo(40),
  });
  for (const [name, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
  }
  const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${search}`, {
    headers: { authorization: `Bearer ${acme.accountKey}` },
  });
  expect(res.status).toBe(200);
  return parseExportBody(await res.text()).rows;
}

/** Every unfiltered grouping (narrow rollups) next to the same grouping read from the full rollups. */
async function snapshot() {
  const all = {
    product: [...PRODUCTS],
    feature: ['f0', 'f1'],
    apiKey: ['pk_0', 'pk_1', 'pk_2', 'pk_3'],
    fileType: ['pdf', 'png'],
  };
  const result: Record<string, unknown> = {};
  for (const groupBy of ['product', 'feature', 'api_key', 'file_type']) {
    result[groupBy] = await exportRows({ groupBy });
    // A filter that keeps everything sends the query to the full rollups.
    expect(await exportRows({ groupBy, product: all.product })).toEqual(result[groupBy]);
  }
  result.metadata = await exportRows({ groupBy: 'metadata', metadataKey: 'team' });
  expect(
    await exportRows({ groupBy: 'metadata', metadataKey: 'team', fileType: all.fileType }),
  ).toEqual(result.metadata);
  return result;
}

beforeAll(async () => {
  t = await startTestApp();
  acme = await seedAccount(t.app, 'Acme');
  other = await seedAccount(t.app, 'Other');
  await t.app.get(MetadataKeyService).enable(acme.orgId, 'team');
  await ingestAll(t.app, [...events(acme.orgId, 120, 1), ...events(other.orgId, 60, 2)]);
});

afterAll(async () => {
  await t.close();
});

describe(UsageRollupClusterService.name, () => {
  it('rewrites the narrow rollups in org order without changing any export', async () => {
    const before = await snapshot();
    await t.app.get(UsageRollupClusterService).cluster();
    expect(await snapshot()).toEqual(before);

    const db = t.app.get(DuckDbService);
    const rows = await db.all<{ org_key: bigint; org_id: string; dimension: string; day: string }>(
      `SELECT org_key, org_id, dimension, CAST(day AS VARCHAR) AS day
       FROM usage_daily_dimension ORDER BY rowid`,
    );
    const keys = rows.map((r) => `${String(r.org_key).padStart(20, '0')}|${r.dimension}|${r.day}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(rows.map((r) => r.org_id))).toEqual(new Set([acme.orgId, other.orgId]));
  });

  it('keeps accepting upserts into the rewritten tables', async () => {
    await t.app.get(UsageRollupClusterService).cluster();
    const before = await exportRows({ groupBy: 'metadata', metadataKey: 'team' });
    await ingestAll(t.app, events(acme.orgId, 40, 3));
    const after = await snapshot();
    const count = (rows: unknown) =>
      (rows as { requestCount: number }[]).reduce((n, r) => n + r.requestCount, 0);
    expect(count(after.metadata)).toBe(count(before) + 40);
    expect(count(after.product)).toBe(160);
  });

  it('sorts only the quarter-hour rows written since the last pass, into a run of their own', async () => {
    const db = t.app.get(DuckDbService);
    const cluster = t.app.get(UsageRollupClusterService);
    const runs = () =>
      db.all<{ sorted_run: number; n: bigint }>(
        'SELECT sorted_run, count(*) AS n FROM usage_quarter_hour GROUP BY ALL ORDER BY 1',
      );
    await cluster.cluster();
    const before = await runs();
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((r) => r.sorted_run < UNSORTED_RUN)).toBe(true);
    const exportsBefore = await snapshot();

    await ingestAll(t.app, events(acme.orgId, 6, 4));
    await cluster.cluster();
    const after = await runs();
    // The earlier runs as they were, one more run after them, nothing left unsorted.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toHaveLength(before.length + 1);
    const added = after[after.length - 1];
    expect(added.sorted_run).toBeGreaterThan(before[before.length - 1].sorted_run);
    expect(added.sorted_run).toBeLessThan(UNSORTED_RUN);
    const rows = await db.all<{ org_key: bigint; quarter: number }>(
      'SELECT org_key, quarter FROM usage_quarter_hour WHERE sorted_run = $1 ORDER BY rowid',
      [added.sorted_run],
    );
    const keys = rows.map((r) => `${String(r.org_key).padStart(20, '0')}|${r.quarter + 1e9}`);
    expect(keys).toEqual([...keys].sort());

    const exportsAfter = await snapshot();
    const count = (rows: unknown) =>
      (rows as { requestCount: number }[]).reduce((n, r) => n + r.requestCount, 0);
    expect(count(exportsAfter.product)).toBe(count(exportsBefore.product) + 6);
  });
});
