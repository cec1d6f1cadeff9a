import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { parseExportBody, ReferenceQuery, referenceExport } from './usage-reference.js';
import { testKafkaBrokers, type TestMessage } from './kafka.js';
import { daysAgo } from './usage-events.js';

// Specs of the usage plane import the shared wait from here, next to the Kafka helpers.
export { waitFor } from './wait.js';

/** Env of an app whose usage consumer reads `topic` (a spec's own topic, DLQ and group). */
export function kafkaAppEnv(topic: string, extra: Record<string, string> = {}) {
  return {
    KAFKA_BROKERS: testKafkaBrokers().join(','),
    KAFKA_USAGE_TOPIC: topic,
    KAFKA_DLQ_TOPIC: `${topic}.dlq`,
    KAFKA_CONSUMER_GROUP: `docproc-usage-test-${randomUUID().slice(0, 8)}`,
    KAFKA_LAG_INTERVAL_MS: '200',
    KAFKA_SESSION_TIMEOUT_MS: '10000',
    ...extra,
  };
}

/** Usage events as Kafka messages keyed by organisation, as the platform's producers send them. */
export function usageMessagesOf(events: readonly UsageCloudEvent[]): TestMessage[] {
  return events.map((e) => ({ key: e.data.orgId, value: JSON.stringify(e) }));
}

/** True once `group` has committed the end offset of every partition of `topic`. */
export async function groupCaughtUp(
  topic: string,
  group: string,
  brokers = testKafkaBrokers(),
): Promise<boolean> {
  const partitions = await groupOffsets(topic, group, brokers);
  return partitions.every((p) => p.high === 0 || p.committed === p.high);
}

/** Per partition of `topic`: its high watermark and the offset `group` committed (-1: none). */
export async function groupOffsets(
  topic: string,
  group: string,
  brokers = testKafkaBrokers(),
): Promise<{ partition: number; high: number; committed: number }[]> {
  return withAdmin(brokers, async (admin) => {
    const [ends, committed] = await Promise.all([
      admin.fetchTopicOffsets(topic),
      admin.fetchOffsets({ groupId: group, topics: [topic] }),
    ]);
    const byPartition = new Map(
      (committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]),
    );
    return ends.map((e) => ({
      partition: e.partition,
      high: Number(e.high),
      committed: byPartition.get(e.partition) ?? -1,
    }));
  });
}

/** How many members `group` has now (consumers that joined it and have not left). */
export async function groupMemberCount(group: string, brokers = testKafkaBrokers()) {
  return withAdmin(brokers, async (admin) => {
    const { groups } = await admin.describeGroups([group]);
    return groups[0]?.members.length ?? 0;
  });
}

/** Runs `work` with a connected, silent admin client of `brokers`, disconnected after. */
export async function withAdmin<T>(
  brokers: string[],
  work: (admin: Admin) => Promise<T>,
): Promise<T> {
  const admin = new Kafka({
    clientId: 'docproc-test-admin',
    brokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

/** Asserts that every `groupBy` of the org's export over the last 30 days equals the reference. */
export async function expectExportOfLast30Days(
  baseUrl: string,
  org: { orgId: string; accountKey: string },
  events: UsageCloudEvent[],
): Promise<void> {
  const comparisons = await exportMatchesReference(baseUrl, org.accountKey, events, {
    orgId: org.orgId,
    startDate: daysAgo(30),
    endDate: daysAgo(0),
  });
  for (const { groupBy, actual, expected } of comparisons) {
    expect({ org: org.orgId, groupBy, rows: actual }).toEqual({
      org: org.orgId,
      groupBy,
      rows: expected,
    });
  }
}

/** Every `groupBy` of the export for one org over `days` days, over HTTP. */
export async function exportMatchesReference(
  baseUrl: string,
  accountKey: string,
  events: UsageCloudEvent[],
  query: Omit<ReferenceQuery, 'groupBy'>,
): Promise<{ groupBy: string; actual: unknown; expected: unknown }[]> {
  const results = [];
  for (const groupBy of ['product', 'feature', 'api_key', 'file_type'] as const) {
    const params = new URLSearchParams({
      orgId: query.orgId,
      startDate: query.startDate,
      endDate: query.endDate,
      groupBy,
    });
    const res = await fetch(`${baseUrl}/api/v1/usage/export?${params}`, {
      headers: { authorization: `Bearer ${accountKey}` },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`export ${res.status}: ${text}`);
    results.push({
      groupBy,
      actual: parseExportBody(text).rows,
      expected: referenceExport(events, { ...query, groupBy }),
    });
  }
  return results;
}
