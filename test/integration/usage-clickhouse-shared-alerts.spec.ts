import { randomBytes, randomUUID } from 'node:crypto';
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
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { startFileServer, type FileServer } from '../support/file-server.js';

/*
 * Usage alerts and export marks with two ingest processes on one ClickHouse store: a rule
 * made through one process is evaluated by both; a crossing both processes see (the org's
 * events spread over every partition) is recorded and delivered once, signed with the secret
 * both processes derive from one configured key; a hosted webhook endpoint registered
 * through one process receives the jobs the other finishes, signed with its one secret, and
 * its deletion holds for both; an export answered by one process and a late event written
 * by the other list the day as revised through both.
 */

let topic: string;
let group: string;
let database: string;
let acme: SeededAccount;
let processes: ChildApp[];
let receiver: WebhookReceiver;
let started: ClickHouseIngestProcesses | undefined;
let files: FileServer;

function api(child: ChildApp, key: string, method: string, path: string, body?: unknown) {
  return fetch(`${child.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function json<T>(res: Response): Promise<T> {
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as T;
}

/** The org's events over all three partitions: whichever process owns one writes some. */
async function publishOverEveryPartition(events: UsageCloudEvent[]): Promise<void> {
  await produce(
    topic,
    events.map((e, i) => ({ key: e.data.orgId, value: JSON.stringify(e), partition: i % 3 })),
  );
  await waitFor(
    `group ${group} to commit the end of ${topic}`,
    () => groupCaughtUp(topic, group),
    120_000,
  );
}

beforeAll(async () => {
  started = await startClickHouseIngestProcesses('usage-ch-shared-state', ['Acme'], {
    FETCH_ALLOW_HOSTS: '127.0.0.1',
    // The key both processes derive each org's webhook signing secret from.
    WEBHOOK_SIGNING_KEY: randomBytes(32).toString('base64url'),
  });
  ({ topic, group, database, processes } = started);
  [acme] = started.orgs;
  receiver = await startWebhookReceiver();
  files = await startFileServer();
  // Each process derives the org's signing secret from the key: the same one, so the
  // receiver knows only the first process's and verifies what either of them sends.
  const secrets: string[] = [];
  for (const child of processes) {
    const { secret } = await json<{ secret: string }>(
      await api(child, acme.processingKey, 'GET', '/webhooks/secret'),
    );
    secrets.push(secret);
  }
  expect(secrets[1]).toBe(secrets[0]);
  receiver.secrets.push(secrets[0]);
}, INGEST_PROCESSES_START_MS);

afterAll(async () => {
  await started?.close();
  await receiver?.close();
  await files?.close();
});

describe('usage alerts and export marks shared by two ingest processes (ClickHouse)', () => {
  it('a rule made through one process fires once for a crossing both processes see', async () => {
    const [first, second] = processes;
    const created = await json<{ alertId: string }>(
      await api(first, acme.accountKey, 'POST', `/api/v1/orgs/${acme.orgId}/alerts`, {
        measure: 'credits',
        period: 'day',
        threshold: '100',
        webhookUrl: `${receiver.baseUrl}/alerts`,
      }),
    );
    const rulesOf = async (child: ChildApp) =>
      (
        await json<{ data: { alertId: string }[] }>(
          await api(child, acme.accountKey, 'GET', `/api/v1/orgs/${acme.orgId}/alerts`),
        )
      ).data.map((r) => r.alertId);
    await waitFor('the second process to see the rule', async () =>
      (await rulesOf(second)).includes(created.alertId),
    );

    // 250 x 0.5 = 125 credits two days ago, written by both processes, batch after batch.
    const events = Array.from({ length: 250 }, () =>
      usageEvent(
        { orgId: acme.orgId, credits: '0.5' },
        { id: `shared-${randomUUID()}`, daysBack: 2 },
      ),
    );
    for (let i = 0; i < events.length; i += 50) {
      await publishOverEveryPartition(events.slice(i, i + 50));
    }

    // Crossings are recorded before offsets are committed: once caught up, the list is final.
    const firedThrough = async (child: ChildApp) =>
      (
        await json<{ data: { alertId: string; periodStart: string }[] }>(
          await api(child, acme.accountKey, 'GET', `/api/v1/orgs/${acme.orgId}/fired-alerts`),
        )
      ).data.map((f) => `${f.alertId} ${f.periodStart}`);
    const expected = [`${created.alertId} ${daysAgo(2)}`];
    expect(await firedThrough(first)).toEqual(expected);
    expect(await firedThrough(second)).toEqual(expected);
    const deliveries = async () => {
      let all = 0;
      for (const child of processes) {
        const { deliveries: list } = await json<{ deliveries: { status: string }[] }>(
          await api(child, acme.processingKey, 'GET', '/webhooks/deliveries'),
        );
        if (list.some((d) => d.status !== 'delivered')) return -1;
        all += list.length;
      }
      return all;
    };
    await waitFor('the crossing delivered', async () => (await deliveries()) >= 1);
    expect(await deliveries()).toBe(1);
    expect(
      receiver.received.map((r) => (r.body as unknown as { alert_id: string }).alert_id),
    ).toEqual([created.alertId]);
    const claims = await clickhouseQuery(`SELECT count() FROM ${database}.usage_alert_firings`);
    console.log(`shared alerts: ${claims} claim(s) of the one crossing`);

    // Deleted through the other process: the first one stops listing it within a second.
    expect(
      (
        await api(
          second,
          acme.accountKey,
          'DELETE',
          `/api/v1/orgs/${acme.orgId}/alerts/${created.alertId}`,
        )
      ).status,
    ).toBe(204);
    await waitFor('the first process to forget the rule', async () =>
      (await rulesOf(first)).every((id) => id !== created.alertId),
    );
  }, 300_000);

  it('a hosted endpoint registered through one process receives the jobs the other finishes', async () => {
    const [first, second] = processes;
    const endpoint = await json<{ endpoint_id: string; secret: string }>(
      await api(first, acme.processingKey, 'POST', '/webhooks/endpoints', {
        url: `${receiver.baseUrl}/hosted`,
        channels: [],
      }),
    );
    // The receiver answers 401 to a delivery signed with any other secret (retried, never
    // counted): only the endpoint's own secret, read by the second process, gets through.
    receiver.secrets.push(endpoint.secret);
    const listedThrough = async (child: ChildApp) =>
      (
        await json<{ endpoints: { endpoint_id: string }[] }>(
          await api(child, acme.processingKey, 'GET', '/webhooks/endpoints'),
        )
      ).endpoints.map((e) => e.endpoint_id);
    expect(await listedThrough(second)).toEqual([endpoint.endpoint_id]);

    const job = await json<{ job_id: string }>(
      await api(second, acme.processingKey, 'POST', '/classify_async', {
        input: files.put('/hosted.txt', 'invoice number 7'),
        async: { webhook: { mode: 'hosted' } },
      }),
    );
    const delivered = () =>
      receiver.received.some((r) => r.path === '/hosted' && r.body.job_id === job.job_id);
    await waitFor(
      "the second process's job delivered to the endpoint made through the first",
      delivered,
      240_000,
    ).catch(async (error: unknown) => {
      // What the second process made of the job: its state, its deliveries, its log.
      const state = await api(second, acme.processingKey, 'GET', `/job/${job.job_id}`);
      const deliveries = await api(
        second,
        acme.processingKey,
        'GET',
        `/webhooks/deliveries?job_id=${job.job_id}`,
      );
      console.log(
        `job ${await state.text()}\ndeliveries ${await deliveries.text()}\n${second.log}\n${second.stderr}`,
      );
      throw error;
    });

    // Deleted through the second process: the first lists it no more.
    expect(
      (
        await api(
          second,
          acme.processingKey,
          'DELETE',
          `/webhooks/endpoints/${endpoint.endpoint_id}`,
        )
      ).status,
    ).toBe(200);
    expect(await listedThrough(first)).toEqual([]);
    expect(
      (
        await api(
          first,
          acme.processingKey,
          'DELETE',
          `/webhooks/endpoints/${endpoint.endpoint_id}`,
        )
      ).status,
    ).toBe(404);
  }, 300_000);

  it('an export answered by one process and a late event written by the other list the day as revised', async () => {
    const [first, second] = processes;
    const revisedThrough = async (child: ChildApp) =>
      (
        await json<{ data: { date: string }[] }>(
          await api(
            child,
            acme.accountKey,
            'GET',
            `/api/v1/orgs/${acme.orgId}/revised-days?startDate=${daysAgo(20)}&endDate=${daysAgo(0)}`,
          ),
        )
      ).data.map((d) => d.date);
    // A wrong answer shows the process's log: why the change went unrecorded.
    const revisedThroughLogged = async (child: ChildApp) => {
      const days = await revisedThrough(child);
      if (days.length !== 1) console.log(`${child.baseUrl}: ${child.log}\n${child.stderr}`);
      return days;
    };
    const exported = await api(
      first,
      acme.accountKey,
      'GET',
      `/api/v1/usage/export?startDate=${daysAgo(6)}&endDate=${daysAgo(3)}`,
    );
    expect(exported.status).toBe(200);
    await exported.text();
    // Marks are written after the answer: the 4 days 6 to 3 days ago.
    await waitFor(
      'the export marks',
      async () =>
        (await clickhouseQuery(`SELECT count() FROM ${database}.usage_export_marks`)) === '4',
    );
    // The first process stops: the second owns every partition and writes the late event.
    expect(await first.stop('SIGKILL')).toBe('SIGKILL');
    await publishOverEveryPartition([
      usageEvent({ orgId: acme.orgId, credits: '2' }, { id: `late-${randomUUID()}`, daysBack: 4 }),
    ]);
    expect(await revisedThroughLogged(second)).toEqual([daysAgo(4)]);
    await first.start();
    expect(await revisedThroughLogged(first)).toEqual([daysAgo(4)]);
  }, 300_000);
});
