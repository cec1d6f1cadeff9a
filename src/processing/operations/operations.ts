import type { JobType } from '../core/job.types.js';
import { InvalidCommandError } from '../core/processing-error.js';
import { CLASSIFY } from './classify/classify.operation.js';
import { EDIT } from './edit/edit.operation.js';
import { EXTRACT } from './extract/extract.operation.js';
import { PARSE } from './parse/parse.operation.js';
import { PIPELINE } from './pipeline/pipeline.operation.js';
import { SPLIT } from './split/split.operation.js';

/**
 * The one table of job operations (each in its own folder beside this file): its job type,
 * request DTO, executor task, billing and response, its queue command kind and whether it
 * is deep work. Everything that differs between operations reads it; nothing branches on
 * the operation's name.
 */
export const OPERATIONS = {
  classify: CLASSIFY,
  parse: PARSE,
  extract: EXTRACT,
  split: SPLIT,
  edit: EDIT,
  pipeline: PIPELINE,
};

/** What a job runs: classify, one of the document operations, or a stored pipeline. */
export type JobOperation = keyof typeof OPERATIONS;

/** Every operation, in the table's order. */
export const JOB_OPERATIONS = Object.keys(OPERATIONS) as JobOperation[];

/** Whether a name (a Redis task's operation, a BullMQ job name) is an operation's. */
export function isJobOperation(name: unknown): name is JobOperation {
  return typeof name === 'string' && Object.hasOwn(OPERATIONS, name);
}

const OPERATION_OF_TYPE = new Map<string, JobOperation>(
  JOB_OPERATIONS.map((operation) => [OPERATIONS[operation].jobType, operation]),
);

/** The operation a job type runs; a type no operation has is an invalid command, named. */
export function operationOfType(type: string): JobOperation {
  const operation = OPERATION_OF_TYPE.get(type);
  if (!operation) {
    throw new InvalidCommandError('job', [
      { loc: ['type'], msg: `Unknown job type ${JSON.stringify(type)}`, type: 'value_error' },
    ]);
  }
  return operation;
}

/** The job types whose jobs a queue command kind runs (a JobPipeline's `jobTypes`). */
export function jobTypesOfTask(taskKind: string): JobType[] {
  return JOB_OPERATIONS.filter((o) => OPERATIONS[o].taskKind === taskKind).map(
    (o) => OPERATIONS[o].jobType,
  );
}

/**
 * Deep work: what the gpu worker kind takes ("the gpu kind takes the `accurate` / deep
 * work"), as the job's operation says of its stored request.
 */
export function isDeepWork(type: JobType, request: Record<string, unknown>): boolean {
  return OPERATIONS[operationOfType(type)].isDeep(request);
}
