import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { RequestValidationError } from '../../common/validation-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { OperationPool } from '../../documents/executors/operation.pool.js';
import type {
  OperationKind,
  OperationOutcome,
  OperationTask,
  OutcomeFiles,
} from '../../documents/executors/operation.task.js';
import type { ResolvedVersion } from '../../documents/versions/model-version.types.js';
import type { Submission } from '../jobs/job-pipeline.js';
import type { JobReconciler } from '../jobs/job-reconciler.js';
import type { JobResults } from '../jobs/job-results.js';
import type { JobRunner } from '../jobs/job-runner.service.js';
import type { JobRecord } from '../core/job.types.js';
import type { ParsedInputs } from '../inputs/parsed-inputs.js';
import type { JobsService } from '../jobs/jobs.service.js';
import { validateModel } from '../requests/request-validation.js';
import type { VersionRegistry } from '../versions/version-registry.service.js';
import { OperationJobsService } from './operation-jobs.service.js';
import { OPERATION_TASK } from '../core/task-kinds.js';
import { type OperationBaseDto } from '../requests/operation-requests.dto.js';
import { OperationExecutors } from '../operations/operation-executors.js';
import { ExtractConfigDto } from '../operations/extract/extract-request.dto.js';
import { ParseConfigDto } from '../operations/parse/parse-request.dto.js';
import { SplitConfigDto } from '../operations/split/split-request.dto.js';
import { EditJobRequestDto } from '../operations/edit/edit-request.dto.js';

const principal = { orgId: 'org_1', keyId: 'pk_1' } as ProcessingPrincipal;
const config = {
  processing: { cpuWorkerConcurrency: 1, cpuWorkerWarmThreads: 0, executors: {} },
  operations: {
    legacyWorkers: { enabled: true, priorityCount: 0, gpuEnabled: false, gpuConcurrency: 1 },
  },
} as unknown as AppConfig;
const input = 'https://files.test/a.pdf';
const schema = { type: 'object', properties: { total: { type: 'number' } } };
const DTOS = {
  parse: ParseConfigDto,
  extract: ExtractConfigDto,
  split: SplitConfigDto,
  edit: EditJobRequestDto,
};
const BODIES: Record<OperationKind, Record<string, unknown>> = {
  parse: { input },
  extract: { input, instructions: { schema } },
  split: { input, split_description: [{ name: 'invoice', description: 'an invoice' }] },
  edit: { input, edit_instructions: 'name: Ada Lovelace' },
};

/** An operation request as the API validated it (defaults applied by its DTO). */
function request(kind: OperationKind, body: Record<string, unknown> = {}): OperationBaseDto {
  const { instance, issues } = validateModel<OperationBaseDto>(DTOS[kind], {
    ...BODIES[kind],
    ...body,
  });
  if (!instance) throw new Error(JSON.stringify(issues));
  return instance;
}

const outcome = {
  result: { chunks: [] },
  usage: { num_pages: 3 },
  document: { totalPages: 9, fileType: 'pdf' },
  model_versions: { layout_model: { version: '1.0', stage: 'default', pinned: false } },
} as unknown as OperationOutcome;

const filesOf = (jobId: string): OutcomeFiles => ({
  root: '/data/blobs',
  result: `results/.${jobId}.json.staged`,
  layout: `results/.${jobId}.parsed.json.staged`,
  parts: [],
});

function setUp() {
  const runner = {
    register: jest.fn(),
    submitAsync: jest.fn(async (..._args: unknown[]) => ({ job_id: 'job_1' })),
    runSync: jest.fn(async (..._args: unknown[]) => ({})),
  };
  const reconciler = { watch: jest.fn() };
  const registry = {
    resolve: jest.fn(
      (family: string, requested: string | undefined, _loc: unknown[]): ResolvedVersion => ({
        family,
        version: requested ?? '1.0',
        engine: `${family}-engine`,
        stage: 'default',
        pinned: requested !== undefined,
        frozenSnapshot: false,
      }),
    ),
  };
  const jobsService = { resultBody: jest.fn(async (_job: JobRecord): Promise<unknown> => null) };
  const executors = new OperationExecutors(config);
  const sut = new OperationJobsService(
    executors,
    runner as unknown as JobRunner,
    reconciler as unknown as JobReconciler,
    registry as unknown as VersionRegistry,
    jobsService as unknown as JobsService,
    { keep: async (_jobId: string, outcome: unknown) => outcome } as unknown as ParsedInputs,
    { stagingFor: (jobId: string) => filesOf(jobId) } as unknown as JobResults,
  );
  const submit = async (kind: OperationKind, body: Record<string, unknown> = {}) => {
    await sut.submitAsync(kind, principal, request(kind, body));
    const calls = runner.submitAsync.mock.calls;
    const submission = calls[calls.length - 1][2] as Submission;
    const { type, versions } = submission;
    const job = {
      jobId: 'job_1',
      type,
      request: submission.request,
      versions,
    } as unknown as JobRecord;
    return { submission, job };
  };
  return { sut, executors, runner, reconciler, registry, jobsService, submit };
}

/** What a submission throws as the request is read (the controller's await makes it a 422). */
async function errorOf(work: () => Promise<unknown>): Promise<unknown> {
  return Promise.resolve()
    .then(work)
    .then(
      () => null,
      (e: unknown) => e,
    );
}

