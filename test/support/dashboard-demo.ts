import type { INestApplicationContext } from '@nestjs/common';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { ApiKeyService } from '../../src/accounts/keys/api-key.service.js';
import { UsageIngestService } from '../../src/usage/ingestion/usage-ingest.service.js';
import { MetadataKeyService } from '../../src/usage/metadata/metadata-key.service.js';
import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { seeded } from './usage-event-mix.js';
import { usageEvent } from './usage-events.js';

const DAY_MS = 86_400_000;
const CATALOG = [
  ['parse', 'parse', 1],
  ['parse', 'parse_ocr', 1.5],
  ['extract', 'extract', 2],
  ['extract', 'deep_extract', 4],
  ['classify', 'classify', 0.5],
  ['classify', 'deep_classify', 1.5],
  ['split', 'split', 1],
] as const;
const FILE_TYPES = ['pdf', 'pdf', 'pdf', 'docx', 'png', 'jpg', 'txt'];
const TEAMS = ['risk', 'finance', 'ops', 'legal'];

export interface DashboardDemo {
  orgId: string;
  otherOrgId: string;
  userId: string;
  /** Account key secret of the owner (default org: orgId). */
  accountKey: string;
  accountKeyId: string;
  /** Named processing keys whose ids the usage events carry. */
  processingKeys: { keyId: string; name: string }[];
  events: number;
}

/**
 * The demo data of the dashboard checks: an org whose owner also belongs to a second org,
 * three named processing keys, and `events` usage events over `days` days (sync ones, async
 * ones with low-cardinality `team`/`env` and identifier-like `documentId` metadata), with
 * `team` enabled for grouping.
 */
export async function seedDashboardDemo(
  app: INestApplicationContext,
  options: { events?: number; days?: number; seed?: number } = {},
): Promise<DashboardDemo> {
  const accounts = app.get(AccountsService);
  const keys = app.get(ApiKeyService);
  const org = await accounts.createOrg('Acme Corp');
  const other = await accounts.createOrg('Globex');
  const user = await accounts.createUser('owner@acme.example');
  await accounts.addMember(org.orgId, user.userId, 'owner');
  await accounts.addMember(other.orgId, user.userId, 'member');
  const accountKey = await keys.createAccountKey(user.userId, {
    defaultOrgId: org.orgId,
    name: 'laptop',
  });
  const processingKeys = [];
  for (const name of ['ci-prod', 'ci-staging', 'batch-import']) {
    const created = await keys.createProcessingKey(org.orgId, { name });
    processingKeys.push({ keyId: created.keyId, name });
  }
  const count = options.events ?? 20_000;
  const days = options.days ?? 60;
  const random = seeded(options.seed ?? 17);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const now = Date.now();
  const events: UsageCloudEvent[] = [];
  for (let i = 0; i < count; i++) {
    const [product, feature, perPage] = pick(CATALOG);
    const pages = 1 + Math.floor(random() * 10);
    const isAsync = random() < 0.6;
    const metadata =
      isAsync && random() < 0.85
        ? { team: pick(TEAMS), env: pick(['prod', 'staging']), documentId: `doc_${i}` }
        : null;
    events.push(
      usageEvent(
        {
          orgId: org.orgId,
          apiKeyId: pick(processingKeys).keyId,
          product,
          feature,
          fileType: pick(FILE_TYPES),
          pages,
          credits: (perPage * pages).toFixed(6),
          async: isAsync,
          metadata,
        },
        {
          id: `evt_demo_${i}`,
          time: new Date(now - 120_000 - Math.floor(random() * days * DAY_MS)).toISOString(),
        },
      ),
    );
  }
  const ingest = app.get(UsageIngestService);
  for (let at = 0; at < events.length; at += 2_000) {
    const outcome = await ingest.ingest(events.slice(at, at + 2_000));
    if (outcome.rejected.length)
      throw new Error(`demo events rejected: ${JSON.stringify(outcome.rejected[0])}`);
  }
  await app.get(MetadataKeyService).enable(org.orgId, 'team');
  return {
    orgId: org.orgId,
    otherOrgId: other.orgId,
    userId: user.userId,
    accountKey: accountKey.secret,
    accountKeyId: accountKey.keyId,
    processingKeys,
    events: count,
  };
}
