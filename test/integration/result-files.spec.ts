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
import type { EditOutcome } from '../../src/documents/edit/edit.types.js';
import type {
  PipelineOutcome,
  PipelineTask,
} from '../../src/documents/pipeline/pipeline.runner.js';
import { jobOfResultKey } from '../../src/database/blob-keys.js';
import {
  isWrittenJson,
  type WrittenEditOutcome,
} from '../../src/documents/executors/outcome-files.js';
import { keepParsedDocument } from '../../src/processing/inputs/parsed-inputs.js';
import { JobResults, outcomeFilesFor } from '../../src/processing/jobs/job-results.js';
import { makeFlatForm } from '../support/edit-forms.js';
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

/** The version a task runs with when its request pins none. */
const unpinned = (family: string, version: string, engine: string) =>
  ({ family, version, engine, stage: 'default', pinned: false, frozenSnapshot: false }) as const;

/** What the start-up sweep reads of every staged file: the job it belongs to. */
async function stagedJobs(): Promise<(string | null)[]> {
  return (await blobs.listStaged()).map(({ key }) => jobOfResultKey(key));
}

describe('edit and pipeline outcomes written by the executor', () => {
  it('an edit writes its document, form schema and report; only references cross', async () => {
    const labels = Array.from({ length: 16 }, (_, i) => ({
      label: `Field number ${i + 1}`,
      type: 'text' as const,
      width: 200,
    }));
    const { bytes, boxes } = await makeFlatForm(labels);
    const task: DocumentOperationTask = {
      kind: 'edit',
      documents: [{ bytes, name: 'form.pdf' }],
      request: {
        edit_instructions: 'Field number 1: Ada Lovelace. Field number 2: 12 Analytical Lane.',
        form_schema: boxes.map((box) => ({
          bbox: { page: 1, left: box.left, top: box.top, width: box.width, height: box.height },
          description: box.label,
          type: 'text',
        })),
      },
      versions: { edit: unpinned('edit_model', 'edit-v1', 'form-fill') },
    };
    const whole = (await pool.run(task)) as EditOutcome;
    const files = outcomeFilesFor(blobs, 'job-edit-1', task);
    expect(files.parts).toHaveLength(3);
    const written = (await pool.runOperationToFiles(task, files)) as unknown as WrittenEditOutcome;

    expect('base64' in written.edited).toBe(false);
    expect(written.edited).toMatchObject({
      extension: 'pdf',
      written: { writtenJson: files.parts[0] },
    });
    expect(written.result.form_schema.writtenJson).toBe(files.parts[1]);
    expect(written.result.report.writtenJson).toBe(files.parts[2]);
    expect(written.usage).toEqual(whole.usage);
    expect(Buffer.byteLength(JSON.stringify(written))).toBeLessThan(2_000);
    // The document's bytes as the whole outcome carried them, private to the owner.
    const documentFile = path.join(files.root, ...files.parts[0].split('/'));
    expect(fs.readFileSync(documentFile).subarray(0, 5).toString()).toBe('%PDF-');
    expect(fs.statSync(documentFile).size).toBe(Buffer.from(whole.edited.base64, 'base64').length);
    expect(fs.statSync(documentFile).mode & 0o777).toBe(0o600);
    // The start-up sweep knows whose they are.
    expect(await stagedJobs()).toEqual(['job-edit-1', 'job-edit-1', 'job-edit-1']);

    const results = new JobResults(blobs);
    const { form_schema, report } = written.result;
    await results.save('job-edit-1', { job_id: 'job-edit-1', form_schema, report }, [
      form_schema,
      report,
    ]);
    const document = await results.saveDocument('job-edit-1', {
      written: written.edited.written,
      extension: 'pdf',
    });
    await results.discardWritten([written.edited.written, form_schema, report]);
    expect(JSON.parse((await blobs.read(jobResultKey('job-edit-1'))).toString())).toEqual({
      job_id: 'job-edit-1',
      form_schema: JSON.parse(JSON.stringify(whole.result.form_schema)),
      report: JSON.parse(JSON.stringify(whole.result.report)),
    });
    expect(document.bytes).toBe(fs.statSync(path.join(files.root, document.key)).size);
    expect(await blobs.listStaged()).toEqual([]);
    // Deleted with its job like any of its files.
    await results.remove([jobResultKey('job-edit-1'), document.key]);
    expect((await blobs.list('')).filter((key) => key.includes('job-edit-1'))).toEqual([]);
  }, 180_000);

  it('a pipeline writes the parse and each step result to its own file', async () => {
    const task: PipelineTask = {
      kind: 'pipeline',
      documents: [{ bytes: text(3_000), name: 'ledger.txt' }],
      parse: { request: {}, versions: { layout } },
      steps: [
        {
          kind: 'split',
          request: { split_description: [{ name: 'Ledger', description: 'ledger lines' }] },
          versions: {},
        },
        {
          kind: 'extract',
          request: {
            instructions: {
              schema: {
                type: 'object',
                properties: { amount: { type: 'string', description: 'amount due' } },
              },
            },
          },
          versions: { extract: unpinned('extract_model', 'extract-v1', 'label-typed') },
        },
      ],
    } as unknown as PipelineTask;
    const whole = (await pool.run(task)) as PipelineOutcome;
    const files = outcomeFilesFor(blobs, 'job-pipeline-1', task);
    expect(files.parts).toHaveLength(4);
    const written = (await pool.runPipeline(task, undefined, files)) as PipelineOutcome;

    const references: unknown[] = [
      written.parse.result,
      ...written.steps.map((s) => s.outcome.result),
    ];
    expect(references.every(isWrittenJson)).toBe(true);
    expect(written.result).toBe(written.parse.result);
    expect(Buffer.byteLength(JSON.stringify(written))).toBeLessThan(4_000);
    expect(Buffer.byteLength(JSON.stringify(whole.parse.result))).toBeGreaterThan(100_000);
    expect(await stagedJobs()).toEqual(['job-pipeline-1', 'job-pipeline-1', 'job-pipeline-1']);

    const results = new JobResults(blobs);
    const envelope = (outcome: PipelineOutcome) => ({
      parse: { result: outcome.parse.result },
      split: { result: outcome.steps[0].outcome.result },
      extract: { result: outcome.steps[1].outcome.result },
    });
    await results.save('job-pipeline-1', envelope(written), references.filter(isWrittenJson));
    await results.discardWritten(references.filter(isWrittenJson));
    expect(JSON.parse((await blobs.read(jobResultKey('job-pipeline-1'))).toString())).toEqual(
      JSON.parse(JSON.stringify(envelope(whole))),
    );
    expect(await blobs.listStaged()).toEqual([]);
    await results.remove([jobResultKey('job-pipeline-1')]);
    expect((await blobs.list('')).filter((key) => key.includes('job-pipeline-1'))).toEqual([]);
  }, 180_000);
});
