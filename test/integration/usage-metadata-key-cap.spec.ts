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
 * The cap on the metadata keys an organization's usage is broken out by
 * (METADATA_KEYS_MAX_PER_ORG, docs/decisions/0509-*), through the Kafka ingestion path into
 * each real store: a tenant sending a new key with every request holds the cap's keys in
 * the store and no more, while another tenant's rows and answers stay exactly as they were.
 */

const CAP = 5;

/** The store's tables holding per-key rows, and how to count an org's rows and keys there. */
const STORE_TABLES = {
  duckdb: [
    'metadata_key_stats',
    'metadata_key_values',
    'usage_daily_metadata',
    'usage_daily_metadata_value',
    'usage_quarter_hour_metadata',
    'usage_quarter_hour_metadata_value',
  ],
  clickhouse: ['metadata_keys_tracked', 'usage_daily_metadata', 'usage_quarter_hour_metadata'],
} as const;
/** The sorting keys of the ClickHouse tables (SummingMergeTree rows of one key add up). */
const CLICKHOUSE_ROW_KEYS: Record<string, string> = {
  metadata_keys_tracked: 'org_id, meta_key',
  usage_daily_metadata: 'meta_key, day, meta_value, product, feature, api_key_id, file_type',
  usage_quarter_hour_metadata:
    'meta_key, quarter, meta_value, product, feature, api_key_id, file_type',
};
/** Columns of those tables that count or sum rather than name a row (DuckDB store). */
const NOT_KEY_COLUMNS = [
  'credits',
  'request_count',
  'sorted_run',
  'event_count',
  'distinct_values',
  'rejected_at',
  'rejected_reason',
]
  .map((column) => `'${column}'`)
  .join(', ');

