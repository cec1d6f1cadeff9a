import { Injectable } from '@nestjs/common';
import {
  collectDefaultMetrics,
  Counter,
  CounterConfiguration,
  Gauge,
  GaugeConfiguration,
  Histogram,
  HistogramConfiguration,
  Registry,
} from 'prom-client';

/**
 * The one Prometheus registry of this process, served at `/metrics`. Every module registers
 * its metrics here (never on prom-client's global registry, so two apps in one test process
 * do not collide). Metric names start with `docproc_`.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return (
      this.existing<Counter<L>>(config.name) ??
      new Counter({ ...config, registers: [this.registry] })
    );
  }

  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
    return (
      this.existing<Gauge<L>>(config.name) ?? new Gauge({ ...config, registers: [this.registry] })
    );
  }

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return (
      this.existing<Histogram<L>>(config.name) ??
      new Histogram({ ...config, registers: [this.registry] })
    );
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Two providers asking for the same metric share it instead of failing on re-registration. */
  private existing<T>(name: string): T | undefined {
    return this.registry.getSingleMetric(name) as T | undefined;
  }
}
