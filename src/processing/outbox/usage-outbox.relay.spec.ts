import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
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

const event = (id: string) => ({ id }) as UsageCloudEvent;

describe(UsageOutboxRelay.name, () => {
  let relay: UsageOutboxRelay | null = null;
  // The relay's timers run on jest's clock: a linger of 80 ms is exactly 80 ms.
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(async () => {
    await relay?.onModuleDestroy();
    relay = null;
    jest.useRealTimers();
  });
  const advance = (ms: number) => jest.advanceTimersByTimeAsync(ms);

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
    await advance(20); // the start-up pass found nothing
    const kickedAt = Date.now();
    for (let i = 0; i < 3; i++) {
      state.pending.push(event(`e${i}`));
      relay!.kick();
      await advance(20);
    }
    expect(state.publishedAt).toEqual([]);
    await advance(100);
    // One send, at the end of the first kick's linger: later kicks did not postpone it.
    expect(state.publishedAt).toEqual([kickedAt + 80]);
  });

  it('retries a failing sink with a doubling backoff that kicks do not cut short', async () => {
    const attemptsAt: number[] = [];
    const pending = [event('a')];
    const outbox = {
      unsent: () => Promise.resolve([...pending]),
      markSent: () => Promise.resolve(pending.splice(0)),
      markFailed: () => Promise.resolve(),
    } as unknown as UsageOutboxRepository;
    const sink: UsageEventSink = {
      publish: () => {
        attemptsAt.push(Date.now());
        return attemptsAt.length <= 2
          ? Promise.reject(new Error('broker unreachable'))
          : Promise.resolve();
      },
    };
    const config = loadConfig({ OUTBOX_RELAY_INTERVAL_MS: '1000', OUTBOX_RELAY_LINGER_MS: '10' });
    relay = new UsageOutboxRelay(outbox, config, sink);
    const startedAt = Date.now();
    relay.onApplicationBootstrap();
    await advance(0);
    expect(attemptsAt).toEqual([startedAt]);
    relay.kick(); // a completion during the outage waits for the backoff like the rest
    await advance(1999);
    expect(attemptsAt).toHaveLength(1);
    await advance(1);
    await advance(4000);
    expect(attemptsAt).toEqual([startedAt, startedAt + 2000, startedAt + 6000]);
    expect(pending).toEqual([]);
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