describe.each([...USAGE_STORES, 'clickhouse-cluster'] as const)(
  'metadata keys per organization, Kafka into the %s store',
  (store) => {
    let t: TestApp;
    let topic: string;
    let group: string;
    let database: string;
    let quiet: SeededAccount;
    let noisy: SeededAccount;
    let planned: SeededAccount;
    let raised: SeededAccount;
    /** The app's environment but for the cap: a restart with it finds the same store. */
    let appEnv: Record<string, string>;

    beforeAll(async () => {
      topic = await createTestTopic('usage-key-cap');
      const kafka = kafkaAppEnv(topic);
      group = kafka.KAFKA_CONSUMER_GROUP;
      const storeEnv = usageStoreEnv(store);
      database = storeEnv.CLICKHOUSE_DATABASE ?? '';
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-key-cap-'));
      appEnv = { ...storeEnv, ...kafka, DATA_DIR: dataDir };
      t = await startTestApp({ ...appEnv, METADATA_KEYS_MAX_PER_ORG: String(CAP) });
      quiet = await seedAccount(t.app, 'Quiet');
      noisy = await seedAccount(t.app, 'Noisy');
      planned = await seedAccount(t.app, 'Planned');
      raised = await seedAccount(t.app, 'Raised');
    }, 120_000);

    afterAll(async () => {
      await t?.close();
      if (appEnv) fs.rmSync(appEnv.DATA_DIR, { recursive: true, force: true });
    });

    async function publish(events: UsageCloudEvent[]): Promise<void> {
      await produce(topic, usageMessagesOf(events));
      await waitFor(`group ${group} to commit the end of ${topic}`, () =>
        groupCaughtUp(topic, group),
      );
      // The DuckDB store's quarter-hour rollups follow its writes in a periodic pass.
      await t.app.get<UsageEventWriter>(USAGE_EVENT_WRITER).maintain();
    }

    /** Per table: the org's rows and its distinct keys. */
    async function storeRows(orgId: string): Promise<Record<string, [number, number]>> {
      const counts: Record<string, [number, number]> = {};
      for (const table of STORE_TABLES[store === 'duckdb' ? 'duckdb' : 'clickhouse']) {
        if (store === 'duckdb') {
          const [row] = await t.app.get(DuckDbService).all<{ n: bigint; k: bigint }>(
            // Rows by their key columns: a clustering pass may fold rows of one key together.
            `SELECT count(*) AS n, count(DISTINCT meta_key) AS k FROM (
               SELECT DISTINCT COLUMNS(c -> c NOT IN (${NOT_KEY_COLUMNS})) FROM ${table}
               WHERE org_id = $1
             )`,
            [orgId],
          );
          counts[table] = [Number(row.n), Number(row.k)];
        } else {
          // Rows by their sorting key: a background merge may fold rows of one key together.
          const [row] = await t.app.get(ClickHouseService).rows<{ n: string; k: string }>(
            `SELECT uniqExact(${CLICKHOUSE_ROW_KEYS[table]}) AS n, uniqExact(meta_key) AS k
           FROM ${database}.${table} WHERE org_id = {org:String}`,
            { org: orgId },
          );
          counts[table] = [Number(row.n), Number(row.k)];
        }
      }
      return counts;
    }

    async function storedEvents(orgId: string): Promise<{ events: number; withLastKey: number }> {
      const lastKey = '%"req_399"%';
      if (store === 'duckdb') {
        const [row] = await t.app.get(DuckDbService).all<{ n: bigint; last: bigint }>(
          `SELECT count(*) AS n, count(*) FILTER (WHERE metadata_json LIKE $2) AS last
         FROM usage_events WHERE org_id = $1`,
          [orgId, lastKey],
        );
        return { events: Number(row.n), withLastKey: Number(row.last) };
      }
      const [row] = await t.app.get(ClickHouseService).rows<{ n: string; last: string }>(
        `SELECT count() AS n, countIf(metadata_json LIKE {last:String}) AS last
       FROM ${database}.usage_events WHERE org_id = {org:String}`,
        { org: orgId, last: lastKey },
      );
      return { events: Number(row.n), withLastKey: Number(row.last) };
    }

    async function enable(org: SeededAccount, key: string): Promise<Response> {
      return fetch(`${t.baseUrl}/api/v1/orgs/${org.orgId}/metadata-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.accountKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ key }),
      });
    }

    async function groupedBy(org: SeededAccount, key: string, timeZone?: string): Promise<unknown> {
      const params = new URLSearchParams({
        orgId: org.orgId,
        startDate: daysAgo(30),
        endDate: daysAgo(0),
        groupBy: 'metadata',
        metadataKey: key,
        ...(timeZone ? { timeZone } : {}),
      });
      const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${params}`, {
        headers: { authorization: `Bearer ${org.accountKey}` },
      });
      const text = await res.text();
      expect({ status: res.status, text: res.status === 200 ? '' : text }).toEqual({
        status: 200,
        text: '',
      });
      return parseExportBody(text).rows;
    }

    function reference(
      org: SeededAccount,
      events: UsageCloudEvent[],
      key: string,
      timeZone?: string,
    ): unknown {
      return referenceExport(events, {
        orgId: org.orgId,
        startDate: daysAgo(30),
        endDate: daysAgo(0),
        groupBy: 'metadata',
        metadataKey: key,
        ...(timeZone ? { timeZone } : {}),
      });
    }

    async function untrackedMetric(): Promise<number> {
      const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('docproc_usage_metadata_keys_untracked_total '));
      return line === undefined ? 0 : Number(line.split(' ')[1]);
    }

    it("a tenant sending a new key per request holds the cap's keys; another tenant's rows and answers do not move", async () => {
      const quietEvents = Array.from({ length: 60 }, (_, i) =>
        usageEvent(
          {
            orgId: quiet.orgId,
            async: true,
            credits: `${1 + (i % 4)}.25`,
            metadata: { team: ['risk', 'ops', 'audit'][i % 3], region: i % 2 ? 'eu' : 'us' },
          },
          { daysBack: i % 3 },
        ),
      );
      expect((await enable(quiet, 'team')).status).toBe(201);
      await publish(quietEvents);
      const quietRowsBefore = await storeRows(quiet.orgId);
      const quietAnswerBefore = await groupedBy(quiet, 'team');
      expect(quietAnswerBefore).toEqual(reference(quiet, quietEvents, 'team'));
      expect(quietRowsBefore.usage_daily_metadata).toEqual([expect.any(Number), 2]);

      const noisyEvents = Array.from({ length: 400 }, (_, i) =>
        usageEvent(
          {
            orgId: noisy.orgId,
            async: true,
            credits: '0.5',
            metadata: { team: i % 2 ? 'x' : 'y', [`req_${i}`]: 'v' },
          },
          { daysBack: i % 3 },
        ),
      );
      await publish(noisyEvents);

      // The other tenant: the same rows, the same answer.
      expect(await storeRows(quiet.orgId)).toEqual(quietRowsBefore);
      expect(await groupedBy(quiet, 'team')).toEqual(quietAnswerBefore);

      // The noisy tenant: every event stored with its whole metadata, CAP keys broken out,
      // among them the one every request carries.
      expect(await storedEvents(noisy.orgId)).toEqual({ events: 400, withLastKey: 1 });
      for (const [table, [, keys]] of Object.entries(await storeRows(noisy.orgId))) {
        expect({ table, keys }).toEqual({ table, keys: CAP });
      }
      expect((await enable(noisy, 'team')).status).toBe(201);
      expect(await groupedBy(noisy, 'team')).toEqual(reference(noisy, noisyEvents, 'team'));
      expect(await untrackedMetric()).toBeGreaterThanOrEqual(400 - (CAP - 1));

      // A key left out cannot be enabled: the answer names the key and the cap.
      const refused = await enable(noisy, 'req_399');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        error: {
          code: 'METADATA_KEY_LIMIT',
          message: expect.stringMatching(/"req_399" .*by 5 metadata keys, the limit \(5\)/),
          metadataKey: 'req_399',
          maxKeys: CAP,
        },
      });
      const listed = await fetch(`${t.baseUrl}/api/v1/orgs/${noisy.orgId}/metadata-keys`, {
        headers: { authorization: `Bearer ${noisy.accountKey}` },
      });
      expect(await listed.json()).toMatchObject({ keysHeld: CAP, maxKeys: CAP });
    }, 180_000);

    it('a key enabled before it is first sent keeps its place when new keys fill the cap', async () => {
      expect((await enable(planned, 'cost_center')).status).toBe(201);
      const events = Array.from({ length: 12 }, (_, i) =>
        usageEvent({
          orgId: planned.orgId,
          async: true,
          metadata: { [`k${i}`]: 'a', [`q${i}`]: 'b', ...(i === 11 ? { cost_center: 'cc7' } : {}) },
        }),
      );
      await publish(events);
      const rows = await storeRows(planned.orgId);
      expect(rows.usage_daily_metadata[1]).toBe(CAP);
      expect(await groupedBy(planned, 'cost_center')).toEqual(
        reference(planned, events, 'cost_center'),
      );
    }, 120_000);

    it('a correction of an event sent while its key was past the cap takes nothing from that key after the cap is raised', async () => {
      // Kolkata's day starts at a half hour: the export reads the quarter-hour rollups.
      const zone = 'Asia/Kolkata';
      const fill = Array.from({ length: CAP }, (_, i) =>
        usageEvent({ orgId: raised.orgId, async: true, metadata: { [`k${i}`]: 'a' } }),
      );
      await publish(fill);
      // Sent past the cap: stored with its metadata, counted under no key's rows.
      const early = usageEvent(
        { orgId: raised.orgId, async: true, credits: '2', metadata: { later: 'a' } },
        { id: `early-${store}`, daysBack: 1 },
      );
      await publish([early]);
      expect((await enable(raised, 'later')).status).toBe(400);

      // An operator raises the cap: the key takes a place with the next event carrying it.
      await t.close();
      t = await startTestApp({ ...appEnv, METADATA_KEYS_MAX_PER_ORG: String(CAP + 5) });
      const after = usageEvent(
        { orgId: raised.orgId, async: true, credits: '3', metadata: { later: 'a' } },
        { daysBack: 1 },
      );
      await publish([after]);
      expect((await enable(raised, 'later')).status).toBe(201);
      // The early event never counted under the key: it is in no group of it ("unknown").
      const uncounted = { ...early, data: { ...early.data, metadata: {} } };
      const before = [...fill, uncounted, after];
      expect(await groupedBy(raised, 'later')).toEqual(reference(raised, before, 'later'));
      expect(await groupedBy(raised, 'later', zone)).toEqual(
        reference(raised, before, 'later', zone),
      );

      // Its correction, a write after the key took its place, counts; the version it
      // replaces, never counted, is taken from nothing.
      const correction: UsageCloudEvent = {
        ...early,
        data: { ...early.data, credits: '5', metadata: { later: 'a' }, version: 2 },
      };
      await publish([correction]);
      const all = [...before, correction];
      expect(await groupedBy(raised, 'later')).toEqual(reference(raised, all, 'later'));
      expect(await groupedBy(raised, 'later', zone)).toEqual(reference(raised, all, 'later', zone));
      // And a second correction moves the key's rows by the difference only.
      const again: UsageCloudEvent = {
        ...early,
        data: { ...early.data, credits: '1.5', metadata: { later: 'b' }, version: 3 },
      };
      await publish([again]);
      const last = [...all, again];
      expect(await groupedBy(raised, 'later')).toEqual(reference(raised, last, 'later'));
      expect(await groupedBy(raised, 'later', zone)).toEqual(
        reference(raised, last, 'later', zone),
      );
    }, 180_000);
  },
);
