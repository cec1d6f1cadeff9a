import type { OperationTask } from '../../documents/executors/operation.task.js';
import type { JobRecord } from '../core/job.types.js';
import { type Class, validateModel } from '../requests/request-validation.js';
import { InvalidCommandError } from '../core/processing-error.js';
import type { ClassifyCommand } from './classify/classify.operation.js';
import type { DocumentCommand } from './document-operation.js';
import type { PipelineCommand } from './pipeline/pipeline.operation.js';
import type { Billing, Command, Completion, Operation, TaskDocuments } from './operation.js';
import { type JobOperation, OPERATIONS, operationOfType } from './operations.js';
import { type EditJobRequestDto } from './edit/edit-request.dto.js';
import { type ExtractConfigDto } from './extract/extract-request.dto.js';
import { type ParseConfigDto } from './parse/parse-request.dto.js';
import { type SplitConfigDto } from './split/split-request.dto.js';

/** The command of a parse, extract, split or edit job. */
export type OperationCommand =
  | DocumentCommand<'parse', ParseConfigDto>
  | DocumentCommand<'extract', ExtractConfigDto>
  | DocumentCommand<'split', SplitConfigDto>
  | DocumentCommand<'edit', EditJobRequestDto>;

/**
 * A job's work as a validated command (one shape whichever way it arrives: an HTTP request
 * just accepted, a database-queue task, a Redis task, or a job picked up again after a
 * restart). The request is an instance of the same DTO the HTTP endpoint validated with.
 */
type JobCommand = ClassifyCommand | OperationCommand | PipelineCommand;

/** The table's entry for a command, typed for any command. */
function operationOf(command: JobCommand): Operation<Command<string, object, unknown>, unknown> {
  return OPERATIONS[command.operation] as unknown as Operation<
    Command<string, object, unknown>,
    unknown
  >;
}

/**
 * A job's command as stored: the operation (the job's type, or a Redis task's operation),
 * the request body as validated at the edge, and the versions resolved when it was accepted
 * (a pipeline's plan; null for classify, which pins none). Stored apart, never as keys
 * inside the request.
 */
interface StoredCommand {
  operation: JobOperation;
  request: Record<string, unknown>;
  versions: unknown;
}

/** A stored job's command as its row holds it (`type`, `request`, `versions`). */
function storedCommandOf(job: Pick<JobRecord, 'type' | 'request' | 'versions'>): StoredCommand {
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
  const dto: Class<object> = OPERATIONS[operation].request;
  const { instance, issues } = validateModel(dto, stored.request, ['request']);
  if (!instance) throw new InvalidCommandError(`${operation} job`, issues);
  if (OPERATIONS[operation].storesVersions && (typeof versions !== 'object' || versions === null)) {
    throw new InvalidCommandError(`${operation} job`, [
      { loc: ['versions'], msg: 'Field required', type: 'missing' },
    ]);
  }
  // The versions were resolved by the registry at submission; their shape is the registry's
  // own output, stored as written (null for an operation that pins none).
  const command = {
    operation,
    request: instance,
    versions: OPERATIONS[operation].storesVersions ? versions : null,
  } as JobCommand;
  parsed.set(stored.request, command);
  return command;
}

/** The command of a stored job row. */
export function commandOfJob(job: Pick<JobRecord, 'type' | 'request' | 'versions'>): JobCommand {
  return jobCommandOf(storedCommandOf(job));
}

/** The command of a stored job that must run `operation` (a pipeline reads its own jobs). */
export function commandOf<Name extends JobOperation>(
  job: Pick<JobRecord, 'type' | 'request' | 'versions'>,
  operation: Name,
): Extract<JobCommand, { operation: Name }> {
  const command = commandOfJob(job);
  if (command.operation !== operation) {
    throw new InvalidCommandError(`${operation} job`, [
      { loc: ['type'], msg: `Expected a ${operation} job`, type: 'value_error' },
    ]);
  }
  return command as Extract<JobCommand, { operation: Name }>;
}

/**
 * Any job command and its documents as the one executor task: the same mapping for the
 * database-queue workers and the Redis workers, whatever the operation.
 */
export function executorTaskFor(command: JobCommand, documents: TaskDocuments): OperationTask {
  return operationOf(command).task(command, documents);
}

/** What a completed job's command bills, by its operation. */
export function billingOf(command: JobCommand, outcome: unknown): Billing {
  return operationOf(command).billing(command, outcome);
}

/** The API response of a completed job's command, by its operation: built once, here. */
export function responseOf(
  command: JobCommand,
  outcome: unknown,
  completion: Completion,
): Record<string, unknown> {
  return operationOf(command).response(command, outcome, completion);
}
