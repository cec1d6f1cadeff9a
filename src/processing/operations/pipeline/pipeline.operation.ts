import type { PipelineOutcome, PipelineTask } from '../../../documents/executors/operation.task.js';
import type { PipelinePlan } from '../../core/pipeline-plan.js';
import { PIPELINE_TASK } from '../../core/task-kinds.js';
import { type Command, type Operation, parsedOf, sourcesOf } from '../operation.js';
import { CLASSIFY } from '../classify/classify.operation.js';
import { PipelineRunDto } from './pipeline-request.dto.js';

/** A pipeline job's command: the run's body and the plan it was accepted with. */
export type PipelineCommand = Command<'pipeline', PipelineRunDto, PipelinePlan>;

/** The feature a step bills under product `pipeline`: its operation's own feature. */
function stepCharges(outcome: PipelineOutcome, command: PipelineCommand) {
  const charges = [{ feature: 'parse', pages: outcome.parse.usage.num_pages }];
  for (const step of outcome.steps) {
    // A classify step's deep variant is its planned request's; an extract (or a category's
    // extract) or split step ran deep when it reports its deep model's version.
    const deep =
      step.kind === 'classify'
        ? command.versions.steps.some(
            (s) =>
              s.kind === 'classify' &&
              CLASSIFY.isDeep(s.request as object as Record<string, unknown>),
          )
        : step.outcome.model_versions[`deep_${step.kind}_model`] !== undefined;
    charges.push({
      feature: deep ? `deep_${step.kind}` : step.kind,
      pages: step.outcome.usage.num_pages,
    });
  }
  return charges;
}

/**
 * Runs of stored pipelines: the plan (steps with resolved versions) run as one task on the
 * operations' executors; a run bills each step at its operation's price under product
 * `pipeline` (one usage event, feature = its steps); reductoai's PipelineResponse.
 */
export const PIPELINE: Operation<PipelineCommand, PipelineOutcome, PipelineTask> = {
  jobType: 'Pipeline',
  taskKind: PIPELINE_TASK,
  request: PipelineRunDto,
  storesVersions: true,
  // A pipeline starts with a parse: the spec's cap on "sync/parse requests" covers it.
  gatedWhenAsync: true,
  // Its steps' deep variants are in its stored plan; the run as a whole is cpu work.
  isDeep: () => false,
  documentPassword: (request) => request.settings?.document_password ?? undefined,
  task(command, documents) {
    const parsed = parsedOf(documents);
    return {
      kind: 'pipeline',
      documents: sourcesOf(documents, PIPELINE.documentPassword(command.request)),
      ...(parsed && { parsed }),
      parse: command.versions.parse,
      steps: command.versions.steps,
    };
  },
  billing(command, outcome) {
    const charges = stepCharges(outcome, command);
    return {
      product: 'pipeline',
      feature: charges.map((c) => c.feature).join('+'),
      pages: outcome.usage.num_pages,
      totalPages: outcome.document.totalPages,
      fileType: outcome.document.fileType,
      charges,
    };
  },
  /** reductoai PipelineResponse: `result.{parse, extract, split}` (+ `classify`), `usage`. */
  response(command, outcome, { jobId, credits, durationSeconds: duration, charged }) {
    // Charges are the parse's, then one per step, in order (stepCharges).
    const creditsOf = (index: number) => ({ credits: Number(charged[index] ?? 0) });
    const charges = stepCharges(outcome, command);
    const breakdown: Record<string, number> = {};
    charges.forEach((charge, index) => {
      breakdown[charge.feature] = (breakdown[charge.feature] ?? 0) + creditsOf(index).credits;
    });
    const parts: Record<string, unknown> = {
      // The parse ran in this job: its id is the pipeline's (the SDK's ParseResponse needs one).
      parse: {
        job_id: jobId,
        response_type: 'parse',
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
        response_type: step.kind === 'extract' ? 'v3_extract' : step.kind,
        result: step.outcome.result,
        usage,
        model_versions: step.outcome.model_versions,
        ...(step.kind === 'extract' && { studio_link: null }),
        ...('category' in step && step.category !== undefined && { category: step.category }),
      };
    }
    return {
      job_id: jobId,
      response_type: 'pipeline',
      duration,
      result: parts,
      usage: {
        num_pages: outcome.usage.num_pages,
        credits: Number(credits),
        credit_breakdown: breakdown,
      },
      model_versions: outcome.model_versions,
    };
  },
};
