import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { bundledModelFile, type OcrLanguageModel } from './ocr-languages.js';

/**
 * Workers reading in a language other than English kept at once, besides the English one:
 * the least recently used is ended when another language is needed. Each holds its model
 * beside English's (60-140 MB resident): an executor with the sentence encoder, English's
 * worker and one language worker rests near 490 MB, with two near 630 MB, at the size past
 * which an idle executor is replaced (EXECUTOR_RECYCLE_RSS_MB, 640), so one is kept.
 */
const LANGUAGE_WORKERS = 1;

/** The workers by what they read ('eng', or a language with English: 'deu+eng'), in use order. */
const workers = new Map<string, Promise<Worker>>();

/**
 * English plus another language read by one worker: tesseract.js reads every model of a
 * worker from one directory, so the two bundled files are linked into a directory of their
 * own, removed once the worker has read them. Nothing is fetched.
 */
async function startWorker(models: OcrLanguageModel[]): Promise<Worker> {
  const files = models.map((model) => bundledModelFile(model));
  const options = {
    gzip: true,
    // 'none' neither reads nor writes a cache copy in the working directory.
    cacheMethod: 'none',
    // Without a handler tesseract.js also throws a failed job's error from its message
    // listener, an uncaught exception that would take the process down; the job's promise
    // is rejected either way, and that is where callers handle it.
    errorHandler: () => undefined,
  };
  if (models.length === 1) {
    const langPath = path.dirname(files[0]);
    return createWorker(models[0], OEM.LSTM_ONLY, { ...options, langPath, cachePath: langPath });
  }
  const langPath = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-ocr-'));
  try {
    for (const file of files) fs.symlinkSync(file, path.join(langPath, path.basename(file)));
    return await createWorker(models.join('+'), OEM.LSTM_ONLY, {
      ...options,
      langPath,
      cachePath: langPath,
    });
  } finally {
    fs.rmSync(langPath, { recursive: true, force: true });
  }
}

/** The key of a worker reading `model`: English alone, or `model` with English. */
export function workerKey(model: OcrLanguageModel): string {
  return model === 'eng' ? 'eng' : `${model}+eng`;
}

/**
 * The worker reading `model` (with English), started on first use; callers read on one
 * worker at a time (ocr.engine.ts queues every reading), so ending the least recently used
 * language worker here never ends one mid-reading.
 */
export function ocrWorker(model: OcrLanguageModel): Promise<Worker> {
  const key = workerKey(model);
  let worker = workers.get(key);
  if (worker) {
    workers.delete(key);
    workers.set(key, worker);
    return worker;
  }
  const languageKeys = [...workers.keys()].filter((other) => other !== 'eng');
  for (const evicted of languageKeys.slice(0, languageKeys.length - LANGUAGE_WORKERS + 1)) {
    const ending = workers.get(evicted);
    workers.delete(evicted);
    ending?.then((w) => w.terminate()).catch(() => undefined);
  }
  worker = startWorker(model === 'eng' ? ['eng'] : [model, 'eng']);
  workers.set(key, worker);
  worker.catch(() => {
    if (workers.get(key) === worker) workers.delete(key);
  });
  return worker;
}

/** Ends every OCR worker (tests, shutdown); the next reading starts what it needs. */
export async function terminateOcrWorkers(): Promise<void> {
  const current = [...workers.values()];
  workers.clear();
  await Promise.all(current.map(async (w) => (await w.catch(() => undefined))?.terminate()));
}
