/**
 * The project's own labeled set (test/fixtures/classify-eval): accuracy of both models, their
 * throughput in pages per second on one core (this process, after warm-up), 5-page latency
 * and document loading cost. Run: npm run bench:classify-eval -- --fixtures
 */
import os from 'node:os';
import { classify, warmUpClassifier } from '../../src/documents/classify/classify.js';
import type { ClassifyModel } from '../../src/documents/classify/classify.types.js';
import { loadDocument } from '../../src/documents/readers/document.loader.js';
import { terminateOcr } from '../../src/documents/readers/ocr.engine.js';
import { evaluate, loadEvalSet } from '../../test/support/classify-eval.js';
import { makePdf, makeScannedPdf } from '../../test/support/documents.js';

export async function fixturesReport(): Promise<void> {
  const set = await loadEvalSet();
  warmUpClassifier();
  const pageCount = set.documents.reduce((sum, document) => sum + document.pages.length, 0);
  console.log(
    `evaluation set: ${set.documents.length} documents, ${pageCount} pages, ` +
      `${set.schema.length} categories`,
  );

  /** Pages per second of CPU time (one core), over the whole set. */
  function throughput(model: ClassifyModel, rounds: number): number {
    const run = () => {
      for (const document of set.documents) {
        classify({
          pages: document.pages,
          classificationSchema: set.schema,
          documentMetadata: document.documentMetadata,
          model,
        });
      }
    };
    run();
    const start = process.cpuUsage();
    for (let i = 0; i < rounds; i++) run();
    const used = process.cpuUsage(start);
    const seconds = (used.user + used.system) / 1e6;
    return (pageCount * rounds) / seconds;
  }

  /**
   * Latency of one 5-page document (pages of ~400 words), median of many runs: wall time,
   * and CPU time of this thread, which stays comparable when the machine is shared.
   */
  function fivePageLatency(model: ClassifyModel): { wall: number; cpu: number } {
    const words = set.documents.flatMap((document) => document.pages.join(' ').split(/\s+/));
    const pages = Array.from({ length: 5 }, (_, p) =>
      words.slice(p * 400, p * 400 + 400).join(' '),
    );
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 60; i++) {
      const start = performance.now();
      const startCpu = process.cpuUsage();
      classify({ pages, classificationSchema: set.schema, model });
      const used = process.cpuUsage(startCpu);
      wall.push(performance.now() - start);
      cpu.push((used.user + used.system) / 1000);
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    return { wall: median(wall), cpu: median(cpu) };
  }

  const results = [];
  for (const model of ['default', 'accurate'] as const) {
    const outcome = evaluate(set, model);
    const dev = evaluate(set, model, 'dev');
    const holdout = evaluate(set, model, 'holdout');
    const pagesPerSecond = throughput(model, 5);
    const latency = fivePageLatency(model);
    results.push({ ...outcome, pagesPerSecond, latency });
    const percent = (o: { accuracy: number; correct: number; total: number }) =>
      `${(o.accuracy * 100).toFixed(1)}% (${o.correct}/${o.total})`;
    console.log(
      `${model.padEnd(8)} accuracy all ${percent(outcome)}  dev ${percent(dev)}  ` +
        `holdout ${percent(holdout)}  ${pagesPerSecond.toFixed(0)} pages/s per core  ` +
        `5-page p50 ${latency.wall.toFixed(1)} ms wall, ${latency.cpu.toFixed(1)} ms cpu`,
    );
    for (const miss of outcome.misses) {
      console.log(`  miss ${miss.file}: expected ${miss.expected}, got ${miss.got}`);
    }
  }
  const [fast, deep] = results;
  console.log(`load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`);
  console.log(
    `accurate vs default: +${((deep.accuracy - fast.accuracy) * 100).toFixed(1)} points, ` +
      `${(fast.pagesPerSecond / deep.pagesPerSecond).toFixed(1)}x slower`,
  );

  /** Document loading cost per page: PDF text layer vs OCR of an image-only page. */
  async function loadingCost(bytes: Buffer, pages: number): Promise<{ wall: number; cpu: number }> {
    await loadDocument(bytes, 'a.pdf');
    const rounds = 3;
    const start = performance.now();
    const startCpu = process.cpuUsage();
    for (let i = 0; i < rounds; i++) await loadDocument(bytes, 'a.pdf');
    const used = process.cpuUsage(startCpu);
    return {
      wall: (performance.now() - start) / (rounds * pages),
      cpu: (used.user + used.system) / 1000 / (rounds * pages),
    };
  }
  const sample = set.documents.slice(0, 5).map((document) => document.pages[0]);
  const textLayer = await loadingCost(await makePdf(sample), 5);
  const scanned = await loadingCost(await makeScannedPdf(sample.slice(0, 2)), 2);
  await terminateOcr();
  console.log(
    `PDF text layer ${textLayer.wall.toFixed(1)} ms/page wall (${textLayer.cpu.toFixed(1)} ms cpu); ` +
      `OCR of image-only pages ${scanned.wall.toFixed(0)} ms/page wall ` +
      `(${scanned.cpu.toFixed(0)} ms cpu, all threads)`,
  );
}
