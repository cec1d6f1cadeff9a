import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ClickHouseService,
  type SentStatement,
} from '../../src/usage/clickhouse/clickhouse.service.js';
import { migrationStatements } from '../../src/usage/clickhouse/clickhouse-migrations.js';
import { findSqlDirectory } from '../../src/database/migrations.js';
import { formatCredits } from '../../src/usage/core/decimal-credits.js';
import { UsageIngestService } from '../../src/usage/ingestion/usage-ingest.service.js';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usageEventMix } from '../support/usage-event-mix.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { waitFor } from '../support/wait.js';
import { usageStoreEnv } from '../support/usage-stores.js';

/*
 * Every statement the ClickHouse usage store sends to the test server (Debian's 18.16) is
 * recorded during a workload that exercises each path (migrations, writes with duplicates
 * and metadata, a key turning identifier-like, every shape of export), then replayed in
 * order on chDB, a current ClickHouse engine: each must run there too, and each export
 * query must give the same rows on both engines.
 */

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

let t: TestApp;
let acme: SeededAccount;
let database: string;
const sent: SentStatement[] = [];

beforeAll(async () => {
  const storeEnv = usageStoreEnv('clickhouse');
  database = storeEnv.CLICKHOUSE_DATABASE;
  t = await startTestApp({
    ...storeEnv,
    METADATA_KEY_MAX_DISTINCT: '12',
    // The alert's webhook is on this machine.
    FETCH_ALLOW_HOSTS: '127.0.0.1',
  });
  acme = await seedAccount(t.app, 'Acme');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function exportBody(params: Record<string, string | string[]>): Promise<string> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
  }
  const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${search}`, {
    headers: { authorization: `Bearer ${acme.accountKey}`, accept: 'text/csv' },
  });
  const text = await res.text();
  expect({ params, status: res.status }).toEqual({ params, status: 200 });
  return text;
}

/** The rows of `statement` from the test server, as the replay reads them from chDB. */
async function serverRows(statement: string): Promise<unknown[]> {
  const url = process.env.TEST_CLICKHOUSE_URL as string;
  const res = await fetch(url, { method: 'POST', body: `${statement} FORMAT JSONEachRow` });
  const text = await res.text();
  if (res.status !== 200) throw new Error(text);
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as unknown);
}

/** Decimal text compared as the export prints it (current engines drop trailing zeros). */
function normalized(rows: unknown[]): unknown[] {
  return rows.map((row) => {
    const r = row as Record<string, string>;
    return 'credits' in r ? { ...r, credits: formatCredits(r.credits) } : r;
  });
}

describe('ClickHouse statements on a current engine (chDB)', () => {
  it('runs every statement the store sent, and the export queries answer the same on both engines', async () => {
    const stop = t.app.get(ClickHouseService).onStatement((s) => {
      sent.push(s);
    });
    const ingest = t.app.get(UsageIngestService);
    const events = usageEventMix([acme.orgId], 400, { seed: 5, prefix: 'chdb' });
    expect((await ingest.ingest(events)).rejected).toEqual([]);
    // Duplicates of stored events, and a repeat within one write.
    await ingest.ingest([...events.slice(0, 30), events[0]]);
    await t.app.get(MetadataKeyService).enable(acme.orgId, 'team');
    const tagged = Array.from({ length: 40 }, (_, i) =>
      usageEvent(
        {
          orgId: acme.orgId,
          async: true,
          credits: '0.123456',
          metadata: { team: `t${i % 3}`, doc: `d${i}` },
        },
        { daysBack: i % 5 },
      ),
    );
    await ingest.ingest(tagged);
    // An org sending more new keys than METADATA_KEYS_MAX_PER_ORG (100): the write drops the
    // keys past it from the stored entries; a correction of such an event does too.
    const flood = await seedAccount(t.app, 'Flood');
    const flooding = Array.from({ length: 110 }, (_, i) =>
      usageEvent({ orgId: flood.orgId, async: true, metadata: { team: 'a', [`k${i}`]: 'v' } }),
    );
    expect((await ingest.ingest(flooding)).rejected).toEqual([]);
    const corrected = flooding[107];
    await ingest.ingest([{ ...corrected, data: { ...corrected.data, credits: '2', version: 2 } }]);
    expect(
      await serverRows(
        `SELECT uniqExact(meta_key) AS keys, sum(credits) AS credits FROM ${database}.usage_daily_metadata
         WHERE org_id = '${flood.orgId}' AND meta_key = 'team'`,
      ),
    ).toEqual([{ keys: '1', credits: 111 }]);
    expect(
      await serverRows(
        `SELECT uniqExact(meta_key) AS keys FROM ${database}.usage_daily_metadata
         WHERE org_id = '${flood.orgId}'`,
      ),
    ).toEqual([{ keys: '100' }]);
    const today = daysAgo(0);
    const monthAgo = daysAgo(30);
    const period = { startDate: monthAgo, endDate: today };
    // Alerts and export marks (shared in this mode): a rule read against the current day at
    // its creation, crossed by a write, its crossing listed, the rule deleted; an export
    // marked, a later write checked against the marks, the revised days listed. Before the
    // exports below, whose rows are compared with the server's at the end: the event written
    // here is in both.
    const orgApi = async (
      org: SeededAccount,
      method: string,
      route: string,
      body?: unknown,
    ): Promise<Record<string, unknown> | null> => {
      const res = await fetch(`${t.baseUrl}/api/v1/orgs/${org.orgId}/${route}`, {
        method,
        headers: {
          authorization: `Bearer ${org.accountKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect({ route, ok: res.ok }).toEqual({ route, ok: true });
      return res.status === 204 ? null : ((await res.json()) as Record<string, unknown>);
    };
    // An org without usage: the rule's reading at creation (the service's own today) finds
    // nothing to cross whatever the day, and the write's crossing is of the event's day.
    const alerted = await seedAccount(t.app, 'Alerted');
    const rule = await orgApi(alerted, 'POST', 'alerts', {
      measure: 'credits',
      period: 'day',
      threshold: '0.1',
      webhookUrl: 'http://127.0.0.1:9/alerts',
    });
    expect(((await orgApi(alerted, 'GET', 'fired-alerts')) as { data: unknown[] }).data).toEqual(
      [],
    );
    await ingest.ingest([usageEvent({ orgId: alerted.orgId, credits: '0.5' })]);
    expect(((await orgApi(alerted, 'GET', 'fired-alerts')) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ periodStart: today }),
    ]);
    await orgApi(alerted, 'DELETE', `alerts/${(rule as { alertId: string }).alertId}`);
    const longAgo = daysAgo(45);
    await exportBody({ startDate: longAgo, endDate: longAgo, groupBy: 'product' });
    const clickhouse = t.app.get(ClickHouseService);
    await waitFor('the export marks', async () => {
      const [marked] = await clickhouse.rows<{ n: string }>(
        `SELECT count() AS n FROM ${database}.usage_export_marks`,
      );
      return Number(marked.n) > 0;
    });
    await ingest.ingest([usageEvent({ orgId: acme.orgId, credits: '1' }, { daysBack: 3 })]);
    await orgApi(acme, 'GET', `revised-days?startDate=${monthAgo}&endDate=${today}`);
    for (const groupBy of ['product', 'feature', 'api_key', 'file_type']) {
      await exportBody({ ...period, groupBy });
      await exportBody({ ...period, groupBy, product: ['classify', 'parse'] });
      await exportBody({ ...period, groupBy, metadataKey: 'team' });
    }
    await exportBody({ ...period, groupBy: 'metadata', metadataKey: 'team' });
    await exportBody({
      ...period,
      groupBy: 'metadata',
      metadataKey: 'team',
      metadataValue: ['t1', "t'2"],
    });
    await exportBody({ ...period, groupBy: 'metadata', metadataKey: 'team', fileType: 'pdf' });
    // Two dimensions, and local days (quarter-hour rollups) with and without DST changes.
    await exportBody({ ...period, groupBy: ['product', 'api_key'] });
    await exportBody({ ...period, groupBy: ['metadata', 'product'], metadataKey: 'team' });
    await exportBody({ ...period, groupBy: ['feature', 'metadata'], metadataKey: 'team' });
    for (const timeZone of ['America/New_York', 'Asia/Kolkata']) {
      await exportBody({ ...period, timeZone, groupBy: 'product' });
      await exportBody({ ...period, timeZone, groupBy: 'metadata', metadataKey: 'team' });
      await exportBody({
        ...period,
        timeZone,
        groupBy: ['api_key', 'metadata'],
        metadataKey: 'team',
      });
    }
    await exportBody({ startDate: '2026-01-01', endDate: '2026-12-31', timeZone: 'Europe/Berlin' });
    stop();

    const statements: SentStatement[] = [];
    const directory = path.join(findSqlDirectory(), 'clickhouse');
    for (const file of fs
      .readdirSync(directory)
      .filter((f) => f.endsWith('.sql'))
      .sort()) {
      for (const statement of migrationStatements(
        fs.readFileSync(path.join(directory, file), 'utf8'),
        database,
      ))
        statements.push({ statement });
    }
    statements.push(...sent);
    // What the workload must have reached: writes, the dedupe, a rejection, the exports.
    const texts = statements.map((s) => s.statement);
    expect(texts.some((s) => s.startsWith('INSERT INTO usage_staging'))).toBe(true);
    expect(texts.some((s) => s.includes('metadata_key_rejections (org_id'))).toBe(true);
    const exportStatements = texts.filter((s) => s.startsWith('SELECT toString(day) AS date'));
    expect(exportStatements.length).toBeGreaterThanOrEqual(15);

    const python = (
      await run('bash', [path.join(ROOT, 'scripts', 'chdb-venv.sh')], { timeout: 600_000 })
    ).stdout.trim();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-chdb-'));
    try {
      const input = path.join(dir, 'statements.json');
      fs.writeFileSync(input, JSON.stringify(statements));
      const { stdout } = await run(
        python,
        [path.join(ROOT, 'test', 'support', 'chdb-replay.py'), input],
        {
          maxBuffer: 64 * 1024 * 1024,
          timeout: 300_000,
        },
      );
      const results = JSON.parse(stdout) as { ok: boolean; error?: string; rows?: unknown[] }[];
      expect(results).toHaveLength(statements.length);
      const failures = results
        .map((r, i) => ({ ...r, statement: texts[i].slice(0, 300) }))
        .filter((r) => !r.ok);
      expect(failures).toEqual([]);
      for (const [i, statement] of texts.entries()) {
        if (!statement.startsWith('SELECT toString(day) AS date')) continue;
        if (statement.includes('usage_export_marks')) continue;
        expect({ statement, rows: normalized(results[i].rows ?? []) }).toEqual({
          statement,
          rows: normalized(await serverRows(statement)),
        });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);
});
