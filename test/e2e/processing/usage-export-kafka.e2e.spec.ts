import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { MetadataKeyService } from '../../../src/usage/metadata/metadata-key.service.js';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { consumeAll, createTestTopic } from '../../support/kafka.js';
import { client, waitForJob } from '../../support/processing-client.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { groupCaughtUp, kafkaAppEnv, waitFor } from '../../support/usage-kafka.js';

type Totals = Record<string, [credits: number, requests: number]>;

function sameTotals(a: Totals, b: Totals): boolean {
  const canonical = (x: Totals) => JSON.stringify(Object.entries(x).sort());
  return canonical(a) === canonical(b);
}

/**
 * Kafka mode end to end : classify, parse, extract and split
 * requests, sync and async -> job completion -> usage outbox -> Kafka producer -> the real
 * broker -> the usage consumer -> DuckDB -> GET /api/v1/usage/export with an account key.
 * Sync usage and async jobs without the key land under `unknown`; failed jobs are not billed.
 */
describe('usage export of processing requests (Kafka mode, real broker)', () => {
  let t: TestApp;
  let files: FileServer;
  let org: SeededAccount;
  let topic: string;
  let group: string;

  beforeAll(async () => {
    files = await startFileServer();
    topic = await createTestTopic('proc-usage', 3);
    const env = kafkaAppEnv(topic, {
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      OUTBOX_RELAY_INTERVAL_MS: '50',
    });
    group = env.KAFKA_CONSUMER_GROUP;
    t = await startTestApp(env);
    org = await seedAccount(t.app, 'Kafka Usage Co');
    await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await files?.close();
  });

  async function exportTotals(params: string): Promise<Totals> {
    const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${params}`, {
      headers: { authorization: `Bearer ${org.accountKey}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { group: string; credits: number; requestCount: number }[];
    };
    const totals: Totals = {};
    for (const row of body.data) {
      const [credits, count] = totals[row.group] ?? [0, 0];
      totals[row.group] = [credits + row.credits, count + row.requestCount];
    }
    return totals;
  }

  it('exports exactly the expected credits and counts per metadata group, product and feature', async () => {
    const api = client(t.baseUrl, org.processingKey);
    const twoPages = files.put('/two.txt', 'Invoice number 7, amount due 10\fsecond page');
    const onePage = files.put('/one.txt', 'Invoice number 8, amount due 12');
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' } } };
    const sections = [{ name: 'invoice', description: 'An invoice with an invoice number' }];

    const asyncJobs: string[] = [];
    const billed: string[] = [];
    const submit = async (path: string, body: Record<string, unknown>, billable = true) => {
      const res = await api.post(path, body);
      expect(res.status).toBe(200);
      asyncJobs.push(res.body.job_id);
      if (billable) billed.push(res.body.job_id);
    };
    const sync = async (path: string, body: Record<string, unknown>) => {
      const res = await api.post(path, body);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      billed.push(res.body.job_id);
    };

    // Credits per page: classify 0.5, deep classify 1.5, parse 1, extract 2, deep extract 4,
    // split 1 (sql/031_price_table.sql, sql/061_operation_prices.sql).
    await submit('/classify_async', { input: twoPages, async: { metadata: { team: 'risk' } } }); // risk 1.0
    await submit('/classify_async', {
      input: onePage,
      model: 'accurate',
      async: { metadata: { team: 'risk' } },
    }); // risk 1.5
    await submit('/classify_async', { input: onePage, async: { metadata: { team: 'ops', n: 7 } } }); // ops 0.5
    await submit('/classify_async', { input: onePage, async: { metadata: { other: 'x' } } }); // unknown 0.5
    await submit(
      '/classify_async',
      { input: `${files.baseUrl}/missing.txt`, async: { metadata: { team: 'risk' } } },
      false,
    ); // Failed: not billed
    await submit('/parse_async', { input: twoPages, async: { metadata: { team: 'ops' } } }); // ops 2
    await submit('/extract_async', {
      input: onePage,
      instructions: { schema },
      settings: { deep_extract: true },
      async: { metadata: { team: 'risk' } },
    }); // risk 4
    await submit('/split_async', {
      input: twoPages,
      split_description: sections,
      async: { metadata: { team: 'ops' } },
    }); // ops 2
    await sync('/classify', { input: twoPages }); // unknown 1.0
    await sync('/classify', { input: onePage, model: 'accurate' }); // unknown 1.5
    await sync('/extract', { input: onePage, instructions: { schema } }); // unknown 2
    await sync('/split', { input: twoPages, split_description: sections }); // unknown 2
    await sync('/parse', { input: onePage }); // unknown 1
    const finished = [];
    for (const id of asyncJobs) finished.push((await waitForJob(api, id)).status);
    expect(finished).toEqual([
      ...Array(4).fill('Completed'),
      'Failed',
      ...Array(3).fill('Completed'),
    ]);

    // Every billable request, and nothing else, left through the topic (a resend after a
    // failed publish may repeat one; the consumer dedupes it, which the counts below show).
    const messages = await consumeAll(topic, 30_000, { atLeast: billed.length });
    const events = messages.map(
      (m) => JSON.parse(m.value!.toString('utf8')) as { data: { jobId: string; orgId: string } },
    );
    expect([...new Set(events.map((e) => e.data.jobId))].sort()).toEqual([...billed].sort());
    expect(messages.every((m) => m.key === org.orgId)).toBe(true);
    await waitFor(`group ${group} to commit the end of ${topic}`, () =>
      groupCaughtUp(topic, group),
    );
    const unsent = await t.app
      .get(DuckDbService)
      .all(`SELECT job_id FROM usage_outbox WHERE sent_at IS NULL`);
    expect(unsent).toEqual([]);

    const byTeam: Totals = { risk: [6.5, 3], ops: [4.5, 3], unknown: [8, 6] };
    let actual: Totals = {};
    await waitFor(
      'the export to show every event',
      async () => {
        actual = await exportTotals('groupBy=metadata&metadataKey=team');
        return sameTotals(actual, byTeam);
      },
      60_000,
      100,
    ).catch(() => undefined);
    expect(actual).toEqual(byTeam);
    // Groups plus unknown equal the total of the period (spec rule 6).
    expect(await exportTotals('groupBy=product')).toEqual({
      classify: [6, 6],
      parse: [3, 2],
      extract: [6, 2],
      split: [4, 2],
    });
    expect(await exportTotals('groupBy=feature')).toEqual({
      classify: [3, 4],
      deep_classify: [3, 2],
      parse: [3, 2],
      extract: [2, 1],
      deep_extract: [4, 1],
      split: [4, 2],
    });
    // A key without groupBy=metadata restricts to jobs carrying it: no unknown bucket.
    expect(await exportTotals('groupBy=product&metadataKey=team')).toEqual({
      classify: [3, 3],
      parse: [2, 1],
      extract: [4, 1],
      split: [2, 1],
    });
  }, 120_000);
});
