// The benchmarks' synthetic usage CloudEvents (bench:ingest and bench:ingest-profile).

const CATALOG = [
  ['parse', 'parse', 1],
  ['parse', 'parse_ocr', 1.5],
  ['extract', 'extract', 2],
  ['classify', 'classify', 0.5],
  ['split', 'split', 1],
];
const TEAMS = ['risk', 'finance', 'ops', 'legal', 'claims'];

/** A realistic event as JSON text: 40 % async with metadata, times over `days` days. */
export function eventJson(i, orgIds, now, prefix = 'b', days = 30) {
  const [product, feature, perPage] = CATALOG[i % CATALOG.length];
  const pages = 1 + (i % 9);
  const isAsync = i % 5 < 2;
  return JSON.stringify({
    specversion: '1.0',
    id: `${prefix}_${i}`,
    source: 'docproc/processing',
    type: 'docproc.usage.v1',
    time: new Date(now - 60_000 - ((i * 7919) % (days * 86_400_000))).toISOString(),
    data: {
      orgId: orgIds[i % orgIds.length],
      apiKeyId: `pk_${i % 4}`,
      product,
      feature,
      fileType: ['pdf', 'docx', 'png'][i % 3],
      pages,
      credits: (perPage * pages).toFixed(6),
      jobId: isAsync ? `job_${i}` : null,
      async: isAsync,
      metadata: isAsync ? { team: TEAMS[i % TEAMS.length], batch: i % 20 } : null,
    },
  });
}
