import type { ParsedDocument } from '../../documents/parse/parsed-layout.js';
import type { DocumentSource } from '../../documents/readers/document.types.js';
import type {
  ClassifyOperationTask,
  OperationKind,
  OperationTask,
  DocumentOperationTask,
  PipelineTask,
} from '../../documents/executors/operation.task.js';
import type { JobRecord, JobType } from '../core/job.types.js';
import {
  ExtractConfigDto,
  ParseConfigDto,
  SplitConfigDto,
} from '../requests/operation-requests.dto.js';
import { EditJobRequestDto } from '../requests/edit-requests.dto.js';
import type { PipelinePlan } from '../core/pipeline-plan.js';
import { PipelineRunDto } from '../requests/pipeline-run.dto.js';
import { ClassifyConfigDto } from '../requests/classify-config.dto.js';
import { type Class, validateModel } from '../requests/request-validation.js';
import { InvalidCommandError } from '../core/processing-error.js';

/** What a job runs: classify, one of the document operations, or a stored pipeline. */
export type JobOperation = 'classify' | OperationKind | 'pipeline';

/**
 * A job's work as a validated command (one shape whichever way it arrives: an HTTP request
 * just accepted, a database-queue task, a Redis task, or a job picked up again after a
 * restart). The request is an instance of the same DTO the HTTP endpoint validated with.
 */
export type JobCommand =
  | { operation: 'classify'; request: ClassifyConfigDto }
  | { operation: 'parse'; request: ParseConfigDto; versions: DocumentOperationTask['versions'] }
  | { operation: 'extract'; request: ExtractConfigDto; versions: DocumentOperationTask['versions'] }
  | { operation: 'split'; request: SplitConfigDto; versions: DocumentOperationTask['versions'] }
  | { operation: 'edit'; request: EditJobRequestDto; versions: DocumentOperationTask['versions'] }
  | { operation: 'pipeline'; request: PipelineRunDto; versions: PipelinePlan };

/** The command of a parse, extract, split or edit job. */
export type OperationCommand = Exclude<JobCommand, { operation: 'classify' | 'pipeline' }>;

/** The command of a pipeline job: the run's body and the plan it was accepted with. */
export type PipelineCommand = Extract<JobCommand, { operation: 'pipeline' }>;

/**
 * The one table of job operations: each operation's job type (the `type` column of
 * `processing_jobs`, which is how a stored job names its operation) and the request DTO its
 * endpoint validates with and its stored request is read back through.
 */
export const OPERATIONS: Record<JobOperation, { jobType: JobType; request: Class<object> }> = {
  classify: { jobType: 'Classify', request: ClassifyConfigDto },
  parse: { jobType: 'Parse', request: ParseConfigDto },
  extract: { jobType: 'Extract', request: ExtractConfigDto },
  split: { jobType: 'Split', request: SplitConfigDto },
  edit: { jobType: 'Edit', request: EditJobRequestDto },
  pipeline: { jobType: 'Pipeline', request: PipelineRunDto },
};

