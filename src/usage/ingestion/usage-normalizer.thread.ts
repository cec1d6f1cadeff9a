import { Worker } from 'node:worker_threads';
import type { NormalizerPolicy } from '../../config/usage.types.js';
import type { NormalizedBatch } from './usage-event-columns.js';

export interface NormalizeRequest {
  id: number;
  /** Every non-null payload's bytes, back to back. */
  bytes: Uint8Array;
  /** Byte length of each payload; -1 for a null value (a tombstone). */
  lengths: Int32Array;
  now: number;
  policy: NormalizerPolicy;
}

export type NormalizeReply = { id: number; batch: NormalizedBatch } | { id: number; error: string };

/**
 * The thread's young generation: 4 MB semi-spaces, where V8 would grow them to 16 MB as in
 * the main thread (which `scripts/server.sh` starts with 4 MB ones). Nearly everything the
 * thread allocates dies within its batch, so the smaller space collects it as well and
 * keeps up to ~36 MB less resident (docs/benchmarks.md, "Kafka ingestion within 512 MB by
 * default").
 */
const YOUNG_GENERATION_MB = 12;

interface Pending {
  resolve(batch: NormalizedBatch): void;
  reject(error: Error): void;
}

/**
 * One worker thread that normalizes raw usage messages into columns
 * (`usage-normalizer.worker.ts`). The payloads cross as one transferred byte buffer and the
 * columns come back mostly as transferred typed arrays, so the calling thread neither
 * parses JSON nor holds an object per waiting event. Requests are answered in order. If the
 * thread dies, its pending requests fail (the consumer retries the batch) and the next
 * request starts a new thread. It keeps the process alive only while it has work.
 */
export class NormalizerThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly entry: string,
    private readonly execArgv?: string[],
  ) {}

  normalize(
    payloads: readonly (Buffer | null)[],
    now: Date,
    policy: NormalizerPolicy,
  ): Promise<NormalizedBatch> {
    const { bytes, lengths } = pack(payloads);
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<NormalizedBatch>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      const request: NormalizeRequest = { id, bytes, lengths, now: now.getTime(), policy };
      worker.postMessage(request, [bytes.buffer as ArrayBuffer, lengths.buffer as ArrayBuffer]);
    });
  }

  /**
   * Starts the thread ahead of the first batch, so its start (an isolate, its modules)
   * overlaps the caller's own start-up instead of delaying the first batch. Idle, it does
   * not keep the process alive.
   */
  warmUp(): void {
    this.started();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
    this.failPending(new Error('usage normalizer thread closed'));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry, {
      execArgv: this.execArgv,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    worker.unref();
    worker.on('message', (reply: NormalizeReply) => this.settle(reply));
    // A plain Error whatever the thread threw: kafkajs gives up on a consumer for good after
    // a TypeError or ReferenceError, while a failed batch should be retried on a new thread.
    worker.on('error', (error) =>
      this.died(worker, new Error(`usage normalizer thread failed: ${error.message}`)),
    );
    worker.on('exit', (code) =>
      this.died(worker, new Error(`usage normalizer thread exited with code ${code}`)),
    );
    this.worker = worker;
    return worker;
  }

  private settle(reply: NormalizeReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('error' in reply) pending.reject(new Error(`usage normalizer thread: ${reply.error}`));
    else pending.resolve(reply.batch);
  }

  private died(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failPending(error);
  }

  private failPending(error: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(error);
  }
}

/** The payloads' bytes in one buffer of their own (transferable) and their lengths. */
function pack(payloads: readonly (Buffer | null)[]): { bytes: Uint8Array; lengths: Int32Array } {
  const lengths = new Int32Array(payloads.length);
  let total = 0;
  for (let i = 0; i < payloads.length; i++) {
    const payload = payloads[i];
    lengths[i] = payload === null ? -1 : payload.length;
    if (payload !== null) total += payload.length;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const payload of payloads) {
    if (payload === null) continue;
    bytes.set(payload, offset);
    offset += payload.length;
  }
  return { bytes, lengths };
}
