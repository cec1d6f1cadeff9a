import { Injectable, OnModuleInit } from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import type { PipelineOutcome } from '../../documents/executors/operation.task.js';
import type { InputDocument } from '../core/input-document.js';
import { OperationExecutors } from '../operations/operation-executors.js';
import {
  type Billing,
  type JobPipeline,
  laneFor,
  type Submission,
  type SyncAnswer,
} from '../jobs/job-pipeline.js';
import { commandOfJob, type PipelineCommand, pipelineTaskFor } from '../operations/job-command.js';
import { JobReconciler } from '../jobs/job-reconciler.js';
import { JobRunner } from '../jobs/job-runner.service.js';
import type { JobRecord } from '../core/job.types.js';
import type { PipelineRunDto } from '../requests/pipeline-run.dto.js';
import { PipelinesService } from './pipelines.service.js';
import { PIPELINE_TASK } from '../core/task-kinds.js';

function pipelineCommandOf(job: JobRecord): PipelineCommand {
  const command = commandOfJob(job);
  if (command.operation !== 'pipeline') throw new Error(`job ${job.jobId} is not a pipeline`);
  return command;
}

/** The feature a step bills under product `pipeline`: its operation's own feature. */
function stepCharges(outcome: PipelineOutcome, command: PipelineCommand) {
  const charges = [{ feature: 'parse', pages: outcome.parse.usage.num_pages }];
  for (const step of outcome.steps) {
    switch (step.kind) {
      case 'extract': {
        const deep = step.outcome.model_versions.deep_extract_model !== undefined;
        charges.push({
          feature: deep ? 'deep_extract' : 'extract',
          pages: step.outcome.usage.num_pages,
        });
        break;
      }
      case 'split': {
        const deep = step.outcome.model_versions.deep_split_model !== undefined;
        charges.push({
          feature: deep ? 'deep_split' : 'split',
          pages: step.outcome.usage.num_pages,
        });
        break;
      }
      case 'classify': {
        const plan = command.versions.steps.find((s) => s.kind === 'classify');
        const deep = plan?.kind === 'classify' && plan.request.model === 'accurate';
        charges.push({
          feature: deep ? 'deep_classify' : 'classify',
          pages: step.outcome.usage.num_pages,
        });
        break;
      }
    }
  }
  return charges;
}

/**
 * Runs of stored pipelines (`/pipeline`, `/pipeline_async`) on the shared JobRunner, as the
 * operations: job store, cpu queue, admission, rollout, outbox, webhooks, sync waits. The
 * pipeline is read and its versions resolved when the run is accepted (its plan is stored
 * with the job, so deleting or changing the pipeline later does not change a queued run);
 * the run reads the document once on the operations' executors. A run bills each step at
 * its operation's price under product `pipeline` (one usage event, feature = its steps).
 */
@Injectable()
export class PipelineJobsService implements JobPipeline<PipelineOutcome>, OnModuleInit {
  readonly taskKind = PIPELINE_TASK;
  readonly jobTypes = ['Pipeline'] as const;

  constructor(
    private readonly runner: JobRunner,
    private readonly reconciler: JobReconciler,
    private readonly pipelines: PipelinesService,
    private readonly executors: OperationExecutors,
  ) {}

  onModuleInit(): void {
    this.runner.register(this);
    this.reconciler.watch(this);
  }

  private async submission(
    principal: ProcessingPrincipal,
    config: PipelineRunDto,
    isAsync: boolean,
  ): Promise<Submission> {
    const plan = await this.pipelines.planFor(principal.orgId, config.pipeline_id);
    const body = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
    return {
      type: 'Pipeline',
      request: { ...body, input: config.input },
      versions: plan,
      isAsync,
      metadata: isAsync ? config.async.metadata : undefined,
      persistResult: false,
      lane: laneFor(config, isAsync),
      // A pipeline starts with a parse: the spec's cap on "sync/parse requests" covers it.
      gated: true,
    };
  }

  async submitAsync(
    principal: ProcessingPrincipal,
    config: PipelineRunDto,
  ): Promise<{ job_id: string }> {
    return this.runner.submitAsync(this, principal, await this.submission(principal, config, true));
  }

  async runSync(
    principal: ProcessingPrincipal,
    config: PipelineRunDto,
    signal?: AbortSignal,
  ): Promise<SyncAnswer> {
    const submission = await this.submission(principal, config, false);
    return this.runner.runSync(this, principal, submission, signal);
  }

  // ---- JobPipeline --------------------------------------------------------------------------

  run(job: JobRecord, documents: InputDocument[], signal?: AbortSignal): Promise<PipelineOutcome> {
    return this.executors.runPipeline(pipelineTaskFor(pipelineCommandOf(job), documents), signal);
  }

  billing(job: JobRecord, outcome: PipelineOutcome): Billing {
    const charges = stepCharges(outcome, pipelineCommandOf(job));
    return {
      product: 'pipeline',
      feature: charges.map((c) => c.feature).join('+'),
      pages: outcome.usage.num_pages,
      totalPages: outcome.document.totalPages,
      fileType: outcome.document.fileType,
      charges,
    };
  }

  /** reductoai PipelineResponse: `result.{parse, extract, split}` (+ `classify`), `usage`. */
  result(
    job: JobRecord,
    outcome: PipelineOutcome,
    credits: string,
    duration: number,
    charged: string[] = [],
  ): Record<string, unknown> {
    // Charges are the parse's, then one per step, in order (stepCharges).
    const creditsOf = (index: number) => ({ credits: Number(charged[index] ?? 0) });
    const charges = stepCharges(outcome, pipelineCommandOf(job));
    const breakdown: Record<string, number> = {};
    charges.forEach((charge, index) => {
      breakdown[charge.feature] = (breakdown[charge.feature] ?? 0) + creditsOf(index).credits;
    });
    const parts: Record<string, unknown> = {
      parse: {
        duration,
        result: outcome.parse.result,
        usage: { ...outcome.parse.usage, ...creditsOf(0) },
        model_versions: outcome.parse.model_versions,
        pdf_url: null,
        studio_link: null,
      },
      extract: null,
      split: null,
      classify: null,
    };
    for (const [index, step] of outcome.steps.entries()) {
      const usage = { ...step.outcome.usage, ...creditsOf(index + 1) };
      if (step.kind === 'classify') {
        parts.classify = { ...step.outcome, usage };
        continue;
      }
      parts[step.kind] = {
        result: step.outcome.result,
        usage,
        model_versions: step.outcome.model_versions,
        ...(step.kind === 'extract' && { studio_link: null }),
        ...('category' in step && step.category !== undefined && { category: step.category }),
      };
    }
    return {
      job_id: job.jobId,
      duration,
      result: parts,
      usage: {
        num_pages: outcome.usage.num_pages,
        credits: Number(credits),
        credit_breakdown: breakdown,
      },
      model_versions: outcome.model_versions,
    };
  }
}
