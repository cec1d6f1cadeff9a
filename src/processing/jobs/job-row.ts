import type { JobRecord, JobState } from '../core/job.types.js';

/** A `processing_jobs` row as the repository selects it (`JOB_COLUMNS`). */
export interface JobRow {
  job_id: string;
  org_id: string;
  api_key_id: string;
  type: string;
  status: string;
  is_async: boolean;
  kept_for_polling: boolean;
  request: string;
  request_key: string | null;
  versions: string | null;
  document_password: string | null;
  metadata: string | null;
  result_key: string | null;
  document_key: string | null;
  result_bytes: bigint | null;
  reason: string | null;
  error_code: string | null;
  error_status: number | null;
  progress: number;
  attempts: number;
  num_pages: number | null;
  total_pages: number | null;
  persist_result: boolean;
  result_expired: boolean;
  cancel_requested: boolean;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export const JOB_COLUMNS = `job_id, org_id, api_key_id, type, status, is_async, kept_for_polling, CAST(request AS VARCHAR) AS request, request_key, CAST(versions AS VARCHAR) AS versions, document_password,
  CAST(metadata AS VARCHAR) AS metadata, result_key, document_key, result_bytes, reason, error_code,
  error_status, progress, attempts, num_pages, total_pages, persist_result, result_expired,
  cancel_requested, created_at, started_at, finished_at`;

export function withoutRow(record: JobRecord & { row: unknown }): JobRecord {
  const plain: JobRecord & { row?: unknown } = { ...record };
  delete plain.row;
  return plain;
}

export function toRecord(row: JobRow, request: Record<string, unknown>): JobRecord {
  return {
    jobId: row.job_id,
    orgId: row.org_id,
    apiKeyId: row.api_key_id,
    type: row.type as JobRecord['type'],
    state: row.status as JobState,
    isAsync: row.is_async,
    keptForPolling: row.kept_for_polling,
    request,
    versions: row.versions === null ? null : (JSON.parse(row.versions) as unknown),
    metadata: row.metadata === null ? undefined : (JSON.parse(row.metadata) as unknown),
    resultKey: row.result_key,
    documentKey: row.document_key,
    resultBytes: row.result_bytes === null ? null : Number(row.result_bytes),
    reason: row.reason,
    errorCode: row.error_code,
    errorStatus: row.error_status === null ? null : Number(row.error_status),
    progress: Number(row.progress),
    attempts: Number(row.attempts),
    numPages: row.num_pages === null ? null : Number(row.num_pages),
    totalPages: row.total_pages === null ? null : Number(row.total_pages),
    persistResult: row.persist_result,
    resultExpired: row.result_expired,
    cancelRequested: row.cancel_requested,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
