import { Inject, Injectable } from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { RequestValidationError } from '../../common/validation-error.js';
import type { Submission, SyncAnswer } from '../jobs/job-pipeline.js';
import { JobReconciler } from '../jobs/job-reconciler.js';
import { JobRunner } from '../jobs/job-runner.service.js';
import { RunnerPipeline } from '../jobs/runner-pipeline.js';
import { billingOf, commandOf, responseOf } from '../operations/job-command.js';
import { OPERATIONS } from '../operations/operations.js';
import type { Billing } from '../operations/operation.js';
import { OperationExecutors } from '../operations/operation-executors.js';
import type { ClassifyTaskResult } from '../../documents/executors/operation.task.js';
import { type JobRecord } from '../core/job.types.js';
import { PAGE_RANGE_INVALID } from '../core/processing-error.js';
import { JobsService } from '../jobs/jobs.service.js';
import { checkClassifyLimits } from '../requests/classify-limits.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { type InputDocument } from '../core/input-document.js';
import { CLASSIFY_TASK } from '../core/task-kinds.js';
import { type ClassifyConfigDto } from '../operations/classify/classify-request.dto.js';

/**
 * Classification jobs: `POST /classify` (sync) and `/classify_async` on the shared
 * JobRunner. What is classification's own: the request -> runner input, billing by model
 * (`classify` / `deep_classify`), the DESIGN.md result shape with `extra_metadata.grouping`,
 * `force_url_result`, and a `page_range` the document cannot satisfy answered with a 422.
 */
@Injectable()
export class ClassifyJobsService extends RunnerPipeline<ClassifyTaskResult> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    runner: JobRunner,
    reconciler: JobReconciler,
    private readonly jobsService: JobsService,
    private readonly executors: OperationExecutors,
  ) {
    super(CLASSIFY_TASK, runner, reconciler);
  }

  private submissionOf(config: ClassifyConfigDto, isAsync: boolean): Submission {
    checkClassifyLimits(config, this.config.processing.classifyLimits);
    return this.submission(config, isAsync, {
      type: 'Classify',
      versions: null,
      persistResult: config.persist_results,
      gatedWhenAsync: OPERATIONS.classify.gatedWhenAsync,
    });
  }

  submitAsync(
    principal: ProcessingPrincipal,
    config: ClassifyConfigDto,
  ): Promise<{ job_id: string }> {
    return this.runner.submitAsync(this, principal, this.submissionOf(config, true));
  }

  runSync(
    principal: ProcessingPrincipal,
    config: ClassifyConfigDto,
    signal?: AbortSignal,
  ): Promise<SyncAnswer> {
    return this.runner.runSync(this, principal, this.submissionOf(config, false), signal);
  }

  // ---- JobPipeline --------------------------------------------------------------------------

  run(
    job: JobRecord,
    documents: InputDocument[],
    signal?: AbortSignal,
  ): Promise<ClassifyTaskResult> {
    const command = commandOf(job, 'classify');
    return this.executors.runClassify(OPERATIONS.classify.task(command, documents), signal);
  }

  billing(job: JobRecord, outcome: ClassifyTaskResult): Billing {
    return billingOf(commandOf(job, 'classify'), outcome);
  }

  result(
    job: JobRecord,
    outcome: ClassifyTaskResult,
    credits: string,
    durationSeconds: number,
  ): Record<string, unknown> {
    const completion = { jobId: job.jobId, credits, durationSeconds, charged: [] };
    return responseOf(commandOf(job, 'classify'), outcome, completion);
  }

  /** `force_url_result`: the sync answer points at the signed result URL, as `GET /job` does. */
  async syncResult(job: JobRecord): Promise<Record<string, unknown>> {
    return (await this.jobsService.resultView(job)) ?? {};
  }

  syncFailure(job: JobRecord): Error | undefined {
    if (job.errorCode !== PAGE_RANGE_INVALID) return undefined;
    const { request } = commandOf(job, 'classify');
    return new RequestValidationError([
      {
        loc: ['body', 'page_range'],
        msg: `Value error, ${job.reason}`,
        type: 'value_error',
        input: request.page_range,
        ctx: { error: job.reason },
      },
    ]);
  }
}
