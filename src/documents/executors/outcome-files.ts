import fs from 'node:fs';
import path from 'node:path';
import type { EditOutcome } from '../edit/edit.types.js';
import type { PipelineStepOutcome } from '../pipeline/pipeline.runner.js';
import type {
  OperationOutcome,
  OperationTask,
  OutcomeFiles,
  PipelineOutcome,
  WrittenJson,
} from './operation.task.js';

/**
 * An operation's outcome whose result (and, for a parse, the lines it read) the executor
 * wrote to files: what crosses back to the API process is this small metadata.
 */
export type WrittenOperationOutcome = Written<OperationOutcome>;

type Written<O> = O extends unknown
  ? Omit<O, 'result' | 'layout'> & { result: WrittenJson; layout?: WrittenJson }
  : never;

/**
 * An edit's outcome whose document, form schema and report the executor wrote to files:
 * the document's bytes never cross as base64, nor the schema of a form of many fields.
 */
export type WrittenEditOutcome = Omit<EditOutcome, 'edited' | 'result'> & {
  edited: Omit<EditOutcome['edited'], 'base64'> & { written: WrittenJson };
  result: { form_schema: WrittenJson; report: WrittenJson };
};

/**
 * How many further files (`OutcomeFiles.parts`) a task's executor may write: an edit its
 * document, form schema and report; a pipeline one result per step outcome (a classify
 * step may add the extract of the category it chose); the others none.
 */
export function outcomePartCount(task: OperationTask): number {
  if (task.kind === 'edit') return 3;
  if (task.kind === 'pipeline') return 2 * task.steps.length;
  return 0;
}

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
async function writeJson(root: string, name: string, json: string | Buffer): Promise<WrittenJson> {
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

/** Removes what `writeJson` wrote of `written` (a later write of the same outcome failed). */
async function removeWritten(root: string, written: readonly WrittenJson[]): Promise<void> {
  for (const { writtenJson } of written) {
    await fs.promises.rm(path.join(root, ...writtenJson.split('/')), { force: true });
  }
}

/** Writes `values` in order to `names`; on a failure nothing written stays behind. */
async function writeAll(
  root: string,
  values: readonly { name: string; json: string | Buffer }[],
): Promise<WrittenJson[]> {
  const written: WrittenJson[] = [];
  try {
    for (const { name, json } of values) written.push(await writeJson(root, name, json));
  } catch (error) {
    await removeWritten(root, written);
    throw error;
  }
  return written;
}

/**
 * Writes an edit's document (its bytes, not base64), form schema and report to the first
 * three of `files.parts`, and answers the outcome with references in their place.
 */
export async function writeEditOutcome(
  outcome: EditOutcome,
  files: OutcomeFiles,
): Promise<WrittenEditOutcome> {
  const { base64, ...edited } = outcome.edited;
  const [document, formSchema, report] = await writeAll(files.root, [
    { name: files.parts[0], json: Buffer.from(base64, 'base64') },
    { name: files.parts[1], json: JSON.stringify(outcome.result.form_schema) },
    { name: files.parts[2], json: JSON.stringify(outcome.result.report) },
  ]);
  return {
    ...outcome,
    edited: { ...edited, written: document },
    result: { form_schema: formSchema, report },
  };
}

/**
 * Writes a pipeline's parse result (`parseJson`, already made to check its size) to
 * `files.result` and each extract or split step's result to the next of `files.parts`
 * (a classify step's small answer stays in place), and answers the outcome with references
 * in their place; the outcome's own `result` is the parse's, the same reference.
 */
export async function writePipelineOutcome(
  outcome: PipelineOutcome,
  parseJson: string,
  files: OutcomeFiles,
): Promise<PipelineOutcome> {
  const stepsWithResults = outcome.steps.filter(
    (step): step is Exclude<PipelineStepOutcome, { kind: 'classify' }> => step.kind !== 'classify',
  );
  if (stepsWithResults.length > files.parts.length) {
    throw new Error(
      `a pipeline of ${stepsWithResults.length} step results was given ${files.parts.length} files`,
    );
  }
  const [parse, ...stepResults] = await writeAll(files.root, [
    { name: files.result, json: parseJson },
    ...stepsWithResults.map((step, i) => ({
      name: files.parts[i],
      json: JSON.stringify(step.outcome.result),
    })),
  ]);
  // The references stand where the values were; the pipeline's types carry them as the
  // values (the API process stores them by identity, never reading them).
  const steps = outcome.steps.map((step) => {
    const at = stepsWithResults.indexOf(step as (typeof stepsWithResults)[number]);
    return at < 0 ? step : { ...step, outcome: { ...step.outcome, result: stepResults[at] } };
  }) as PipelineOutcome['steps'];
  const reference = parse as unknown as PipelineOutcome['result'];
  return { ...outcome, parse: { ...outcome.parse, result: reference }, steps, result: reference };
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
