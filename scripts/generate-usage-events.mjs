#!/usr/bin/env node
// Writes realistic usage CloudEvents as NDJSON for demos and tests:
//   node scripts/generate-usage-events.mjs --orgs org_a,org_b --events 5000 --days 60 [--seed 7] [--out f.ndjson]
// Several products and features, API keys per org, file types, sync requests (no
// metadata) and async ones with low-cardinality keys (team, env, batch, priority), an
// identifier-like key (documentId), and non-groupable values (nested object, array).
import fs from 'node:fs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split('--')
    .filter(Boolean)
    .map((pair) => pair.trim().split(/\s+/, 2)),
);
if (!args.orgs) {
  process.stderr.write(
    'usage: generate-usage-events.mjs --orgs ORG[,ORG...] [--events N] [--days D] [--seed S] [--out FILE]\n',
  );
  process.exit(2);
}
const orgs = args.orgs.split(',');
const total = Number(args.events ?? 5000);
const days = Number(args.days ?? 60);
let seed = Number(args.seed ?? 42) >>> 0;

// Mulberry32: small, seedable, good enough for fixtures.
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (items) => items[Math.floor(random() * items.length)];

const CATALOG = [
  { product: 'parse', feature: 'parse', perPage: '1' },
  { product: 'parse', feature: 'parse_ocr', perPage: '1.5' },
  { product: 'extract', feature: 'extract', perPage: '2' },
  { product: 'extract', feature: 'deep_extract', perPage: '4' },
  { product: 'classify', feature: 'classify', perPage: '0.5' },
  { product: 'classify', feature: 'deep_classify', perPage: '1.5' },
  { product: 'split', feature: 'split', perPage: '1' },
  { product: 'split', feature: 'deep_split', perPage: '2.25' },
];
const FILE_TYPES = ['pdf', 'pdf', 'pdf', 'docx', 'png', 'jpg', 'txt', 'html'];
const TEAMS = ['risk', 'finance', 'ops', 'legal', 'claims'];

function credits(perPage, pages) {
  const micros = BigInt(Math.round(Number(perPage) * 1e6)) * BigInt(pages);
  return `${micros / 1000000n}.${String(micros % 1000000n).padStart(6, '0')}`;
}

const out = args.out ? fs.createWriteStream(args.out) : process.stdout;
const now = Date.now();
for (let i = 0; i < total; i++) {
  const orgId = orgs[Math.floor(Math.pow(random(), 1.5) * orgs.length)];
  const item = pick(CATALOG);
  const pages = 1 + Math.floor(random() * 12);
  const isAsync = random() < 0.6;
  const metadata =
    isAsync && random() < 0.85 ? { team: pick(TEAMS), env: pick(['prod', 'staging']) } : undefined;
  if (metadata) {
    if (random() < 0.5) metadata.batch = 1 + Math.floor(random() * 20);
    if (random() < 0.3) metadata.priority = random() < 0.5;
    metadata.documentId = `doc_${i}_${Math.floor(random() * 1e9).toString(36)}`;
    if (random() < 0.1) metadata.customer = { id: `c_${Math.floor(random() * 100)}` };
    if (random() < 0.1) metadata.tags = ['a', 'b'];
  }
  const time = new Date(now - Math.floor(random() * days * 86_400_000));
  const event = {
    specversion: '1.0',
    id: `evt_${seedTag()}_${i}`,
    source: 'docproc/processing',
    type: 'docproc.usage.v1',
    time: time.toISOString(),
    datacontenttype: 'application/json',
    data: {
      orgId,
      apiKeyId: `${orgId}_key_${1 + Math.floor(random() * 3)}`,
      product: item.product,
      feature: item.feature,
      fileType: pick(FILE_TYPES),
      pages,
      credits: credits(item.perPage, pages),
      jobId: isAsync ? `job_${i}` : null,
      async: isAsync,
      ...(metadata ? { metadata } : {}),
    },
  };
  out.write(`${JSON.stringify(event)}\n`);
}
if (out !== process.stdout) out.end();

function seedTag() {
  return String(args.seed ?? 42);
}
