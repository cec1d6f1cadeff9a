// What class-validator would cost on the usage-event hot path, against the hand-written
// normalizer, on the same JSON texts (`npm run bench:validation-idiom`). Both parse the
// text; class-validator also transforms to class instances (plainToInstance), as the
// HTTP ValidationPipe does. It checks the envelope and data types only: the normalizer's
// further rules (RFC 3339 time, 6-digit credits, metadata truncation, skew) are not in it,
// so the ratio understates the difference.
import 'reflect-metadata';
import { Type, plainToInstance } from 'class-transformer';
import {
  Equals,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { loadConfig } from '../src/config/app-config.js';
import { normalizeUsageEvent } from '../src/usage/ingestion/usage-event.normalizer.js';
import { PRODUCTS, USAGE_EVENT_TYPE } from '../src/usage/usage-event.js';

class UsageEventDataInput {
  @IsString() @MaxLength(64) orgId!: string;
  @IsString() @MaxLength(64) apiKeyId!: string;
  @IsIn(PRODUCTS) product!: string;
  @IsString() @MaxLength(64) feature!: string;
  @IsString() @MaxLength(32) fileType!: string;
  @IsInt() @Min(0) pages!: number;
  @IsString() credits!: string;
  @IsOptional() @IsString() jobId?: string | null;
  @IsBoolean() async!: boolean;
  @IsOptional() @IsObject() metadata?: Record<string, unknown> | null;
}

class UsageCloudEventInput {
  @Equals('1.0') specversion!: string;
  @IsString() @MaxLength(256) id!: string;
  @IsString() @MaxLength(256) source!: string;
  @Equals(USAGE_EVENT_TYPE) type!: string;
  @IsString() @MaxLength(64) time!: string;
  @ValidateNested() @Type(() => UsageEventDataInput) data!: UsageEventDataInput;
}

const EVENTS = 200_000;
const now = Date.now();
const texts = Array.from({ length: EVENTS }, (_, i) =>
  JSON.stringify({
    specversion: '1.0',
    id: `e_${i}`,
    source: 'docproc/processing',
    type: USAGE_EVENT_TYPE,
    time: new Date(now - 60_000 - ((i * 7919) % (30 * 86_400_000))).toISOString(),
    data: {
      orgId: `org_${i % 50}`,
      apiKeyId: `pk_${i % 4}`,
      product: PRODUCTS[i % PRODUCTS.length],
      feature: 'parse',
      fileType: 'pdf',
      pages: 1 + (i % 9),
      credits: ((1 + (i % 9)) * 1.5).toFixed(6),
      jobId: i % 5 < 2 ? `job_${i}` : null,
      async: i % 5 < 2,
      metadata: i % 5 < 2 ? { team: 'risk', batch: i % 20 } : null,
    },
  }),
);

function cpuMicrosPerEvent(validate: (text: string) => boolean): number {
  for (let i = 0; i < 20_000; i++) validate(texts[i]); // warm-up
  const start = process.cpuUsage();
  let accepted = 0;
  for (const text of texts) if (validate(text)) accepted++;
  const used = process.cpuUsage(start);
  if (accepted !== EVENTS) throw new Error(`only ${accepted} of ${EVENTS} events accepted`);
  return (used.user + used.system) / EVENTS;
}

const POLICY = loadConfig({}).usage.normalizer;
const normalizer = cpuMicrosPerEvent((text) => normalizeUsageEvent(text, new Date(now), POLICY).ok);
const classValidator = cpuMicrosPerEvent(
  (text) =>
    validateSync(plainToInstance(UsageCloudEventInput, JSON.parse(text) as object), {
      forbidUnknownValues: true,
    }).length === 0,
);
console.log(`events: ${EVENTS} (load ${(await import('node:os')).loadavg()[0].toFixed(1)})`);
console.log(`hand-written normalizer (all rules): ${normalizer.toFixed(2)} CPU-us per event`);
console.log(`class-validator (types only):        ${classValidator.toFixed(2)} CPU-us per event`);
console.log(`ratio class-validator / normalizer:  ${(classValidator / normalizer).toFixed(1)}x`);
