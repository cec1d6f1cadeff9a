import { Injectable } from '@nestjs/common';

/**
 * How far each org's usage has moved in this process: a counter per org that ingestion
 * advances after every committed write with new events of that org, plus an epoch that
 * moves for all orgs at once (a read replica swapping in a newer snapshot). An export
 * answer computed at a watermark stays exact until the org's watermark moves, which is what
 * the export's result cache keys on.
 */
@Injectable()
export class UsageWatermarks {
  private epoch = 0;
  private readonly perOrg = new Map<string, number>();

  /** The org's current watermark; equal values mean no committed change in between. */
  of(orgId: string): string {
    return `${this.epoch}.${this.perOrg.get(orgId) ?? 0}`;
  }

  /** Called after the commit of a write that gave these orgs new events. */
  advance(orgIds: Iterable<string>): void {
    for (const orgId of orgIds) this.perOrg.set(orgId, (this.perOrg.get(orgId) ?? 0) + 1);
  }

  /** Every org changed (e.g. a newer snapshot was opened); per-org counters start again. */
  advanceAll(): void {
    this.epoch++;
    this.perOrg.clear();
  }
}
