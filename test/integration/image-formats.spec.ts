import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { OperationPool } from '../../src/documents/executors/operation.pool.js';
import type { OperationTask } from '../../src/documents/executors/operation.task.js';
import type { ParseOutcome } from '../../src/documents/parse/parse.runner.js';
import {
  DEFAULT_DOCUMENT_LIMITS,
  DocumentLimitError,
} from '../../src/documents/readers/document-limits.js';
import { ProcessingError, toProcessingError } from '../../src/processing/core/processing-error.js';
import {
  IMAGE_FORMATS,
  type ImageFormat,
  makeImage,
  makeMultiPageTiff,
  makeRawTiff,
} from '../support/images.js';
import { DEFAULT_LAYOUT, executorPool } from '../support/operation-executors.js';

// Every accepted image format is decoded in a real executor process (a native crash would
// show as EXECUTOR_CRASHED), and no file, however broken, gets anything but a result or a
// clear 4xx.

const layout = DEFAULT_LAYOUT;

let pool: OperationPool;

beforeAll(async () => {
  pool = executorPool({
    // Never replaced for its size after a task (a large decode may pass the default 400 MB):
    // a new executor pid then means one was lost to a crash.
    settings: { taskTimeLimitMs: 60_000, recycleRssMb: 100_000 },
  });
  // The executor's start (the encoder, language model and pdf.js it loads) and the OCR
  // engine's first start happen here, with their own deadline, not inside the first case's.
  await parse(await makeImage('Warm up', 'png'), 'warm-up.png');
}, 240_000);

afterAll(async () => {
  await pool?.close();
});

function parse(bytes: Buffer, name: string): Promise<ParseOutcome> {
  const task: OperationTask = {
    kind: 'parse',
    documents: [{ bytes, name }],
    request: {},
    versions: { layout },
  };
  return pool.run(task) as Promise<ParseOutcome>;
}

function textOf(outcome: ParseOutcome): string {
  return outcome.result.chunks.map((chunk) => chunk.content).join('\n');
}

describe('image formats, decoded by libvips in an executor', () => {
  it.each(IMAGE_FORMATS.map((format) => [format]))(
    'reads %s to OCR text',
    async (format: ImageFormat) => {
      const outcome = await parse(await makeImage('Invoice number 4711', format), `scan.${format}`);
      expect(outcome.document).toMatchObject({ fileType: 'image', totalPages: 1 });
      expect(textOf(outcome)).toMatch(/Invoice number 4711/);
    },
    60_000,
  );

  it('reads every page of a multi-page TIFF as a page of its own', async () => {
    const tiff = await makeMultiPageTiff(['First page of the fax', 'Second page with totals']);
    const outcome = await parse(tiff, 'fax.tiff');
    expect(outcome.document.totalPages).toBe(2);
    expect(outcome.usage.num_pages).toBe(2);
    const text = textOf(outcome);
    expect(text).toMatch(/First page of the fax/);
    expect(text).toMatch(/Second page with totals/);
  }, 60_000);
});

/** Where a mutation writes, and what. */
type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; value: number }
  | { kind: 'magic'; from: ImageFormat }
  | { kind: 'huge'; at: number; bigEndian: boolean };

function mutate(bytes: Buffer, mutation: Mutation, magics: Map<ImageFormat, Buffer>): Buffer {
  const copy = Buffer.from(bytes);
  switch (mutation.kind) {
    case 'truncate':
      return copy.subarray(0, Math.floor(mutation.at * copy.length));
    case 'flip':
      // Within the header, where formats keep dimensions, offsets and counts.
      copy[mutation.at % Math.min(copy.length, 256)] = mutation.value;
      return copy;
    case 'magic': {
      // Another format's first bytes over this one's: the detector and the body disagree.
      const magic = magics.get(mutation.from)!.subarray(0, 12);
      magic.copy(copy, 0);
      return copy;
    }
    case 'huge': {
      // A 32-bit field of the header set to ~2 billion: a declared dimension, a count or an
      // offset far past anything real.
      const at = mutation.at % Math.max(1, Math.min(copy.length, 128) - 4);
      if (mutation.bigEndian) copy.writeUInt32BE(0x7fff_fff0, at);
      else copy.writeUInt32LE(0x7fff_fff0, at);
      return copy;
    }
  }
}

describe('hostile image files', () => {
  let samples: Map<ImageFormat, Buffer>;

  beforeAll(async () => {
    samples = new Map();
    // Small images keep each OCR run short; the headers are what the fuzzing is about.
    for (const format of IMAGE_FORMATS) {
      samples.set(format, await makeImage('Total 12', format, 200));
    }
    samples.set('tiff', await makeMultiPageTiff(['Page one', 'Page two']));
  }, 60_000);

  it('answers a result or a clear 4xx for any damaged header or body, never a crash', async () => {
    const outcomes = new Map<string, number>();
    await parse(samples.get('png')!, 'warm.png');
    const executors = pool.pids;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...IMAGE_FORMATS),
        fc.oneof(
          fc.record({
            kind: fc.constant('truncate' as const),
            at: fc.double({ min: 0, max: 0.99, noNaN: true }),
          }),
          fc.record({
            kind: fc.constant('flip' as const),
            at: fc.nat(),
            value: fc.integer({ min: 0, max: 255 }),
          }),
          fc.record({
            kind: fc.constant('magic' as const),
            from: fc.constantFrom(...IMAGE_FORMATS),
          }),
          fc.record({ kind: fc.constant('huge' as const), at: fc.nat(), bigEndian: fc.boolean() }),
        ),
        async (format, mutation) => {
          const bytes = mutate(samples.get(format)!, mutation, samples);
          let code = 'OK';
          try {
            await parse(bytes, `scan.${format}`);
          } catch (error) {
            const mapped = toProcessingError(error);
            if (!(mapped instanceof ProcessingError)) throw error;
            code = mapped.code;
            expect(mapped.status).toBeGreaterThanOrEqual(400);
            expect(mapped.status).toBeLessThan(500);
            // A limit or the decoder's refusal, named; never an executor lost to the file.
            expect([
              'UNSUPPORTED_DOCUMENT',
              'CORRUPT_DOCUMENT',
              'DOCUMENT_LIMIT_EXCEEDED',
            ]).toContain(mapped.code);
          }
          outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
        },
      ),
      { numRuns: 300, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
    process.stdout.write(`image fuzz outcomes: ${JSON.stringify(Object.fromEntries(outcomes))}\n`);
    expect(outcomes.size).toBeGreaterThan(1);
    // The same executor served every file: none was lost to a crash and replaced.
    expect(pool.pids).toEqual(executors);
  }, 600_000);

  it('checks every page of a TIFF against MAX_IMAGE_PIXELS before decoding it', async () => {
    const limited = executorPool({
      limits: { ...DEFAULT_DOCUMENT_LIMITS, maxImagePixels: 100_000 },
    });
    try {
      // The first page is within the limit (the header check before opening reads only
      // it); the second declares 60,000 x 60,000 pixels and is refused from its own header.
      const pages = makeRawTiff([
        { width: 200, height: 100, data: Buffer.alloc(200 * 100, 255) },
        { width: 60_000, height: 60_000, data: Buffer.alloc(1024, 255) },
      ]);
      const task: OperationTask = {
        kind: 'parse',
        documents: [{ bytes: pages, name: 'scan.tiff' }],
        request: {},
        versions: { layout },
      };
      const error = await limited.run(task).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DocumentLimitError);
      expect((error as Error).message).toContain('MAX_IMAGE_PIXELS');
    } finally {
      await limited.close();
    }
  }, 60_000);
});
