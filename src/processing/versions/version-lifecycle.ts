import type { ModelVersion, VersionStage } from '../../documents/versions/model-version.types.js';

const DAY_MS = 86_400_000;
/** Weeks 1-2 of the rollout are alpha; the version becomes default on day 14 (week 3). */
const ALPHA_DAYS = 14;
/** The replaced default stays pinnable for weeks 3-4 of its successor's rollout. */
const DEPRECATED_DAYS = 14;

/** Days from the rollout start (UTC midnight) to `now`; day 0 is the first day of week 1. */
function rolloutDay(rolloutStart: string, now: Date): number {
  const start = Date.parse(`${rolloutStart}T00:00:00Z`);
  if (Number.isNaN(start)) throw new Error(`Invalid rollout start date "${rolloutStart}"`);
  return Math.floor((now.getTime() - start) / DAY_MS);
}

function byRollout(a: ModelVersion, b: ModelVersion): number {
  return a.rolloutStart.localeCompare(b.rolloutStart) || a.version.localeCompare(b.version);
}

/** The version released next after `version` in its family, if any. */
function successorOf(
  version: ModelVersion,
  familyVersions: readonly ModelVersion[],
): ModelVersion | undefined {
  return familyVersions
    .filter((v) => v.family === version.family && byRollout(v, version) > 0)
    .sort(byRollout)[0];
}

/**
 * Stage of `version` on `now`, from the spec's rollout table:
 * weeks 1-2 alpha (opt-in only); from week 3 default for all requests; once the next
 * version reaches its week 3 this one is deprecated and stays pinnable through the
 * successor's week 4; from the successor's week 5 it is removed.
 */
export function stageOf(
  version: ModelVersion,
  familyVersions: readonly ModelVersion[],
  now: Date,
): VersionStage {
  const day = rolloutDay(version.rolloutStart, now);
  if (day < 0) return 'scheduled';
  if (day < ALPHA_DAYS) return 'alpha';
  const successor = successorOf(version, familyVersions);
  if (successor === undefined) return 'default';
  const successorDay = rolloutDay(successor.rolloutStart, now);
  if (successorDay < ALPHA_DAYS) return 'default';
  if (successorDay < ALPHA_DAYS + DEPRECATED_DAYS) return 'deprecated';
  return 'removed';
}

/** Dates (yyyy-mm-dd) at which a version changes stage; null when not known yet. */
export interface VersionSchedule {
  alphaFrom: string;
  defaultFrom: string;
  deprecatedFrom: string | null;
  removedFrom: string | null;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function scheduleOf(
  version: ModelVersion,
  familyVersions: readonly ModelVersion[],
): VersionSchedule {
  const successor = successorOf(version, familyVersions);
  return {
    alphaFrom: version.rolloutStart,
    defaultFrom: addDays(version.rolloutStart, ALPHA_DAYS),
    deprecatedFrom: successor ? addDays(successor.rolloutStart, ALPHA_DAYS) : null,
    removedFrom: successor ? addDays(successor.rolloutStart, ALPHA_DAYS + DEPRECATED_DAYS) : null,
  };
}
