import { Injectable } from '@nestjs/common';

export interface ReadinessReport {
  ready: boolean;
  /** Why it is not ready, or what it is doing; rendered as is in `/ready`. */
  detail: Record<string, unknown>;
}

/** A component whose health decides whether this instance should receive traffic. */
export interface ReadinessCheck {
  readonly name: string;
  readiness(): ReadinessReport;
}

/**
 * Collects readiness checks from the components that have them (the Kafka usage consumer
 * first; queues and drain later), so `/ready` is one place for an orchestrator to probe.
 */
@Injectable()
export class ReadinessService {
  private readonly checks = new Map<string, ReadinessCheck>();

  register(check: ReadinessCheck): void {
    this.checks.set(check.name, check);
  }

  unregister(name: string): void {
    this.checks.delete(name);
  }

  evaluate(): { ready: boolean; checks: Record<string, ReadinessReport> } {
    const checks: Record<string, ReadinessReport> = {};
    let ready = true;
    for (const [name, check] of this.checks) {
      const report = check.readiness();
      checks[name] = report;
      ready &&= report.ready;
    }
    return { ready, checks };
  }
}
