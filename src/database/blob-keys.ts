/**
 * The one layout of DATA_DIR/blobs (the BlobStore's keys), in one place:
 * - `<file_id>`: an uploaded document (`<uuid>.<extension>`), where uploads have always been,
 *   so existing data dirs and Redis workers reading the shared volume keep finding them;
 * - `results/<job_id>.json`: a job's result, deleted with the job or at retention;
 * - `payloads/<kind>/<id>.json`: a stored payload too large for a row (a job's request or
 *   metadata, a webhook body), deleted with the row that refers to it.
 */
export function jobResultKey(jobId: string): string {
  return `results/${jobId}.json`;
}

export const RESULTS_FOLDER = 'results';
export const PAYLOADS_FOLDER = 'payloads';

export function payloadKey(kind: string, id: string): string {
  return `${PAYLOADS_FOLDER}/${kind}/${id}.json`;
}
