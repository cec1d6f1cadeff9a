import { groupOf } from '../../../documents/classify/grouping.js';
import type {
  ClassifyOperationTask,
  ClassifyTaskResult,
} from '../../../documents/executors/operation.task.js';
import { CLASSIFY_TASK } from '../../core/task-kinds.js';
import { type Command, featureOf, type Operation, parsedOf, sourcesOf } from '../operation.js';
import { buildClassifyResult } from './classify.response.js';
import { ClassifyConfigDto } from './classify-request.dto.js';

/** A classify job's command: classify pins no versions. */
export type ClassifyCommand = Command<'classify', ClassifyConfigDto, null>;

/**
 * Classification: billed by model (`classify`, `deep_classify` for `model: accurate`), the
 * DESIGN.md result shape with `extra_metadata.grouping` when the request groups categories.
 */
export const CLASSIFY: Operation<ClassifyCommand, ClassifyTaskResult, ClassifyOperationTask> = {
  jobType: 'Classify',
  taskKind: CLASSIFY_TASK,
  request: ClassifyConfigDto,
  storesVersions: false,
  gatedWhenAsync: false,
  isDeep: (request) => request.model === 'accurate',
  documentPassword: () => undefined,
  task({ request }, documents) {
    const parsed = parsedOf(documents);
    return {
      kind: 'classify',
      documents: sourcesOf(documents, undefined),
      ...(parsed && { parsed }),
      pageRange: request.page_range ?? undefined,
      classificationSchema: request.classification_schema,
      documentMetadata: request.document_metadata,
      categoryGroups: request.category_groups ?? null,
      model: request.model,
    };
  },
  billing({ request }, outcome) {
    return {
      product: 'classify',
      feature: featureOf('classify', CLASSIFY, request),
      pages: outcome.output.usage.num_pages,
      totalPages: outcome.document.totalPages,
      fileType: outcome.document.fileType,
    };
  },
  response({ request }, outcome, { jobId, credits, durationSeconds }) {
    const grouping = request.category_groups
      ? (outcome.output.extra_metadata?.grouping ??
        groupOf(outcome.output.result.category, request.category_groups ?? {}))
      : undefined;
    return { ...buildClassifyResult(jobId, outcome, credits, durationSeconds, grouping) };
  },
};
