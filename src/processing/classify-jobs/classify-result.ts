import type { ClassificationOutcome } from './classification-runner.js';

/** The classify response (DESIGN.md "Compatibility target"). */
export interface ClassifyResult {
  job_id: string;
  response_type: 'classify';
  result: { category: string | null };
  response_confidence?: { categories: ClassificationOutcome['categories'] };
  usage: { num_pages: number; num_categories: number; credits: number };
  duration: number;
  extra_metadata?: { grouping: string };
}

export function buildClassifyResult(
  jobId: string,
  outcome: ClassificationOutcome,
  credits: string,
  durationSeconds: number,
  grouping: string | undefined,
): ClassifyResult {
  return {
    job_id: jobId,
    response_type: 'classify',
    result: { category: outcome.category },
    response_confidence: { categories: outcome.categories },
    usage: {
      num_pages: outcome.numPages,
      num_categories: outcome.categories.length,
      credits: Number(credits),
    },
    duration: durationSeconds,
    ...(grouping !== undefined ? { extra_metadata: { grouping } } : {}),
  };
}
