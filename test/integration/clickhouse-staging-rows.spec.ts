import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { STAGING_COLUMNS, stagingRows } from '../../src/usage/clickhouse/clickhouse-staging.js';
import { formatCredits } from '../../src/usage/core/decimal-credits.js';
import { normalizeToColumns } from '../../src/usage/ingestion/usage-event-columns.js';
import { DEFAULT_NORMALIZER_POLICY } from '../support/usage-events.js';

/*
 * The ClickHouse store stages a write's events as TabSeparated rows: every text a client can
 * send (ids, job ids, metadata keys and values, the metadata JSON) must reach the server's
 * staging table unchanged, whatever characters it holds, and time and credits exactly.
 */

const NOW = new Date('2026-11-21T12:00:00Z');
/** Every character TabSeparated or a quoted array element treats specially, and more. */
const AWKWARD = `a\\b\tc\nd\re'f"g\0h\bi\fj[k]l,m\\N\\'n é 漢 🙂`;

function event(id: string, data: Record<string, unknown>): string {
  return JSON.stringify({
    specversion: '1.0',
    id,
    source: 'docproc/processing',
    type: 'docproc.usage.v1',
    time: '2026-11-20T23:59:59.987+01:00',
    data: {
      orgId: 'org_1',
      apiKeyId: 'pk_1',
      product: 'extract',
      feature: 'extract',
      fileType: 'pdf',
      pages: 3,
      credits: '6',
      async: false,
      ...data,
    },
  });
}

async function clickhouse(sessionId: string, query: string, body?: string): Promise<string> {
  const url = new URL(process.env.TEST_CLICKHOUSE_URL as string);
  url.searchParams.set('session_id', sessionId);
  if (body !== undefined) url.searchParams.set('query', query);
  const res = await fetch(url, { method: 'POST', body: body ?? query });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${res.status}: ${text}`);
  return text;
}

describe('ClickHouse staging rows (TabSeparated) against a real server', () => {
  it('stages awkward texts, times and credits exactly', async () => {
    const { columns, rejected } = normalizeToColumns(
      [
        event(`id ${AWKWARD}`, {
          orgId: `org ${AWKWARD}`,
          jobId: `job ${AWKWARD}`,
          credits: '999999999999.999999',
          async: true,
          metadata: { [`key ${AWKWARD}`]: `value ${AWKWARD}`, team: 'risk' },
        }),
        event('plain', { credits: 0.5 }),
      ],
      NOW,
      DEFAULT_NORMALIZER_POLICY,
    );
    expect(rejected).toEqual([]);
    const { chunks, days, carriesMetadata } = stagingRows([columns]);
    expect({ days, carriesMetadata }).toEqual({ days: ['2026-11-20'], carriesMetadata: true });

    const session = `staging-spec-${randomUUID()}`;
    await clickhouse(session, `CREATE TEMPORARY TABLE usage_staging (${STAGING_COLUMNS})`);
    await clickhouse(
      session,
      'INSERT INTO usage_staging FORMAT TabSeparated',
      Buffer.concat(chunks).toString('utf8'),
    );
    const stored = (
      await clickhouse(
        session,
        `SELECT event_id, org_id, job_id, metadata_json, meta_keys, meta_values,
                toString(toDateTime(event_seconds, 'UTC')) AS event_time, event_ms, toString(toDecimal64(credits, 6)) AS credits, day, grp, is_async, pages
         FROM usage_staging ORDER BY event_id FORMAT JSONEachRow`,
      )
    )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      // Compared as the export prints decimals (engines differ in trailing zeros).
      .map((row) => ({ ...row, credits: formatCredits(row.credits as string) }));

    expect(stored).toEqual([
      {
        event_id: `id ${AWKWARD}`,
        org_id: `org ${AWKWARD}`,
        job_id: `job ${AWKWARD}`,
        metadata_json: JSON.stringify({ [`key ${AWKWARD}`]: `value ${AWKWARD}`, team: 'risk' }),
        meta_keys: [`key ${AWKWARD}`, 'team'],
        meta_values: [`value ${AWKWARD}`, 'risk'],
        event_time: '2026-11-20 22:59:59',
        event_ms: 987,
        credits: '999999999999.999999',
        day: '2026-11-20',
        grp: 0,
        is_async: 1,
        pages: 3,
      },
      {
        event_id: 'plain',
        org_id: 'org_1',
        job_id: null,
        metadata_json: null,
        meta_keys: [],
        meta_values: [],
        event_time: '2026-11-20 22:59:59',
        event_ms: 987,
        credits: '0.5',
        day: '2026-11-20',
        grp: 0,
        is_async: 0,
        pages: 3,
      },
    ]);
  });
});
