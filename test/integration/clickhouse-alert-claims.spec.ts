import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AlertFiring } from '../../src/usage/alerts/usage-alert.types.js';
import { ClickHouseAlertRepository } from '../../src/usage/clickhouse/clickhouse-alert.repository.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageStoreEnv } from '../support/usage-stores.js';

/*
 * A crossing claimed at the same moment by several processes (here several claimants on one
 * ClickHouse store, on a single server and on a two-shard cluster): exactly one of them wins,
 * and every claimant agrees on which.
 */

describe.each(['clickhouse', 'clickhouse-cluster'] as const)(
  'concurrent claims of a usage-alert crossing (%s)',
  (store) => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp(usageStoreEnv(store));
    }, 120_000);

    afterAll(async () => {
      await t?.close();
    });

    const firing = (alertId: string, n: number): AlertFiring => ({
      firingId: `alf_${String(n).padStart(4, '0')}_${Math.random().toString(16).slice(2)}`,
      alertId,
      orgId: 'org_claims',
      periodStart: '2026-11-01',
      periodEnd: '2026-11-30',
      total: '100',
      firedAt: new Date().toISOString(),
      payload: '{}',
    });

    it('lets exactly one of several simultaneous claimants record the crossing', async () => {
      const claims = t.app.get(ClickHouseAlertRepository);
      for (let round = 0; round < 4; round++) {
        const alertId = `al_claims_${store}_${round}`;
        const claimants = Array.from({ length: 3 }, (_, n) => firing(alertId, n));
        const won = await Promise.all(claimants.map((f) => claims.recordFiring(f, 'http://x/')));
        expect(won.filter(Boolean)).toHaveLength(1);
        const listed = (await claims.firings('org_claims', 200)).filter(
          (f) => f.alertId === alertId,
        );
        expect(listed.map((f) => f.firingId)).toEqual([claimants[won.indexOf(true)].firingId]);
        // A later claimant finds the crossing recorded.
        expect(await claims.recordFiring(firing(alertId, 9), 'http://x/')).toBe(false);
      }
    }, 120_000);
  },
);
