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
 * deleting a key's tracking through either process frees its place for both.
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

describe('metadata key places with two ingest processes (ClickHouse)', () => {
  it('both processes refuse a key past the cap, and a place freed through one serves the other', async () => {
    const [first, second] = processes;
    const fill = ['k0', 'k1', 'k2', 'k3'].map((key) =>
      usageEvent(
        { orgId: org.orgId, async: true, metadata: { [key]: 'a' } },
        { id: `fill-${key}-${randomUUID()}` },
      ),
    );
    await publish(fill);
    expect(await keysWithRows()).toBe('k0,k1,k2');
    // Whichever process wrote them, both count the places the store records.
    expect(await enableAnswer(first, 'extra')).toBe('METADATA_KEY_LIMIT');
    expect(await enableAnswer(second, 'extra')).toBe('METADATA_KEY_LIMIT');
    for (const child of processes) {
      const listing = (await (await call(child, 'GET')).json()) as { keysHeld: number };
      expect(listing.keysHeld).toBe(CAP);
    }

    // Freed through the second process, the place takes the key enabled through the first;
    // the deleted key is refused through both.
    expect((await call(second, 'DELETE', '/k0/tracking')).status).toBe(204);
    expect(await enableAnswer(first, 'extra')).toBe('enabled');
    expect(await enableAnswer(second, 'other')).toBe('METADATA_KEY_LIMIT');
    expect(await enableAnswer(first, 'k0')).toBe('METADATA_KEY_REJECTED');
    expect(await enableAnswer(second, 'k0')).toBe('METADATA_KEY_REJECTED');

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
    const res = await fetch(`${first.baseUrl}/api/v1/usage/export?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${org.accountKey}` },
    });
    expect(res.status).toBe(200);
    expect(parseExportBody(await res.text()).rows).toEqual(
      referenceExport([...fill, ...later], query),
    );
  }, 300_000);
});
