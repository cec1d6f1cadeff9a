import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  USAGE_EXPORT_MARKS_STORE,
  type RevisedDay,
  type UsageExportMarksStore,
} from './usage-export-marks.repository.js';

const DAY_MS = 86_400_000;
/** (org, first..last) ranges already marked in this process: a repeated export writes nothing. */
const REMEMBERED_RANGES = 10_000;
/** A shared store's marked orgs are read again after this long (another process's exports). */
const SHARED_ORGS_FRESH_MS = 1_000;
/** Attempts at recording a write's changed days before they wait for the next write. */
const CHANGE_ATTEMPTS = 3;
/** The pause before the second attempt; each further one waits twice as long. */
const CHANGE_RETRY_MS = 250;

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Which days' figures changed after they were first exported. An export marks its UTC
 * days up to yesterday (today is still running: its figures change by nature); a write
 * that adds or corrects events of a marked past day records the change. The dashboard
 * lists those days as revised (docs/decisions/0275-revised-days-after-export.md).
 */
@Injectable()
export class UsageExportMarks {
  private readonly logger = new Logger(UsageExportMarks.name);
  private readonly marked = new Set<string>();
  private orgsWithMarks: Promise<Set<string>> | null = null;
  private orgsReadAt = 0;
  /** Changed days whose recording failed: recorded with the next write's (a store outage). */
  private unrecorded: { orgId: string; day: string }[] = [];
  private yesterdayText = '';
  /** The end of the UTC day `yesterdayText` was formatted in. */
  private todayUntil = 0;

  constructor(
    @Inject(USAGE_EXPORT_MARKS_STORE) private readonly repository: UsageExportMarksStore,
  ) {}

  /** After an export answered: its past days are marked exported (off the answer's path). */
  recordExport(orgId: string, startDate: string, endDate: string): void {
    const yesterday = this.yesterday();
    const last = endDate < yesterday ? endDate : yesterday;
    if (startDate > last) return;
    const key = `${orgId}\u0000${startDate}\u0000${last}`;
    if (this.marked.has(key)) return;
    void this.repository
      .markExported(orgId, startDate, last)
      .then(async () => {
        if (this.marked.size >= REMEMBERED_RANGES) this.marked.clear();
        this.marked.add(key);
        (await this.orgs()).add(orgId);
      })
      .catch((error: unknown) => {
        this.logger.warn({ err: error, orgId }, 'could not record the days of an export');
      });
  }

  /**
   * After a write committed: the past days it changed of orgs that exported any. A failed
   * attempt is retried; the write's events are stored by then, and a redelivery of them is
   * a duplicate that changes nothing, so a change not recorded now would never be. What
   * still fails is kept and recorded with the next write's changes (and the error thrown).
   */
  async recordChanges(changed: readonly { orgId: string; day: string }[]): Promise<void> {
    const all = [...this.unrecorded, ...changed];
    this.unrecorded = [];
    if (all.length === 0) return;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.recordChangesOnce(all);
        return;
      } catch (error) {
        if (attempt >= CHANGE_ATTEMPTS) {
          this.unrecorded = all.slice(-REMEMBERED_RANGES);
          throw error;
        }
        this.logger.warn({ err: error }, 'recording changed usage days failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, CHANGE_RETRY_MS * 2 ** (attempt - 1)));
      }
    }
  }

  private async recordChangesOnce(changed: readonly { orgId: string; day: string }[]) {
    const orgs = await this.orgs();
    const today = utcDay(Date.now());
    const byOrg = new Map<string, Set<string>>();
    for (const { orgId, day } of changed) {
      if (!orgs.has(orgId) || day >= today) continue;
      byOrg.set(orgId, (byOrg.get(orgId) ?? new Set()).add(day));
    }
    for (const [orgId, days] of byOrg) await this.repository.markChanged(orgId, [...days]);
  }

  /**
   * Yesterday's UTC date, formatted once a day: every export answer, a cached one included,
   * asks for it.
   */
  private yesterday(): string {
    const now = Date.now();
    // Formatted again when the clock left today's UTC day either way (a clock set back too).
    if (now >= this.todayUntil || now < this.todayUntil - DAY_MS) {
      this.yesterdayText = utcDay(now - DAY_MS);
      this.todayUntil = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
    }
    return this.yesterdayText;
  }

  revisedDays(orgId: string, startDate: string, endDate: string): Promise<RevisedDay[]> {
    return this.repository.revisedDays(orgId, startDate, endDate);
  }

  private orgs(): Promise<Set<string>> {
    // Marks another process made (a shared store) are seen within SHARED_ORGS_FRESH_MS.
    if (this.repository.shared && Date.now() - this.orgsReadAt > SHARED_ORGS_FRESH_MS) {
      this.orgsWithMarks = null;
      this.orgsReadAt = Date.now();
    }
    this.orgsWithMarks ??= this.repository.markedOrgs().then((orgs) => new Set(orgs));
    this.orgsWithMarks.catch(() => (this.orgsWithMarks = null));
    return this.orgsWithMarks;
  }
}
