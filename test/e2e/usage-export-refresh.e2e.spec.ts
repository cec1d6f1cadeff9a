import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount } from '../support/accounts.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { usageEvent } from '../support/usage-events.js';
import { writeReplayed } from '../support/usage-replay.js';
import {
  microsToText,
  parseExportBody,
  ReferenceGroupBy,
  ReferenceQuery,
  referenceExport,
} from '../support/usage-reference.js';
import { USAGE_STORES, usageStoreEnv } from '../support/usage-stores.js';
import { usageExportText } from '../support/usage-export-http.js';

/*
 * A dashboard asks the same export again after each write: the answer cached before is
 * brought up to date by reading again only the local dates the write's UTC days touch
 * (docs/decisions/0405-export-answers-refreshed-by-changed-day.md). After every round of
 * new events and corrections, the export equals the reference over every event so far.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Days of a 2026 period, two of them DST changes of New York and Berlin. */
const PERIOD = { startDate: '2026-02-20', endDate: '2026-04-10' };
const ANCHORS = ['2026-03-08T07:00:00Z', '2026-03-29T01:00:00Z', '2026-04-08T18:30:00Z'];
const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Pacific/Chatham'];
const GROUP_BYS: ReferenceGroupBy[] = ['product', 'feature', 'api_key', 'file_type', 'metadata'];

describe.each(USAGE_STORES)(
  'export answers refreshed by changed day with the %s store',
  (store) => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp(usageStoreEnv(store));
    });

    afterAll(async () => {
      await t.close();
    });

    const eventArbitrary = fc.record({
      offsetMinutes: fc.integer({ min: -2 * 24 * 60, max: 2 * 24 * 60 }),
      product: fc.constantFrom('classify', 'parse'),
      feature: fc.constantFrom('a', 'b'),
      apiKeyId: fc.constantFrom('k1', 'k2'),
      fileType: fc.constantFrom('pdf', 'png'),
      micros: fc.bigInt({ min: 0n, max: 9_999_999_999n }),
      async: fc.boolean(),
      team: fc.option(fc.constantFrom('risk', 'ops'), { nil: undefined }),
    });
    const roundArbitrary = fc.record({
      // Each later round's events lie around one instant, as a day's live usage does.
      anchor: fc.constantFrom(...ANCHORS),
      events: fc.array(eventArbitrary, { minLength: 1, maxLength: 8 }),
      corrections: fc.array(fc.bigInt({ min: 0n, max: 9_999_999_999n }), { maxLength: 3 }),
    });

    it('equals the reference after every round of writes, the same export asked each time', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(roundArbitrary, { minLength: 2, maxLength: 4 }),
          fc.constantFrom(...ZONES),
          fc.oneof(
            fc.constantFrom(...GROUP_BYS).map((d) => [d]),
            fc.uniqueArray(fc.constantFrom(...GROUP_BYS), { minLength: 2, maxLength: 2 }),
          ),
          async (rounds, timeZone, dimensions) => {
            const org = await seedAccount(t.app, 'Refresh');
            await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
            const query: ReferenceQuery = {
              orgId: org.orgId,
              ...PERIOD,
              groupBy: dimensions[0],
              ...(dimensions[1] ? { secondGroupBy: dimensions[1] } : {}),
              timeZone,
              ...(dimensions.includes('metadata') ? { metadataKey: 'team' } : {}),
            };
            const search = new URLSearchParams({ ...PERIOD, groupBy: dimensions.join(',') });
            search.set('timeZone', timeZone);
            if (query.metadataKey) search.set('metadataKey', query.metadataKey);
            const all: UsageCloudEvent[] = [];
            for (const round of rounds) {
              const events = round.events.map((e) =>
                usageEvent(
                  {
                    orgId: org.orgId,
                    product: e.product as 'classify',
                    feature: e.feature,
                    apiKeyId: e.apiKeyId,
                    fileType: e.fileType,
                    credits: microsToText(e.micros),
                    async: e.async,
                    metadata: e.team === undefined ? null : { team: e.team },
                  },
                  {
                    time: new Date(
                      Math.min(
                        Math.max(
                          Date.parse(round.anchor) + e.offsetMinutes * MINUTE,
                          Date.parse(PERIOD.startDate),
                        ),
                        Date.parse(PERIOD.endDate) + DAY - 1,
                      ),
                    ).toISOString(),
                  },
                ),
              );
              // Corrections of earlier events: same identity and time, a higher version.
              round.corrections.forEach((micros, i) => {
                const earlier = all[(i * 7) % Math.max(all.length, 1)];
                if (earlier === undefined) return;
                const version = ((earlier.data as { version?: number }).version ?? 1) + 1;
                events.push({
                  ...earlier,
                  data: { ...earlier.data, credits: microsToText(micros), version },
                } as UsageCloudEvent);
              });
              await writeReplayed(t.app, events);
              all.push(...events);
              const text = await usageExportText(t.baseUrl, org.accountKey, search);
              expect(parseExportBody(text).rows).toEqual(referenceExport(all, query));
            }
          },
        ),
        { numRuns: store === 'duckdb' ? 20 : 10 },
      );
    }, 240_000);
  },
);
