import type { Env } from '../setting.js';

/* Units and helpers several setting groups use. */

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** Bound of link lifetimes and retention: an expiry past it is a typo, and dates far beyond overflow. */
export const TEN_YEARS_SECONDS = 10 * 365 * 24 * 3600;

/** The numeric value of a variable another default depends on (its own setting validates it). */
export function numberOr(env: Env, name: string, fallback: number): number {
  const value = Number(env[name]);
  return env[name]?.trim() && Number.isFinite(value) ? value : fallback;
}
