import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { normalizeToColumns, type NormalizedBatch } from './usage-event-columns.js';
import { NormalizerThread } from './usage-normalizer.thread.js';
import { backfillPolicy } from './usage-event.normalizer.js';

const WORKER_ENTRY = new URL('./usage-normalizer.worker.js', import.meta.url);
/** Smaller batches are normalized inline: handing them over costs more than it saves. */
const MIN_THREADED_BATCH = 256;

/**
 * Where usage payloads are parsed and normalized. Kafka batches of raw bytes go to a
 * worker thread, so the thread that runs kafkajs and the DuckDB writer spends ~5 µs per
 * event instead of ~20 (docs/benchmarks.md, "Kafka ingestion: normalizer thread"); small
 * batches, parsed objects, runs from TypeScript sources (jest, where the compiled entry
 * does not exist) and a process with `USAGE_NORMALIZER_THREAD=false` are normalized inline
 * by the same function.
 */
@Injectable()
export class UsageNormalizer implements OnApplicationShutdown {
  private thread: NormalizerThread | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const entry = threadEntry(config.usage.normalizerThread);
    this.thread = entry ? new NormalizerThread(entry) : null;
  }

  /** `acceptLate`: past the late-event window (an operator's backfill), within the maximum age. */
  normalize(payloads: readonly unknown[], now: Date, acceptLate = false): Promise<NormalizedBatch> {
    const live = this.config.usage.normalizer;
    const policy = acceptLate ? backfillPolicy(live) : live;
    if (this.thread && payloads.length >= MIN_THREADED_BATCH && payloads.every(isRawValue)) {
      return this.thread.normalize(payloads, now, policy);
    }
    return Promise.resolve(normalizeToColumns(payloads, now, policy));
  }

  /** A source of large raw batches is starting (the Kafka consumer): the thread starts now. */
  warmUp(): void {
    this.thread?.warmUp();
  }

  /**
   * Closed after `beforeApplicationShutdown`, in which the Kafka consumer finishes the
   * batches in hand (at module destroy it would fail them); later calls run inline.
   */
  async onApplicationShutdown(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    await thread?.close();
  }
}

/**
 * The thread's compiled entry when batches are normalized on a thread of their own: the
 * setting on, and the entry built (it is not under jest, which runs the TypeScript sources).
 */
export function threadEntry(enabled: boolean, entry = fileURLToPath(WORKER_ENTRY)): string | null {
  return enabled && fs.existsSync(entry) ? entry : null;
}

function isRawValue(payload: unknown): payload is Buffer | null {
  return payload === null || Buffer.isBuffer(payload);
}
