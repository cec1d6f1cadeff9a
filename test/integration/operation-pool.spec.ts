import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { OperationPool } from '../../src/documents/executors/operation.pool.js';
import type { ClassificationCategory } from '../../src/documents/classify/classify.types.js';
import {
  TooManyPagesSelectedError,
  UnsupportedDocumentError,
} from '../../src/documents/readers/document.errors.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { makePdf, makeScannedPdf } from '../support/documents.js';

const run = promisify(execFile);

const schema: ClassificationCategory[] = [
  { category: 'invoice', criteria: ['invoice number', 'total amount due'] },
  { category: 'medical_record', criteria: ['patient name', 'diagnosis'] },
];

afterAll(async () => {
  await terminateOcr();
});

describe(OperationPool.name, () => {
  it('runs inline under jest, with typed errors', async () => {
    const pool = new OperationPool();
    expect(pool.inline).toBe(true);
    const result = await pool.runClassify({
      kind: 'classify',
      documents: [{ bytes: await makePdf(['Invoice number 77. Total amount due: 120.00']) }],
      classificationSchema: schema,
      categoryGroups: { finance: ['invoice'] },
    });
    expect(result.output.result.category).toBe('invoice');
    expect(result.output.extra_metadata).toEqual({ grouping: 'finance' });
    expect(result.document).toEqual({
      fileType: 'pdf',
      totalPages: 1,
      pages: [{ pageNumber: 1, source: 'text-layer', characters: 43 }],
    });
    await expect(
      pool.runClassify({
        kind: 'classify',
        // A BMP header: an image format no decoder here reads.
        documents: [
          {
            bytes: Buffer.from(
              'BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00',
              'latin1',
            ),
          },
        ],
        classificationSchema: schema,
      }),
    ).rejects.toThrow(UnsupportedDocumentError);
    await pool.close();
  });

  it('runs every kind of task in the same executor processes from compiled output, OCR included', async () => {
    // Compile the sources the way `npm run build` does, into a directory under the repo so
    // that node_modules resolves, then drive the pool from a plain node process.
    const outDir = path.resolve('node_modules/.cache/docproc-pool-spec');
    fs.rmSync(outDir, { recursive: true, force: true });
    await run(process.execPath, [
      'node_modules/typescript/bin/tsc',
      '-p',
      'tsconfig.build.json',
      '--outDir',
      outDir,
    ]);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-pool-'));
    const scan = path.join(work, 'scan.pdf');
    fs.writeFileSync(scan, await makeScannedPdf(['Patient name: Jane Roe', 'Diagnosis: migraine']));
    const text = path.join(work, 'text.pdf');
    fs.writeFileSync(text, await makePdf(['Invoice number 77', 'Second page']));
    const script = `
        import fs from 'node:fs';
        import { OperationPool } from ${JSON.stringify(path.join(outDir, 'src/documents/executors/operation.pool.js'))};
        const pool = new OperationPool({ maxExecutors: 2 });
        const out = { inline: pool.inline, processesBeforeUse: pool.processes };
        const task = {
          kind: 'classify',
          documents: [{ bytes: fs.readFileSync(${JSON.stringify(scan)}), name: 'scan.pdf' }],
          classificationSchema: ${JSON.stringify(schema)},
          model: 'accurate',
        };
        out.result = await pool.run(task);
        try { await pool.run({ ...task, pageRange: { start: 1, end: 11 } }); }
        catch (error) { out.error = { name: error.constructor.name, count: error.count }; }
        out.processes = pool.processes; out.pids = pool.pids;
        // A parse runs on the same pool as the classifications.
        const operations = pool;
        out.operationsInline = operations.inline;
        const layout = { family: 'layout_model', version: 'layout-v3', engine: 'line-blocks', stage: 'default', pinned: false, frozenSnapshot: false };
        const parse = { kind: 'parse', request: {}, versions: { layout } };
        const parsed = await operations.run({ ...parse, documents: [{ bytes: fs.readFileSync(${JSON.stringify(text)}), name: 'text.pdf' }] });
        out.parsed = { pages: parsed.usage.num_pages, fileType: parsed.document.fileType };
        try { await operations.run({ ...parse, documents: [{ bytes: Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 7]), name: 'x.bin' }] }); }
        catch (error) { out.operationError = error.constructor.name; }
        await operations.close();
        console.log(JSON.stringify(out));
      `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: process.cwd(),
      env: { ...process.env, JEST_WORKER_ID: '' },
    });
    fs.rmSync(work, { recursive: true, force: true });
    const out = JSON.parse(stdout.trim().split('\n').pop() as string);
    expect(out.inline).toBe(false);
    expect(out.processesBeforeUse).toBe(0);
    expect(out.processes).toBeGreaterThanOrEqual(1);
    expect(out.pids).not.toContain(process.pid);
    expect(out.result.output.result.category).toBe('medical_record');
    expect(out.result.document.pages).toEqual([
      { pageNumber: 1, source: 'ocr', characters: expect.any(Number) },
      { pageNumber: 2, source: 'ocr', characters: expect.any(Number) },
    ]);
    expect(out.error).toEqual({ name: TooManyPagesSelectedError.name, count: 11 });
    expect(out.operationsInline).toBe(false);
    expect(out.parsed).toEqual({ pages: 2, fileType: 'pdf' });
    expect(out.operationError).toBe(UnsupportedDocumentError.name);
  }, 240_000);
});
