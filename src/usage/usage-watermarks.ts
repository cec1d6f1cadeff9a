import { Injectable } from '@nestjs/common';

/** The (org, UTC day) pairs a write changed, as the stores report them. */
export interface ChangedDay {
  orgId: string;
  day: string;
}

/** How many changed days an org keeps; older changes count as changing everything. */
const DAYS_KEPT_PER_ORG = 32;

interface OrgChanges {
  counter: number;
  /** The counter at which each UTC day last changed, the oldest change first. */
  days: Map<string, number>;
  /** Changes up to this counter are not known day by day (an answer older must be redone). */
  unknownThrough: number;
}

/**
 * How far each org's usage has moved in this process: a counter per org that ingestion
 * advances after every committed write with new events of that org, plus an epoch that
 * moves for all orgs at once (a read replica swapping in a newer snapshot). An export
 * answer computed at a watermark stays exact until the org's watermark moves, which is what
 * the export's result cache keys on. Each step also records the UTC days it changed, so an
 * answer of an older watermark can be brought up to date by re-reading only those days.
 */
@Injectable()
export class UsageWatermarks {
  private epoch = 0;
  private readonly perOrg = new Map<string, OrgChanges>();

  /** The org's current watermark; equal values mean no committed change in between. */
  of(orgId: string): string {
    return `${this.epoch}.${this.perOrg.get(orgId)?.counter ?? 0}`;
  }

  /**
   * Called after the commit of a write that gave these orgs new events, with the UTC days
   * of those events; an org without days listed counts as changed on every day.
   */
  advance(orgIds: Iterable<string>, changedDays: readonly ChangedDay[] = []): void {
    const daysOf = new Map<string, string[]>();
    for (const { orgId, day } of changedDays) {
      const days = daysOf.get(orgId) ?? [];
      days.push(day);
      daysOf.set(orgId, days);
    }
    for (const orgId of orgIds) {
      let org = this.perOrg.get(orgId);
      if (org === undefined) {
        org = { counter: 0, days: new Map(), unknownThrough: 0 };
        this.perOrg.set(orgId, org);
      }
      org.counter++;
      const days = daysOf.get(orgId) ?? [];
      if (days.length === 0) org.unknownThrough = org.counter;
      for (const day of days) {
        org.days.delete(day);
        org.days.set(day, org.counter);
      }
      for (const [day, at] of org.days) {
        if (org.days.size <= DAYS_KEPT_PER_ORG) break;
        org.days.delete(day);
        org.unknownThrough = Math.max(org.unknownThrough, at);
      }
    }
  }

  /** Every org changed (e.g. a newer snapshot was opened); per-org counters start again. */
  advanceAll(): void {
    this.epoch++;
    this.perOrg.clear();
  }

  /**
   * The UTC days of the org changed since `watermark` (a value `of` returned), sorted; null
   * when they are not known day by day (another epoch, or changes no longer listed).
   */
  changedSince(orgId: string, watermark: string): string[] | null {
    const [epoch, counter] = watermark.split('.').map(Number);
    if (epoch !== this.epoch) return null;
    const org = this.perOrg.get(orgId);
    if (org === undefined) return counter === 0 ? [] : null;
    if (counter < org.unknownThrough || counter > org.counter) return null;
    return [...org.days]
      .filter(([, at]) => at > counter)
      .map(([day]) => day)
      .sort();
  }
}
