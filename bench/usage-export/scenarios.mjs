// The benchmark's questions (org x window x grouping), their URLs and SQL parameters, and
// the helpers that compare and summarize answers.
import { URLSearchParams } from 'node:url';
import { GROUP_BYS, WINDOWS } from './options.mjs';

const addDays = (day, n) => new Date(Date.parse(day) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Besides one dimension in UTC: local days (quarter-hour rollups) in a zone with DST and in
 * one with a :30 offset, and two dimensions at once.
 */
const EXTRA = [
  { dimensions: ['product'], timeZone: 'America/New_York' },
  { dimensions: ['metadata'], timeZone: 'Asia/Kolkata' },
  { dimensions: ['product', 'file_type'], timeZone: 'UTC' },
  { dimensions: ['metadata', 'product'], timeZone: 'UTC' },
];

/** The row label of a question: its dimensions, and its zone when not UTC. */
const labelOf = ({ dimensions, timeZone }) =>
  dimensions.join(',') + (timeZone === 'UTC' ? '' : ` in ${timeZone}`);

/** A question as the export repository takes it (no filters). */
export const exportQueryOf = (s) => ({
  orgId: s.orgId,
  startDate: s.startDate,
  endDate: s.endDate,
  groupBy: s.dimensions[0],
  secondGroupBy: s.dimensions[1] ?? null,
  timeZone: s.timeZone,
  metadataKey: s.metadataKey,
  metadataValues: [],
  products: [],
  features: [],
  apiKeys: [],
  fileTypes: [],
});

export function scenarios(dataset) {
  const bySize = Object.entries(dataset.orgSizes).sort((a, b) => b[1] - a[1]);
  const typical = bySize[Math.floor(bySize.length / 2)];
  const orgs = [
    { scenario: 'largest org', orgId: bySize[0][0], events: bySize[0][1] },
    { scenario: 'typical org', orgId: typical[0], events: typical[1] },
  ];
  const list = [];
  for (const org of orgs) {
    for (const window of WINDOWS) {
      const questions = [
        ...GROUP_BYS.map((groupBy) => ({ dimensions: [groupBy], timeZone: 'UTC' })),
        ...EXTRA,
      ];
      for (const question of questions) {
        list.push({
          ...org,
          ...question,
          groupBy: labelOf(question),
          window,
          startDate: addDays(dataset.endDay, -(window - 1)),
          endDate: dataset.endDay,
          metadataKey: question.dimensions.includes('metadata') ? 'team' : null,
        });
      }
    }
  }
  return list;
}

function searchOf(s, extra = {}) {
  const search = new URLSearchParams({
    ...extra,
    orgId: s.orgId,
    startDate: s.startDate,
    endDate: s.endDate,
    groupBy: s.dimensions.join(','),
  });
  if (s.timeZone !== 'UTC') search.set('timeZone', s.timeZone);
  if (s.metadataKey) search.set('metadataKey', s.metadataKey);
  return search;
}

/** docproc's export URL path for a scenario. */
export const exportPath = (s) => `/api/v1/usage/export?${searchOf(s)}`;

/** pg-http.mjs's URL path for a scenario on a PostgreSQL variant. */
export const pgHttpPath = (variant, s) => `/?${searchOf(s, { variant })}`;

/** The parameters of pgExportSql for a scenario: org, period, metadata key, time zone. */
export function pgParams(s) {
  const params = [s.orgId, s.startDate, s.endDate];
  if (s.metadataKey) params.push(s.metadataKey);
  if (s.timeZone !== 'UTC') params.push(s.timeZone);
  return params;
}

export function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { n: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1) };
}

/** Canonical rows for comparing docproc's answer with PostgreSQL's. */
const canonicalCredits = (text) => {
  const [whole, fraction = ''] = String(text).split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed ? `${whole}.${trimmed}` : whole;
};
export const canonical = (rows) =>
  rows
    .map(
      (r) =>
        `${r.date}|${r.group}|${r.subgroup ?? ''}|${canonicalCredits(r.credits)}|${Number(r.requestCount)}`,
    )
    .join('\n');
