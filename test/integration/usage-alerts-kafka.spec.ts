import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { ApiKeyService } from '../../src/accounts/keys/api-key.service.js';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seedAccount, type SeededAccount } from '../support/accounts.js';
import { createTestTopic, produce } from '../support/kafka.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { groupCaughtUp, kafkaAppEnv, waitFor, usageMessagesOf } from '../support/usage-kafka.js';
import { daysAgo, usageEvent } from '../support/usage-events.js';
import { USAGE_STORES, usageStoreEnv } from '../support/usage-stores.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/*
 * Usage alerts end to end: rules made over the dashboard API, events through the real
 * Kafka topic from several concurrent producers with replays of the same events, the
 * crossing delivered by a signed webhook to a real HTTP receiver: exactly one delivery per
 * crossing (rule and period), none below the threshold, exact at it.
 */

interface AlertPayload {
  type: string;
  firing_id: string;
  alert_id: string;
  period_start: string;
  period_end: string;
  threshold: string;
  total: string;
}

/**
 * Noon UTC `daysBack` days before the spec's day, taken once: the events of one of its days and
 * the periods expected of them name the same UTC day even when the run crosses midnight.
 */
function noonDaysAgo(daysBack: number): string {
  return `${daysAgo(daysBack)}T12:00:00.000Z`;
}

