import type {
  DocumentOperationTask,
  OperationKind,
} from '../../documents/executors/operation.task.js';
import type {
  WrittenEditOutcome,
  WrittenOperationOutcome,
} from '../../documents/executors/outcome-files.js';
import type { OperationOutcome } from '../../documents/executors/operation.task.js';
import { OPERATION_TASK } from '../core/task-kinds.js';
import type { VersionResolver } from '../../documents/versions/model-pins.js';
import type { JobType } from '../core/job.types.js';
import type { OperationBaseDto } from '../requests/operation-requests.dto.js';
import type { Class } from '../requests/request-validation.js';
import {
  type Billing,
  type Command,
  type Completion,
  featureOf,
  type Operation,
  parsedOf,
  sourcesOf,
} from './operation.js';

/**
 * An operation's outcome: sent whole (an executor given no files), or with its result (an
 * edit's document and report) written to files by its executor.
 */
export type DocumentOperationOutcome =
  OperationOutcome | WrittenOperationOutcome | WrittenEditOutcome;

/** The versions a document operation's task runs with. */
type VersionsOf<Kind extends OperationKind> = Extract<
  DocumentOperationTask,
  { kind: Kind }
>['versions'];

/** The command of a parse, extract, split or edit job. */
export type DocumentCommand<Kind extends OperationKind, Request extends OperationBaseDto> = Command<
  Kind,
  Request,
  VersionsOf<Kind>
>;

/** A document operation: an Operation whose versions are resolved from its request's pins. */
type DocumentOperation<Kind extends OperationKind, Request extends OperationBaseDto> = Operation<
  DocumentCommand<Kind, Request>,
  DocumentOperationOutcome,
  DocumentOperationTask
> &
  Pick<DocumentOperationParts<Kind, Request>, 'resolveVersions'>;

/** What a document operation (parse, extract, split, edit) says of itself. */
interface DocumentOperationParts<Kind extends OperationKind, Request extends OperationBaseDto> {
  kind: Kind;
  jobType: JobType;
  request: Class<Request>;
  gatedWhenAsync: boolean;
  isDeep(request: Record<string, unknown>): boolean;
  documentPassword(request: Request): string | undefined;
  /**
   * The versions its request pins, resolved when it is accepted (422 for an unknown pin or
   * one whose precondition is missing, and for a request the engine refuses up front).
   */
  resolveVersions(body: Record<string, unknown>, resolver: VersionResolver): VersionsOf<Kind>;
  /** Its response beside the fields every document operation answers with. */
  responseFields(outcome: DocumentOperationOutcome): Record<string, unknown>;
}

/**
 * A document operation as an Operation: its versions resolved at submission, its task the
 * request and versions as the executor reads them, billed per page under its own product,
 * answered with `job_id`, `duration`, `usage` and `model_versions` beside its own fields.
 */
export function documentOperation<Kind extends OperationKind, Request extends OperationBaseDto>(
  parts: DocumentOperationParts<Kind, Request>,
): DocumentOperation<Kind, Request> {
  const operation: DocumentOperation<Kind, Request> = {
    resolveVersions: parts.resolveVersions,
    jobType: parts.jobType,
    taskKind: OPERATION_TASK,
    request: parts.request,
    storesVersions: true,
    gatedWhenAsync: parts.gatedWhenAsync,
    isDeep: parts.isDeep,
    documentPassword: parts.documentPassword,
    task(command, documents) {
      const parsed = parsedOf(documents);
      // The executor's request types describe the fields it reads; each DTO carries them
      // (validated), plus the API's own (input, async, priority), which the executor ignores.
      return {
        kind: parts.kind,
        documents: sourcesOf(documents, parts.documentPassword(command.request)),
        ...(parsed && { parsed }),
        request: command.request,
        versions: command.versions,
      } as DocumentOperationTask;
    },
    billing(command, outcome): Billing {
      return {
        product: parts.kind,
        feature: featureOf(parts.kind, operation, command.request),
        pages: outcome.usage.num_pages,
        totalPages: outcome.document.totalPages,
        fileType: outcome.document.fileType,
      };
    },
    response(_command, outcome, { jobId, credits, durationSeconds }: Completion) {
      return {
        job_id: jobId,
        duration: durationSeconds,
        usage: { ...outcome.usage, credits: Number(credits) },
        model_versions: outcome.model_versions,
        ...parts.responseFields(outcome),
      };
    },
  };
  return operation;
}
