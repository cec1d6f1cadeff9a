import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import type { SeededAccount } from '../support/accounts.js';
import type { ChildApp } from '../support/child-app.js';
import {
  clickhouseQuery,
  INGEST_PROCESSES_START_MS,
  startClickHouseIngestProcesses,
  type ClickHouseIngestProcesses,
} from '../support/clickhouse-ingest-processes.js';
import { produce } from '../support/kafka.js';
import { groupCaughtUp, waitFor } from '../support/usage-kafka.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { parseExportBody, referenceExport } from '../support/usage-reference.js';

/*
 * The cap on an org's metadata keys with two ingest processes on one ClickHouse store
 * (docs/decisions/0514-*): each process keeps its own DuckDB file, so before, a process that
 * had not written the org's events counted none of its places and enabled keys past the cap.
 * Enabling now counts the places the store records (and records the place it gives), and
 * deleting a key's tracking through either process frees its place for both, and both list
 * the key as deleted.
 */

const CAP = 3;

let topic: string;
let group: string;
let database: string;
let org: SeededAccount;
let processes: ChildApp[];
let started: ClickHouseIngestProcesses | undefined;

function call(child: ChildApp, method: string, suffix = '', body?: unknown) {
  return fetch(`${child.baseUrl}/api/v1/orgs/${org.orgId}/metadata-keys${suffix}`, {
    method,
    headers: {
      authorization: `Bearer ${org.accountKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function enableAnswer(child: ChildApp, key: string): Promise<string> {
  const res = await call(child, 'POST', '', { key });
  if (res.status === 201) return 'enabled';
  return ((await res.json()) as { error: { code: string } }).error.code;
}

/** All of the org's events on one partition: one process writes them. */
async function publish(events: UsageCloudEvent[]): Promise<void> {
  await produce(
    topic,
    events.map((e) => ({ key: e.data.orgId, value: JSON.stringify(e), partition: 0 })),
  );
  await waitFor(
    `group ${group} to commit the end of ${topic}`,
    () => groupCaughtUp(topic, group),
    120_000,
  );
}

/** The org's keys with rows in the daily metadata rollup. */
async function keysWithRows(): Promise<string> {
  return clickhouseQuery(
    `SELECT arrayStringConcat(arraySort(groupUniqArray(meta_key)), ',')
     FROM ${database}.usage_daily_metadata WHERE org_id = '${org.orgId}'`,
  );
}

beforeAll(async () => {
  started = await startClickHouseIngestProcesses('usage-key-places', ['Tenant'], {
    METADATA_KEYS_MAX_PER_ORG: String(CAP),
  });
  ({ topic, group, database, processes } = started);
  [org] = started.orgs;
}, INGEST_PROCESSES_START_MS);

afterAll(async () => {
  await started?.close();
});

interface Listed {
  key: string;
  enabled: boolean;
  eventCount: number;
  trackingDeletedAt: string | null;
  canEnable: boolean;
}

async function listing(child: ChildApp): Promise<{ data: Listed[]; keysHeld: number }> {
  return (await call(child, 'GET')).json() as Promise<{ data: Listed[]; keysHeld: number }>;
}

describe('metadata key places with two ingest processes (ClickHouse)', () => {
  it('both processes refuse a key past the cap, and a place freed through one serves the other', async () => {
    const fill = ['k0', 'k1', 'k2', 'k3'].map((key) =>
      usageEvent(
        { orgId: org.orgId, async: true, metadata: { [key]: 'a' } },
        { id: `fill-${key}-${randomUUID()}` },
      ),
    );
    await publish(fill);
    expect(await keysWithRows()).toBe('k0,k1,k2');
    // The process that wrote the events has their statistics in its DuckDB file; the key is
    // deleted through the other one, whose file knows nothing of it.
    const counted = await Promise.all(
      processes.map(async (child) => (await listing(child)).data.some((k) => k.eventCount > 0)),
    );
    expect(counted).toContain(true);
    const writer = processes[counted.indexOf(true)];
    const other = processes.find((child) => child !== writer) as ChildApp;
    // Whichever process wrote them, both count the places the store records.
    expect(await enableAnswer(writer, 'extra')).toBe('METADATA_KEY_LIMIT');
    expect(await enableAnswer(other, 'extra')).toBe('METADATA_KEY_LIMIT');
    for (const child of processes) expect((await listing(child)).keysHeld).toBe(CAP);

    // Freed through the other process, the place takes the key enabled through the writer;
    // the deleted key is refused through both.
    expect((await call(other, 'DELETE', '/k0/tracking')).status).toBe(204);
    // The writing process lists k0 as deleted, as the deleting one would: it reads the
    // deletion the store records, not only its own file.
    expect((await listing(writer)).data.find((k) => k.key === 'k0')).toMatchObject({
      enabled: false,
      eventCount: 1,
      trackingDeletedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      canEnable: false,
    });
    expect(await enableAnswer(writer, 'extra')).toBe('enabled');
    expect(await enableAnswer(other, 'other')).toBe('METADATA_KEY_LIMIT');
    expect(await enableAnswer(writer, 'k0')).toBe('METADATA_KEY_REJECTED');
    expect(await enableAnswer(other, 'k0')).toBe('METADATA_KEY_REJECTED');

    // The writing process breaks usage out by the key enabled elsewhere, and by no more.
    const later = [
      ...['x', 'y', 'x'].map((value) =>
        usageEvent({ orgId: org.orgId, async: true, credits: '2', metadata: { extra: value } }),
      ),
      usageEvent({ orgId: org.orgId, async: true, metadata: { k9: 'a', k0: 'b' } }),
    ];
    await publish(later);
    await waitFor(
      'the rows of k0 to be dropped',
      async () => (await keysWithRows()) === 'extra,k1,k2',
    );
    const tracked = await clickhouseQuery(
      `SELECT uniqExact(meta_key) FROM ${database}.metadata_keys_tracked
       WHERE org_id = '${org.orgId}' AND meta_key != 'k0'`,
    );
    expect(Number(tracked)).toBe(CAP);
    const query = {
      orgId: org.orgId,
      startDate: daysAgo(30),
      endDate: daysAgo(0),
      groupBy: 'metadata',
      metadataKey: 'extra',
    } as const;
    const res = await fetch(`${writer.baseUrl}/api/v1/usage/export?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${org.accountKey}` },
    });
    expect(res.status).toBe(200);
    expect(parseExportBody(await res.text()).rows).toEqual(
      referenceExport([...fill, ...later], query),
    );
  }, 300_000);
});
