import type { ParsedDocument } from '../../documents/parse/parsed-layout.js';
import type { DocumentSource } from '../../documents/readers/document.types.js';
import type {
  ClassifyOperationTask,
  OperationKind,
  OperationTask,
  DocumentOperationTask,
  PipelineTask,
  StoredOperationRequest,
} from '../../documents/executors/operation.task.js';
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

const REQUEST_DTOS: Record<JobOperation, Class<object>> = {
  classify: ClassifyConfigDto,
  parse: ParseConfigDto,
  extract: ExtractConfigDto,
  split: SplitConfigDto,
  edit: EditJobRequestDto,
  pipeline: PipelineRunDto,
};

/** Keys a stored operation request carries beside the request body (see OperationJobsService). */
const KIND_KEY = '__kind';
const VERSIONS_KEY = '__versions';

function isStoredKind(value: unknown): value is OperationKind | 'pipeline' {
  return (
    value === 'parse' ||
    value === 'extract' ||
    value === 'split' ||
    value === 'edit' ||
    value === 'pipeline'
  );
}

/** The operation of a stored request: an operation request names its kind, classify does not. */
export function operationOfRequest(stored: Record<string, unknown>): JobOperation {
  const kind = stored[KIND_KEY];
  return isStoredKind(kind) ? kind : 'classify';
}

/** A document operation's request as stored with its job: the body plus its resolved versions. */
export function storedOperationRequest(
  kind: OperationKind,
  body: Record<string, unknown>,
  versions: DocumentOperationTask['versions'],
): StoredOperationRequest {
  return { ...body, input: body.input, [KIND_KEY]: kind, [VERSIONS_KEY]: versions };
}

/** A pipeline run's request as stored with its job: the body plus the plan it runs. */
export function storedPipelineRequest(
  body: Record<string, unknown>,
  plan: PipelinePlan,
): Record<string, unknown> & { input: unknown } {
  return { ...body, input: body.input, [KIND_KEY]: 'pipeline', [VERSIONS_KEY]: plan };
}

/** Validated commands by stored request object: the pipeline reads one several times a job. */
const parsed = new WeakMap<object, JobCommand>();

/**
 * The command of a stored job request (`processing_jobs.request`, or a Redis task's
 * `request`), validated with the request's own DTO. Throws InvalidCommandError, never casts:
 * a request that no longer validates (a hand-edited row, a task of an incompatible release)
 * fails its job instead of running on a wrong shape.
 */
export function jobCommandOf(stored: Record<string, unknown>): JobCommand {
  const known = parsed.get(stored);
  if (known) return known;
  const operation = operationOfRequest(stored);
  const body = { ...stored };
  const versions = body[VERSIONS_KEY];
  delete body[KIND_KEY];
  delete body[VERSIONS_KEY];
  const { instance, issues } = validateModel(REQUEST_DTOS[operation], body, ['request']);
  if (!instance) throw new InvalidCommandError(`${operation} job`, issues);
  let command: JobCommand;
  if (operation === 'classify') {
    command = { operation, request: instance as ClassifyConfigDto };
  } else {
    if (typeof versions !== 'object' || versions === null) {
      throw new InvalidCommandError(`${operation} job`, [
        { loc: ['request', VERSIONS_KEY], msg: 'Field required', type: 'missing' },
      ]);
    }
    // The versions were resolved by the registry at submission; their shape is the
    // registry's own output, stored as written.
    const resolved = versions as DocumentOperationTask['versions'];
    command = { operation, request: instance, versions: resolved } as JobCommand;
  }
  parsed.set(stored, command);
  return command;
}

/** The classify request of a classify job's stored request. */
export function classifyCommandOf(stored: Record<string, unknown>): ClassifyConfigDto {
  const command = jobCommandOf(stored);
  if (command.operation !== 'classify') {
    throw new InvalidCommandError('classify job', [
      { loc: ['request', KIND_KEY], msg: `Expected a classify request`, type: 'value_error' },
    ]);
  }
  return command.request;
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