describe(OperationJobsService.name, () => {
  let t: ReturnType<typeof setUp>;

  beforeEach(() => {
    t = setUp();
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await t.executors.onApplicationShutdown();
  });

  it('registers as the operation pipeline with the runner and the reconciler', () => {
    t.sut.onModuleInit();
    expect(t.sut.taskKind).toBe(OPERATION_TASK);
    expect(t.runner.register).toHaveBeenCalledWith(t.sut);
    expect(t.reconciler.watch).toHaveBeenCalledWith(t.sut);
  });

  describe('submission', () => {
    it('stores the request with its kind and the versions resolved at acceptance', async () => {
      const { submission } = await t.submit('parse', {
        settings: { alpha: { layout_model: '0.9' } },
        async: { metadata: { team: 'risk' } },
      });
      expect(t.registry.resolve).toHaveBeenCalledWith('layout_model', '0.9', [
        'body',
        'settings',
        'alpha',
        'layout_model',
      ]);
      expect(submission).toMatchObject({
        type: 'Parse',
        isAsync: true,
        metadata: { team: 'risk' },
        persistResult: false,
        lane: 'standard',
      });
      // The versions travel beside the request, never as keys inside it.
      expect(submission.request).toMatchObject({ input });
      expect(Object.keys(submission.request).filter((k) => k.startsWith('__'))).toEqual([]);
      expect(submission.versions).toMatchObject({
        layout: { family: 'layout_model', version: '0.9', pinned: true },
      });
    });

    it('gates sync requests and parse jobs by the admission cap, async extract and split not', async () => {
      expect((await t.submit('parse')).submission.gated).toBe(true);
      expect((await t.submit('extract')).submission.gated).toBe(false);
      expect((await t.submit('split')).submission.gated).toBe(false);
      await t.sut.runSync('split', principal, request('split'));
      const sync = t.runner.runSync.mock.calls[0][2] as Submission;
      expect(sync).toMatchObject({ type: 'Split', isAsync: false, gated: true, lane: 'priority' });
      expect(sync.metadata).toBeUndefined();
    });

    it('refuses an extract schema it cannot fill with a 422 before any job exists', async () => {
      const error = await errorOf(() =>
        t.sut.submitAsync(
          'extract',
          principal,
          request('extract', { instructions: { schema: { type: 'string' } } }),
        ),
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(t.runner.submitAsync).not.toHaveBeenCalled();
    });

    it('refuses a pin whose precondition is missing with a 422 naming it', async () => {
      const error = await errorOf(() =>
        t.sut.runSync(
          'extract',
          principal,
          request('extract', { settings: { alpha: { extract_model: '2.0' } } }),
        ),
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(JSON.stringify((error as RequestValidationError).getResponse())).toContain(
        'pin_precondition_missing',
      );
      expect(t.runner.runSync).not.toHaveBeenCalled();
    });
  });

  describe('pipeline', () => {
    it("runs the stored request and its versions on the operation pool, writing its result to the job's files", async () => {
      const run = jest
        .spyOn(OperationPool.prototype, 'run')
        .mockResolvedValue(outcome as unknown as never);
      const { job } = await t.submit('extract', { settings: { deep_extract: true } });
      const documents = [
        { bytes: new Uint8Array([1]), fileName: 'a.pdf', contentType: 'application/pdf' },
      ];
      const signal = new AbortController().signal;
      await expect(t.sut.run(job, documents, signal)).resolves.toBe(outcome);
      const task = run.mock.calls[0][0] as OperationTask;
      expect(task).toMatchObject({
        kind: 'extract',
        documents: [{ bytes: documents[0].bytes, name: 'a.pdf' }],
        versions: {
          extract: { family: 'extract_model' },
          deepExtract: { family: 'deep_extract_model' },
        },
        files: filesOf('job_1'),
      });
      expect(run.mock.calls[0][1]).toBe(signal);
    });

    it('bills deep extract and deep split as their own features', async () => {
      const billed = async (kind: OperationKind, body: Record<string, unknown> = {}) =>
        t.sut.billing((await t.submit(kind, body)).job, outcome);
      expect(await billed('parse')).toEqual({
        product: 'parse',
        feature: 'parse',
        pages: 3,
        totalPages: 9,
        fileType: 'pdf',
      });
      expect(await billed('extract')).toMatchObject({ product: 'extract', feature: 'extract' });
      expect(await billed('extract', { settings: { deep_extract: true } })).toMatchObject({
        feature: 'deep_extract',
      });
      expect(await billed('split')).toMatchObject({ product: 'split', feature: 'split' });
      expect(await billed('split', { settings: { deep_split: true } })).toMatchObject({
        feature: 'deep_split',
      });
    });

    it('shapes each operation result as the SDK expects, with credits as a number', async () => {
      const result = async (kind: OperationKind) =>
        t.sut.result((await t.submit(kind)).job, outcome, '1.5', 2);
      const common = {
        job_id: 'job_1',
        duration: 2,
        usage: { num_pages: 3, credits: 1.5 },
        model_versions: outcome.model_versions,
        result: outcome.result,
      };
      expect(await result('parse')).toEqual({
        ...common,
        response_type: 'parse',
        pdf_url: null,
        studio_link: null,
      });
      expect(await result('extract')).toEqual({
        ...common,
        response_type: 'v3_extract',
        studio_link: null,
      });
      expect(await result('split')).toEqual({ ...common, response_type: 'split' });
    });

    it('refuses to bill a classify job as an operation', () => {
      const classify = {
        jobId: 'job_2',
        type: 'Classify',
        request: { input, classification_schema: [] },
        versions: null,
      } as unknown as JobRecord;
      expect(() => t.sut.billing(classify, outcome)).toThrow('job job_2 is not an operation');
    });

    it("answers a sync job with the jobs service's result body, or nothing", async () => {
      const { job } = await t.submit('parse');
      await expect(t.sut.syncResult(job)).resolves.toEqual({});
      t.jobsService.resultBody.mockResolvedValueOnce({ result_url: 'https://r.test/1' });
      await expect(t.sut.syncResult(job)).resolves.toEqual({ result_url: 'https://r.test/1' });
    });
  });
});
