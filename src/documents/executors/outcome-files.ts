import fs from 'node:fs';
import path from 'node:path';
import type { OperationOutcome, OutcomeFiles, WrittenJson } from './operation.task.js';

/**
 * An operation's outcome whose result (and, for a parse, the lines it read) the executor
 * wrote to files: what crosses back to the API process is this small metadata.
 */
export type WrittenOperationOutcome = Written<OperationOutcome>;

type Written<O> = O extends unknown
  ? Omit<O, 'result' | 'layout'> & { result: WrittenJson; layout?: WrittenJson }
  : never;

/** Whether `value` is the reference an executor sends in place of a value it wrote. */
export function isWrittenJson(value: unknown): value is WrittenJson {
  if (typeof value !== 'object' || value === null) return false;
  const { writtenJson, bytes } = value as Partial<WrittenJson>;
  return typeof writtenJson === 'string' && typeof bytes === 'number';
}

/**
 * Writes `json` to the file named `name` under `root`, created 0600 (tenants' documents) in
 * a 0700 folder, flushed to disk; the name is new (`wx`), so nothing else is overwritten.
 */
async function writeJson(root: string, name: string, json: string): Promise<WrittenJson> {
  const file = path.join(root, ...name.split('/'));
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    await fs.promises.writeFile(file, json, { mode: 0o600, flag: 'wx', flush: true });
  } catch (error) {
    await fs.promises.rm(file, { force: true });
    throw error;
  }
  return { writtenJson: name, bytes: Buffer.byteLength(json) };
}

/**
 * Writes the result's JSON (`resultJson`, already made to check its size) and a parse's
 * lines to the files `files` names, and answers the outcome with references in their place.
 * On a failure nothing written stays behind.
 */
export async function writeOutcome(
  outcome: OperationOutcome,
  resultJson: string,
  files: OutcomeFiles,
): Promise<WrittenOperationOutcome> {
  const { layout, ...rest } = outcome as OperationOutcome & { layout?: unknown };
  const result = await writeJson(files.root, files.result, resultJson);
  try {
    const lines = layout ? await writeJson(files.root, files.layout, JSON.stringify(layout)) : null;
    // `result` replaces the one in `rest`: the value itself never crosses back.
    return { ...rest, result, ...(lines && { layout: lines }) } as WrittenOperationOutcome;
  } catch (error) {
    await fs.promises.rm(path.join(files.root, ...files.result.split('/')), { force: true });
    throw error;
  }
}
