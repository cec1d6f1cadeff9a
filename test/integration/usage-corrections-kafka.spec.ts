import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { createTestTopic, produce } from '../support/kafka.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { groupCaughtUp, kafkaAppEnv, waitFor, usageMessagesOf } from '../support/usage-kafka.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import {
  parseExportBody,
  referenceExport,
  type ReferenceQuery,
} from '../support/usage-reference.js';
import { USAGE_STORES, usageStoreEnv } from '../support/usage-stores.js';
import { usageExportText } from '../support/usage-export-http.js';

/*
 * Corrections through the real Kafka topic: the same event (source, id) sent again with a
 * higher `data.version` replaces the stored one exactly once in every export (each
 * grouping, metadata, a time zone); replaying the old and the new version changes nothing.
 */

type Query = Omit<ReferenceQuery, 'orgId' | 'startDate' | 'endDate'>;
const QUERIES: Query[] = [
  { groupBy: 'product' },
  { groupBy: 'feature' },
  { groupBy: 'api_key' },
  { groupBy: 'file_type' },
  { groupBy: 'metadata', metadataKey: 'team' },
  { groupBy: 'product', metadataKey: 'team' },
  { groupBy: 'product', timeZone: 'America/New_York' },
];

describe.each(USAGE_STORES)('corrections with the %s usage store (real Kafka)', (store) => {
  let t: TestApp;
  let topic: string;
  let group: string;
  let acme: SeededAccount;

  async function publish(events: UsageCloudEvent[]): Promise<void> {
    await produce(topic, usageMessagesOf(events));
    await waitFor(`group ${group} to commit the end of ${topic}`, () =>
      groupCaughtUp(topic, group),
    );
  }

  async function exportText(query: Query): Promise<string> {
    const params = new URLSearchParams({
      orgId: acme.orgId,
      startDate: daysAgo(32),
      endDate: daysAgo(0),
      groupBy: query.groupBy,
    });
    if (query.metadataKey) params.set('metadataKey', query.metadataKey);
    if (query.timeZone) params.set('timeZone', query.timeZone);
    const text = await usageExportText(t.baseUrl, acme.accountKey, params);
    return text;
  }

  async function expectExportsEqualReference(events: UsageCloudEvent[]): Promise<string[]> {
    const texts: string[] = [];
    for (const query of QUERIES) {
      const text = await exportText(query);
      texts.push(text);
      const expected = referenceExport(events, {
        ...query,
        orgId: acme.orgId,
        startDate: daysAgo(32),
        endDate: daysAgo(0),
      });
      expect({ query, rows: parseExportBody(text).rows }).toEqual({ query, rows: expected });
    }
    return texts;
  }

  beforeAll(async () => {
    topic = await createTestTopic('usage-corrections', 3);
    const env = kafkaAppEnv(topic);
    group = env.KAFKA_CONSUMER_GROUP;
    t = await startTestApp({ ...env, ...usageStoreEnv(store) });
    acme = await seedAccount(t.app, 'Acme');
    await t.app.get(MetadataKeyService).enable(acme.orgId, 'team');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('replaces a corrected event exactly once, and replays of either version change nothing', async () => {
    const base = usageEventMix([acme.orgId], 400, { seed: 41, prefix: 'corr', days: 20 });
    const originals = [
      usageEvent(
        {
          orgId: acme.orgId,
          product: 'parse',
          credits: '10.5',
          async: true,
          metadata: { team: 'risk' },
        },
        { id: 'corr-target-1', daysBack: 3 },
      ),
      usageEvent(
        { orgId: acme.orgId, product: 'extract', credits: '2' },
        { id: 'corr-target-2', daysBack: 5 },
      ),
    ];
    await publish([...base, ...originals]);
    const before = await expectExportsEqualReference([...base, ...originals]);

    // Corrections: other credits, another product, another metadata value; version 2 and 3.
    const corrections: UsageCloudEvent[] = [
      {
        ...originals[0],
        data: {
          ...originals[0].data,
          product: 'split',
          credits: '4.000001',
          metadata: { team: 'ops' },
          version: 2,
        },
      },
      { ...originals[1], data: { ...originals[1].data, credits: '0.25', version: 3 } },
    ];
    await publish(corrections);
    const after = await expectExportsEqualReference([...base, ...originals, ...corrections]);
    expect(after).not.toEqual(before);

    // Replays: the originals, the corrections, and a version between (lower than stored).
    const stale = { ...originals[1], data: { ...originals[1].data, credits: '99', version: 2 } };
    await publish([...originals, ...corrections, stale, ...originals]);
    expect(await expectExportsEqualReference([...base, ...originals, ...corrections])).toEqual(
      after,
    );
  }, 180_000);

  it('keeps the highest version when an event and its correction arrive in one batch', async () => {
    const first = usageEvent(
      { orgId: acme.orgId, product: 'classify', credits: '7', fileType: 'tiff' },
      { id: 'corr-same-batch', daysBack: 2 },
    );
    const second = { ...first, data: { ...first.data, credits: '3', version: 2 } };
    await publish([second, first, second]);
    const text = await exportText({ groupBy: 'file_type' });
    expect(parseExportBody(text).rows.filter((r) => r.group === 'tiff')).toEqual([
      { date: daysAgo(2), group: 'tiff', credits: '3', requestCount: 1 },
    ]);
  }, 60_000);

  it('refuses a version that is not a positive integer, to the dead-letter topic', async () => {
    const bad = usageEvent({ orgId: acme.orgId, credits: '1', version: 0 }, { id: 'corr-bad' });
    await publish([bad]);
    const text = await exportText({ groupBy: 'product' });
    expect(text).not.toContain('corr-bad');
    const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/docproc_usage_dead_lettered_total\{reason="wrong_type"\} 1/);
  }, 60_000);
});