describe.each(USAGE_STORES)('usage alerts with the %s usage store (real Kafka)', (store) => {
  let t: TestApp;
  let topic: string;
  let group: string;
  let acme: SeededAccount;
  let receiver: WebhookReceiver;

  const api = (key: string, method: string, path: string, body?: unknown) =>
    fetch(`${t.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function createAlert(body: Record<string, unknown>): Promise<string> {
    const res = await api(acme.accountKey, 'POST', `/api/v1/orgs/${acme.orgId}/alerts`, {
      webhookUrl: `${receiver.baseUrl}/alerts`,
      ...body,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { alertId: string }).alertId;
  }

  /** Publishes `events` from `producers` concurrent producers, each sending its share. */
  async function publishConcurrently(events: UsageCloudEvent[], producers = 4): Promise<void> {
    const shares = Array.from({ length: producers }, (_, p) =>
      events.filter((_, i) => i % producers === p),
    );
    await Promise.all(shares.map((share) => produce(topic, usageMessagesOf(share))));
    await waitFor(`group ${group} to commit the end of ${topic}`, () =>
      groupCaughtUp(topic, group),
    );
  }

  const deliveriesOf = (alertId: string) =>
    receiver.received
      .map((r) => r.body as unknown as AlertPayload)
      .filter((b) => b.alert_id === alertId);

  async function firedAlerts(): Promise<{ alertId: string; periodStart: string }[]> {
    const res = await api(acme.accountKey, 'GET', `/api/v1/orgs/${acme.orgId}/fired-alerts`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { alertId: string; periodStart: string }[] }).data;
  }

  /**
   * Every recorded crossing delivered: the crossings are recorded before the consumer
   * commits its offsets, so once caught up the list is final; then each must arrive once.
   */
  async function allCrossingsDelivered(): Promise<void> {
    const fired = await firedAlerts();
    await waitFor(`${fired.length} alert deliveries`, async () => {
      const res = await api(acme.processingKey, 'GET', '/webhooks/deliveries');
      const { deliveries } = (await res.json()) as { deliveries: { status: string }[] };
      return (
        deliveries.length === fired.length &&
        deliveries.every((d) => d.status === 'delivered') &&
        receiver.received.length === fired.length
      );
    });
  }

  beforeAll(async () => {
    topic = await createTestTopic('usage-alerts', 3);
    const env = kafkaAppEnv(topic);
    group = env.KAFKA_CONSUMER_GROUP;
    t = await startTestApp({ ...env, ...usageStoreEnv(store), FETCH_ALLOW_HOSTS: '127.0.0.1' });
    acme = await seedAccount(t.app, 'Acme');
    await t.app.get(MetadataKeyService).enable(acme.orgId, 'team');
    receiver = await startWebhookReceiver();
    const secret = await api(acme.processingKey, 'GET', '/webhooks/secret');
    receiver.secrets.push(((await secret.json()) as { secret: string }).secret);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('fires once per crossing under concurrent producers and replays, exact at the threshold, re-armed by a new period', async () => {
    const daily = await createAlert({ measure: 'credits', period: 'day', threshold: '100' });
    const monthlyParse = await createAlert({
      measure: 'requests',
      period: 'month',
      threshold: 150,
      product: 'parse',
    });
    const teamRisk = await createAlert({
      measure: 'credits',
      period: 'day',
      threshold: '5.000001',
      metadataKey: 'team',
      metadataValue: 'risk',
    });
    const never = await createAlert({ measure: 'credits', period: 'day', threshold: '1000000' });

    const event = (daysBack: number, credits: string, data: Record<string, unknown> = {}) =>
      usageEvent(
        { orgId: acme.orgId, credits, ...data },
        { id: `alert-${randomUUID()}`, time: noonDaysAgo(daysBack) },
      );
    // Two days ago: 199 x 0.5 = 99.5 credits (parse requests 100; team risk 5 x 1).
    const below = [
      ...Array.from({ length: 100 }, () => event(2, '0.5', { product: 'parse' })),
      ...Array.from({ length: 94 }, () => event(2, '0.5')),
      ...Array.from({ length: 5 }, () =>
        event(2, '0.5', { async: true, metadata: { team: 'risk' } }),
      ),
    ];
    await publishConcurrently([...below, ...below.slice(0, 60)]);
    await allCrossingsDelivered();
    expect(receiver.received).toEqual([]);
    expect(await firedAlerts()).toEqual([]);

    // One more 0.5 reaches exactly 100: the day crosses; replays of everything change nothing.
    const exact = event(2, '0.5', { async: true, metadata: { team: 'risk' } });
    await publishConcurrently([exact, ...below.slice(100, 160), exact]);
    await allCrossingsDelivered();
    expect(deliveriesOf(daily)).toEqual([
      expect.objectContaining({
        type: 'usage.alert.crossed',
        period_start: noonDaysAgo(2).slice(0, 10),
        period_end: noonDaysAgo(2).slice(0, 10),
        threshold: '100',
        total: '100',
      }),
    ]);
    // team=risk: 6 x 0.5 = 3, below 5.000001.
    expect(deliveriesOf(teamRisk)).toEqual([]);

    // Yesterday, a new period: 250 events of 1 credit from 4 producers, replayed twice over.
    const yesterday = [
      ...Array.from({ length: 60 }, () => event(1, '1', { product: 'parse' })),
      ...Array.from({ length: 190 }, () =>
        event(1, '1', { async: true, metadata: { team: 'risk' } }),
      ),
    ];
    await publishConcurrently([...yesterday, ...yesterday, ...yesterday.slice(0, 100)], 5);
    await allCrossingsDelivered();

    expect(deliveriesOf(daily).map((d) => d.period_start)).toEqual([
      noonDaysAgo(2).slice(0, 10),
      noonDaysAgo(1).slice(0, 10),
    ]);
    expect(deliveriesOf(teamRisk).map((d) => d.period_start)).toEqual([
      noonDaysAgo(1).slice(0, 10),
    ]);
    expect(deliveriesOf(never)).toEqual([]);
    // parse requests: 100 two days ago + 60 yesterday; the month(s) holding them reach 150
    // only if both days fall in one month.
    const sameMonth = noonDaysAgo(2).slice(0, 7) === noonDaysAgo(1).slice(0, 7);
    expect(deliveriesOf(monthlyParse).map((d) => d.total)).toEqual(sameMonth ? ['160'] : []);

    // Each delivery is signed with the org's webhook secret, its webhook-id the crossing's.
    for (const delivery of receiver.received) {
      expect(delivery.verifiedWith).toBe(receiver.secrets[0]);
      const body = delivery.body as unknown as AlertPayload;
      expect(delivery.headers['webhook-id']).toBe(`msg_${body.firing_id}`);
    }
    const keys = receiver.received.map((r) => {
      const body = r.body as unknown as AlertPayload;
      return `${body.alert_id}|${body.period_start}`;
    });
    expect(new Set(keys).size).toBe(keys.length);
    expect((await firedAlerts()).length).toBe(keys.length);
  }, 180_000);

  it('lets only owners and admins manage alerts, and refuses bad rules with 4xx naming them', async () => {
    const accounts = t.app.get(AccountsService);
    const keys = t.app.get(ApiKeyService);
    const asRole = async (role: 'admin' | 'member') => {
      const user = await accounts.createUser(`${randomUUID()}@example.com`);
      await accounts.addMember(acme.orgId, user.userId, role);
      return (await keys.createAccountKey(user.userId, { defaultOrgId: acme.orgId })).secret;
    };
    const admin = await asRole('admin');
    const member = await asRole('member');
    const outsider = (await seedAccount(t.app, 'Other')).accountKey;
    const path = `/api/v1/orgs/${acme.orgId}/alerts`;
    const rule = {
      measure: 'credits',
      period: 'month',
      threshold: '10',
      webhookUrl: `${receiver.baseUrl}/x`,
    };

    const created = await api(admin, 'POST', path, rule);
    expect(created.status).toBe(201);
    const { alertId } = (await created.json()) as { alertId: string };
    for (const [key, code] of [
      [member, 'INSUFFICIENT_ROLE'],
      [outsider, 'NOT_A_MEMBER'],
    ] as const) {
      for (const [method, target, body] of [
        ['GET', path, undefined],
        ['POST', path, rule],
        ['DELETE', `${path}/${alertId}`, undefined],
        ['GET', `/api/v1/orgs/${acme.orgId}/fired-alerts`, undefined],
      ] as const) {
        const res = await api(key, method, target, body);
        expect({ method, target, status: res.status }).toEqual({ method, target, status: 403 });
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
      }
    }
    const listed = await api(admin, 'GET', path);
    expect(((await listed.json()) as { data: { alertId: string }[] }).data).toContainEqual(
      expect.objectContaining({ alertId, threshold: '10', product: null }),
    );

    // The description refuses the thresholds of no rule as the service does.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as any;
    const threshold = new Ajv2020({ strict: false }).compile(
      doc.components.schemas.CreateUsageAlert.properties.threshold,
    );
    expect(['0', '000.000', 0, -3, 1e12, '10', '0.5', 0.5].map((v) => threshold(v))).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    for (const [body, status, code] of [
      [{ ...rule, threshold: '0' }, 400, 'INVALID_THRESHOLD'],
      [{ ...rule, threshold: '000.000' }, 400, 'INVALID_THRESHOLD'],
      [{ ...rule, threshold: '-3' }, 400, 'INVALID_THRESHOLD'],
      [{ ...rule, threshold: '1.0000001' }, 400, 'INVALID_THRESHOLD'],
      [{ ...rule, measure: 'requests', threshold: '2.5' }, 400, 'INVALID_THRESHOLD'],
      [{ ...rule, metadataKey: 'team' }, 400, 'INVALID_ALERT_SCOPE'],
      [{ ...rule, metadataKey: 'nope', metadataValue: 'x' }, 400, 'METADATA_KEY_NOT_ENABLED'],
      [{ ...rule, webhookUrl: 'ftp://example.com/x' }, 400, 'INVALID_WEBHOOK_URL'],
      // An address webhook delivery refuses (not among FETCH_ALLOW_HOSTS) is refused with the rule.
      [{ ...rule, webhookUrl: 'http://10.0.0.1/alerts' }, 400, 'INVALID_WEBHOOK_URL'],
      [{ ...rule, period: 'week' }, 422, 'INVALID_BODY'],
      [{ ...rule, product: 'teleport' }, 422, 'INVALID_BODY'],
      [{ ...rule, extra: 1 }, 422, 'INVALID_BODY'],
    ] as const) {
      const res = await api(admin, 'POST', path, body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }

    expect((await api(admin, 'DELETE', `${path}/${alertId}`)).status).toBe(204);
    expect((await api(admin, 'DELETE', `${path}/${alertId}`)).status).toBe(404);
  });
});
