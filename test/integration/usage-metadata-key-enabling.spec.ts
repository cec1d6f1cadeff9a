import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../src/database/duckdb.service.js';
import { ClickHouseService } from '../../src/usage/clickhouse/clickhouse.service.js';
import {
  USAGE_EVENT_WRITER,
  type UsageEventWriter,
} from '../../src/usage/core/usage-store.ports.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { createTestTopic, produce } from '../support/kafka.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { USAGE_STORES, usageStoreEnv } from '../support/usage-stores.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { parseExportBody, referenceExport } from '../support/usage-reference.js';
import { groupCaughtUp, kafkaAppEnv, usageMessagesOf, waitFor } from '../support/usage-kafka.js';

/*
 * Whether a metadata key may be enabled, and freeing a place under the cap on keys
 * (docs/decisions/0514-*), through Kafka into each real store: the listing's `canEnable`
 * and `enableRefusal` are exactly what enabling answers, and deleting a key's tracking
 * drops its rows, frees its place for another key and keeps the key out for good.
 */

const CAP = 4;

describe.each([...USAGE_STORES, 'clickhouse-cluster'] as const)(
  'enabling metadata keys and freeing places, Kafka into the %s store',
  (store) => {
    let t: TestApp;
    let topic: string;
    let group: string;
    let database: string;
    let graded: SeededAccount;
    let full: SeededAccount;
    let dataDir: string;

    beforeAll(async () => {
      topic = await createTestTopic('usage-key-enabling');
      const kafka = kafkaAppEnv(topic);
      group = kafka.KAFKA_CONSUMER_GROUP;
      const storeEnv = usageStoreEnv(store);
      database = storeEnv.CLICKHOUSE_DATABASE ?? '';
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-key-enabling-'));
      t = await startTestApp({
        ...storeEnv,
        ...kafka,
        DATA_DIR: dataDir,
        METADATA_KEYS_MAX_PER_ORG: String(CAP),
        METADATA_KEY_MIN_EVENTS: '40',
      });
      graded = await seedAccount(t.app, 'Graded');
      full = await seedAccount(t.app, 'Full');
    }, 120_000);

    afterAll(async () => {
      await t?.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    async function publish(events: UsageCloudEvent[]): Promise<void> {
      await produce(topic, usageMessagesOf(events));
      await waitFor(`group ${group} to commit the end of ${topic}`, () =>
        groupCaughtUp(topic, group),
      );
      await t.app.get<UsageEventWriter>(USAGE_EVENT_WRITER).maintain();
    }

    function call(org: SeededAccount, method: string, suffix = '', body?: unknown) {
      return fetch(`${t.baseUrl}/api/v1/orgs/${org.orgId}/metadata-keys${suffix}`, {
        method,
        headers: { authorization: `Bearer ${org.accountKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    }

    interface Listed {
      key: string;
      canEnable: boolean;
      enableRefusal: { code: string; message: string } | null;
      trackingDeletedAt: string | null;
    }

    async function listing(org: SeededAccount): Promise<{ data: Listed[]; keysHeld: number }> {
      return (await call(org, 'GET')).json() as Promise<{ data: Listed[]; keysHeld: number }>;
    }

    /** The org's rollup rows of `key` in the store. */
    async function rollupRows(orgId: string, key: string): Promise<number> {
      if (store === 'duckdb') {
        const [row] = await t.app.get(DuckDbService).all<{ n: bigint }>(
          `SELECT (SELECT count(*) FROM usage_daily_metadata WHERE org_id = $1 AND meta_key = $2)
                + (SELECT count(*) FROM usage_quarter_hour_metadata WHERE org_id = $1 AND meta_key = $2) AS n`,
          [orgId, key],
        );
        return Number(row.n);
      }
      const [row] = await t.app.get(ClickHouseService).rows<{ n: string }>(
        `SELECT (SELECT count() FROM ${database}.usage_daily_metadata WHERE org_id = {org:String} AND meta_key = {key:String})
              + (SELECT count() FROM ${database}.usage_quarter_hour_metadata WHERE org_id = {org:String} AND meta_key = {key:String}) AS n`,
        { org: orgId, key },
      );
      return Number(row.n);
    }

    it("lists each key with the answer enabling it gets, by ingestion's own thresholds", async () => {
      // (events, distinct values) on both sides of METADATA_KEY_MIN_EVENTS (40 here) and of
      // the ratio (0.5): the old enabling rule judged from 20 events on.
      const shapes: Record<string, [number, number]> = {
        few_distinct: [30, 30],
        at_min_low: [40, 20],
        at_min_high: [40, 21],
        many_low: [60, 3],
      };
      const events = Object.entries(shapes).flatMap(([key, [n, distinct]]) =>
        Array.from({ length: n }, (_, i) =>
          usageEvent({ orgId: graded.orgId, async: true, metadata: { [key]: `v${i % distinct}` } }),
        ),
      );
      await publish(events);
      const listed = await listing(graded);
      expect(
        Object.fromEntries(listed.data.map((k) => [k.key, k.enableRefusal?.code ?? null])),
      ).toEqual({
        few_distinct: null,
        at_min_low: null,
        at_min_high: 'METADATA_KEY_REJECTED',
        many_low: null,
      });
      for (const k of listed.data) {
        const res = await call(graded, 'POST', '', { key: k.key });
        const answer =
          res.status === 201
            ? null
            : ((await res.json()) as { error: { code: string; message: string } }).error;
        expect({ key: k.key, canEnable: res.status === 201, code: answer?.code ?? null }).toEqual({
          key: k.key,
          canEnable: k.canEnable,
          code: k.enableRefusal?.code ?? null,
        });
        if (answer) expect(answer.message).toBe(k.enableRefusal?.message);
      }
    }, 120_000);

    it("deleting a key's tracking drops its rows, frees its place, and keeps the key out for good", async () => {
      const fill = Array.from({ length: CAP }, (_, i) =>
        usageEvent(
          {
            orgId: full.orgId,
            async: true,
            credits: '2',
            metadata: { [`req_${i}`]: 'a', team: 'risk' },
          },
          { id: `fill-${store}-${i}`, daysBack: 1 },
        ),
      );
      await publish(fill);
      expect((await listing(full)).keysHeld).toBe(CAP);
      const atCap = await call(full, 'POST', '', { key: 'project' });
      expect(((await atCap.json()) as { error: { code: string } }).error.code).toBe(
        'METADATA_KEY_LIMIT',
      );
      const refusedRow = (await listing(full)).data.find((k) => k.key === 'req_0');
      expect(refusedRow?.canEnable).toBe(true);
      const victim = (await listing(full)).data.map((k) => k.key).find((k) => k !== 'team');
      expect(victim).toBeDefined();
      expect(await rollupRows(full.orgId, victim as string)).toBeGreaterThan(0);

      expect((await call(full, 'DELETE', `/${victim}/tracking`)).status).toBe(204);
      await waitFor(
        `the rows of ${victim} to be dropped`,
        async () => (await rollupRows(full.orgId, victim as string)) === 0,
      );
      const after = await listing(full);
      expect(after.keysHeld).toBe(CAP - 1);
      expect(after.data.find((k) => k.key === victim)).toMatchObject({
        canEnable: false,
        enableRefusal: { code: 'METADATA_KEY_REJECTED' },
        trackingDeletedAt: expect.any(String),
      });
      // The freed place takes the key enabled next; the deleted key stays refused.
      expect((await call(full, 'POST', '', { key: 'project' })).status).toBe(201);
      expect((await listing(full)).keysHeld).toBe(CAP);
      const again = await call(full, 'POST', '', { key: victim });
      expect(again.status).toBe(400);

      // Its later events and a correction of an earlier one are counted under no key of it,
      // while the rest of the org's usage still adds up.
      const later = usageEvent(
        {
          orgId: full.orgId,
          async: true,
          credits: '3',
          metadata: { [victim as string]: 'b', project: 'p1' },
        },
        { daysBack: 1 },
      );
      const corrected: UsageCloudEvent = {
        ...fill[0],
        data: { ...fill[0].data, credits: '7', version: 2 },
      };
      await publish([later, corrected]);
      expect(await rollupRows(full.orgId, victim as string)).toBe(0);
      // Usage reaches exports through Kafka, asynchronously: the export is awaited as a
      // condition (it once lagged the group's commit on a loaded two-shard cluster).
      const startDate = daysAgo(30);
      const endDate = daysAgo(0);
      const expected = referenceExport([...fill, later, corrected], {
        orgId: full.orgId,
        startDate,
        endDate,
        groupBy: 'metadata',
        metadataKey: 'project',
      });
      const params = new URLSearchParams({
        orgId: full.orgId,
        startDate,
        endDate,
        groupBy: 'metadata',
        metadataKey: 'project',
      });
      await waitFor('the export to count the later event and the correction', async () => {
        const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${params}`, {
          headers: { authorization: `Bearer ${full.accountKey}` },
        });
        expect(res.status).toBe(200);
        expect(parseExportBody(await res.text()).rows).toEqual(expected);
        return true;
      });
      expect((await call(full, 'DELETE', '/never-seen/tracking')).status).toBe(404);
    }, 180_000);
  },
);
