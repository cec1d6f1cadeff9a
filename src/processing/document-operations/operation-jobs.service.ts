import { Injectable } from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import type { InputDocument } from '../core/input-document.js';
import type { JobDocument, Submission, SyncAnswer } from '../jobs/job-pipeline.js';
import {
  billingOf,
  commandOfJob,
  executorTaskFor,
  type OperationCommand,
  responseOf,
} from '../operations/job-command.js';
import { OPERATIONS } from '../operations/operations.js';
import type { Billing } from '../operations/operation.js';
import type { DocumentOperationOutcome as JobOutcome } from '../operations/document-operation.js';
import { JobReconciler } from '../jobs/job-reconciler.js';
import { JobRunner } from '../jobs/job-runner.service.js';
import { RunnerPipeline } from '../jobs/runner-pipeline.js';
import type { JobRecord } from '../core/job.types.js';
import { JobsService } from '../jobs/jobs.service.js';
import { ParsedInputs } from '../inputs/parsed-inputs.js';
import { VersionRegistry } from '../versions/version-registry.service.js';
import type { OperationBaseDto } from '../requests/operation-requests.dto.js';
import { OperationExecutors } from '../operations/operation-executors.js';
import {
  type OperationKind,
  type DocumentOperationTask,
  type WrittenJson,
} from '../../documents/executors/operation.task.js';
import { isWrittenJson } from '../../documents/executors/outcome-files.js';
import { JobResults } from '../jobs/job-results.js';
import { OPERATION_TASK } from '../core/task-kinds.js';
import {
  type EditConfigDto,
  editJobRequest,
  inEditBody,
} from '../operations/edit/edit-request.dto.js';

/** The validated command of an operation job's stored request. */
function operationCommandOf(job: JobRecord): OperationCommand {
  const command = commandOfJob(job);
  if (OPERATIONS[command.operation].taskKind !== OPERATION_TASK)
    throw new Error(`job ${job.jobId} is not an operation`);
  return command as OperationCommand;
}

/**
 * Parse, extract, split and edit jobs on the shared JobRunner (job store, cpu queue, admission,
 * outbox, webhooks), as classification: sync requests wait for their job, async ones
 * return its id. Versions are resolved (and pins checked) when the request is accepted and
 * stored with the job, so a queued job runs with what it was accepted with; the work runs
 * on the process's OperationExecutors.
 */
@Injectable()
export class OperationJobsService extends RunnerPipeline<JobOutcome> {
  constructor(
    private readonly executors: OperationExecutors,
    runner: JobRunner,
    reconciler: JobReconciler,
    private readonly registry: VersionRegistry,
    private readonly jobs: JobsService,
    private readonly parsed: ParsedInputs,
    private readonly results: JobResults,
  ) {
    super(OPERATION_TASK, runner, reconciler);
  }

  private submissionOf(
    kind: OperationKind,
    config: OperationBaseDto,
    isAsync: boolean,
  ): Submission {
    const body = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
    return this.submission(config, isAsync, {
      type: OPERATIONS[kind].jobType,
      // 422s for pins and the extract schema, before anything is stored or fetched.
      versions: OPERATIONS[kind].resolveVersions(body, this.registry),
      persistResult: false,
      // The spec's admission cap covers "sync/parse requests": parse jobs, async included.
      gatedWhenAsync: OPERATIONS[kind].gatedWhenAsync,
    });
  }

  async submitEditAsync(
    principal: ProcessingPrincipal,
    config: EditConfigDto,
  ): Promise<{ job_id: string }> {
    try {
      return await this.submitAsync('edit', principal, editJobRequest(config, true));
    } catch (error) {
      throw inEditBody(error);
    }
  }

  runEditSync(
    principal: ProcessingPrincipal,
    config: EditConfigDto,
    signal?: AbortSignal,
  ): Promise<SyncAnswer> {
    return this.runSync('edit', principal, editJobRequest(config, false), signal);
  }

  submitAsync(
    kind: OperationKind,
    principal: ProcessingPrincipal,
    config: OperationBaseDto,
  ): Promise<{ job_id: string }> {
    return this.runner.submitAsync(this, principal, this.submissionOf(kind, config, true));
  }

  runSync(
    kind: OperationKind,
    principal: ProcessingPrincipal,
    config: OperationBaseDto,
    signal?: AbortSignal,
  ): Promise<SyncAnswer> {
    return this.runner.runSync(this, principal, this.submissionOf(kind, config, false), signal);
  }

  // ---- JobPipeline --------------------------------------------------------------------------

  async run(job: JobRecord, documents: InputDocument[], signal?: AbortSignal): Promise<JobOutcome> {
    // The executor writes the result (megabytes for a long document; an edit's document
    // and report) to files itself.
    const task = executorTaskFor(operationCommandOf(job), documents) as DocumentOperationTask;
    const outcome = await this.executors.runOperationToFiles(
      task,
      this.results.stagingFor(job.jobId, task),
      signal,
    );
    // A parse keeps the lines it read beside its result, for jobid:// inputs.
    return this.parsed.keep(job.jobId, outcome);
  }

  written(outcome: JobOutcome): WrittenJson[] {
    if ('edited' in outcome && 'written' in outcome.edited) {
      const { form_schema, report } = outcome.result as Record<string, unknown>;
      return [outcome.edited.written, form_schema, report].filter(isWrittenJson);
    }
    return isWrittenJson(outcome.result) ? [outcome.result] : [];
  }

  billing(job: JobRecord, outcome: JobOutcome): Billing {
    return billingOf(operationCommandOf(job), outcome);
  }

  /** The response body: the reductoai shape of each operation, plus `model_versions`. */
  result(
    job: JobRecord,
    outcome: JobOutcome,
    credits: string,
    durationSeconds: number,
  ): Record<string, unknown> {
    const completion = { jobId: job.jobId, credits, durationSeconds, charged: [] };
    return responseOf(operationCommandOf(job), outcome, completion);
  }

  /** The edited document of an edit job (the file its executor wrote), stored beside its result. */
  document(_job: JobRecord, outcome: JobOutcome): JobDocument | undefined {
    if (!('edited' in outcome)) return undefined;
    const { extension } = outcome.edited;
    return 'written' in outcome.edited
      ? { written: outcome.edited.written, extension }
      : { bytes: Buffer.from(outcome.edited.base64, 'base64'), extension };
  }

  /**
   * The result file as it is (results run to megabytes: never parsed here), or for
   * `force_url_result` the answer pointing at the signed result URL, as `GET /job` does.
   */
  async syncResult(job: JobRecord): Promise<SyncAnswer> {
    return (await this.jobs.resultBody(job)) ?? {};
  }
}
