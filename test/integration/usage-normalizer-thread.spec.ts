import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { normalizeToColumns } from '../../src/usage/ingestion/usage-event-columns.js';
import { NormalizerThread } from '../../src/usage/ingestion/usage-normalizer.thread.js';
import { DEFAULT_NORMALIZER_POLICY, usageEvent } from '../support/usage-events.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY = path.join(ROOT, 'src/usage/ingestion/usage-normalizer.worker.ts');
const TS_LOADER = ['--import', path.join(ROOT, 'test/support/ts-register.mjs')];
const NOW = new Date();

/** Raw Kafka values: valid events, a tombstone, broken JSON and a refused event. */
function messages(prefix: string, count: number): (Buffer | null)[] {
  const values: (Buffer | null)[] = [];
  for (let i = 0; i < count; i++) {
    const event = usageEvent({ orgId: `org_${i % 3}` }, { id: `${prefix}_${i}` });
    values.push(Buffer.from(JSON.stringify(event)));
  }
  values.push(null, Buffer.from('{"specversion":'), Buffer.from(JSON.stringify({ a: 1 })));
  return values;
}

let thread: NormalizerThread | null = null;

afterEach(async () => {
  await thread?.close();
  thread = null;
});

describe('NormalizerThread (a real worker thread)', () => {
  it('returns what normalizing inline returns, rows and refusals alike', async () => {
    thread = new NormalizerThread(ENTRY, TS_LOADER);
    const values = messages('same', 500);
    const threaded = await thread.normalize(values, NOW, DEFAULT_NORMALIZER_POLICY);
    expect(threaded).toEqual(normalizeToColumns(values, NOW, DEFAULT_NORMALIZER_POLICY));
    expect(threaded.columns.length).toBe(500);
    expect(threaded.rejected.map((r) => r.index)).toEqual([500, 501, 502]);
  });

  it('answers concurrent requests each with its own batch', async () => {
    thread = new NormalizerThread(ENTRY, TS_LOADER);
    const batches = await Promise.all(
      ['x', 'y', 'z'].map((p) =>
        thread!.normalize(messages(p, 300), NOW, DEFAULT_NORMALIZER_POLICY),
      ),
    );
    expect(batches.map((b) => b.columns.eventId[0])).toEqual(['x_0', 'y_0', 'z_0']);
  });

  it('fails the requests of a thread that ends, and starts a new one for the next', async () => {
    thread = new NormalizerThread(ENTRY, TS_LOADER);
    const pending = thread.normalize(messages('gone', 2_000), NOW, DEFAULT_NORMALIZER_POLICY);
    await thread.close();
    await expect(pending).rejects.toThrow(/closed/);
    const next = await thread.normalize(messages('next', 10), NOW, DEFAULT_NORMALIZER_POLICY);
    expect(next.columns.length).toBe(10);
  });

  it('fails with a plain Error when the thread throws, which kafkajs retries instead of giving up', async () => {
    thread = new NormalizerThread(path.join(ROOT, 'test/support/failing-thread.mjs'));
    const failure = await thread
      .normalize(messages('defect', 1), NOW, DEFAULT_NORMALIZER_POLICY)
      .catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe('Error');
    expect((failure as Error).message).toMatch(/thread failed: notDefinedAnywhere is not defined/);
  });

  it('fails, without hanging, when the thread cannot start', async () => {
    thread = new NormalizerThread(path.join(ROOT, 'no-such-entry.js'));
    await expect(
      thread.normalize(messages('lost', 1), NOW, DEFAULT_NORMALIZER_POLICY),
    ).rejects.toThrow();
  });
});
