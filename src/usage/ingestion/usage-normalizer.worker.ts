/**
 * Entry of the usage normalizer thread (`NormalizerThread`): parses, validates and
 * normalizes raw message values into columns, off the thread that runs the Kafka client
 * and the DuckDB writer.
 */
import { parentPort } from 'node:worker_threads';
import { normalizeToColumns, transferables } from './usage-event-columns.js';
import type { NormalizeReply, NormalizeRequest } from './usage-normalizer.thread.js';

parentPort?.on('message', ({ id, bytes, lengths, now, policy }: NormalizeRequest) => {
  try {
    const payloads: (Buffer | null)[] = new Array<Buffer | null>(lengths.length);
    let offset = 0;
    for (let i = 0; i < lengths.length; i++) {
      const length = lengths[i];
      if (length < 0) {
        payloads[i] = null;
        continue;
      }
      payloads[i] = Buffer.from(bytes.buffer, bytes.byteOffset + offset, length);
      offset += length;
    }
    const batch = normalizeToColumns(payloads, new Date(now), policy);
    const reply: NormalizeReply = { id, batch };
    parentPort!.postMessage(reply, transferables(batch));
  } catch (error) {
    const reply: NormalizeReply = { id, error: String((error as Error)?.stack ?? error) };
    parentPort!.postMessage(reply);
  }
});
