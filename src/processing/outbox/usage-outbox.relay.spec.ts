import { afterEach, describe, expect, it } from '@jest/globals';
import { ReadinessService } from '../../common/health/readiness.service.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { loadConfig } from '../../config/app-config.js';
import type { UsageCloudEvent, UsageEventSink } from '../../usage/usage-event.js';
import type { UsageOutboxRepository } from './usage-outbox.repository.js';
import { UsageOutboxRelay } from './usage-outbox.relay.js';

/** An outbox holding `pending` events and a sink that records when it was called. */
function fakes() {
  const state = { pending: [] as UsageCloudEvent[], publishedAt: [] as number[] };
  const outbox = {
    unsent: () => Promise.resolve(state.pending.splice(0)),
    markSent: () => Promise.resolve(),
    markFailed: () => Promise.resolve(),
  } as unknown as UsageOutboxRepository;
  const sink: UsageEventSink = {
    publish: () => {
      state.publishedAt.push(Date.now());
      return Promise.resolve();
    },
  };
  return { state, outbox, sink };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const event = (id: string) => ({ id }) as UsageCloudEvent;

describe(UsageOutboxRelay.name, () => {
  let relay: UsageOutboxRelay | null = null;
  afterEach(async () => {
    await relay?.onModuleDestroy();
  });

  function start(lingerMs: number) {
    const { state, outbox, sink } = fakes();
    const config = loadConfig({
      OUTBOX_RELAY_INTERVAL_MS: '60000',
      OUTBOX_RELAY_LINGER_MS: String(lingerMs),
    });
    relay = new UsageOutboxRelay(outbox, config, sink);
    relay.onApplicationBootstrap();
    return state;
  }

  it('sends completions that arrive within the linger together', async () => {
    const state = start(80);
    await sleep(20); // the start-up pass found nothing
    const kickedAt = Date.now();
    for (let i = 0; i < 3; i++) {
      state.pending.push(event(`e${i}`));
      relay!.kick();
      await sleep(20);
    }
    await sleep(100);
    expect(state.publishedAt).toHaveLength(1);
    // Kicks during the linger did not postpone the send.
    expect(state.publishedAt[0] - kickedAt).toBeLessThan(80 + 40);
  });

  it('shows the sink down on /ready and then up again, with the backlog on /metrics', async () => {
    const readiness = new ReadinessService();
    const metrics = new MetricsService();
    let failing = true;
    const pending = [event('a')];
    const outbox = {
      unsent: () => Promise.resolve(pending),
      markSent: () => Promise.resolve(pending.splice(0)),
      markFailed: () => Promise.resolve(),
      backlogStats: () => Promise.resolve({ count: pending.length, oldestAgeSeconds: 12 }),
    } as unknown as UsageOutboxRepository;
    const sink: UsageEventSink = {
      publish: () =>
        failing ? Promise.reject(new Error('broker unreachable')) : Promise.resolve(),
    };
    relay = new UsageOutboxRelay(outbox, loadConfig({}), sink, metrics, readiness);
    await relay.relay();
    const down = readiness.evaluate();
    expect(down.ready).toBe(true);
    expect(down.checks.usage_sink.detail).toMatchObject({
      state: 'down',
      lastError: 'broker unreachable',
      consecutiveFailures: 1,
    });
    const rendered = (await metrics.render()).body;
    expect(rendered).toMatch(/docproc_usage_outbox_backlog 1/);
    expect(rendered).toMatch(/docproc_usage_outbox_oldest_age_seconds 12/);
    failing = false;
    await relay.relay();
    expect(readiness.evaluate().checks.usage_sink.detail).toMatchObject({ state: 'up' });
    relay = null;
  });
});