const OPERATION_OF_TYPE = new Map<string, JobOperation>(
  Object.entries(OPERATIONS).map(([operation, { jobType }]) => [
    jobType,
    operation as JobOperation,
  ]),
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

/**
 * A job's command as stored: the operation (the job's type, or a Redis task's operation),
 * the request body as validated at the edge, and the versions resolved when it was accepted
 * (a pipeline's plan; null for classify, which pins none). Stored apart, never as keys
 * inside the request.
 */
export interface StoredCommand {
  operation: JobOperation;
  request: Record<string, unknown>;
  versions: unknown;
}

/** A stored job's command as its row holds it (`type`, `request`, `versions`). */
export function storedCommandOf(
  job: Pick<JobRecord, 'type' | 'request' | 'versions'>,
): StoredCommand {
  return { operation: operationOfType(job.type), request: job.request, versions: job.versions };
}

/** Validated commands by stored request object: the pipeline reads one several times a job. */
const parsed = new WeakMap<object, JobCommand>();

/**
 * The command of a stored job (a `processing_jobs` row, or a Redis task), its request
 * validated with the request's own DTO, the one the HTTP endpoint validated it with. Throws
 * InvalidCommandError, never casts: a request that no longer validates (a hand-edited row, a
 * task of an incompatible release) or an operation stored without the versions it runs with
 * fails its job instead of running on a wrong shape.
 */
export function jobCommandOf(stored: StoredCommand): JobCommand {
  const known = parsed.get(stored.request);
  if (known?.operation === stored.operation) return known;
  const { operation, versions } = stored;
  const { instance, issues } = validateModel(OPERATIONS[operation].request, stored.request, [
    'request',
  ]);
  if (!instance) throw new InvalidCommandError(`${operation} job`, issues);
  let command: JobCommand;
  if (operation === 'classify') {
    command = { operation, request: instance as ClassifyConfigDto };
  } else {
    if (typeof versions !== 'object' || versions === null) {
      throw new InvalidCommandError(`${operation} job`, [
        { loc: ['versions'], msg: 'Field required', type: 'missing' },
      ]);
    }
    // The versions were resolved by the registry at submission; their shape is the
    // registry's own output, stored as written.
    const resolved = versions as DocumentOperationTask['versions'];
    command = { operation, request: instance, versions: resolved } as JobCommand;
  }
  parsed.set(stored.request, command);
  return command;
}

/** The command of a stored job row. */
export function commandOfJob(job: Pick<JobRecord, 'type' | 'request' | 'versions'>): JobCommand {
  return jobCommandOf(storedCommandOf(job));
}

/** The classify request of a classify job. */
export function classifyCommandOf(
  job: Pick<JobRecord, 'type' | 'request' | 'versions'>,
): Extract<JobCommand, { operation: 'classify' }> {
  const command = commandOfJob(job);
  if (command.operation !== 'classify') {
    throw new InvalidCommandError('classify job', [
      { loc: ['type'], msg: `Expected a classify job`, type: 'value_error' },
    ]);
  }
  return command;
}

/**
 * The `document_password` of a command: parse's `settings`, extract's and split's
 * `parsing.settings`, a pipeline run's `settings`. Edit takes none (pdf-lib cannot write an
 * encrypted PDF); classify has no such field.
 */
export function documentPasswordOf(command: JobCommand): string | undefined {
  switch (command.operation) {
    case 'parse':
    case 'pipeline':
      return command.request.settings?.document_password ?? undefined;
    case 'extract':
    case 'split':
      return command.request.parsing?.settings?.document_password ?? undefined;
    default:
      return undefined;
  }
}

type TaskDocuments = { bytes: Uint8Array; fileName: string; parsed?: ParsedDocument }[];

/** The executor's sources: none for a jobid:// input (its parse stands), else the documents. */
function sourcesOf(command: JobCommand, documents: TaskDocuments): DocumentSource[] {
  if (documents.some((d) => d.parsed)) return [];
  const password = documentPasswordOf(command);
  return documents.map((d) => ({
    bytes: d.bytes,
    name: d.fileName,
    ...(password && { password }),
  }));
}

/**
 * An operation command and its documents as one executor task: the same mapping for the
 * database-queue workers and the Redis workers.
 */
export function operationTaskFor(
  command: OperationCommand,
  documents: TaskDocuments,
): DocumentOperationTask {
  // A jobid:// input is alone (InputResolver): its parsed document replaces reading.
  const parsed = documents.find((d) => d.parsed)?.parsed;
  // The executor's request types describe the fields it reads; each DTO carries them
  // (validated), plus the API's own (input, async, priority), which the executor ignores.
  return {
    kind: command.operation,
    documents: sourcesOf(command, documents),
    ...(parsed && { parsed }),
    request: command.request,
    versions: command.versions,
  } as DocumentOperationTask;
}

/** The classify task of a classify command and its documents. */
export function classifyTaskFor(
  command: Extract<JobCommand, { operation: 'classify' }>,
  documents: TaskDocuments,
): ClassifyOperationTask {
  const { request } = command;
  // A jobid:// input is alone (InputResolver): its parsed document replaces reading.
  const parsed = documents.find((d) => d.parsed)?.parsed;
  return {
    kind: 'classify',
    documents: sourcesOf(command, documents),
    ...(parsed && { parsed }),
    pageRange: request.page_range ?? undefined,
    classificationSchema: request.classification_schema,
    documentMetadata: request.document_metadata,
    categoryGroups: request.category_groups ?? null,
    model: request.model,
  };
}

/**
 * Any job command and its documents as the one executor task: the same mapping for the
 * database-queue workers and the Redis workers, whatever the operation.
 */
export function executorTaskFor(command: JobCommand, documents: TaskDocuments): OperationTask {
  switch (command.operation) {
    case 'classify':
      return classifyTaskFor(command, documents);
    case 'pipeline':
      return pipelineTaskFor(command, documents);
    default:
      return operationTaskFor(command, documents);
  }
}

/** The pipeline task of a pipeline command and its documents (database-queue and Redis workers). */
export function pipelineTaskFor(command: PipelineCommand, documents: TaskDocuments): PipelineTask {
  // A jobid:// input is alone (InputResolver): its parsed document replaces reading.
  const parsed = documents.find((d) => d.parsed)?.parsed;
  return {
    kind: 'pipeline',
    documents: sourcesOf(command, documents),
    ...(parsed && { parsed }),
    parse: command.versions.parse,
    steps: command.versions.steps,
  };
}
