/**
 * The one layout of DATA_DIR/blobs (the BlobStore's keys), in one place:
 * - `<file_id>`: an uploaded document (`<uuid>.<extension>`), where uploads have always been,
 *   so existing data dirs and Redis workers reading the shared volume keep finding them;
 * - `results/<job_id>.json`: a job's result, deleted with the job or at retention;
 * - `results/<job_id>.parsed.json`: the lines a parse job read, beside its result (the
 *   document a `jobid://` input reuses), deleted with the result;
 * - `results/<job_id>.document.<ext>`: a document the job made (edit), kept as its result;
 * - `payloads/<kind>/<id>.json`: a stored payload too large for a row (a job's request or
 *   metadata, a webhook body), deleted with the row that refers to it.
 */
export function jobResultKey(jobId: string): string {
  return `results/${jobId}.json`;
}

const RESULT_SUFFIX = '.json';
const PARSED_SUFFIX = '.parsed.json';

/** The parsed document kept beside a job's result file (`resultKey`). */
export function parsedDocumentKey(resultKey: string): string {
  return resultKey.endsWith(RESULT_SUFFIX)
    ? `${resultKey.slice(0, -RESULT_SUFFIX.length)}${PARSED_SUFFIX}`
    : `${resultKey}${PARSED_SUFFIX}`;
}

/** The result file a parsed document belongs to, or null for any other key. */
export function resultKeyOfParsedDocument(key: string): string | null {
  if (!key.startsWith(`${RESULTS_FOLDER}/`) || !key.endsWith(PARSED_SUFFIX)) return null;
  return `${key.slice(0, -PARSED_SUFFIX.length)}${RESULT_SUFFIX}`;
}

/** The job a result file (`results/<job_id>.json`) or its parsed document belongs to. */
export function jobOfResultKey(key: string): string | null {
  const resultKey = resultKeyOfParsedDocument(key) ?? key;
  if (!resultKey.startsWith(`${RESULTS_FOLDER}/`) || !resultKey.endsWith(RESULT_SUFFIX))
    return null;
  const jobId = resultKey.slice(RESULTS_FOLDER.length + 1, -RESULT_SUFFIX.length);
  return jobId.includes('/') || jobId.includes('.') ? null : jobId;
}

/** A document a job made (edit's filled form), deleted with the job or at retention. */
export function jobDocumentKey(jobId: string, extension: string): string {
  return `results/${jobId}.document.${extension}`;
}

export const RESULTS_FOLDER = 'results';
export const PAYLOADS_FOLDER = 'payloads';

export function payloadKey(kind: string, id: string): string {
  return `${PAYLOADS_FOLDER}/${kind}/${id}.json`;
}
