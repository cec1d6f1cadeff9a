import { Injectable } from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import type { PipelineOutcome, WrittenJson } from '../../documents/executors/operation.task.js';
import { isWrittenJson } from '../../documents/executors/outcome-files.js';
import { JobResults } from '../jobs/job-results.js';
import { JobsService } from '../jobs/jobs.service.js';
import type { InputDocument } from '../core/input-document.js';
import { OperationExecutors } from '../operations/operation-executors.js';
import type { Submission, SyncAnswer } from '../jobs/job-pipeline.js';
import { billingOf, commandOf, responseOf } from '../operations/job-command.js';
import { OPERATIONS } from '../operations/operations.js';
import type { Billing } from '../operations/operation.js';
import { JobReconciler } from '../jobs/job-reconciler.js';
import { JobRunner } from '../jobs/job-runner.service.js';
import { RunnerPipeline } from '../jobs/runner-pipeline.js';
import type { JobRecord } from '../core/job.types.js';
import { PipelinesService } from './pipelines.service.js';
import { PIPELINE_TASK } from '../core/task-kinds.js';
import { type PipelineRunDto } from '../operations/pipeline/pipeline-request.dto.js';

/**
 * Runs of stored pipelines (`/pipeline`, `/pipeline_async`) on the shared JobRunner, as the
 * operations: job store, cpu queue, admission, rollout, outbox, webhooks, sync waits. The
 * pipeline is read and its versions resolved when the run is accepted (its plan is stored
 * with the job, so deleting or changing the pipeline later does not change a queued run);
 * the run reads the document once on the operations' executors. A run bills each step at
 * its operation's price under product `pipeline` (one usage event, feature = its steps).
 */
@Injectable()
export class PipelineJobsService extends RunnerPipeline<PipelineOutcome> {
  constructor(
    runner: JobRunner,
    reconciler: JobReconciler,
    private readonly pipelines: PipelinesService,
    private readonly executors: OperationExecutors,
    private readonly results: JobResults,
    private readonly jobs: JobsService,
  ) {
    super(PIPELINE_TASK, runner, reconciler);
  }

  private async submissionOf(
    principal: ProcessingPrincipal,
    config: PipelineRunDto,
    isAsync: boolean,
  ): Promise<Submission> {
    return this.submission(config, isAsync, {
      type: 'Pipeline',
      versions: await this.pipelines.planFor(principal.orgId, config.pipeline_id),
      persistResult: false,
      gatedWhenAsync: OPERATIONS.pipeline.gatedWhenAsync,
    });
  }

  async submitAsync(
    principal: ProcessingPrincipal,
    config: PipelineRunDto,
  ): Promise<{ job_id: string }> {
    return this.runner.submitAsync(
      this,
      principal,
      await this.submissionOf(principal, config, true),
    );
  }

  async runSync(
    principal: ProcessingPrincipal,
    config: PipelineRunDto,
    signal?: AbortSignal,
  ): Promise<SyncAnswer> {
    const submission = await this.submissionOf(principal, config, false);
    return this.runner.runSync(this, principal, submission, signal);
  }

  // ---- JobPipeline --------------------------------------------------------------------------

  /**
   * The executor writes the parse's and every extract or split step's result (each runs to
   * megabytes with the document) to files; their references stand where the values were.
   */
  run(job: JobRecord, documents: InputDocument[], signal?: AbortSignal): Promise<PipelineOutcome> {
    const task = OPERATIONS.pipeline.task(commandOf(job, 'pipeline'), documents);
    return this.executors.runPipeline(task, signal, this.results.stagingFor(job.jobId, task));
  }

  /** The result files the executor wrote: the parse's, then each step's. */
  written(outcome: PipelineOutcome): WrittenJson[] {
    const values: unknown[] = [outcome.parse.result, ...outcome.steps.map((s) => s.outcome.result)];
    return values.filter(isWrittenJson);
  }

  billing(job: JobRecord, outcome: PipelineOutcome): Billing {
    return billingOf(commandOf(job, 'pipeline'), outcome);
  }

  /** reductoai PipelineResponse: `result.{parse, extract, split}` (+ `classify`), `usage`. */
  result(
    job: JobRecord,
    outcome: PipelineOutcome,
    credits: string,
    durationSeconds: number,
    charged: string[] = [],
  ): Record<string, unknown> {
    const completion = { jobId: job.jobId, credits, durationSeconds, charged };
    return responseOf(commandOf(job, 'pipeline'), outcome, completion);
  }

  /**
   * The result file as it is (a pipeline's result holds the parse's, megabytes for a long
   * document: never parsed here), as for the operations' sync answers.
   */
  async syncResult(job: JobRecord): Promise<SyncAnswer> {
    return (await this.jobs.resultBody(job)) ?? {};
  }
}
