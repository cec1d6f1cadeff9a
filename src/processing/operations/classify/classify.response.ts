import type { ClassifyTaskResult } from '../../../documents/executors/operation.task.js';

/** The classify response (DESIGN.md "Compatibility target"). */
interface ClassifyResult {
  job_id: string;
  response_type: 'classify';
  result: { category: string | null };
  response_confidence?: ClassifyTaskResult['output']['response_confidence'];
  usage: { num_pages: number; num_categories: number; credits: number };
  duration: number;
  extra_metadata?: { grouping: string };
}

/** The response of a classification: the engine's output, with the job's id, credits and time. */
export function buildClassifyResult(
  jobId: string,
  { output }: ClassifyTaskResult,
  credits: string,
  durationSeconds: number,
  grouping: string | undefined,
): ClassifyResult {
  const { categories } = output.response_confidence;
  return {
    job_id: jobId,
    response_type: 'classify',
    result: { category: output.result.category },
    response_confidence: { categories },
    usage: {
      num_pages: output.usage.num_pages,
      num_categories: categories.length,
      credits: Number(credits),
    },
    duration: durationSeconds,
    ...(grouping !== undefined ? { extra_metadata: { grouping } } : {}),
  };
}
