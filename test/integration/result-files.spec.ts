import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore, blobRootOf } from '../../src/database/blob-store.js';
import { jobResultKey, parsedDocumentKey } from '../../src/database/blob-keys.js';
import type { OperationPool } from '../../src/documents/executors/operation.pool.js';
import type {
  DocumentOperationTask,
  OutcomeFiles,
  WrittenJson,
} from '../../src/documents/executors/operation.task.js';
import type { ParseOutcome } from '../../src/documents/parse/parse.runner.js';
import { keepParsedDocument } from '../../src/processing/inputs/parsed-inputs.js';
import { JobResults, outcomeFilesFor } from '../../src/processing/jobs/job-results.js';
import { DEFAULT_LAYOUT, executorPool } from '../support/operation-executors.js';

// An executor process writes a job's result (and a parse's lines) to files itself; what
// crosses back to the API process is their names and the small metadata, and the stored
// result is the same JSON as when the whole outcome crossed.

const layout = DEFAULT_LAYOUT;

let pool: OperationPool;
let dataDir: string;
let blobs: FileBlobStore;

beforeAll(() => {
  pool = executorPool({
    settings: { taskTimeLimitMs: 90_000 },
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-result-files-'));
  blobs = new FileBlobStore(blobRootOf(dataDir));
});

afterAll(async () => {
  await pool?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A text of `lines` numbered lines, each naming its number twice. */
function text(lines: number): Buffer {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) out.push(`Line ${i} of the ledger: amount ${i * 7} due.`);
  return Buffer.from(out.join('\n'));
}

/** A parse run with files: its executor writes the result and the lines. */
async function writtenParse(task: DocumentOperationTask, files: OutcomeFiles) {
  return (await pool.runOperationToFiles(task, files)) as Omit<
    ParseOutcome,
    'result' | 'layout'
  > & {
    result: WrittenJson;
    layout?: WrittenJson;
  };
}

function parseTask(bytes: Buffer): DocumentOperationTask {
  return {
    kind: 'parse',
    documents: [{ bytes, name: 'ledger.txt' }],
    request: {},
    versions: { layout },
  };
}

describe('results written by the executor', () => {
  it('sends back references, and stores the same result as a whole outcome would', async () => {
    const task = parseTask(text(4_000));
    const whole = (await pool.run(task)) as ParseOutcome;
    const files = outcomeFilesFor(blobs, 'job-files-1');
    const written = await writtenParse(task, files);

    expect(written.result).toEqual({
      writtenJson: files.result,
      bytes: Buffer.byteLength(JSON.stringify(whole.result)),
    });
    expect(written.layout).toEqual({ writtenJson: files.layout, bytes: expect.any(Number) });
    expect(written.usage).toEqual(whole.usage);
    expect(written.document).toEqual(whole.document);
    // What crossed is small whatever the document's size.
    expect(Buffer.byteLength(JSON.stringify(written))).toBeLessThan(2_000);
    expect(Buffer.byteLength(JSON.stringify(whole.result))).toBeGreaterThan(200_000);
    // Written by the executor, private to the owner, invisible to the store until taken.
    const resultFile = path.join(files.root, ...files.result.split('/'));
    expect(fs.statSync(resultFile).mode & 0o777).toBe(0o600);
    expect(await blobs.list('')).toEqual([]);

    const kept = await keepParsedDocument(blobs, 'job-files-1', written);
    expect('layout' in kept).toBe(false);
    const keptLines = JSON.parse(
      (await blobs.read(parsedDocumentKey(jobResultKey('job-files-1')))).toString(),
    ) as unknown;
    expect(keptLines).toEqual(JSON.parse(JSON.stringify(whole.layout)));

    const results = new JobResults(blobs);
    const envelope = {
      job_id: 'job-files-1',
      usage: kept.usage,
      result: kept.result,
      pdf_url: null,
    };
    const stored = await results.save('job-files-1', envelope, [kept.result]);
    await results.discardWritten([kept.result]);
    const storedJson = (await blobs.read(jobResultKey('job-files-1'))).toString();
    expect(stored.bytes).toBe(Buffer.byteLength(storedJson));
    expect(JSON.parse(storedJson)).toEqual({
      job_id: 'job-files-1',
      usage: whole.usage,
      result: JSON.parse(JSON.stringify(whole.result)),
      pdf_url: null,
    });
    // Nothing staged is left behind.
    expect(await blobs.listStaged()).toEqual([]);
  }, 180_000);

  it('takes only the values it was given, never data that looks like them', async () => {
    const files = outcomeFilesFor(blobs, 'job-files-2');
    const written = await writtenParse(parseTask(text(20)), files);
    const lookalike = { writtenJson: files.result, bytes: written.result.bytes };
    const results = new JobResults(blobs);
    await results.save(
      'job-files-2',
      {
        // A tenant's extract could name its fields anything, and a text hold anything.
        decoy: lookalike,
        note: `\u0000written:${files.result}:0`,
        result: written.result,
      },
      [written.result],
    );
    const stored = JSON.parse((await blobs.read(jobResultKey('job-files-2'))).toString()) as {
      decoy: unknown;
      note: string;
      result: { chunks: unknown[] };
    };
    expect(stored.decoy).toEqual(lookalike);
    expect(stored.note).toBe(`\u0000written:${files.result}:0`);
    expect(stored.result.chunks.length).toBeGreaterThan(0);
    await results.discardWritten([written.result, written.layout!]);
    expect(await blobs.listStaged()).toEqual([]);
  }, 180_000);
});
