import type { OnModuleInit } from '@nestjs/common';
import type { Billing } from '../operations/operation.js';
import { jobTypesOfTask } from '../operations/operations.js';
import type { InputDocument } from '../core/input-document.js';
import type { ClassifyInputValue } from '../inputs/input-resolver.service.js';
import type { JobRecord, JobType } from '../core/job.types.js';
import { type JobPipeline, laneFor, type LaneFields, type Submission } from './job-pipeline.js';
import type { JobReconciler } from './job-reconciler.js';
import type { JobRunner } from './job-runner.service.js';

/** A request body as every kind of job submits it. */
export type SubmittedRequest = LaneFields & {
  input: ClassifyInputValue;
  async: { metadata?: unknown };
};

/** What a kind of job decides of a submission; the rest comes from the request. */
export interface SubmissionOptions {
  type: JobType;
  /** The versions resolved as the request is accepted; null for none. */
  versions: unknown;
  persistResult: boolean;
  /** Whether the admission cap applies to async requests too (it always does to sync ones). */
  gatedWhenAsync: boolean;
}

/**
 * A kind of job on the shared JobRunner (classify; parse, extract, split, edit; pipelines):
 * it is registered with the runner and the reconciler as the module starts, and its requests
 * are stored as sent (their JSON form) with their async metadata and the lane they ask for.
 * Subclasses add how a stored request runs and how its outcome is billed and shown.
 */
export abstract class RunnerPipeline<Outcome> implements JobPipeline<Outcome>, OnModuleInit {
  readonly jobTypes: readonly JobType[];

  protected constructor(
    readonly taskKind: string,
    protected readonly runner: JobRunner,
    private readonly reconciler: JobReconciler,
  ) {
    this.jobTypes = jobTypesOfTask(taskKind);
  }

  onModuleInit(): void {
    this.runner.register(this);
    this.reconciler.watch(this);
  }

  abstract run(job: JobRecord, documents: InputDocument[], signal?: AbortSignal): Promise<Outcome>;

  abstract billing(job: JobRecord, outcome: Outcome): Billing;

  abstract result(
    job: JobRecord,
    outcome: Outcome,
    credits: string,
    durationSeconds: number,
    charged?: string[],
  ): Record<string, unknown>;

  protected submission(
    config: SubmittedRequest,
    isAsync: boolean,
    options: SubmissionOptions,
  ): Submission {
    const body = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
    return {
      type: options.type,
      request: { ...body, input: config.input },
      versions: options.versions,
      isAsync,
      metadata: isAsync ? config.async.metadata : undefined,
      persistResult: options.persistResult,
      lane: laneFor(config, isAsync),
      gated: !isAsync || options.gatedWhenAsync,
    };
  }
}
