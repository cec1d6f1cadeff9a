import { USAGE_EVENT_SINK, UsageCloudEvent, UsageEventSink } from '../../src/usage/usage-event.js';
import { startTestApp, type TestApp } from './test-app.js';

/** A usage sink that records what it receives and can be switched into an outage. */
export class RecordingSink implements UsageEventSink {
  readonly events: UsageCloudEvent[] = [];
  failing = false;
  calls = 0;
  async publish(events: UsageCloudEvent[]): Promise<void> {
    this.calls++;
    if (this.failing) throw new Error('broker unavailable');
    this.events.push(...events);
  }
}

/**
 * The real app (startTestApp) with the usage sink, UsageModule's USAGE_EVENT_SINK, replaced
 * by `sink`, so specs observe what the outbox relays.
 */
export function startAppWithSink(
  sink: UsageEventSink,
  env: Record<string, string> = {},
): Promise<TestApp> {
  return startTestApp(env, { providers: [{ provide: USAGE_EVENT_SINK, useValue: sink }] });
}
