import type { OperationTask } from '../../documents/executors/operation.task.js';
import type { ParsedDocument } from '../../documents/parse/parsed-layout.js';
import type { DocumentSource } from '../../documents/readers/document.types.js';
import type { Product } from '../../usage/usage-event.js';
import type { JobType } from '../core/job.types.js';
import type { Class } from '../requests/request-validation.js';

/** A job's documents as its inputs were read: bytes, or the parse a jobid:// input names. */
export type TaskDocuments = {
  bytes: Uint8Array;
  fileName: string;
  /** A URL input's content type: a hint for types without magic bytes (`text/csv`). */
  contentType?: string | null;
  parsed?: ParsedDocument;
}[];

/** What one billable completion records: the usage event's dimensions and page counts. */
export interface Billing {
  product: Product;
  feature: string;
  /** Pages processed (billed). */
  pages: number;
  /** Pages in the input documents. */
  totalPages: number;
  fileType: string;
  /**
   * A job made of several billed steps (a pipeline): each step's feature and pages, priced
   * one by one under `product`; the credits are their sum. Absent: `feature` x `pages`.
   */
  charges?: { feature: string; pages: number }[];
}

/** What a completed job's response carries beside its outcome. */
export interface Completion {
  jobId: string;
  credits: string;
  durationSeconds: number;
  /** The credits of each of `Billing.charges`, in order, when it has them. */
  charged: string[];
}

/**
 * A job's work as a validated command: its operation, its request as an instance of the DTO
 * its endpoint validated it with, and the versions resolved when it was accepted.
 */
export interface Command<Name extends string, Request extends object, Versions> {
  operation: Name;
  request: Request;
  versions: Versions;
}

/**
 * One operation (classify, parse, extract, split, edit, a pipeline run): everything that
 * differs between kinds of jobs, in one place. Everything else (job store, queue, admission,
 * sync waits, cancellation, usage outbox, webhooks) is the same for every operation.
 */
export interface Operation<
  C extends Command<string, object, unknown>,
  Outcome,
  Task extends OperationTask = OperationTask,
> {
  /** The `type` column of `processing_jobs`: how a stored job names its operation. */
  jobType: JobType;
  /** The queue command kind of the job pipeline that runs it (core/task-kinds.ts). */
  taskKind: string;
  /** The request DTO its endpoint validates with and its stored request is read back through. */
  request: Class<C['request']>;
  /** Whether its jobs store the versions resolved at submission (`versions` is required). */
  storesVersions: boolean;
  /** Whether the admission cap holds its async requests too (the spec's "sync/parse requests"). */
  gatedWhenAsync: boolean;
  /**
   * Whether a stored request asks for the deep variant: the gpu worker kind's work, billed
   * as its own feature (`deep_<feature>`).
   */
  isDeep(request: Record<string, unknown>): boolean;
  /** The `document_password` its request carries, if any. */
  documentPassword(request: C['request']): string | undefined;
  /** The command and its documents as the one executor task. */
  task(command: C, documents: TaskDocuments): Task;
  /** What its completion bills. */
  billing(command: C, outcome: Outcome): Billing;
  /** The API response of a completed job (the sync answer and `GET /job`'s `result`). */
  response(command: C, outcome: Outcome, completion: Completion): Record<string, unknown>;
}

/** The parsed document of a jobid:// input, which is alone (InputResolver): it replaces reading. */
export function parsedOf(documents: TaskDocuments): ParsedDocument | undefined {
  return documents.find((d) => d.parsed)?.parsed;
}

/** The executor's sources: none for a jobid:// input (its parse stands), else the documents. */
export function sourcesOf(
  documents: TaskDocuments,
  password: string | undefined,
): DocumentSource[] {
  if (documents.some((d) => d.parsed)) return [];
  return documents.map((d) => ({
    bytes: d.bytes,
    name: d.fileName,
    ...(d.contentType && { contentType: d.contentType }),
    ...(password && { password }),
  }));
}

/** `settings` of a stored request, as an object. */
export function settingsOf(request: Record<string, unknown>): Record<string, unknown> {
  const settings = request.settings;
  return typeof settings === 'object' && settings !== null
    ? (settings as Record<string, unknown>)
    : {};
}

/** The feature a single-step operation bills: its product, or its deep variant. */
export function featureOf(
  product: Product,
  operation: Pick<Operation<Command<string, object, unknown>, unknown>, 'isDeep'>,
  request: object,
): string {
  return operation.isDeep(request as Record<string, unknown>) ? `deep_${product}` : product;
}
