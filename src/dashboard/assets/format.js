// Number and date formatting shared by the views; fixed locale so figures read the same
// everywhere, and credit sums kept in integer micro-credits so totals are exact.

const CREDITS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const EXACT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Credits as integer micro-credits (the store keeps six decimals). */
export function toMicros(credits) {
  return Math.round(Number(credits) * 1e6);
}

export function formatCredits(micros) {
  return CREDITS.format(micros / 1e6);
}

/** All six decimals the store keeps, with digit grouping (tables). */
export function formatCreditsExact(micros) {
  return EXACT.format(micros / 1e6);
}

export function formatCount(count) {
  return COUNT.format(count);
}

export function formatPercent(part, whole) {
  if (!whole) return '0%';
  return `${((part / whole) * 100).toFixed(1)}%`;
}

/** `2026-11-23T06:00:00.000Z` → `2026-11-23 06:00 UTC`. */
export function formatTimestamp(iso) {
  if (!iso) return '';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
