import type { Counter, Gauge } from 'prom-client';
import type { MetricsService } from '../../../common/metrics/metrics.service.js';
import type { ConsumerProgress } from './consumer-progress.js';

export interface UsageConsumerMetrics {
  deadLettered: Counter<'reason'>;
  batches: Counter<'outcome'>;
  crashes: Counter;
  rebalances: Counter;
  lag: Gauge<'topic' | 'partition'>;
  ready: Gauge;
  paused: Gauge<'reason'>;
}

/** The usage consumer's metrics, registered where it consumes (Kafka mode) only. */
export function usageConsumerMetrics(
  metrics: MetricsService,
  progress: () => ConsumerProgress | null,
): UsageConsumerMetrics {
  metrics.gauge({
    name: 'docproc_usage_consumer_seconds_since_last_batch',
    help: 'Seconds since the usage consumer last wrote a batch (since start when none yet)',
    collect() {
      const p = progress();
      if (p) this.set(p.secondsSinceLastBatch());
    },
  });
  return {
    deadLettered: metrics.counter({
      name: 'docproc_usage_dead_lettered_total',
      help: 'Usage messages sent to the dead-letter topic (acknowledged), by reason',
      labelNames: ['reason'],
    }),
    batches: metrics.counter({
      name: 'docproc_usage_consumer_batches_total',
      help: 'Batches handled by the usage consumer, by outcome (ok, error, superseded: fetched before a rebalance or fenced off, left to be fetched again)',
      labelNames: ['outcome'],
    }),
    crashes: metrics.counter({
      name: 'docproc_usage_consumer_crashes_total',
      help: 'kafkajs consumer crashes (restarted or not)',
    }),
    rebalances: metrics.counter({
      name: 'docproc_usage_consumer_group_joins_total',
      help: 'Times the usage consumer joined its group (start and every rebalance)',
    }),
    lag: metrics.gauge({
      name: 'docproc_usage_consumer_lag',
      help: 'Messages between the broker high watermark and the group position, per partition',
      labelNames: ['topic', 'partition'],
    }),
    ready: metrics.gauge({
      name: 'docproc_usage_consumer_ready',
      help: '1 when the usage consumer is making progress (same rule as /ready), else 0',
    }),
    paused: metrics.gauge({
      name: 'docproc_usage_consumer_paused',
      help: '1 while the usage consumer stops fetching for the reason (storage: free disk space below DATA_DIR_MIN_FREE_MB), else 0',
      labelNames: ['reason'],
    }),
  };
}
